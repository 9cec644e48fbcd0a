import semver from 'semver';
import { badRequest, validationFailed } from '../errors.js';
import { findUnstorable, unstorableProblem } from '../storable-text.js';

export const VERSION_MAX = 64;
export const CHANGELOG_MAX = 20_000;
export const METADATA_MAX = 64 * 1024;

/** Strict Semantic Versioning 2.0: no leading "v", no loose forms, nothing semver would rewrite. */
export function checkVersion(version: string | undefined): string {
  if (version === undefined || version.trim() === '') {
    throw validationFailed([{ field: 'version', message: 'is required, e.g. 1.0.0' }]);
  }
  if (version.length > VERSION_MAX) throw validationFailed([{ field: 'version', message: `must be at most ${VERSION_MAX} characters` }]);
  if (semver.valid(version) !== version) {
    throw badRequest('invalid_version', `"${version}" is not a Semantic Versioning 2.0 version such as 1.2.0 or 2.0.0-rc.1.`, [
      { field: 'version', message: 'must be a strict semver version (MAJOR.MINOR.PATCH, optional -prerelease and +build)' },
    ]);
  }
  return version;
}

/** `metadata` arrives as text holding a JSON object. */
export function parseMetadata(raw: string | undefined): Record<string, unknown> | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.length > METADATA_MAX) throw validationFailed([{ field: 'metadata', message: `must be at most ${METADATA_MAX} characters` }]);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw validationFailed([{ field: 'metadata', message: 'must be a JSON object; the text is not valid JSON' }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationFailed([{ field: 'metadata', message: 'must be a JSON object' }]);
  }
  // JSON can spell what no database stores: "\u0000", or half of a surrogate pair such as "\ud800".
  const unstorable = findUnstorable(value, 'metadata');
  if (unstorable !== null) throw validationFailed([unstorable]);
  return value as Record<string, unknown>;
}

export function checkChangelog(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.length > CHANGELOG_MAX) throw validationFailed([{ field: 'changelog', message: `must be at most ${CHANGELOG_MAX} characters` }]);
  const unstorable = unstorableProblem(raw);
  if (unstorable !== null) throw validationFailed([{ field: 'changelog', message: unstorable }]);
  return raw;
}

/** Highest version, ignoring pre-releases while any release exists; null without versions. */
export function latestOf(versions: readonly string[]): string | null {
  const releases = versions.filter((v) => semver.prerelease(v) === null);
  const pool = releases.length > 0 ? releases : versions;
  return pool.length === 0 ? null : [...pool].sort(semver.rcompare)[0]!;
}

/** Newest semver first. */
export function newestFirst<T extends { version: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => semver.rcompare(a.version, b.version));
}
