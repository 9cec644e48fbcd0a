/**
 * BM25F: how a word weighs in each field when a skill is indexed, how rare it is across the index, and how a
 * candidate's score becomes its rank (an exact name first, then, in a partial match, each word held, then the score
 * lifted a little by downloads).
 */
import { tokenize, unstemmed, type Stem, type Token } from './analysis.js';
import type { Matcher } from './matching.js';
import type { SearchDocument } from './types.js';

export type Field = 'slug' | 'name' | 'tags' | 'category' | 'description';
export const FIELDS: readonly Field[] = ['slug', 'name', 'tags', 'category', 'description'];

/** BM25F: slug and name count most, tags and category next, the description least. */
const WEIGHTS: Record<Field, number> = { slug: 3, name: 3, tags: 2, category: 1.5, description: 1 };
/** How much a field's length dampens a word's weight in it: names are short and alike, descriptions vary. */
const LENGTH_DAMPING: Record<Field, number> = { slug: 0.3, name: 0.3, tags: 0.3, category: 0, description: 0.75 };
const K1 = 1.2;
/** Downloads lift a score by at most this share, so popularity breaks near-ties but never beats a better match. */
const DOWNLOADS_BOOST_MAX = 0.08;
/** Rank bonuses that outweigh any score: an exact name or slug match, then (in a partial match) each word held. */
const EXACT_BONUS = 1e6;
const WORD_BONUS = 1e4;

export function fieldTokens(document: SearchDocument, stem: Stem): Record<Field, Token[]> {
  return {
    slug: tokenize(document.slug, stem),
    name: tokenize(document.name, stem),
    tags: document.tags.flatMap((tag) => tokenize(tag, stem)),
    category: tokenize(document.category ?? '', stem),
    description: tokenize(document.description, stem),
  };
}

/** A term's weight from `count` occurrences in a field of `length` words, where the field's average is `average`. */
export function fieldWeight(field: Field, count: number, length: number, average: number): number {
  const damping = LENGTH_DAMPING[field];
  const norm = 1 - damping + (damping * Math.max(length, 1)) / Math.max(average, 1);
  return (WEIGHTS[field] * count) / norm;
}

/** A term's summed field weights, saturated: what its posting holds. */
export function saturated(tf: number): number {
  return (tf * (K1 + 1)) / (tf + K1);
}

/** How rare a term held by `df` of `live` skills is. */
export function idf(live: number, df: number): number {
  const n = Math.max(live, 1);
  const d = Math.max(df, 0);
  return Math.log(1 + (n - d + 0.5) / (d + 0.5));
}

export function boostOf(downloads: number): number {
  return 1 + Math.min(DOWNLOADS_BOOST_MAX, (DOWNLOADS_BOOST_MAX * Math.log10(1 + Math.max(downloads, 0))) / 6);
}

/** The name and slug folded and joined, with and without spaces: `PDF Tools` is `pdf tools` and `pdftools`. */
export function exactKeysOf(texts: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const text of texts) {
    const surfaces = tokenize(text, unstemmed).map((t) => t.surface);
    if (surfaces.length === 0) continue;
    keys.add(surfaces.join(' '));
    keys.add(surfaces.join(''));
  }
  return keys;
}

/**
 * Turns each candidate's score into its rank value: an exact name or slug match first, then (in a partial
 * match) every word held, then BM25F lifted a little by downloads. `exactSlots` gives the slots whose name or slug
 * is a key.
 */
export function rank(
  matcher: Matcher,
  boost: Float32Array,
  count: number,
  partial: boolean,
  text: string,
  exactSlots: (key: string) => readonly number[],
): void {
  const { pool, score, matched } = matcher;
  for (let i = 0; i < count; i += 1) {
    const slot = pool[i] ?? 0;
    score[slot] = (partial ? (matched[slot] ?? 0) * WORD_BONUS : 0) + (score[slot] ?? 0) * (boost[slot] ?? 1);
  }
  // The query's words as the name's and slug's are kept, so `wiki-page-documenter` is the exact slug it names.
  const exact = new Set<number>();
  for (const key of exactKeysOf([text])) for (const slot of exactSlots(key)) if (matcher.isCandidate(slot)) exact.add(slot);
  for (const slot of exact) score[slot] = (score[slot] ?? 0) + EXACT_BONUS;
}
