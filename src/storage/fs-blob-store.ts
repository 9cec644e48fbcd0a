import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, unlink, utimes, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  type RandomAccessSource,
  type StagedBlob,
  type StageOptions,
} from './blob-store.js';
import {
  assertByteRange,
  assertSha256,
  commitStaged,
  DEFAULT_SWEEP_AGE_MS,
  isSha256,
  keyedSerial,
  stagingLimit,
  sweepCutoff,
} from './blob-util.js';
import { SerialStagedBlob } from './staged-blob.js';

const READ_HIGH_WATER_MARK = 256 * 1024;

/**
 * The file-system blob store (the embedded default).
 *
 * Layout under `dir`:
 *   <sha[0..2]>/<sha[2..4]>/<sha256>   committed blobs (two levels of fan-out: at most 256 entries per level)
 *   tmp/<uuid>.upload                  uploads being written, or staged and not yet committed or discarded
 *
 * Durability: a staged file is fsynced before stage() resolves; commit() renames it into place and fsyncs the
 * directory holding it (and the parents it had to create), so a blob is visible only once its bytes and its name
 * are on disk. A crash mid-upload leaves at most a file in tmp/, which sweep() removes at start-up.
 *
 * A blob's mtime is the time of its last commit: committing content already stored refreshes it. Orphan collection
 * deletes through deleteIfOlder(), which runs one at a time with commits of the same sha256 in this process (the
 * directory is this process's alone), so a commit and a collection of one blob never interleave.
 */

/** The suffix of temporary files in `<dir>/tmp`. */
export const TEMP_SUFFIX = '.upload';

/** The name of the temporary directory inside the store's directory. */
export const TEMP_DIR_NAME = 'tmp';

/**
 * An upload's bytes are written to its file in pieces of at least this many (but the last): the socket hands them on
 * 64 KiB at a time, and each write is a round trip through libuv's thread pool, whose hand-offs cost an upload more CPU
 * on two cores than the copies themselves (docs/performance.md, "Fewer file operations per upload").
 */
const WRITE_BYTES = 256 * 1024;
/** Or of this many pieces, so that a client sending a few bytes at a time does not leave thousands of them held. */
const WRITE_PIECES = 64;
/** What the sink's stream buffers while a write is under way, before it holds its source back. */
const WRITE_HIGH_WATER_MARK = 64 * 1024;

/** Creates `dir` (and its temporary directory) when missing and returns the store over it. */
export async function createFsBlobStore(dir: string): Promise<FsBlobStore> {
  const store = new FsBlobStore(dir);
  await mkdir(store.tempDir, { recursive: true });
  return store;
}

export class FsBlobStore implements BlobStore {
  readonly dir: string;
  readonly tempDir: string;
  /** Names of this process's temporary files that are being written or are staged: sweep() leaves them alone. */
  private readonly active = new Set<string>();
  /** Commits and collections of one sha256, one at a time. */
  private readonly exclusively = keyedSerial();

  /** Prefer createFsBlobStore, which also creates the directories. */
  constructor(dir: string) {
    this.dir = path.resolve(dir);
    this.tempDir = path.join(this.dir, TEMP_DIR_NAME);
  }

