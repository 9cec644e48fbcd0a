import type { Readable } from 'node:stream';
import { isUniqueViolation } from '../../db/database.js';
import type { SkillRecordRow } from '../../db/repositories/skills.js';
import type { VersionsRepository, VersionWrite } from '../../db/repositories/versions.js';
import type { SkillStatus, SkillUpdate, VersionRow } from '../../db/schema.js';
import { looksLikeId, newId } from '../../lib/ids.js';
import { nowIso, toIso } from '../../lib/time.js';
import { inspectPackage, openPackageEntry } from '../../packages/inspect.js';
import { DEFAULT_LIMITS, PackageError, type ArchiveFormat, type Inspection, type PackageLimits } from '../../packages/types.js';
import { BlobTooLargeError, type BlobStore, type RandomAccessSource, type StagedBlob } from '../../storage/blob-store.js';
import { isAdminSession, type Actor, type AuthenticatedActor } from '../actor.js';
import { AppError, conflict, forbidden, notFound } from '../errors.js';
import { publicCache } from '../skills/public-cache.js';
import { PUBLIC_CACHE_TTL_MS, type SkillInput, type SkillService } from '../skills/skills.js';
import { isOwner } from '../skills/visibility.js';
import type { DownloadCounter } from './download-counter.js';
import { checkChangelog, checkVersion, latestOf, newestFirst, parseMetadata } from './rules.js';

export interface Version {
  version: string;
  changelog: string | null;
  metadata: Record<string, unknown> | null;
  size: number;
  sha256: string;
  archive_format: ArchiveFormat;
  file_count: number;
  downloads: number;
  skill_md: Record<string, unknown> | null;
  warnings: Array<{ code: string; message: string }>;
  created_at: string;
}

/**
 * A committed blob without a version for this long since its last commit is an orphan, not an upload still being
 * recorded. Nothing deletes a blob sooner: not a failed upload, not a deleted draft (content-addressed blobs are
 * shared, and another upload of the same bytes may have committed onto one a moment ago and not yet written its
 * version row).
 */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

export function toVersion(row: VersionRow): Version {
  return {
    version: row.version,
    changelog: row.changelog,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    size: Number(row.size),
    sha256: row.sha256,
    archive_format: row.archive_format,
    file_count: row.file_count,
    downloads: Number(row.downloads),
    skill_md: row.skill_md === null ? null : (JSON.parse(row.skill_md) as Record<string, unknown>),
    warnings: JSON.parse(row.warnings) as Version['warnings'],
    created_at: toIso(row.created_at),
  };
}

/** The text fields of an upload, as they arrive beside the file. */
export interface VersionFields {
  version?: string;
  changelog?: string;
  metadata?: string;
}

/** What a download needs: the skill's visibility facts, the version's package facts, and its bytes. */
export interface Download {
  skill: { id: string; slug: string; status: SkillStatus; owner_id: string };
  version: { id: string; version: string; size: number; sha256: string; archive_format: ArchiveFormat };
  source: RandomAccessSource;
}

