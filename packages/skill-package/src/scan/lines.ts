/**
 * Splits a file's bytes, arriving in chunks of any size, into numbered lines without ever holding the whole file.
 * Work stays on bytes: complete lines are handed over in blocks (every complete line of a chunk at once, as a byte
 * range), so the reader looks for anchors in the bytes and decodes only the lines it reads (a line end, 0x0A,
 * never sits inside a UTF-8 sequence, so whole lines decode exactly). A line still open at a chunk's end is
 * carried; once the carry reaches LINE_CAP bytes it is handed over as a window and only its last WINDOW_OVERLAP
 * bytes are kept, so a long line is read in capped windows that overlap (nothing escapes by straddling two) and
 * memory stays bounded whatever its length.
 */

/** Longest piece of one line held at once (bytes). */
export const LINE_CAP = 64 * 1024;
/** Bytes a window shares with the next, longer than any single match a rule looks for. */
export const WINDOW_OVERLAP = 512;

export interface LineReader {
  /**
   * Whole lines `firstLine`, `firstLine + 1`, … in bytes[start, end), separated by 0x0A (a `\r` before it is
   * kept); returns how many lines the range held.
   */
  block(bytes: Buffer, start: number, end: number, firstLine: number): number;
  /** A window of line `line`, which is longer than LINE_CAP; `first` for its first window. */
  window(bytes: Buffer, line: number, first: boolean): void;
  /** The last piece of a line that was handed over in windows. */
  lineEnd(bytes: Buffer, line: number): void;
}

export class LineSplitter {
  private carry: Buffer[] = [];
  private carried = 0;
  private line = 1;
  /** Whether the current line has already been handed over in windows. */
  private windowed = false;

  constructor(private readonly reader: LineReader) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    const first = chunk.indexOf(0x0a);
    if (first === -1) {
      this.hold(chunk);
      this.spill();
      return;
    }
    this.finishLine(this.carried === 0 ? chunk.subarray(0, first) : Buffer.concat([...this.carry, chunk.subarray(0, first)]));
    const last = chunk.lastIndexOf(0x0a);
    if (last > first) this.line += this.reader.block(chunk, first + 1, last, this.line);
    if (last + 1 < chunk.length) {
      this.hold(chunk.subarray(last + 1));
      this.spill();
    }
  }

  /** Hands over what is left (a last line without a line end). */
  end(): void {
    if (this.carried > 0 || this.windowed) this.finishLine(Buffer.concat(this.carry));
  }

  /** Keeps a copy: the archive readers may reuse their buffers. */
  private hold(part: Buffer): void {
    this.carry.push(Buffer.from(part));
    this.carried += part.length;
  }

  private finishLine(bytes: Buffer): void {
    if (this.windowed) this.reader.lineEnd(bytes, this.line);
    else this.reader.block(bytes, 0, bytes.length, this.line);
    this.windowed = false;
    this.carry = [];
    this.carried = 0;
    this.line += 1;
  }

  private spill(): void {
    if (this.carried <= LINE_CAP) return;
    let all = Buffer.concat(this.carry);
    while (all.length > LINE_CAP) {
      this.reader.window(all.subarray(0, LINE_CAP), this.line, !this.windowed);
      this.windowed = true;
      all = all.subarray(LINE_CAP - WINDOW_OVERLAP);
    }
    this.carry = [Buffer.from(all)];
    this.carried = all.length;
  }
}
