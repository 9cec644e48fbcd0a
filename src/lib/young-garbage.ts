import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Buffers an upload leaves behind, freed while it is still under way.
 *
 * Receiving and reading an upload allocates buffers outside V8's heap for every piece of it: the socket's reads, the
 * staged file's reads, the inflated entries. Each is garbage a moment later, but only a collection frees it, and this
 * work allocates almost nothing in the heap itself: no collection is due until V8 reacts to tens of MiB of such
 * buffers, so a 50 MiB upload grew the process by 31 – 37 MiB whatever its content (docs/performance.md, "Upload
 * memory, freed while the upload is under way"). A collection of the young generation every few MiB of such work
 * frees them; it is short, since little but the buffers' own small objects is new.
 *
 * V8 offers that collection only through its `gc` extension, which a context gets when the flag is set as it is
 * created: the flag is set for one new context and unset again, so no other code sees a `gc` it did not ask for.
 */
function youngCollector(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    setFlagsFromString('--no-expose-gc');
    if (typeof gc !== 'function') return null;
    return () => (gc as (options: { type: 'minor' }) => void)({ type: 'minor' });
  } catch {
    return null;
  }
}

/** Bytes of such work between collections: each collection frees about this much of buffers, or a small multiple. */
export const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;

const collectYoung = youngCollector();
/** Bytes noted since the last collection, over every upload: concurrent uploads share the collections. */
let sinceCollection = 0;
let collections = 0;

/**
 * Notes `bytes` that were read into buffers now garbage (or about to be), and collects the young generation once
 * COLLECT_EVERY_BYTES have been noted. Call it after the bytes' buffer has been handed on, not before.
 */
export function noteBufferedBytes(bytes: number): void {
  sinceCollection += bytes;
  if (sinceCollection < COLLECT_EVERY_BYTES || collectYoung === null) return;
  sinceCollection = 0;
  collections += 1;
  collectYoung();
}

/** Passes a stream's chunks on and notes their bytes once each has been handed on. */
class NotingBytes extends Transform {
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
    noteBufferedBytes(chunk.length);
  }
}

/**
 * `stream`, its bytes noted as they go by (noteBufferedBytes). Its error reaches the returned stream, and destroying
 * the returned stream destroys `stream`, so a consumer that stops reading stops it as before.
 */
export function notingBytes(stream: Readable): Readable {
  return pipeline(stream, new NotingBytes(), () => undefined);
}

/** Collections run so far in this thread (the tests read it). */
export function youngCollections(): number {
  return collections;
}
