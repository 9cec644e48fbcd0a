import type { VersionRow } from '../../db/repositories/versions.js';
import { toIso } from '../../lib/time.js';
import type { ArchiveFormat } from '@skill-registry/skill-package/types';
import { toScanSummary, type ScanSummary } from './scan-views.js';

/** A version as the API shows it. */
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
  warnings: { code: string; message: string }[];
  created_at: string;
  /** What the package scanner found; null for a version uploaded before the scanner, until it is scanned again. */
  scan: ScanSummary | null;
}

export function toVersion(row: VersionRow): Version {
  return {
    version: row.version,
    changelog: row.changelog,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    size: row.size,
    sha256: row.sha256,
    archive_format: row.archive_format,
    file_count: row.file_count,
    downloads: row.downloads,
    skill_md: row.skill_md === null ? null : (JSON.parse(row.skill_md) as Record<string, unknown>),
    warnings: JSON.parse(row.warnings) as Version['warnings'],
    created_at: toIso(row.created_at),
    scan: toScanSummary(row),
  };
}
