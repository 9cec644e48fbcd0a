import { Readable } from 'node:stream';
import { markOutsideFault } from './refusal.js';

/** An inclusive byte range, as HTTP `Range: bytes=start-end` names it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Random access to one blob's bytes: what a zip reader needs, and what a ranged download reads. */
export interface RandomAccessSource {
  size: number;
  /** A stream of the whole blob, or of one inclusive range of it. */
  read(range?: ByteRange): Readable;
}

/** source.read, with the stream's errors marked as storage faults (not archive faults). */
export function openSource(source: RandomAccessSource, start?: number, endExclusive?: number): Readable {
  const stream = start === undefined ? source.read() : source.read({ start, end: (endExclusive ?? source.size) - 1 });
  stream.on('error', markOutsideFault);
  return stream;
}

/** Reads bytes [start, endExclusive) of the source into memory. */
export async function readRange(source: RandomAccessSource, start: number, endExclusive: number): Promise<Buffer> {
  const length = endExclusive - start;
  if (length <= 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of openSource(source, start, endExclusive)) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(buf);
    got += buf.length;
  }
  if (got !== length) {
    const err = new Error(`Short read from the package source: asked for ${length} bytes at ${start}, got ${got}.`);
    markOutsideFault(err);
    throw err;
  }
  return Buffer.concat(chunks, length);
}

/** Bytes already in memory as a source: an archive found inside a package, or one a caller built. */
export function bufferSource(bytes: Buffer): RandomAccessSource {
  return {
    size: bytes.length,
    read(range) {
      return Readable.from([range === undefined ? bytes : bytes.subarray(range.start, range.end + 1)]);
    },
  };
}
