import { validationFailed } from '../errors.js';
import { TAGS_MAX } from './fields.js';

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

/**
 * Splits a search string into the words that must each match; blank input means no search. Words are compared
 * case-insensitively, so a repeated word is used once.
 */
export function searchWords(q: string | undefined): string[] {
  if (q === undefined) return [];
  if (q.length > SEARCH_TEXT_MAX) throw validationFailed([{ field: 'q', message: `must be at most ${SEARCH_TEXT_MAX} characters` }]);
  const words: string[] = [];
  const seen = new Set<string>();
  for (const word of q.trim().split(/\s+/u)) {
    const key = word.toLowerCase();
    if (word.length === 0 || seen.has(key)) continue;
    seen.add(key);
    words.push(word);
  }
  if (words.length > SEARCH_WORDS_MAX) {
    throw validationFailed([{ field: 'q', message: `at most ${SEARCH_WORDS_MAX} different words (this has ${words.length})` }]);
  }
  return words;
}

/** The comma-separated tag filter as distinct lower-case tags, every one of which a skill must hold. */
export function parseTagFilter(tags: string | undefined): string[] {
  if (tags === undefined) return [];
  const parsed = [...new Set(tags.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0))];
  if (parsed.length > TAG_FILTERS_MAX) {
    throw validationFailed([{ field: 'tags', message: `at most ${TAG_FILTERS_MAX} different tags (a skill holds no more)` }]);
  }
  return parsed;
}
