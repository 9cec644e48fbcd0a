import type { Readable } from 'node:stream';
import type { SkillUpdate } from '../../db/repositories/skills.js';
import type { VersionsRepository } from '../../db/repositories/versions.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { ScanFailed, type Scans } from '@skill-registry/skill-package/scan/session';
import { DEFAULT_LIMITS, PackageError, type Inspection, type PackageLimits } from '@skill-registry/skill-package/types';
import type { ScanReport } from '@skill-registry/skill-package/scan/types';
import { BlobTooLargeError, type BlobStore, type StagedBlob } from '../../storage/blob-store.js';
import type { AuthenticatedActor } from '../actor.js';
import { AppError, conflict, notFound } from '../errors.js';
import { slugTaken, type SkillInput, type SkillService } from '../skills/skills.js';
import { checkChangelog, checkVersion, parseMetadata } from './rules.js';
import { withoutRefusedCharacters } from '@skill-registry/rules/display-text';
import { omittedOf, scanOf, scanWrite, skillSummary, summaryColumns, type ScanReportView } from './scan-views.js';
import { toVersion, type Version } from './views.js';

/** The text fields of an upload, as they arrive beside the file. */
export interface VersionFields {
  version?: string;
  changelog?: string;
  metadata?: string;
}

/** The longest description a SKILL.md may give a skill that has none. */
const SKILL_MD_DESCRIPTION_MAX = 1024;

function packageRefused(error: PackageError): AppError {
  return new AppError(
    error.status,
    error.code,
    error.detail,
    error.problems.map((p) => ({ field: p.field, message: p.message, entry: p.entry, ...(p.fix === undefined ? {} : { fix: p.fix }) })),
  );
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
    1,
  );
}

/** The scanner stopped (its thread ended): the package is not at fault, nothing was written, and it may be sent again. */
function scanStopped(): AppError {
  return new AppError(
    503,
    'scan_unavailable',
    'The package could not be scanned just now; nothing was written. Send it again.',
    undefined,
    1,
  );
}

function versionExists(slug: string, version: string): AppError {
  return conflict('version_exists', `Version ${version} of skill '${slug}' already exists; versions are immutable.`);
}

/** The description a package's SKILL.md offers, if any, as display text: without characters that hide or reorder text. */
function skillMdDescription(inspection: Inspection): { text: string; removed: string[] } | null {
  const description = inspection.skillMd?.description;
  if (typeof description !== 'string') return null;
  const cleaned = withoutRefusedCharacters(description, { multiline: true });
  // Cut in UTF-16 units as the description limit counts, never between the two halves of a character.
  const text = cleaned.text.slice(0, SKILL_MD_DESCRIPTION_MAX).replace(/[\uD800-\uDBFF]$/, '');
  return text === '' ? null : { text, removed: cleaned.removed };
}

/**
 * The description a SKILL.md gives a skill that has none (null when it has one, or the SKILL.md offers none). A
 * description that held characters refused in display text is kept without them, and the version says so.
 */
function filledDescription(current: string, inspection: Inspection): string | null {
  const description = current === '' ? skillMdDescription(inspection) : null;
  if (description === null) return null;
  if (description.removed.length > 0) {
    inspection.warnings.push({
      code: 'skill_md_description_characters',
      message:
        `SKILL.md description holds characters that hide or reorder text (${description.removed.join(', ')}); ` +
        "the skill's description was stored without them.",
    });
  }
  return description.text;
}

/** The scan as the validation of a package answers it: the scan report's fields, without a time or an explanation. */
function validationScan(report: ScanReport): Omit<ScanReportView, 'scanned_at' | 'explanation'> {
  return {
    verdict: report.verdict,
    rules_version: report.rulesVersion,
    counts: report.counts,
    findings: report.findings,
    omitted: omittedOf(report.counts, report.findings),
    urls: report.urls,
    domains: report.domains,
  };
}

/**
 * Uploading versions: a package body is staged, inspected, committed to the blob store and then recorded as a
 * version, or refused with nothing recorded. A committed blob whose version is never written (a refusal after the
 * commit, a lost race, a crash) is left to orphan collection: the same bytes may be another upload's, in flight.
 */
