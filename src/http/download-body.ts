import { Readable } from 'node:stream';
import type { ByteRange } from '../storage/blob-store.js';

/**
 * A download's body that ends the moment its declared length has passed, instead of when the source next reports
 * its end. Clients such as curl close the connection as soon as they hold the last byte; if the response were still
 * waiting for the source's end-of-file then, it would never finish, and a download sent in full would go uncounted.
 * Ending here lets the response finish as soon as the operating system has taken its last byte. A source that runs
 * short fails the body, so a truncated package is never taken for a whole one.
 */
export function bodyOfLength(source: Readable, length: number): Readable {
  async function* upTo(): AsyncGenerator<Buffer> {
    let left = length;
    if (left === 0) return;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const part = chunk.length <= left ? chunk : chunk.subarray(0, left);
      left -= part.length;
      yield part;
      // Leaving the loop destroys the source: nothing past the declared length is read.
      if (left === 0) return;
    }
    throw new Error(`the stored package ended ${left} bytes before its recorded size`);
  }
  return Readable.from(upTo(), { objectMode: false });
}

/** A range a request asked for; `toEnd` when it was asked as `bytes=N-` (open-ended, not a suffix). */
export interface RequestedRange extends ByteRange {
  toEnd: boolean;
}

/**
 * Whether a response, once sent in full, counts as a download. A whole package (200) always does. A range does when it
 * hands the client the rest of the package from some point — `bytes=N-`, what curl `-C -`, wget `-c` and browsers
 * send to resume — or the whole of it. A suffix range (`bytes=-N`) or a range that stops short does not: that is how
 * tools peek at a zip's directory or fetch a package in pieces, and counting those would count one download many times.
 */
export function countsAsDownload(range: RequestedRange | null, size: number): boolean {
  if (range === null) return true;
  return (range.start === 0 && range.end === size - 1) || range.toEnd;
}
