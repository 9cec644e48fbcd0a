/**
 * Splits a file's decoded text, arriving in chunks of any size, into numbered lines without ever holding the
 * whole file. Complete lines are handed over in blocks (every complete line of a chunk at once, joined by `\n`),
 * so the reader can search a block with one pass. A line still open at a chunk's end is carried; once the carry
 * reaches LINE_CAP characters it is handed over as a window and only its last WINDOW_OVERLAP characters are kept,
 * so a long line is read in capped windows that overlap (nothing escapes by straddling two windows) and memory
 * stays bounded whatever its length.
 */

/** Longest piece of one line held at once (characters). */
export const LINE_CAP = 64 * 1024;
/** Characters a window shares with the next, longer than any single match a rule looks for. */
export const WINDOW_OVERLAP = 512;

export interface LineReader {
  /**
   * Whole lines `firstLine`, `firstLine + 1`, … in text[start, end), joined by `\n` (a `\r` before the `\n` is
   * kept). Offsets rather than a slice, so the reader scans the decoded chunk itself.
   */
  block(text: string, start: number, end: number, firstLine: number): void;
  /** A window of line `line`, which is longer than LINE_CAP; `first` for its first window. */
  window(text: string, line: number, first: boolean): void;
  /** The last piece of a line that was handed over in windows. */
  lineEnd(text: string, line: number): void;
}

export class LineSplitter {
  private carry = '';
  private line = 1;
  /** Whether the current line has already been handed over in windows. */
  private windowed = false;

  constructor(private readonly reader: LineReader) {}

  get currentLine(): number {
    return this.line;
  }

  push(text: string): void {
    if (text === '') return;
    const first = text.indexOf('\n');
    if (first === -1) {
      this.carry += text;
      this.spill();
      return;
    }
    this.finishLine(this.carry + text.slice(0, first));
    const last = text.lastIndexOf('\n');
    if (last > first) {
      this.reader.block(text, first + 1, last, this.line);
      this.line += countNewlines(text, first + 1, last) + 1;
    }
    this.carry = text.slice(last + 1);
    this.spill();
  }

  /** Hands over what is left (a last line without a line end). */
  end(): void {
    if (this.carry !== '' || this.windowed) this.finishLine(this.carry);
    this.carry = '';
  }

  private finishLine(text: string): void {
    if (this.windowed) this.reader.lineEnd(text, this.line);
    else this.reader.block(text, 0, text.length, this.line);
    this.windowed = false;
    this.carry = '';
    this.line += 1;
  }

  private spill(): void {
    while (this.carry.length > LINE_CAP) {
      this.reader.window(this.carry.slice(0, LINE_CAP), this.line, !this.windowed);
      this.windowed = true;
      this.carry = this.carry.slice(LINE_CAP - WINDOW_OVERLAP);
    }
  }
}

export function countNewlines(text: string, start = 0, end = text.length): number {
  let n = 0;
  let at = text.indexOf('\n', start);
  while (at !== -1 && at < end) {
    n += 1;
    at = text.indexOf('\n', at + 1);
  }
  return n;
}