export function versionUploads(deps: {
  skillService: SkillService;
  versions: VersionsRepository;
  blobs: BlobStore;
  maxUploadBytes: number;
  limits?: PackageLimits;
  /** Where packages are scanned (worker threads in a running registry); on this thread when not given. */
  scanner?: Scans;
}) {
  const { versions, blobs, skillService } = deps;
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const options = deps.scanner === undefined ? {} : { scans: deps.scanner };

  async function inspect(staged: StagedBlob): Promise<Inspection> {
    try {
      return await inspectPackage(staged.source, limits, options);
    } catch (error) {
      if (error instanceof PackageError) throw packageRefused(error);
      if (error instanceof ScanFailed) throw scanStopped();
      throw error;
    }
  }

  function versionRow(
    skillId: string,
    fields: { version: string; changelog: string | null; metadata: Record<string, unknown> | null },
    staged: StagedBlob,
    inspection: Inspection,
    uploaderId: string,
  ) {
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

  /** The version as it was just written: no downloads yet. */
  function written(row: ReturnType<typeof versionRow>, inspection: Inspection): Version {
    return toVersion({ ...row, downloads: 0, ...summaryColumns(scanOf(inspection)) });
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
    /** Streams an upload body into staging; 413 once it exceeds the upload limit. The package is read once staged. */
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
        const inspection = await inspectPackage(staged.source, limits, options);
        const report = scanOf(inspection);
        return {
          valid: true,
          errors: [],
          warnings: inspection.warnings,
          files: inspection.files,
          skill_md: inspection.skillMd,
          scan: validationScan(report),
        };
      } catch (error) {
        if (error instanceof ScanFailed) throw scanStopped();
        if (!(error instanceof PackageError)) throw error;
        const refused = packageRefused(error);
        return {
          valid: false,
          errors: refused.errors ?? [{ field: 'file', message: error.detail }],
          warnings: [],
          files: [],
          skill_md: null,
          scan: null,
        };
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
        const description = filledDescription(skill.description, inspection);
        const row = versionRow(skill.id, { version, changelog, metadata }, staged, inspection, actor.user.id);
        const outcome = await versions.insert(
          row,
          inspection.files,
          scanWrite(scanOf(inspection), row.created_at),
          (existing): SkillUpdate => ({
            // A malicious version is never the latest, and a skill whose every version is malicious is quarantined.
            ...skillSummary(existing),
            updated_at: row.created_at,
            // A new version answers a reviewer's decline: the draft waits in the review queue again.
            declined_at: null,
            decline_reason: null,
            // A SKILL.md description fills a skill that has none yet.
            ...(description !== null ? { description } : {}),
          }),
          () => stillStored(staged),
        );
        // Two uploads of one version: the unique index decides, and the loser gets the same answer as a late one.
        if (outcome === 'version_taken') throw versionExists(skill.slug, version);
        if (outcome === 'blob_gone') throw uploadInterrupted();
        // Deleted while the package was being checked.
        if (outcome === 'skill_gone') throw notFound('skill_not_found', `No skill "${skillRef}" is visible to you.`);
        skillService.changed(skill.id);
        return written(row, inspection);
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
        const description = filledDescription(prepared.row.description, inspection);
        const row = versionRow(prepared.row.id, { version, changelog, metadata }, staged, inspection, actor.user.id);
        const report = scanOf(inspection);
        const skillRow = {
          ...prepared.row,
          ...skillSummary([{ version, verdict: report.verdict }]),
          ...(description !== null ? { description } : {}),
        };
        const outcome = await versions.insertWithSkill(
          skillRow,
          prepared.tags,
          row,
          inspection.files,
          scanWrite(report, row.created_at),
          () => stillStored(staged),
        );
        // Two creations racing for one slug: the unique index decides.
        if (outcome === 'slug_taken') throw slugTaken(prepared.row.slug);
        if (outcome === 'blob_gone') throw uploadInterrupted();
        skillService.changed(prepared.row.id);
        return { skill: await skillService.get(actor, prepared.row.id), version: written(row, inspection) };
      });
    },
  };
}
