import type { Readable } from 'node:stream';
import type { SkillRecordRow } from '../../db/repositories/skills.js';
import type { VersionRow, VersionsRepository } from '../../db/repositories/versions.js';
import { looksLikeId } from '../../lib/ids.js';
import { openPackageEntry } from '@skill-registry/skill-package/inspect';
import type { ArchiveFormat } from '@skill-registry/skill-package/types';
import type { BlobStore, RandomAccessSource } from '../../storage/blob-store.js';
import { isAdminSession, type Actor } from '../actor.js';
import { forbidden, notFound } from '../errors.js';
import { publicCache } from '../skills/public-cache.js';
import { PUBLIC_CACHE_TTL_MS, type SkillService } from '../skills/skills.js';
import type { SkillStatus } from '../skills/statuses.js';
import { isOwner, isPublic } from '../skills/visibility.js';
import type { DownloadCounter } from './download-counter.js';
import { newestFirst } from './rules.js';
import { isQuarantined } from './scan-views.js';
import { toVersion, type Version } from './views.js';

/** What a download needs: the skill's visibility facts, the version's package facts, and its bytes. */
export interface Download {
  skill: {
    id: string;
    slug: string;
    status: SkillStatus;
    owner_id: string;
    org_id: string | null;
    private: number;
    hidden_at: Date | string | null;
  };
  version: { id: string; version: string; size: number; sha256: string; archive_format: ArchiveFormat; quarantined: boolean };
  source: RandomAccessSource;
}

/**
 * Download access: published skills to anyone; drafts and deprecated skills to an admin session only.
 * Their owner is told it may not (403); anyone else learns nothing (404). A published skill hidden pending review
 * of reports is its owner's and the administrators' only.
 */
function checkDownloadAccess(
  actor: Actor,
  skill: { slug: string; status: SkillStatus; owner_id: string; org_id: string | null; private: number; hidden_at: Date | string | null },
  ref: string,
): void {
  if (isPublic(skill) || isAdminSession(actor)) return;
  if (isOwner(actor, skill) && skill.status === 'published') return;
  if (isOwner(actor, skill)) {
    throw forbidden('not_published', `"${skill.slug}" is ${skill.status}; only an administrator can download it until it is published.`);
  }
  throw notFound('skill_not_found', `No skill "${ref}" is visible to you.`);
}

/**
 * A quarantined (malicious) version's bytes: its skill's owner and an admin session only. Everyone else who may see
 * the version is told why they may not have it (403): the version, its verdict and its findings stay readable.
 */
function checkQuarantineAccess(actor: Actor, skill: { slug: string; owner_id: string; org_id: string | null }, version: string): void {
  if (isOwner(actor, skill) || isAdminSession(actor)) return;
  throw forbidden(
    'version_quarantined',
    `Version ${version} of "${skill.slug}" is quarantined: the package scanner judged it malicious. Only its owner and administrators can download it.`,
  );
}

/**
 * Reading versions: a skill's version list, one version, its file index and one file of it, and the download of
 * its package. Version lists and what a download needs are kept briefly in public caches, dropped whenever a
 * skill changes; who may see them is decided per request.
 */
