/**
 * The bounds the API states in its schemas (and documents in its OpenAPI description). The registry's rules
 * enforce the same numbers, read from here.
 */

export const NAME_MAX = 100;

/**
 * How many objects and arrays (mappings and lists) any document the registry takes may nest: JSON bodies, an
 * upload's `metadata`, SKILL.md front matter. Deeper is refused (400 `json_too_deep`; 422 `invalid_skill_md` for
 * front matter). Kept with the package reader, which checks front matter with it.
 */
export { NESTING_MAX } from '@skill-registry/skill-package/nesting-depth';
export const DESCRIPTION_MAX = 1024;
export const CATEGORY_MAX = 64;
export const TAGS_MAX = 20;

/**
 * What one search may ask of the database. Every word is a condition on every candidate row, and a word too
 * short for the trigram index (one or two characters) is checked row by row, so the number of words, not only the
 * length of the text, decides the cost of a search: a longer text or more distinct words is refused (400).
 */
export const SEARCH_TEXT_MAX = 200;
/** Distinct words (compared case-insensitively) one search may hold. */
export const SEARCH_WORDS_MAX = 8;
/** Tag filters: a skill holds at most TAGS_MAX tags, so more filters could only ever match nothing. */
export const TAG_FILTERS_MAX = TAGS_MAX;

/** A feedback comment, in characters (code points). */
export const COMMENT_MAX = 5000;

/**
 * How deep any list may be paged: the rows before a page are read and thrown away, so a page past this many
 * items is refused (400) rather than read. Narrow the filter, or sort the other way, to reach further.
 */
export const MAX_PAGE_DEPTH = 10_000;
export const MAX_PAGE_SIZE = 100;

/** What an API key may be allowed to do, beyond reading. */
export const SCOPES = ['skill:upload'] as const;
export type Scope = (typeof SCOPES)[number];

/** A report's details, in characters (code points). */
export const REPORT_DETAILS_MAX = 2000;

/** A reviewer's reason for declining a draft, in characters (code points): what its owner reads. */
export const DECLINE_REASON_MAX = 2000;

/** The longest explanation an owner may leave a reviewer about a version's findings, in characters. */
export const EXPLANATION_MAX = 4000;

/** Why a skill is reported. */
export const REPORT_REASONS = ['malware', 'security', 'spam', 'impersonation', 'inappropriate', 'copyright', 'broken', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
