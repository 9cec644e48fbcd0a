/**
 * The rules a skill's slug, a version number and a changelog follow. The registry applies them to every upload and
 * the command line applies them before uploading, so both refuse the same values with the same words. A refused
 * value throws a RuleError; the registry answers it as a 400 problem, the command line as a usage error.
 */
import semver from 'semver';

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX = 64;
export const VERSION_MAX = 64;
export const CHANGELOG_MAX = 20_000;

/** The shape of the registry's ids. Paths accept an id or a slug, so a slug of this shape would be ambiguous. */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Text every database stores unchanged. PostgreSQL refuses NUL in text, and a lone UTF-16 surrogate cannot be
 * encoded as UTF-8 at all, so both are refused up front.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Whether a value has the shape of one of the registry's ids (which paths accept in place of a slug). */
export function looksLikeId(value: string): boolean {
  return UUID_SHAPE.test(value);
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** A value a rule refuses: a machine-readable code, a sentence a person can act on, and the field at fault. */
export class RuleError extends Error {
  constructor(
    readonly code: 'validation_failed' | 'invalid_version',
    readonly detail: string,
    readonly errors: readonly FieldProblem[],
  ) {
    super(detail);
    this.name = 'RuleError';
  }
}

/** A field problem whose sentence is the field and the problem, the registry's wording for one invalid field. */
function invalidField(field: string, message: string): RuleError {
  return new RuleError('validation_failed', `${field}: ${message}`, [{ field, message }]);
}

/** What is wrong with a slug, or null when it is a valid one. */
export function slugProblem(slug: string): string | null {
  if (slug.length === 0 || slug.length > SLUG_MAX) return `must be 1 to ${SLUG_MAX} characters`;
  if (!SLUG_PATTERN.test(slug)) return 'must be lower-case letters and digits in words joined by single hyphens, like "pdf-tools"';
  if (looksLikeId(slug)) return 'must not have the shape of a skill id (a UUID)';
  return null;
}

/** Why text could not be stored unchanged by every database, or null when it can. */
export function unstorableProblem(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (found === null) return null;
  return found[0] === '\u0000' ? 'must not contain NUL characters' : 'must not contain lone UTF-16 surrogates (invalid Unicode)';
}

/** Strict Semantic Versioning 2.0: no leading "v", no loose forms, nothing semver would rewrite. */
export function checkVersion(version: string | undefined): string {
  if (version === undefined || version.trim() === '') throw invalidField('version', 'is required, e.g. 1.0.0');
  if (version.length > VERSION_MAX) throw invalidField('version', `must be at most ${VERSION_MAX} characters`);
  if (semver.valid(version) !== version) {
    throw new RuleError('invalid_version', `"${version}" is not a Semantic Versioning 2.0 version such as 1.2.0 or 2.0.0-rc.1.`, [
      { field: 'version', message: 'must be a strict semver version (MAJOR.MINOR.PATCH, optional -prerelease and +build)' },
    ]);
  }
  return version;
}

/** A changelog as stored: null when blank. */
export function checkChangelog(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.length > CHANGELOG_MAX) throw invalidField('changelog', `must be at most ${CHANGELOG_MAX} characters`);
  const unstorable = unstorableProblem(raw);
  if (unstorable !== null) throw invalidField('changelog', unstorable);
  return raw;
}
