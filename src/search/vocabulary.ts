import { TypoIndex, typoBudget } from './typos.js';

interface Word {
  id: number;
  surface: string;
  /** The indexed term the word stands for (its stem). */
  term: string;
  /** Live documents holding the word. */
  documents: number;
}

/** How many words a prefix or a typo may stand for at most: the most frequent are kept, the work stays bounded. */
export const PREFIX_EXPANSIONS_MAX = 48;
export const TYPO_EXPANSIONS_MAX = 8;
/** New words wait in a short list before joining the sorted one, so indexing one skill never sorts them all. */
const RECENT_MAX = 2_048;
/**
 * Prefixes this short stand for hundreds or thousands of words each, and there are few of them (at most a few
 * tens of thousands): their expansions are kept until the vocabulary gains a word they start, rather than found by
 * a walk over those words on every keystroke.
 */
const SHORT_PREFIX = 3;

const bySurface = (a: Word, b: Word) => (a.surface < b.surface ? -1 : a.surface > b.surface ? 1 : 0);

/** Every folded word the index has seen, for prefixes (search as you type) and typos. */
export class Vocabulary {
  private readonly words = new Map<string, Word>();
  private readonly byId: Word[] = [];
  private sorted: Word[] = [];
  private recent: Word[] = [];
  /** Whether `recent` is in order of surface (it is sorted when a prefix is looked up, not on every new word). */
  private recentSorted = true;
  private readonly typos = new TypoIndex();
  private readonly shortPrefixes = new Map<string, { max: number; surfaces: string[] }>();
  /** The words indexed under each term, so a result's matches are found by their surface, not stemmed again. */
  private readonly byTerm = new Map<string, string[]>();

  /** Counts one more document holding the word; returns the word's number, for `removeId`. */
  add(surface: string, term: string): number {
    const known = this.words.get(surface);
    if (known !== undefined) {
      known.documents += 1;
      return known.id;
    }
    const word = { surface, term, documents: 1, id: this.byId.length };
    this.byId.push(word);
    this.words.set(surface, word);
    const same = this.byTerm.get(term);
    if (same === undefined) this.byTerm.set(term, [surface]);
    else same.push(surface);
    for (let length = 1; length <= SHORT_PREFIX; length += 1) this.shortPrefixes.delete(surface.slice(0, length));
    this.typos.add(surface);
    this.recent.push(word);
    this.recentSorted = false;
    // The waiting list may grow with the vocabulary: merging costs a pass over every word, so merging after a
    // fixed number of new words would make indexing quadratic in the vocabulary.
    if (this.recent.length > Math.max(RECENT_MAX, this.sorted.length / 16)) this.merge();
    return word.id;
  }

  /** Counts one document fewer holding the word numbered `id`. */
  removeId(id: number): void {
    const known = this.byId[id];
    if (known !== undefined) known.documents -= 1;
  }

  /** Whether some live document holds the word as written. */
  known(surface: string): boolean {
    return (this.words.get(surface)?.documents ?? 0) > 0;
  }

  termOf(surface: string): string | undefined {
    return this.words.get(surface)?.term;
  }

  /** Every word ever indexed under `term`. */
  surfacesOf(term: string): readonly string[] {
    return this.byTerm.get(term) ?? [];
  }

  /**
   * The words starting with `prefix` that some live document holds, most frequent first. One pass over the
   * words with the prefix (thousands for a letter or two), keeping the best few: no sort of them all.
   */
  prefixed(prefix: string, max = PREFIX_EXPANSIONS_MAX): string[] {
    if (prefix.length > SHORT_PREFIX) return this.scan(prefix, max);
    const known = this.shortPrefixes.get(prefix);
    if (known?.max === max) return known.surfaces;
    const surfaces = this.scan(prefix, max);
    this.shortPrefixes.set(prefix, { max, surfaces });
    return surfaces;
  }

  private scan(prefix: string, max: number): string[] {
    const best = new MostFrequent(max);
    if (!this.recentSorted) {
      // Mostly in order already (one sorted run and the words added since), which the sort merges in a pass.
      this.recent.sort(bySurface);
      this.recentSorted = true;
    }
    offerPrefixed(this.recent, prefix, best);
    offerPrefixed(this.sorted, prefix, best);
    return best.surfaces();
  }

  /** The words within the typo budget of `surface`'s length, most frequent first. */
  near(surface: string): string[] {
    const budget = typoBudget(surface.length);
    if (budget === 0) return [];
    const best = new MostFrequent(TYPO_EXPANSIONS_MAX);
    for (const found of this.typos.near(surface, budget)) {
      const word = this.words.get(found);
      if (word !== undefined) best.offer(word);
    }
    return best.surfaces();
  }

  /** One linear merge of the sorted words with the waiting ones, sorted first. */
  private merge(): void {
    const waiting = this.recent.sort(bySurface);
    const { sorted } = this;
    const merged: Word[] = new Array<Word>(sorted.length + waiting.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k += 1) {
      const a = sorted[i];
      const b = waiting[j];
      if (a !== undefined && (b === undefined || a.surface <= b.surface)) {
        merged[k] = a;
        i += 1;
      } else if (b !== undefined) {
        merged[k] = b;
        j += 1;
      }
    }
    this.sorted = merged;
    this.recent = [];
    this.recentSorted = true;
  }
}

/** Offers `best` the words of `words` (in order of surface) that start with `prefix`, found by binary search. */
function offerPrefixed(words: readonly Word[], prefix: string, best: MostFrequent): void {
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((words[middle]?.surface ?? '') < prefix) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < words.length; i += 1) {
    const word = words[i];
    if (!word?.surface.startsWith(prefix)) break;
    best.offer(word);
  }
}

/** The `max` live words with the most documents among those offered, most first (ties: first offered). */
class MostFrequent {
  private readonly kept: Word[] = [];
  constructor(private readonly max: number) {}

  offer(word: Word): void {
    const { kept, max } = this;
    if (word.documents <= 0) return;
    if (kept.length === max && (kept[max - 1]?.documents ?? 0) >= word.documents) return;
    let at = kept.length;
    while (at > 0 && (kept[at - 1]?.documents ?? 0) < word.documents) at -= 1;
    kept.splice(at, 0, word);
    if (kept.length > max) kept.pop();
  }

  surfaces(): string[] {
    return this.kept.map((word) => word.surface);
  }
}
