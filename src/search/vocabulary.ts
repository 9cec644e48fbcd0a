import { TypoIndex, typoBudget } from './typos.js';

interface Word {
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

/** Every folded word the index has seen, for prefixes (search as you type) and typos. */
export class Vocabulary {
  private readonly words = new Map<string, Word>();
  private sorted: string[] = [];
  private recent: string[] = [];
  private readonly typos = new TypoIndex();

  add(surface: string, term: string): void {
    const known = this.words.get(surface);
    if (known !== undefined) {
      known.documents += 1;
      return;
    }
    this.words.set(surface, { term, documents: 1 });
    this.typos.add(surface);
    this.recent.push(surface);
    if (this.recent.length > RECENT_MAX) this.merge();
  }

  remove(surface: string): void {
    const known = this.words.get(surface);
    if (known !== undefined) known.documents -= 1;
  }

  /** Whether some live document holds the word as written. */
  known(surface: string): boolean {
    return (this.words.get(surface)?.documents ?? 0) > 0;
  }

  termOf(surface: string): string | undefined {
    return this.words.get(surface)?.term;
  }

  /** The words starting with `prefix` that some live document holds, most frequent first. */
  prefixed(prefix: string, max = PREFIX_EXPANSIONS_MAX): string[] {
    const found = this.recent.filter((word) => word.startsWith(prefix));
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.sorted[middle] ?? '') < prefix) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < this.sorted.length; i += 1) {
      const word = this.sorted[i] ?? '';
      if (!word.startsWith(prefix)) break;
      found.push(word);
    }
    return this.mostFrequent(found, max);
  }

  /** The words within the typo budget of `surface`'s length, most frequent first. */
  near(surface: string): string[] {
    const budget = typoBudget(surface.length);
    if (budget === 0) return [];
    return this.mostFrequent(this.typos.near(surface, budget), TYPO_EXPANSIONS_MAX);
  }

  private mostFrequent(words: string[], max: number): string[] {
    const live = words.filter((word) => (this.words.get(word)?.documents ?? 0) > 0);
    if (live.length <= max) return live;
    return live.sort((a, b) => (this.words.get(b)?.documents ?? 0) - (this.words.get(a)?.documents ?? 0)).slice(0, max);
  }

  private merge(): void {
    this.sorted = [...this.sorted, ...this.recent].sort();
    this.recent = [];
  }
}