export function versionReads(deps: {
  skillService: SkillService;
  versions: VersionsRepository;
  blobs: BlobStore;
  downloads: DownloadCounter;
}) {
  const { versions, blobs, skillService } = deps;
  // Version lists are the same for every caller who may see the skill; visibility is checked per request.
  const listCache = publicCache<{ items: Version[]; total: number }>({ ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 1_000 });
  // What a download needs to know (skill status and owner, the version's blob): one query per download otherwise.
  const downloadCache = publicCache<Awaited<ReturnType<typeof versions.forDownload>>>({ ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 10_000 });
  skillService.onChange(() => {
    listCache.clear();
    downloadCache.clear();
  });

  async function findVersion(skill: Pick<SkillRecordRow, 'id' | 'slug' | 'latest_version'>, ref: string): Promise<VersionRow> {
    const label = ref === 'latest' ? skill.latest_version : ref;
    const row = label === null ? undefined : await versions.find(skill.id, label);
    if (!row) throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${ref}".`);
    return row;
  }

  return {
    /** A page of the skill's versions, newest first. */
    async list(actor: Actor, skillRef: string, page: { page: number; pageSize: number }) {
      const skill = await skillService.visibleForReading(actor, skillRef);
      return listCache.get(`${skill.id}|${page.page}|${page.pageSize}`, async () => {
        const all = newestFirst(await versions.listForSkill(skill.id));
        const start = (page.page - 1) * page.pageSize;
        return { items: all.slice(start, start + page.pageSize).map(toVersion), total: all.length };
      });
    },

    async get(actor: Actor, skillRef: string, versionRef: string): Promise<Version> {
      const skill = await skillService.visibleForReading(actor, skillRef);
      return toVersion(await findVersion(skill, versionRef));
    },

    async download(actor: Actor, skillRef: string, versionRef: string): Promise<Download> {
      const ref = looksLikeId(skillRef) ? { id: skillRef.toLowerCase() } : { slug: skillRef };
      const row = await downloadCache.get(`${'id' in ref ? ref.id : ref.slug}|${versionRef}`, () => versions.forDownload(ref, versionRef));
      if (!row) {
        // One query answers the common case; telling "no such skill" from "no such version" needs a second.
        const skill = await skillService.find(skillRef);
        if (!skill) throw notFound('skill_not_found', `No skill "${skillRef}" is visible to you.`);
        checkDownloadAccess(actor, skill, skillRef);
        throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${versionRef}".`);
      }
      const skill = {
        id: row.skill_id,
        slug: row.slug,
        status: row.status,
        owner_id: row.owner_id,
        org_id: row.org_id,
        private: row.private,
        hidden_at: row.hidden_at,
      };
      checkDownloadAccess(actor, skill, skillRef);
      const quarantined = isQuarantined(row.verdict);
      if (quarantined) checkQuarantineAccess(actor, skill, row.version);
      const size = row.size;
      return {
        skill,
        version: { id: row.id, version: row.version, size, sha256: row.sha256, archive_format: row.archive_format, quarantined },
        source: blobs.known(row.sha256, size),
      };
    },

    /** Counts a download that was served (written to the database in a batch, see download-counter.ts). */
    recordDownload(download: Download): void {
      deps.downloads.record(download.version.id, download.skill.id);
    },

    /** File list access: published to anyone; otherwise the owner or an admin session. */
    async files(actor: Actor, skillRef: string, versionRef: string) {
      const skill = await skillService.visibleForReading(actor, skillRef);
      const version = await findVersion(skill, versionRef);
      const items = await versions.files(version.id);
      return { items, file_count: items.length, total_size: items.reduce((sum, f) => sum + f.size, 0) };
    },

    async file(
      actor: Actor,
      skillRef: string,
      versionRef: string,
      path: string,
    ): Promise<{ path: string; size: number; stream: Readable }> {
      const skill = await skillService.visible(actor, skillRef);
      const version = await findVersion(skill, versionRef);
      // A file of a quarantined package is as dangerous as the package.
      if (isQuarantined(version.scan_verdict)) checkQuarantineAccess(actor, skill, version.version);
      // Only paths in the stored index are served: whatever dots or encodings a request uses, it names an
      // indexed file exactly or it is a 404, and the archive is never asked for anything else.
      const entry = path.includes('\u0000') ? undefined : await versions.file(version.id, path);
      if (!entry) throw notFound('file_not_found', `Version ${version.version} of "${skill.slug}" has no file "${path}".`);
      const stream = await openPackageEntry(await blobs.source(version.sha256), version.archive_format, entry.path);
      if (!stream) throw notFound('file_not_found', `Version ${version.version} of "${skill.slug}" has no file "${path}".`);
      return { path: entry.path, size: entry.size, stream };
    },
  };
}
