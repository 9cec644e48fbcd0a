/**
 * A query's text as words to match: each word's stem, and, bounded, the words it may stand for as a prefix being
 * typed or with a typo, each weighed by how rare it is; a common stop word is left out.
 */
import { tokenize } from './analysis.js';
import type { QueryWord } from './matching.js';
import type { SkillIndex } from './skill-index.js';
import { STOP_WORDS } from './stop-words.js';

/** Words of a query beyond this many are not searched for: the work of one query stays bounded. */
export const QUERY_WORDS_MAX = 12;

/** How much less a word found through a prefix or a typo counts than the word itself. */
const PREFIX_FACTOR = 0.85;
const TYPO_FACTOR = 0.55;
/** A stop word held by more than this share of the skills is not scored (see `parseQuery`). */
const COMMON_STOP_WORD_SHARE = 0.25;

/** What a query matched, for highlighting: the words of its terms, and the last word as typed when it is a prefix. */
export interface Matched {
  surfaces: Set<string>;
  prefix: string | null;
}

/** How many words a prefix may stand for: a letter or two could stand for thousands. */
function prefixExpansions(prefix: string): number {
  if (prefix.length <= 1) return 8;
  if (prefix.length === 2) return 16;
  return 48;
}

/** The words of a query with what each may match: itself (its stem), and as a prefix or with a typo. */
export function parseQuery(index: SkillIndex, text: string): { query: QueryWord[]; matched: Matched } {
  const { vocabulary } = index;
  const tokens = tokenize(text, index.stem).slice(0, QUERY_WORDS_MAX);
  const typing = text.length > 0 && !/\s$/u.test(text);
  const matched: Matched = { surfaces: new Set(), prefix: null };
  const query: QueryWord[] = [];
  const seen = new Set<string>();
  const allStopWords = tokens.every((t) => STOP_WORDS.has(t.surface));
  tokens.forEach((token, at) => {
    const last = at === tokens.length - 1;
    const key = `${token.term}${last ? '*' : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const alternatives = new Map<string, number>();
    const offer = (term: string, factor: number) => alternatives.set(term, Math.max(alternatives.get(term) ?? 0, factor));
    offer(token.term, 1);
    if (!token.gram) {
      if (last && typing) {
        matched.prefix = token.surface;
        for (const surface of vocabulary.prefixed(token.surface, prefixExpansions(token.surface)))
          offer(vocabulary.termOf(surface) ?? surface, PREFIX_FACTOR);
      }
      // A word the index knows is taken as written; only an unknown one is looked for with a typo.
      if (!vocabulary.known(token.surface)) {
        for (const surface of vocabulary.near(token.surface)) offer(vocabulary.termOf(surface) ?? surface, TYPO_FACTOR);
      }
    }
    const word: QueryWord = { alternatives: [], optional: !allStopWords && STOP_WORDS.has(token.surface) && !(last && typing) };
    // A stop word in a quarter of all skills weighs a fifth of a rare word at most, yet scoring it means a walk
    // over its postings: it is left out, and the query's other words decide.
    if (word.optional && (index.postings.get(token.term)?.documents ?? 0) > index.live * COMMON_STOP_WORD_SHARE) return;
    for (const [term, factor] of alternatives) {
      const postings = index.postings.get(term);
      if (postings === undefined || postings.documents <= 0) continue;
      // Pairs of unspaced scripts are their own term; words are every surface indexed under it.
      matched.surfaces.add(term);
      for (const surface of vocabulary.surfacesOf(term)) matched.surfaces.add(surface);
      word.alternatives.push({ postings, factor: factor * index.idf(postings) });
    }
    query.push(word);
  });
  return { query, matched };
}
