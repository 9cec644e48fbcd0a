import type { VersionsRepository } from '../../db/repositories/versions.js';
import type { PackageLimits } from '@skill-registry/skill-package/types';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../actor.js';
import type { SkillService } from '../skills/skills.js';
import { blobCollection } from './blob-collection.js';
import type { DownloadCounter } from './download-counter.js';
import { downloadStats } from './download-stats.js';
import { versionReads } from './reads.js';
import { versionUploads } from './uploads.js';

/**
 * The versions service the routes call: uploads (uploads.ts), reads and downloads (reads.ts), download statistics
 * (download-stats.ts) and orphan collection (blob-collection.ts), over one repository and one blob store.
 */
export function versionService(deps: {
  skillService: SkillService;
  versions: VersionsRepository;
  blobs: BlobStore;
  downloads: DownloadCounter;
  maxUploadBytes: number;
  limits?: PackageLimits;
  /** The clock orphan collection measures ages by (ms since the epoch). */
  now?: () => number;
}) {
  const { skillService } = deps;
  return {
    ...versionUploads(deps),
    ...versionReads(deps),
    ...downloadStats(deps),
    ...blobCollection(deps),

    /**
     * Deletes a draft with its versions. Their blobs are left to orphan collection: a blob nothing references now
     * may be the one an upload of the same bytes committed onto a moment ago, its version row not yet written.
     */
    async removeDraft(actor: Actor, skillRef: string): Promise<void> {
      const skill = await skillService.manageable(actor, skillRef);
      await skillService.remove(actor, skill.id);
    },
  };
}

export type VersionService = ReturnType<typeof versionService>;