function packageRefused(error: PackageError): AppError {
  return new AppError(
    error.status,
    error.code,
    error.detail,
    error.problems.map((p) => ({ field: p.field, message: p.message, ...(p.entry !== undefined ? { entry: p.entry } : {}) })),
  );
}

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
  const { versions, blobs, skillService } = deps;
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const now = deps.now ?? Date.now;
  // Version lists are the same for every caller who may see the skill; visibility is checked per request.
  const listCache = publicCache<{ items: Version[]; total: number }>({ ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 1_000 });
  // What a download needs to know (skill status and owner, the version's blob): one query per download otherwise.
  const downloadCache = publicCache<Awaited<ReturnType<typeof versions.forDownload>>>({ ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 10_000 });
  skillService.onChange(() => {
    listCache.clear();
    downloadCache.clear();
  });
  const changed = () => skillService.changed();

  async function findVersion(skill: SkillRecordRow, ref: string): Promise<VersionRow> {
    const label = ref === 'latest' ? skill.latest_version : ref;
    const row = label === null ? undefined : await versions.find(skill.id, label);
    if (!row) throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${ref}".`);
    return row;
  }

  async function inspect(staged: StagedBlob): Promise<Inspection> {
    try {
      return await inspectPackage(staged.source, limits);
    } catch (error) {
      if (error instanceof PackageError) throw packageRefused(error);
      throw error;
    }
  }

  function versionRow(skillId: string, fields: { version: string; changelog: string | null; metadata: Record<string, unknown> | null }, staged: StagedBlob, inspection: Inspection, uploaderId: string) {
    return {
      id: newId(),
      skill_id: skillId,
      version: fields.version,
      changelog: fields.changelog,
      metadata: fields.metadata === null ? null : JSON.stringify(fields.metadata),
      size: staged.size,
      sha256: staged.sha256,
      archive_format: inspection.format,
      file_count: inspection.files.length,
      total_size: inspection.files.reduce((sum, f) => sum + f.size, 0),
      skill_md: inspection.skillMd === null ? null : JSON.stringify(inspection.skillMd),
      skill_md_path: inspection.skillMdPath,
      warnings: JSON.stringify(inspection.warnings),
      uploader_id: uploaderId,
      created_at: nowIso(),
    };
  }

  /**
   * Whether a committed blob is still in the store, as the version about to name it needs: asked under the blob's
   * lock, after which no orphan collection can delete it until the version is written.
   */
  async function stillStored(staged: StagedBlob): Promise<boolean> {
    return (await blobs.stat(staged.sha256))?.size === staged.size;
  }

  /** Runs `work` with a staged blob and discards the blob if `work` fails before committing it. */
  async function withStaged<T>(staged: StagedBlob, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await staged.discard().catch(() => undefined);
      throw error;
    }
  }

  return {
    /** Streams an upload body into staging; 413 once it exceeds the upload limit. */
    async stage(body: Readable): Promise<StagedBlob> {
      try {
        return await blobs.stage(body, { maxBytes: deps.maxUploadBytes });
      } catch (error) {
        if (error instanceof BlobTooLargeError) {
          throw new AppError(413, 'payload_too_large', `The package is larger than the upload limit of ${deps.maxUploadBytes} bytes.`);
        }
        throw error;
      }
    },

    /** Inspects a staged package without storing anything (POST /v1/packages/validate). */
    async validate(staged: StagedBlob) {
      try {
        const inspection = await inspectPackage(staged.source, limits);
        return { valid: true, errors: [], warnings: inspection.warnings, files: inspection.files, skill_md: inspection.skillMd };
      } catch (error) {
        if (!(error instanceof PackageError)) throw error;
        const refused = packageRefused(error);
        return { valid: false, errors: refused.errors ?? [{ field: 'file', message: error.detail }], warnings: [], files: [], skill_md: null };
      } finally {
        await staged.discard();
      }
    },

    async publish(actor: AuthenticatedActor, skillRef: string, fields: VersionFields, staged: StagedBlob): Promise<Version> {
      return withStaged(staged, async () => {
        const skill = await skillService.manageable(actor, skillRef);
        const version = checkVersion(fields.version);
        const changelog = checkChangelog(fields.changelog);
        const metadata = parseMetadata(fields.metadata);
        if (await versions.exists(skill.id, version)) throw versionExists(skill.slug, version);
        const inspection = await inspect(staged);
        await staged.commit();
        const row = versionRow(skill.id, { version, changelog, metadata }, staged, inspection, actor.user.id);
        const skillMdDescription = typeof inspection.skillMd?.description === 'string' ? inspection.skillMd.description : null;
        let written: VersionWrite;
        try {
          written = await versions.insert(row, inspection.files, (existing): SkillUpdate => ({
            latest_version: latestOf(existing),
            updated_at: row.created_at,
            // A SKILL.md description fills a skill that has none yet.
            ...(skill.description === '' && skillMdDescription ? { description: skillMdDescription.slice(0, 1024) } : {}),
          }), () => stillStored(staged));
        } catch (error) {
          // The committed blob stays for orphan collection: the same bytes may be another upload's, in flight.
          if (isUniqueViolation(error)) throw versionExists(skill.slug, version);
          throw error;
        }
        if (written === 'blob_gone') throw uploadInterrupted();
        // Deleted while the package was being checked; its blob, too, is left to collection.
        if (written === 'skill_gone') throw notFound('skill_not_found', `No skill "${skillRef}" is visible to you.`);
        changed();
        return toVersion({ ...row, downloads: 0 });
      });
    },

    /** Creates a draft skill and its first version together; a refused package creates nothing. */
    async publishWithSkill(actor: AuthenticatedActor, input: SkillInput, fields: VersionFields, staged: StagedBlob) {
      return withStaged(staged, async () => {
        const prepared = await skillService.prepare(actor, input);
        const version = checkVersion(fields.version);
        const changelog = checkChangelog(fields.changelog);
        const metadata = parseMetadata(fields.metadata);
        const inspection = await inspect(staged);
        await staged.commit();
        const row = versionRow(prepared.row.id, { version, changelog, metadata }, staged, inspection, actor.user.id);
        const skillMdDescription = typeof inspection.skillMd?.description === 'string' ? inspection.skillMd.description : null;
        const skillRow = {
          ...prepared.row,
          latest_version: version,
          ...(prepared.row.description === '' && skillMdDescription ? { description: skillMdDescription.slice(0, 1024) } : {}),
        };
        let written: Exclude<VersionWrite, 'skill_gone'>;
        try {
          written = await versions.insertWithSkill(skillRow, prepared.tags, row, inspection.files, () => stillStored(staged));
        } catch (error) {
          // The committed blob stays for orphan collection: the same bytes may be another upload's, in flight.
          if (isUniqueViolation(error)) throw conflict('slug_taken', `The slug "${prepared.row.slug}" is taken; choose another.`);
          throw error;
        }
        if (written === 'blob_gone') throw uploadInterrupted();
        changed();
        return { skill: await skillService.get(actor, prepared.row.id), version: toVersion({ ...row, downloads: 0 }) };
      });
    },

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
      const skill = { id: row.skill_id, slug: row.slug, status: row.status, owner_id: row.owner_id };
      checkDownloadAccess(actor, skill, skillRef);
      const size = Number(row.size);
      return {
        skill,
        version: { id: row.id, version: row.version, size, sha256: row.sha256, archive_format: row.archive_format },
        source: blobs.known(row.sha256, size),
      };
    },

    recordDownload(download: Download): void {
      deps.downloads.record(download.version.id, download.skill.id);
    },

    /** File list access: published to anyone; otherwise the owner or an admin session. */
    async files(actor: Actor, skillRef: string, versionRef: string) {
      const skill = await skillService.visibleForReading(actor, skillRef);
      const version = await findVersion(skill, versionRef);
      const items = await versions.files(version.id);
      return { items, file_count: items.length, total_size: items.reduce((sum, f) => sum + Number(f.size), 0) };
    },

    async file(actor: Actor, skillRef: string, versionRef: string, path: string): Promise<{ path: string; size: number; stream: Readable }> {
      const skill = await skillService.visible(actor, skillRef);
      const version = await findVersion(skill, versionRef);
      // Only paths in the stored index are served: whatever dots or encodings a request uses, it names an
      // indexed file exactly or it is a 404, and the archive is never asked for anything else.
      const entry = path.includes('\u0000') ? undefined : await versions.file(version.id, path);
      if (!entry) throw notFound('file_not_found', `Version ${version.version} of "${skill.slug}" has no file "${path}".`);
      const stream = await openPackageEntry(await blobs.source(version.sha256), version.archive_format, entry.path);
      if (!stream) throw notFound('file_not_found', `Version ${version.version} of "${skill.slug}" has no file "${path}".`);
      return { path: entry.path, size: Number(entry.size), stream };
    },

    async stats(actor: Actor, skillRef: string, days: number) {
      // Counts buffered on this node are written first, so a download is visible in the next stats call.
      await deps.downloads.flush();
      const skill = await skillService.visibleForReading(actor, skillRef);
      const today = new Date();
      const dates: string[] = [];
      for (let i = days - 1; i >= 0; i -= 1) dates.push(new Date(today.getTime() - i * 86_400_000).toISOString().slice(0, 10));
      const rows = await versions.dailyDownloads(skill.id, dates[0]!);
      const byDay = new Map(rows.map((r) => [r.day, Number(r.downloads)]));
      const all = newestFirst(await versions.listForSkill(skill.id));
      return {
        skill_id: skill.id,
        total_downloads: all.reduce((sum, v) => sum + Number(v.downloads), 0),
        versions: all.map((v) => ({ version: v.version, downloads: Number(v.downloads) })),
        daily: dates.map((date) => ({ date, downloads: byDay.get(date) ?? 0 })),
      };
    },

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
        if (batch.length >= 500) await flush();
      }
      await flush();
      return removed;
    },

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

