import { RuleError, checkChangelog as changelogRule, checkVersion as versionRule } from '@skill-registry/skill-package/rules';
import { badRequest, validationFailed } from './errors.js';
import { jsonDepthProblem } from './json-depth.js';
import { findUnstorable } from './storable-text.js';

export const METADATA_MAX = 64 * 1024;

/** A shared rule's refusal as the registry's 400: same code, sentence and field. */
function refused(error: unknown): unknown {
  return error instanceof RuleError ? badRequest(error.code, error.detail, [...error.errors]) : error;
}

/** Strict Semantic Versioning 2.0: no leading "v", no loose forms, nothing semver would rewrite. */
export function checkVersion(version: string | undefined): string {
  try {
    return versionRule(version);
  } catch (error) {
    throw refused(error);
  }
}

/** `metadata` arrives as text holding a JSON object. */
export function parseMetadata(raw: string | undefined): Record<string, unknown> | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.length > METADATA_MAX) throw validationFailed([{ field: 'metadata', message: `must be at most ${METADATA_MAX} characters` }]);
  // Parsed deep nesting would overflow the stack wherever the value is next stored or sent; measured on the text.
  const tooDeep = jsonDepthProblem(raw, 'metadata');
  if (tooDeep !== null) throw tooDeep;
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
  try {
    return changelogRule(raw);
  } catch (error) {
    throw refused(error);
  }
}
