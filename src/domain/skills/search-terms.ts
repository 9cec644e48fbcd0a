import { validationFailed } from '../errors.js';
import { SEARCH_TEXT_MAX, SEARCH_WORDS_MAX, TAG_FILTERS_MAX } from '@skill-registry/rules/limits';

export { SEARCH_TEXT_MAX, SEARCH_WORDS_MAX, TAG_FILTERS_MAX };

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
  const parsed = [
    ...new Set(
      tags
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter((t) => t.length > 0),
    ),
  ];
  if (parsed.length > TAG_FILTERS_MAX) {
    throw validationFailed([{ field: 'tags', message: `at most ${TAG_FILTERS_MAX} different tags (a skill holds no more)` }]);
  }
  return parsed;
}