/**
 * Download access: published skills to anyone; drafts and deprecated skills to an admin session only.
 * Their owner is told it may not (403); anyone else learns nothing (404).
 */
function checkDownloadAccess(actor: Actor, skill: { slug: string; status: SkillStatus; owner_id: string }, ref: string): void {
  if (skill.status === 'published' || isAdminSession(actor)) return;
  if (isOwner(actor, skill)) {
    throw forbidden('not_published', `"${skill.slug}" is ${skill.status}; only an administrator can download it until it is published.`);
  }
  throw notFound('skill_not_found', `No skill "${ref}" is visible to you.`);
}

/**
 * Orphan collection on another node deleted the blob of these bytes between the upload's commit and its version
 * row (an earlier copy of the same bytes had been an orphan past its grace period). Nothing was written; the same
 * upload, sent again, stores the bytes anew.
 */
function uploadInterrupted(): AppError {
  return new AppError(
    503,
    'upload_interrupted',
    'The package was removed while the version was being recorded; nothing was written. Upload it again.',
    undefined,
    { 'retry-after': '1' },
  );
}

function versionExists(slug: string, version: string): AppError {
  return conflict('version_exists', `Version ${version} of skill '${slug}' already exists; versions are immutable.`);
}

export type VersionService = ReturnType<typeof versionService>;
