import type { VersionsRepository } from '../../db/repositories/versions.js';
import type { BlobStore } from '../../storage/blob-store.js';

/**
 * A committed blob without a version for this long since its last commit is an orphan, not an upload still being
 * recorded. Nothing deletes a blob sooner: not a failed upload, not a deleted draft (content-addressed blobs are
 * shared, and another upload of the same bytes may have committed onto one a moment ago and not yet written its
 * version row).
 */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

/** Blobs looked up together in one query for a version naming them. */
const BATCH = 500;

/**
 * The one place blobs are deleted. The job runner's hourly `blob-collection` job runs it; a failed upload,
 * a lost race or a deleted draft only leaves its blob behind for it.
 */
export function blobCollection(deps: {
  versions: VersionsRepository;
  blobs: BlobStore;
  /** The clock ages are measured by (ms since the epoch). */
  now?: () => number;
}) {
  const { versions, blobs } = deps;
  const now = deps.now ?? Date.now;
  return {
    /**
     * Deletes committed blobs that no version references and that nothing has committed for `olderThanMs`: what a
     * failed upload, a deleted draft or a crash between storing a package and writing its version leaves. The age
     * keeps uploads in flight (on this node or another) safe: each commit refreshes its blob's time, and the store
     * deletes only if the blob is still that old when it deletes. Each delete holds the blob's lock in the database
     * from a last look for a version naming it until the delete is done; an upload takes the same lock before
     * writing its version and then checks that its blob is still there, so no version is ever written for a
     * deleted blob, whatever nodes share the store. Safe to run on every node at once. Returns how many were removed.
     */
    async collectOrphans(olderThanMs = ORPHAN_AGE_MS): Promise<number> {
      const cutoff = now() - olderThanMs;
      let removed = 0;
      let batch: string[] = [];
      const flush = async () => {
        // The batch query passes over referenced blobs cheaply; each remaining one is looked at again under its lock.
        for (const sha of await versions.unreferenced(batch)) {
          if (await versions.removeIfUnreferenced(sha, () => blobs.deleteIfOlder(sha, cutoff))) removed += 1;
        }
        batch = [];
      };
      for await (const blob of blobs.list()) {
        if (blob.writtenAt > cutoff) continue;
        batch.push(blob.sha256);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      return removed;
    },
  };
}
