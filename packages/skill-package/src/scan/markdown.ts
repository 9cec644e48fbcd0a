/**
 * Markdown context, line by line: fenced code blocks (``` or ~~~, up to three spaces of indent, closed by a fence
 * of the same character at least as long) and HTML comments, which may open and close anywhere and span lines.
 * Each line comes back as segments tagged `code`, `comment` or `prose`; each comment, once closed (or at the end
 * of the file), is handed over whole (capped at COMMENT_CAP characters) with the line it opened on.
 */
import type { Context } from './severity.js';

export const COMMENT_CAP = 4096;

export interface Segment {
  text: string;
  context: Context;
  /** Where the segment starts in its line. */
  offset: number;
}

export interface ClosedComment {
  text: string;
  line: number;
}

/**
 * The fence a line starts with: up to three spaces, then three or more of one of ` and ~. Read by character code
 * rather than with an expression: every line of a code block is asked, and a megabyte of short ones spent a tenth of
 * its scan there.
 */
interface Fence {
  char: string;
  length: number;
  /** Where it ends in the line. */
  end: number;
}

function fenceOf(line: string): Fence | null {
  let at = 0;
  while (at < 3 && line.charCodeAt(at) === 0x20) at += 1;
  const code = line.charCodeAt(at);
  if (code !== 0x60 && code !== 0x7e) return null;
  let end = at + 1;
  while (line.charCodeAt(end) === code) end += 1;
  return end - at >= 3 ? { char: code === 0x60 ? '`' : '~', length: end - at, end } : null;
}

export class MarkdownContext {
  private fence: Fence | null = null;
  private comment: { text: string; line: number } | null = null;

  get inComment(): boolean {
    return this.comment !== null;
  }

  get inCode(): boolean {
    return this.fence !== null;
  }

  /**
   * The segments of one line; comments that close on it are passed to `closed`. `continuation` marks a later
   * window of a line too long to read at once.
   */
  step(line: string, lineNo: number, closed: (comment: ClosedComment) => void, continuation = false): Segment[] {
    // A window of a long line is not a line start: fences are recognised only at real line starts.
    if (this.fence !== null && continuation) return [{ text: line, context: 'code', offset: 0 }];
    if (this.fence !== null) {
      const close = fenceOf(line);
      if (close !== null && close.char === this.fence.char && close.length >= this.fence.length && line.slice(close.end).trim() === '') {
        this.fence = null;
        return [];
      }
      return [{ text: line, context: 'code', offset: 0 }];
    }
    if (this.comment === null && !continuation) {
      const open = fenceOf(line);
      if (open !== null && !(open.char === '`' && line.includes('`', open.end))) {
        this.fence = open;
        return [];
      }
    }
    const segments: Segment[] = [];
    let pos = 0;
    while (pos <= line.length) {
      if (this.comment !== null) {
        const close = line.indexOf('-->', pos);
        const end = close === -1 ? line.length : close;
        if (end > pos) segments.push({ text: line.slice(pos, end), context: 'comment', offset: pos });
        this.appendComment(line.slice(pos, end));
        if (close === -1) {
          this.appendComment('\n');
          break;
        }
        closed(this.comment);
        this.comment = null;
        pos = close + 3;
      } else {
        const open = line.indexOf('<!--', pos);
        const end = open === -1 ? line.length : open;
        if (end > pos) segments.push({ text: line.slice(pos, end), context: 'prose', offset: pos });
        if (open === -1) break;
        this.comment = { text: '', line: lineNo };
        pos = open + 4;
      }
    }
    return segments;
  }

  /** A comment still open when the file ends, if any. */
  end(): ClosedComment | null {
    const open = this.comment;
    this.comment = null;
    return open;
  }

  private appendComment(text: string): void {
    const comment = this.comment!;
    if (comment.text.length < COMMENT_CAP) comment.text += text.slice(0, COMMENT_CAP - comment.text.length);
  }
}
