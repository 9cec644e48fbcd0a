import type { RandomAccessSource } from './source.js';
import type { ArchiveFormat } from './format.js';
import type { FrontMatterFix } from './front-matter-fix.js';
import type { ScanReport } from './scan/types.js';

export { DEFAULT_LIMITS, type PackageLimits } from './entry-sink.js';
export { PackageError, type PackageProblem } from './refusal.js';

export type { ArchiveFormat };

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

export type { RandomAccessSource };
