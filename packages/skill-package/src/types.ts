import type { RandomAccessSource } from './source.js';
import type { ArchiveFormat } from './format.js';
import type { FrontMatterFix } from './front-matter-fix.js';
import type { ScanReport } from './scan/types.js';

export type { ArchiveFormat };

export interface PackageLimits {
  /** Most entries (files and directories) an archive may hold. Default 2,000. */
  maxEntries: number;
  /** Most uncompressed bytes, all files together. Default 200 MiB. */
  maxTotalBytes: number;
  /** Highest uncompressed:compressed ratio of any one entry. Default 100. */
  maxRatio: number;
}

export const DEFAULT_LIMITS: PackageLimits = { maxEntries: 2000, maxTotalBytes: 200 * 1024 * 1024, maxRatio: 100 };

export interface PackageFile {
  /** Path inside the archive, `/`-separated, without a leading `./`; directories are not listed. */
  path: string;
  size: number;
  /**
   * Whether the archive marks the file executable: its owner's execute bit, from a tar header's mode or a zip entry's
   * Unix mode (made on Unix or macOS). Only this bit is kept: setuid, setgid, sticky and the rest of the mode are not.
   */
  executable: boolean;
}

export interface PackageWarning {
  code: string;
  message: string;
}

/** One problem found in a package; `entry` names the archive entry at fault, when there is one. */
export interface PackageProblem {
  field: string;
  message: string;
  entry?: string;
  /** For SKILL.md front matter that is not YAML, when it can be repaired safely: the repair (front-matter-fix.ts). */
  fix?: FrontMatterFix;
}

export type { FrontMatterFix };

export interface Inspection {
  format: ArchiveFormat;
  /** Every file, sorted by path. */
  files: PackageFile[];
  /** Path of SKILL.md inside the archive, or null when the package has none. */
  skillMdPath: string | null;
  /** SKILL.md's front matter (name, description and whatever else it declares), or null without SKILL.md. */
  skillMd: Record<string, unknown> | null;
  warnings: PackageWarning[];
  /** What the package scanner found in the files (see scan/), with its verdict. */
  scan: ScanReport;
}

/**
 * A package refused. `status` is 415 for bytes that are no supported archive, 422 for a well-formed
 * archive that breaks a rule; `code` is the stable error code of the API.
 */
export class PackageError extends Error {
  constructor(
    readonly status: 415 | 422,
    readonly code: 'unsupported_media_type' | 'invalid_archive' | 'invalid_skill_md',
    readonly detail: string,
    readonly problems: PackageProblem[] = [],
  ) {
    super(detail);
    this.name = 'PackageError';
  }
}

export type { RandomAccessSource };
