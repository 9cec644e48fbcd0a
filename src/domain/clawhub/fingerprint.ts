import { createHash } from 'node:crypto';

/** A file as the `clawhub` client fingerprints it: its path below the skill folder and the sha256 of its bytes. */
export interface FileDigest {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Whether the client counts a file in a folder's fingerprint: it leaves out dot-files, anything in a dot-folder and
 * node_modules/. The registry leaves out the same files, so an installed folder and its version agree.
 */
export function countsInFingerprint(path: string): boolean {
  return !path.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules');
}

/**
 * The content fingerprint of a set of files, exactly as the `clawhub` client computes it: the sha256 of the lines
 * `path:sha256`, sorted with JavaScript's `localeCompare` (ICU collation, not byte order: the client and ClawHub's
 * server both use it, so nothing else would match) and joined by newlines.
 */
export function fingerprintOf(files: readonly Pick<FileDigest, 'path' | 'sha256'>[]): string {
  const lines = files
    .filter((f) => countsInFingerprint(f.path))
    .map((f) => ({ path: f.path, line: `${f.path}:${f.sha256}` }))
    .sort((a, b) => a.path.localeCompare(b.path))
    .map((f) => f.line);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
