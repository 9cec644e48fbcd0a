import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DatabaseHandle } from '../db/database.js';
import { BlobNotFoundError, type BlobStore, type RandomAccessSource } from '../storage/blob-store.js';
import { commitStaged } from '../storage/blob-util.js';

/**
 * Copies every committed blob from one blob store to another (a directory to a bucket is the usual way) and proves
 * the result: every blob in the target is read back and hashed, and must hash to its name.
 *
 * A blob already in the target with the right size is not copied again, so a second run only verifies. A blob
 * whose bytes in the source do not hash to its name is damaged: it is not copied, and the run fails naming it. A
 * blob damaged in the target (found by the read-back) is replaced from the source and verified again.
 */

export interface BlobResult {
  /** Committed blobs in the source. */
  total: number;
  copied: number;
  /** Already in the target with the right size (then verified). */
  present: number;
  /** Damaged in the target, copied again from the source. */
  repaired: number;
  /** Blobs read back from the target whose sha256 matched. */
  verified: number;
  /**
   * Listed in the source but gone when their turn came: a running registry's orphan collection removes blobs no
   * version references, so these were not needed (every package a version references is checked afterwards).
   */
  vanished: number;
  /** One line per blob that could not be copied or verified. */
  failures: string[];
}

export interface BlobProgress {
  kind: 'blobs';
  done: number;
  total: number;
  copied: number;
  present: number;
  repaired: number;
  failed: number;
}

export interface BlobCopyOptions {
  /** Blobs copied at once. Default 4. */
  concurrency?: number;
  onProgress?: (event: BlobProgress) => void;
}

export async function copyBlobs(source: BlobStore, target: BlobStore, options: BlobCopyOptions = {}): Promise<BlobResult> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new RangeError('concurrency must be a whole number from 1 to 64.');
  const progress = options.onProgress ?? (() => undefined);
  await Promise.all([source.ping(), target.ping()]);

  // The names first: a total for the progress lines, and a listing that does not change under the copy.
  const names: string[] = [];
  for await (const blob of source.list()) names.push(blob.sha256);
  names.sort();

  const result: BlobResult = { total: names.length, copied: 0, present: 0, repaired: 0, verified: 0, vanished: 0, failures: [] };
  let done = 0;
  let next = 0;
  const report = () =>
    progress({
      kind: 'blobs',
      done,
      total: names.length,
      copied: result.copied,
      present: result.present,
      repaired: result.repaired,
      failed: result.failures.length,
    });

  const worker = async () => {
    while (next < names.length) {
      const sha256 = names[next]!;
      next += 1;
      try {
        await transferOne(source, target, sha256, result);
      } catch (error) {
        result.failures.push(`${sha256}: ${error instanceof Error ? error.message : String(error)}`);
      }
      done += 1;
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(names.length, 1)) }, worker));
  if (names.length === 0) report();
  return result;
}

async function transferOne(source: BlobStore, target: BlobStore, sha256: string, result: BlobResult): Promise<void> {
  let from: RandomAccessSource;
  try {
    from = await source.source(sha256);
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
    result.vanished += 1;
    return;
  }
  const existing = await target.stat(sha256);
  if (existing !== null && existing.size === from.size) {
    const check = await hashOf(await readTarget(target, sha256));
    if (check.sha256 === sha256 && check.size === from.size) {
      result.present += 1;
      result.verified += 1;
      return;
    }
    // Damaged in the target: replace it from the source below.
    await target.delete(sha256);
    await copyOne(from, target, sha256);
    result.repaired += 1;
  } else {
    if (existing !== null) await target.delete(sha256);
    await copyOne(from, target, sha256);
    result.copied += 1;
  }
  const check = await hashOf(await readTarget(target, sha256));
  if (check.sha256 !== sha256 || check.size !== from.size) {
    throw new Error(`read back from the target, it hashes to ${check.sha256} (${check.size} bytes), not to its name (${from.size} bytes)`);
  }
  result.verified += 1;
}

/** Streams one blob across; the target hashes it on the way in, so damaged source bytes never land under the name. */
async function copyOne(from: RandomAccessSource, target: BlobStore, sha256: string): Promise<void> {
  const staged = await target.stage(from.read());
  if (staged.sha256 !== sha256 || staged.size !== from.size) {
    await staged.discard();
    throw new Error(`damaged in the source: its ${staged.size} bytes hash to ${staged.sha256}; it was not copied`);
  }
  await commitStaged(staged);
}

async function readTarget(target: BlobStore, sha256: string): Promise<Readable> {
  return (await target.source(sha256)).read();
}

async function hashOf(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Every package a version row names must be in the blob store with the size the row records. Returns one line
 * per version whose package is missing or of the wrong size.
 */
export async function checkVersionBlobs(database: DatabaseHandle, blobs: BlobStore): Promise<{ checked: number; problems: string[] }> {
  const rows = await database.db
    .selectFrom('versions')
    .innerJoin('skills', 'skills.id', 'versions.skill_id')
    .select(['skills.slug', 'versions.version', 'versions.sha256', 'versions.size'])
    .orderBy('versions.sha256')
    .execute();
  const problems: string[] = [];
  const sizes = new Map<string, number | null>();
  for (const row of rows) {
    if (!sizes.has(row.sha256)) sizes.set(row.sha256, (await blobs.stat(row.sha256))?.size ?? null);
    const size = sizes.get(row.sha256) ?? null;
    if (size === null) problems.push(`${row.slug} ${row.version}: its package ${row.sha256} is not in the target blob store`);
    else if (size !== row.size)
      problems.push(`${row.slug} ${row.version}: its package ${row.sha256} has ${size} bytes, the version says ${row.size}`);
  }
  return { checked: rows.length, problems };
}
