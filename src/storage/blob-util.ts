import type { Readable } from 'node:stream';
import type { ByteRange, StagedBlob } from './blob-store.js';

/** Helpers every BlobStore implementation shares. */

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** How old a temporary file must be before `sweep()` (without an argument) removes it: one hour. */
export const DEFAULT_SWEEP_AGE_MS = 60 * 60 * 1000;

export function isSha256(value: unknown): value is string {
  return typeof value === 'string' && SHA256_HEX.test(value);
}

/**
 * Throws a TypeError unless `value` is a sha256 as the stores name blobs: 64 lowercase hex digits. Every method
 * that turns a sha256 into a path or an object key calls it first, so nothing else (`../`, `/`, upper case) can
 * ever reach the file system.
 */
export function assertSha256(value: unknown): asserts value is string {
  if (!isSha256(value)) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value;
    throw new TypeError(`Not a sha256 (64 lowercase hex digits): ${shown}.`);
  }
}

/**
 * The limit for staging `body`, from `maxBytes` as given to stage/put: undefined means no limit; anything but a
 * non-negative number is a TypeError, and `body`, which nothing will read then, is destroyed.
 */
export function stagingLimit(body: Readable, maxBytes: number | undefined): number {
  if (maxBytes === undefined) return Number.POSITIVE_INFINITY;
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes < 0) {
    body.destroy();
    throw new TypeError(`maxBytes must be a non-negative number, not ${String(maxBytes)}.`);
  }
  return maxBytes;
}

/** Throws a RangeError unless `range` is an inclusive range of whole byte offsets inside a blob of `size` bytes. */
export function assertByteRange(range: ByteRange, size: number): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= size) {
    throw new RangeError(`Byte range ${String(start)}-${String(end)} is not inside a blob of ${size} bytes.`);
  }
}

/** The time before which `sweep(olderThanMs)` removes a temporary file; a TypeError unless a non-negative number. */
export function sweepCutoff(olderThanMs: number): number {
  if (typeof olderThanMs !== 'number' || Number.isNaN(olderThanMs) || olderThanMs < 0) {
    throw new TypeError(`olderThanMs must be a non-negative number, not ${String(olderThanMs)}.`);
  }
  return Date.now() - olderThanMs;
}

/** `BlobStore.put` for every store: commits what `stage` wrote, or discards it when the commit fails. */
export async function commitStaged(staged: StagedBlob): Promise<{ sha256: string; size: number }> {
  try {
    await staged.commit();
  } catch (error) {
    await staged.discard().catch(() => undefined);
    throw error;
  }
  return { sha256: staged.sha256, size: staged.size };
}

/**
 * Runs operations on one key one after another, and on different keys freely: what keeps a commit and an orphan
 * collection of one sha256 in one process from interleaving.
 */
export function keyedSerial() {
  const busy = new Map<string, Promise<unknown>>();
  return function run<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const result = (busy.get(key) ?? Promise.resolve()).then(operation);
    const settled = result.catch(() => undefined);
    busy.set(key, settled);
    void settled.then(() => {
      if (busy.get(key) === settled) busy.delete(key);
    });
    return result;
  };
}
