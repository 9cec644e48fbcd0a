import { AppError } from './errors.js';

/** Where a skill says it comes from: written here, mirrored from a GitHub repository, or kept elsewhere. */
export const SOURCE_TYPES = ['original', 'github', 'external'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export interface SkillSource {
  source_type: SourceType | null;
  source_url: string | null;
}

const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const GITHUB_REPO = /^[A-Za-z0-9._-]{1,100}$/;
const SOURCE_URL_MAX = 2048;

function invalidSource(detail: string): AppError {
  return new AppError(400, 'invalid_source', detail, [{ field: 'source_url', message: detail }]);
}

/**
 * Checks a declared source against the source rules (docs/api-decisions.md, "Skills") and returns it in canonical form
 * (an empty URL becomes null). Throws 400 `invalid_source` on any violation.
 */
export function checkSource(source: SkillSource): SkillSource {
  const url = source.source_url === null || source.source_url.trim() === '' ? null : source.source_url.trim();
  switch (source.source_type) {
    case null:
    case 'original':
      if (url !== null) {
        throw invalidSource(
          source.source_type === null
            ? 'source_url must be empty when source_type is null; set source_type to "github" or "external" to declare a source.'
            : 'source_url must be empty when source_type is "original" (a self-authored skill has no upstream source).',
        );
      }
      return { source_type: source.source_type, source_url: null };
    case 'github':
      if (url === null) throw invalidSource('source_type "github" needs source_url https://github.com/<owner>/<repo>.');
      checkGithubUrl(url);
      return { source_type: 'github', source_url: url };
    case 'external':
      if (url === null) throw invalidSource('source_type "external" needs an http or https source_url.');
      checkExternalUrl(url);
      return { source_type: 'external', source_url: url };
  }
}

function parse(url: string): URL {
  if (url.length > SOURCE_URL_MAX) throw invalidSource(`source_url must be at most ${SOURCE_URL_MAX} characters.`);
  try {
    return new URL(url);
  } catch {
    throw invalidSource(`source_url "${url}" is not an absolute URL.`);
  }
}

function checkGithubUrl(url: string): void {
  const expected = 'source_url for source_type "github" must be https://github.com/<owner>/<repo> or a sub-path of it';
  const parsed = parse(url);
  // WHATWG URL parsing normalises case and default ports, so compare against the raw text too.
  const rawHostPart = /^https:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  if (parsed.protocol !== 'https:' || parsed.hostname !== 'github.com' || rawHostPart.toLowerCase() !== 'github.com') {
    throw invalidSource(`${expected} (got "${url}").`);
  }
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '')
    throw invalidSource(`${expected}, without credentials or port.`);
  if (parsed.search !== '' || parsed.hash !== '') throw invalidSource(`${expected}, without a query string or fragment.`);
  const segments = parsed.pathname.split('/').slice(1);
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  const [owner, repo] = segments;
  if (!owner || !repo || !GITHUB_OWNER.test(owner) || !GITHUB_REPO.test(repo) || repo === '.' || repo === '..') {
    throw invalidSource(`${expected} (got "${url}").`);
  }
  if (segments.some((s) => s === '' || s === '.' || s === '..')) throw invalidSource(`${expected} (got "${url}").`);
}

function checkExternalUrl(url: string): void {
  const parsed = parse(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidSource(`source_url for source_type "external" must be an http or https URL (got "${url}").`);
  }
  if (parsed.hostname === '') throw invalidSource(`source_url "${url}" has no host.`);
  if (parsed.username !== '' || parsed.password !== '') throw invalidSource('source_url must not carry credentials.');
}