  /** Where the committed blob `sha256` lives (whether or not it exists). Throws a TypeError on a bad sha256. */
  pathOf(sha256: string): string {
    assertSha256(sha256);
    return path.join(this.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async stage(body: Readable, options: StageOptions = {}): Promise<StagedBlob> {
    const maxBytes = stagingLimit(body, options.maxBytes);
    const name = `${randomUUID()}${TEMP_SUFFIX}`;
    const tempPath = path.join(this.tempDir, name);
    this.active.add(name);
    let file: FileHandle | undefined;
    try {
      await mkdir(this.tempDir, { recursive: true });
      file = await open(tempPath, 'wx', 0o644);
      const sink = new HashingFileSink(file, maxBytes);
      // pipeline: backpressure keeps memory flat; on any error (too large, body cut off, disk full) every stream
      // is destroyed, so the rest of the body is not read.
      await pipeline(body, sink);
      await file.close();
      return new FsStagedBlob(this, sink.digest(), sink.size, tempPath, name);
    } catch (error) {
      if (!body.destroyed) body.destroy();
      await file?.close().catch(() => undefined);
      await rm(tempPath, { force: true }).catch(() => undefined);
      this.active.delete(name);
      throw error;
    }
  }

  async put(body: Readable, options: StageOptions = {}): Promise<{ sha256: string; size: number }> {
    return commitStaged(await this.stage(body, options));
  }

  async stat(sha256: string): Promise<{ size: number } | null> {
    const file = this.pathOf(sha256);
    try {
      const info = await stat(file);
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isErrno(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    }
  }

  async source(sha256: string): Promise<RandomAccessSource> {
    const found = await this.stat(sha256);
    if (found === null) throw new BlobNotFoundError(sha256);
    return this.known(sha256, found.size);
  }

  known(sha256: string, size: number): RandomAccessSource {
    const file = this.pathOf(sha256);
    return { size, read: (range) => readFile(file, size, range) };
  }

  async delete(sha256: string): Promise<void> {
    const file = this.pathOf(sha256);
    try {
      await unlink(file);
    } catch (error) {
      if (!isErrno(error, 'ENOENT', 'ENOTDIR')) throw error;
    }
    // Empty fan-out directories are left in place: there are at most 65,536 of them, and removing them would race
    // with a commit that has just created the directory and is about to rename into it.
  }

  async deleteIfOlder(sha256: string, cutoff: number): Promise<boolean> {
    const file = this.pathOf(sha256);
    return this.exclusively(sha256, async () => {
      try {
        if ((await stat(file)).mtimeMs > cutoff) return false;
        await unlink(file);
        return true;
      } catch (error) {
        if (isErrno(error, 'ENOENT', 'ENOTDIR')) return false;
        throw error;
      }
    });
  }

  async sweep(olderThanMs: number = DEFAULT_SWEEP_AGE_MS): Promise<number> {
    const cutoff = sweepCutoff(olderThanMs);
    let entries;
    try {
      entries = await readdir(this.tempDir, { withFileTypes: true });
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return 0;
      throw error;
    }
    let removed = 0;
    for (const entry of entries) {
      if (!entry.isFile() || this.active.has(entry.name)) continue;
      const file = path.join(this.tempDir, entry.name);
      try {
        if (olderThanMs > 0 && (await stat(file)).mtimeMs > cutoff) continue;
        await unlink(file);
        removed += 1;
      } catch (error) {
        if (!isErrno(error, 'ENOENT')) throw error;
      }
    }
    return removed;
  }

  async *list(): AsyncIterable<{ sha256: string; writtenAt: number }> {
    const children = async (dir: string) => {
      try {
        return await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isErrno(error, 'ENOENT', 'ENOTDIR')) return [];
        throw error;
      }
    };
    for (const first of await children(this.dir)) {
      if (!first.isDirectory() || !/^[0-9a-f]{2}$/.test(first.name)) continue;
      for (const second of await children(path.join(this.dir, first.name))) {
        if (!second.isDirectory() || !/^[0-9a-f]{2}$/.test(second.name)) continue;
        const leaf = path.join(this.dir, first.name, second.name);
        for (const entry of await children(leaf)) {
          if (!entry.isFile() || !isSha256(entry.name)) continue;
          try {
            yield { sha256: entry.name, writtenAt: (await stat(path.join(leaf, entry.name))).mtimeMs };
          } catch (error) {
            if (!isErrno(error, 'ENOENT')) throw error;
          }
        }
      }
    }
  }

  async ping(): Promise<void> {
    const info = await stat(this.dir);
    if (!info.isDirectory()) throw new Error(`The blob store path ${this.dir} is not a directory.`);
    await access(this.dir, constants.W_OK);
  }

  /** Moves a staged temporary file into place (internal: called by FsStagedBlob.commit). */
  commitTemp(tempPath: string, sha256: string, size: number): Promise<void> {
    const target = this.pathOf(sha256);
    return this.exclusively(sha256, async () => {
      const leaf = path.dirname(target);
      const created = await mkdir(leaf, { recursive: true });
      const existing = await stat(target).catch((error: unknown) => {
        if (isErrno(error, 'ENOENT')) return null;
        throw error;
      });
      if (existing !== null && existing.isFile() && existing.size === size && (await refreshed(target))) {
        // Same sha256 and size: the same content is already stored, durably. Keep it, now counted as just
        // written (the version row that will reference it is not written yet); drop the copy.
        await rm(tempPath, { force: true });
        return;
      }
      await rename(tempPath, target);
      await syncDirectory(leaf);
      if (created !== undefined) {
        // mkdir created at least the leaf: make the new directory entries durable too.
        await syncDirectory(path.dirname(leaf));
        await syncDirectory(this.dir);
      }
    });
  }

  /** Forgets a temporary file once it has been committed or discarded (internal). */
  release(tempName: string): void {
    this.active.delete(tempName);
  }
}

/**
 * Hashes, counts and writes what it is given to an open file, WRITE_BYTES at a time; refuses more than `maxBytes`;
 * fsyncs at the end. A piece is taken at once while fewer than WRITE_BYTES are held; the one that makes them enough is
 * taken once they are written, so that the stream holds its source back meanwhile.
 */
class HashingFileSink extends Writable {
  size = 0;
  private readonly hash = createHash('sha256');
  /** Pieces held for the next write, which goes where the bytes written so far end. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The file operation under way, so that destroy waits for it before the file is closed and removed. */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: FileHandle,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: WRITE_HIGH_WATER_MARK });
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.size + chunk.length > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.size += chunk.length;
    this.hash.update(chunk);
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes < WRITE_BYTES && this.held.length < WRITE_PIECES) callback();
    else this.track(this.writeHeld(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.track(
      this.writeHeld().then(() => this.file.sync()),
      callback,
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    void this.inFlight.then(() => callback(error));
  }

  /** Writes the pieces held, at the end of what is written. */
  private async writeHeld(): Promise<void> {
    const pieces = this.held;
    const position = this.size - this.heldBytes;
    this.held = [];
    this.heldBytes = 0;
    if (pieces.length === 0) return;
    await writeFully(this.file, pieces, position);
  }

  private track(operation: Promise<unknown>, callback: (error?: Error | null) => void): void {
    this.inFlight = operation.catch(() => undefined);
    operation.then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** Writes `pieces` in order from `position`, in one call unless the system writes less than asked. */
async function writeFully(file: FileHandle, pieces: readonly Buffer[], position: number): Promise<void> {
  const rest = [...pieces];
  while (rest.length > 0) {
    let { bytesWritten } = await file.writev(rest, position);
    position += bytesWritten;
    while (rest.length > 0 && bytesWritten >= rest[0]!.length) bytesWritten -= rest.shift()!.length;
    if (bytesWritten > 0) rest[0] = rest[0]!.subarray(bytesWritten);
  }
}

class FsStagedBlob extends SerialStagedBlob {
  readonly source: RandomAccessSource;

  constructor(
    private readonly store: FsBlobStore,
    sha256: string,
    size: number,
    private readonly tempPath: string,
    private readonly tempName: string,
  ) {
    super(sha256, size);
    this.source = {
      size,
      // After commit the temporary file is gone, but the same bytes are under the sha256.
      read: (range?: ByteRange) => readFile(this.committed ? store.pathOf(sha256) : tempPath, size, range),
    };
  }

  protected moveIntoPlace(): Promise<void> {
    return this.store.commitTemp(this.tempPath, this.sha256, this.size);
  }

  protected removeStaged(): Promise<void> {
    return rm(this.tempPath, { force: true });
  }

  protected released(): void {
    this.store.release(this.tempName);
  }
}

/** A stream of a whole file, or of one inclusive range of it (RangeError when the range is outside `size`). */
function readFile(file: string, size: number, range: ByteRange | undefined): Readable {
  // Larger reads than the 64 KiB default halve the system calls and event-loop turns per megabyte served.
  if (range === undefined) return createReadStream(file, { highWaterMark: READ_HIGH_WATER_MARK });
  assertByteRange(range, size);
  return createReadStream(file, { start: range.start, end: range.end, highWaterMark: READ_HIGH_WATER_MARK });
}

/**
 * Sets a committed file's times to now; false when it has gone meanwhile or its times may not be set (a file of
 * another owner): then the staged copy replaces it, a new file written now.
 */
async function refreshed(file: string): Promise<boolean> {
  const now = new Date();
  try {
    await utimes(file, now, now);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT', 'ENOTDIR', 'EPERM', 'EACCES')) return false;
    throw error;
  }
}

/** fsyncs a directory so that a rename or a new entry in it survives a crash; platforms that refuse are ignored. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (isErrno(error, 'EISDIR', 'EPERM', 'EACCES', 'EINVAL')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!isErrno(error, 'EINVAL', 'EISDIR', 'EPERM', 'EBADF', 'ENOTSUP', 'EOPNOTSUPP')) throw error;
  } finally {
    await handle.close();
  }
}

function isErrno(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && codes.includes(error.code);
}
