import type { Readable } from 'node:stream';
import type { ByteRange, RandomAccessSource } from '@skill-registry/skill-package/source';

export type { ByteRange, RandomAccessSource };

/**
 * A blob whose bytes are durably written and hashed but not yet visible under its sha256.
 * Exactly one of `commit` or `discard` must be called.
 */
export interface StagedBlob {
  sha256: string;
  size: number;
  /** Reads the staged bytes (for inspection before committing). */
  source: RandomAccessSource;
  /**
   * Moves the blob into place under its sha256. A blob already there (same content) is kept, but its time is
   * refreshed: orphan collection counts a blob's age from its last commit, so a blob an upload has just committed
   * is never taken for an old orphan before the upload's version row is written.
   */
  commit(): Promise<void>;
  /** Removes the staged bytes. */
  discard(): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The blob is larger than ${limit} bytes.`);
    this.name = 'BlobTooLargeError';
  }
}

export class BlobNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`No blob ${sha256}.`);
    this.name = 'BlobNotFoundError';
  }
}

/** How a blob is staged. */
export interface StageOptions {
  /** More bytes than this fail the staging with BlobTooLargeError. */
  maxBytes?: number;
}

/**
 * Content-addressed storage of package archives: the file system (the embedded default) or S3-compatible object
 * storage. Nothing here knows about skills, versions or HTTP.
 */
export interface BlobStore {
  /**
   * Streams `body` to temporary storage while hashing it; fails with BlobTooLargeError (and leaves nothing
   * behind) once more than `maxBytes` arrive, and with the stream's own error if the body is cut off.
   */
  stage(body: Readable, options?: StageOptions): Promise<StagedBlob>;
  /** stage + commit: returns the sha256 and size of what was stored. */
  put(body: Readable, options?: StageOptions): Promise<{ sha256: string; size: number }>;
  stat(sha256: string): Promise<{ size: number } | null>;
  /** Reads a committed blob; BlobNotFoundError when there is none. */
  source(sha256: string): Promise<RandomAccessSource>;
  /**
   * Reads a committed blob whose size the caller already knows (from the version row), without asking
   * the store first; a missing blob then surfaces as an error of the stream.
   */
  known(sha256: string, size: number): RandomAccessSource;
  /** Removes a committed blob; removing one that is not there is not an error. */
  delete(sha256: string): Promise<void>;
  /**
   * Removes a committed blob unless it was written, or refreshed by a commit, after `cutoff` (ms since the epoch):
   * what orphan collection deletes with, so that a commit of the same content just before wins. True when a blob
   * was removed; false when it is newer or not there.
   */
  deleteIfOlder(sha256: string, cutoff: number): Promise<boolean>;
  /**
   * Every committed blob, with the time it was last written or refreshed by a commit (ms since the epoch), in no
   * particular order.
   */
  list(): AsyncIterable<{ sha256: string; writtenAt: number }>;
  /** Removes temporary files left by uploads interrupted by a crash; returns how many. */
  sweep(olderThanMs?: number): Promise<number>;
  /** Throws when the store cannot be used (for readiness checks). */
  ping(): Promise<void>;
}
