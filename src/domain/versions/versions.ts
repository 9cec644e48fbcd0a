import type { VersionsRepository } from '../../db/repositories/versions.js';
import type { PackageLimits } from '@skill-registry/skill-package/types';
import type { Scans } from '@skill-registry/skill-package/scan/session';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../actor.js';
import type { SkillService } from '../skills/skills.js';
import { blobCollection } from './blob-collection.js';
import type { DownloadCounter } from './download-counter.js';
import { downloadStats } from './download-stats.js';
import { versionReads } from './reads.js';
import { versionUploads } from './uploads.js';
import { versionRescans } from './rescans.js';
import type { ScansRepository } from '../../db/repositories/scans.js';

/**
 * The versions service the routes call: uploads (uploads.ts), reads and downloads (reads.ts), download statistics
 * (download-stats.ts), orphan collection (blob-collection.ts) and scan reports and rescans (rescans.ts), over the
 * versions and scans repositories and one blob store.
 */
export function versionService(deps: {
  skillService: SkillService;
  versions: VersionsRepository;
  scans: ScansRepository;
  blobs: BlobStore;
  downloads: DownloadCounter;
  maxUploadBytes: number;
  limits?: PackageLimits;
  /** Where packages are scanned: worker threads in a running registry, this thread when not given. */
  scanner?: Scans;
  /** The clock orphan collection measures ages by (ms since the epoch). */
  now?: () => number;
}) {
  const { skillService } = deps;
  return {
    ...versionUploads(deps),
    ...versionReads(deps),
    ...downloadStats(deps),
    ...blobCollection(deps),
    ...versionRescans(deps),

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
