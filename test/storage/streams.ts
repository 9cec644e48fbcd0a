import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';

/** Stream helpers for the blob store tests: bodies that are produced, never held in memory whole. */

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A body that hands over `bytes` in chunks of `chunkSize` (several writes, as a network body would). */
export function bodyOf(bytes: Uint8Array, chunkSize = 16 * 1024): Readable {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Readable.from(
    (function* chunks() {
      for (let offset = 0; offset < buffer.length; offset += chunkSize) {
        yield buffer.subarray(offset, offset + chunkSize);
      }
    })(),
  );
}

/** Deterministic, incompressible-looking bytes (a cheap LCG), so tests can regenerate what they stored. */
export function patternBytes(length: number, seed = 1): Buffer {
  const out = Buffer.allocUnsafe(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

export interface GeneratedBody {
  body: Readable;
  /** Bytes the consumer has pulled so far. */
  readonly pulled: number;
  /** Whether the generator has stopped (run to the end, or closed early because the stream was destroyed). */
  readonly finished: boolean;
  /** sha256 of everything produced so far (the whole body once it has been read to the end). */
  digest(): string;
}

/**
 * A body of `totalBytes` produced on demand in `chunkSize` chunks (each chunk differs, so the hash is meaningful)
 * and hashed as it goes: memory stays at one chunk whatever the size.
 */
export function generatedBody(totalBytes: number, chunkSize = 64 * 1024): GeneratedBody {
  const block = patternBytes(chunkSize, 7);
  const hash: Hash = createHash('sha256');
  let pulled = 0;
  let finished = false;
  function* chunks(): Generator<Buffer> {
    try {
      let index = 0;
      while (pulled < totalBytes) {
        const length = Math.min(chunkSize, totalBytes - pulled);
        const chunk = Buffer.from(block.subarray(0, length));
        chunk.writeUInt32BE(index, 0);
        index += 1;
        pulled += length;
        hash.update(chunk);
        yield chunk;
      }
    } finally {
      finished = true;
    }
  }
  return {
    body: Readable.from(chunks()),
    get pulled() {
      return pulled;
    },
    get finished() {
      return finished;
    },
    digest: () => hash.copy().digest('hex'),
  };
}

/**
 * A body that hands over `chunks` and is then cut off: destroyed with `error`, or (without one) destroyed plainly,
 * as an aborted client request is.
 */
export function interruptedBody(chunks: Buffer[], error?: Error): Readable {
  const pending = [...chunks];
  const body = new Readable({
    read() {
      const next = pending.shift();
      if (next !== undefined) {
        this.push(next);
        return;
      }
      setImmediate(() => body.destroy(error));
    },
  });
  return body;
}

/** Reads a stream to the end into one Buffer (for small blobs only). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(parts);
}

/** Hashes a stream as it is read, without keeping it; returns the sha256 and the byte count. */
export async function hashStream(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { sha256: hash.digest('hex'), size };
}
