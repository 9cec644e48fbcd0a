/**
 * How a package is refused, and which errors are no fault of the package. The archive readers (zip.ts, tar.ts,
 * gzip.ts) and everything above them use this; it imports nothing of theirs.
 */
import type { FrontMatterFix } from './front-matter-fix.js';

/** One problem found in a package; `entry` names the archive entry at fault, when there is one. */
export interface PackageProblem {
  field: string;
  message: string;
  entry?: string;
  /** For SKILL.md front matter that is not YAML, when it can be repaired safely: the repair (front-matter-fix.ts). */
  fix?: FrontMatterFix;
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

/** Quotes an entry name for a sentence, escaping control characters. */
export function quote(name: string): string {
  return JSON.stringify(name);
}

/** A 422 invalid_archive: `rule` completes "Archive entry X is refused: …", and is the problem's message. */
export function refuse(entry: string | null, rule: string): PackageError {
  const detail = entry === null ? `The archive is refused: ${rule}.` : `Archive entry ${quote(entry)} is refused: ${rule}.`;
  return new PackageError(422, 'invalid_archive', detail, [
    entry === null ? { field: 'file', message: rule } : { field: 'file', entry, message: rule },
  ]);
}

/**
 * Errors from outside the archive's bytes — a storage fault of the RandomAccessSource, a scan that stopped — are passed
 * through untouched, never called a bad archive.
 */
const outsideFaults = new WeakSet<object>();
export function markOutsideFault(err: unknown): void {
  if (typeof err === 'object' && err !== null) outsideFaults.add(err);
}
export function isOutsideFault(err: unknown): boolean {
  return typeof err === 'object' && err !== null && outsideFaults.has(err);
}

/** Maps whatever a reader threw to what inspection throws: a refusal, or an outside fault as it is. */
export function asPackageError(err: unknown, entry: string | null, what: string): unknown {
  if (err instanceof PackageError || isOutsideFault(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return refuse(entry, `${what} (${message})`);
}
