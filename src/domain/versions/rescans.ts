import type { ScansRepository } from '../../db/repositories/scans.js';
import type { SkillRecordRow } from '../../db/repositories/skills.js';
import type { VersionsRepository } from '../../db/repositories/versions.js';
import { nowIso } from '../../lib/time.js';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import type { Scans } from '@skill-registry/skill-package/scan/session';
import { DEFAULT_LIMITS, PackageError, type PackageLimits } from '@skill-registry/skill-package/types';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../actor.js';
import { AppError, notFound, validationFailed } from '../errors.js';
import type { SkillService } from '../skills/skills.js';
import { findUnstorable } from '@skill-registry/rules/storable-text';
import { EXPLANATION_MAX } from '@skill-registry/rules/limits';
import { scanOf, scanWrite, skillSummary, toScanReport, type ScanReportView } from './scan-views.js';

/** A version of a skill, as a rescan needs it. */
export interface StoredVersion {
  id: string;
  skill_id: string;
  sha256: string;
}

/** What scanning a stored package again did: the version's new verdict is stored, or the version is gone. */
export type RescanOutcome = 'written' | 'version_gone';

function explanationOf(raw: string | undefined): { text: string; at: string } | null | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text.length > EXPLANATION_MAX)
    throw validationFailed([{ field: 'explanation', message: `must be at most ${EXPLANATION_MAX} characters` }]);
  const unstorable = findUnstorable(text, 'explanation');
  if (unstorable !== null) throw validationFailed([unstorable]);
  return text === '' ? null : { text, at: nowIso() };
}

/**
 * A version's scan report, and scanning a stored version again with the rules of now: its package is read back
 * from the blob store and inspected as an upload is, and the new report replaces the old one together with the
 * skill's summary (a version that became malicious stops being the latest; a skill whose every version did is
 * quarantined).
 */
export function versionRescans(deps: {
  skillService: SkillService;
  versions: VersionsRepository;
  scans: ScansRepository;
  blobs: BlobStore;
  limits?: PackageLimits;
  /** Where packages are scanned (worker threads in a running registry); on this thread when not given. */
  scanner?: Scans;
}) {
  const { skillService, versions, scans, blobs } = deps;
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const options = deps.scanner === undefined ? {} : { scans: deps.scanner };

  async function versionOf(skill: Pick<SkillRecordRow, 'id' | 'slug' | 'latest_version'>, ref: string) {
    const label = ref === 'latest' ? skill.latest_version : ref;
    const row = label === null ? undefined : await versions.find(skill.id, label);
    if (!row) throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${ref}".`);
    return row;
  }

  /**
   * Scans the stored package of `version` again. A package the rules of now refuse, or whose bytes are gone, is a
   * PackageError or a BlobNotFoundError, for the caller to report.
   */
  async function rescanStored(version: StoredVersion, explanation?: { text: string; at: string } | null): Promise<RescanOutcome> {
    const inspection = await inspectPackage(await blobs.source(version.sha256), limits, options);
    const scan = scanWrite(scanOf(inspection), nowIso());
    const write =
      explanation === undefined ? scan : { ...scan, explanation: explanation?.text ?? null, explained_at: explanation?.at ?? null };
    const outcome = await scans.record(version.id, version.skill_id, write, skillSummary, explanation === undefined ? 'keep' : 'replace');
    if (outcome === 'written') skillService.changed(version.skill_id);
    return outcome;
  }

  return {
    rescanStored,

    /** The whole report of a version's scan, visible as the version is; 404 `scan_not_found` for a version never scanned. */
    async scanReport(actor: Actor, skillRef: string, versionRef: string): Promise<ScanReportView> {
      const skill = await skillService.visibleForReading(actor, skillRef);
      const version = await versionOf(skill, versionRef);
      const row = await scans.find(version.id);
      if (!row) {
        throw notFound(
          'scan_not_found',
          `Version ${version.version} of "${skill.slug}" was uploaded before packages were scanned; its owner can ask for a scan.`,
        );
      }
      return toScanReport(row);
    },

    /**
     * Scans a version again with the rules of now, at its owner's (or an admin session's) request, keeping the
     * explanation given for the reviewer (an empty one removes it).
     */
    async rescan(actor: Actor, skillRef: string, versionRef: string, rawExplanation: string | undefined): Promise<ScanReportView> {
      const skill = await skillService.manageable(actor, skillRef);
      const explanation = explanationOf(rawExplanation);
      const version = await versionOf(skill, versionRef);
      let outcome: RescanOutcome;
      try {
        outcome = await rescanStored(version, explanation);
      } catch (error) {
        if (error instanceof PackageError) {
          throw new AppError(error.status, error.code, `The stored package is refused by the current rules: ${error.detail}`);
        }
        throw error;
      }
      if (outcome === 'version_gone') throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${versionRef}".`);
      const row = await scans.find(version.id);
      if (!row) throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${versionRef}".`);
      return toScanReport(row);
    },
  };
}

export type VersionRescans = ReturnType<typeof versionRescans>;
