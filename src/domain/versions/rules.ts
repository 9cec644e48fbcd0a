import semver from 'semver';

// The upload's field rules are shared with the console.
export { checkChangelog, checkVersion, parseMetadata } from '@skill-registry/rules/version-fields';

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
