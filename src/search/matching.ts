import type { Postings } from './postings.js';

export interface Alternative {
  postings: Postings;
  /** What one unit of impact is worth: the term's idf, lowered for a prefix or a typo. */
  factor: number;
}

export interface QueryWord {
  alternatives: Alternative[];
  /** A stop word counts towards the score when present, but is not required. */
  optional: boolean;
}

/** Whether a slot is live and passes the query's filters. */
export type Admit = (slot: number) => boolean;

function postingsOf(word: QueryWord): number {
  let total = 0;
  for (const { postings } of word.alternatives) total += postings.length;
  return total;
}

/**
 * Finds the slots a query's words match and sums their scores, into arrays reused by every query (a server runs
 * one query at a time) and stamped rather than cleared. The rarest required word picks the candidates; each
 * further word keeps those holding it, looked up in its postings by binary search when the candidates are few,
 * or by one walk of its postings when they are many. One query's work is so bounded by the postings of its
 * rarest word and the number of its words, never by the number of skills.
 */
export class Matcher {
  /** The candidates, `count` of them at the front. */
  pool = new Int32Array(0);
  score = new Float64Array(0);
  /** Required words each candidate holds (the partial match only). */
  matched = new Uint8Array(0);
  private candidate = new Uint32Array(0);
  private wordStamp = new Uint32Array(0);
  private wordBest = new Float32Array(0);
  private touched = new Int32Array(0);
  private stamp = 0;
  private query = 0;

  /** Makes room for `slots` slots. */
  ensure(slots: number): void {
    if (this.pool.length >= slots) return;
    const size = Math.max(1024, slots * 2);
    this.pool = new Int32Array(size);
    this.score = new Float64Array(size);
    this.matched = new Uint8Array(size);
    this.candidate = new Uint32Array(size);
    this.wordStamp = new Uint32Array(size);
    this.wordBest = new Float32Array(size);
    this.touched = new Int32Array(size);
    this.stamp = 0;
  }

  /** Whether `slot` is among the candidates the last match left. */
  isCandidate(slot: number): boolean {
    return this.candidate[slot] === this.query;
  }

  /** The slots holding every required word, scored; returns how many. */
  all(words: readonly QueryWord[], admit: Admit): number {
    const required = words.filter((word) => !word.optional).sort((a, b) => postingsOf(a) - postingsOf(b));
    const optional = words.filter((word) => word.optional);
    this.query = this.next();
    const [first, ...rest] = required;
    if (first === undefined) return 0;
    let count = this.seed(first, admit);
    for (const word of rest) {
      if (count === 0) break;
      const stamp = this.mark(word, count);
      count = this.keep(count, stamp);
    }
    for (const word of optional) {
      if (count === 0) break;
      const stamp = this.mark(word, count);
      this.add(count, stamp);
    }
    return count;
  }

  /**
   * The slots holding any required word, each scored with what it holds and `matched` counting its required
   * words: the fallback when no slot holds them all. Walks every postings list of the query's words.
   */
  partial(words: readonly QueryWord[], admit: Admit): number {
    this.query = this.next();
    const { pool, score, matched, candidate, wordStamp, wordBest, touched } = this;
    const query = this.query;
    let count = 0;
    for (const word of words) {
      const stamp = this.next();
      let reached = 0;
      for (const { postings, factor } of word.alternatives) {
        const { slots, impacts, length } = postings;
        for (let k = 0; k < length; k += 1) {
          const slot = slots[k] ?? 0;
          if (candidate[slot] !== query && (word.optional || !admit(slot))) continue;
          const value = factor * (impacts[k] ?? 0);
          if (wordStamp[slot] !== stamp) {
            wordStamp[slot] = stamp;
            wordBest[slot] = value;
            touched[reached] = slot;
            reached += 1;
          } else if (value > (wordBest[slot] ?? 0)) wordBest[slot] = value;
        }
      }
      for (let i = 0; i < reached; i += 1) {
        const slot = touched[i] ?? 0;
        if (candidate[slot] !== query) {
          candidate[slot] = query;
          matched[slot] = 0;
          score[slot] = 0;
          pool[count] = slot;
          count += 1;
        }
        if (!word.optional) matched[slot] = (matched[slot] ?? 0) + 1;
        score[slot] = (score[slot] ?? 0) + (wordBest[slot] ?? 0);
      }
    }
    return count;
  }

  private next(): number {
    this.stamp += 1;
    return this.stamp;
  }

  /** The admitted slots holding `word`, each scored with its best alternative. */
  private seed(word: QueryWord, admit: Admit): number {
    const { pool, score, candidate } = this;
    const query = this.query;
    let count = 0;
    for (const { postings, factor } of word.alternatives) {
      const { slots, impacts, length } = postings;
      for (let k = 0; k < length; k += 1) {
        const slot = slots[k] ?? 0;
        const value = factor * (impacts[k] ?? 0);
        if (candidate[slot] === query) {
          if (value > (score[slot] ?? 0)) score[slot] = value;
        } else if (admit(slot)) {
          candidate[slot] = query;
          score[slot] = value;
          pool[count] = slot;
          count += 1;
        }
      }
    }
    return count;
  }

  /** Stamps the candidates holding `word` with a fresh stamp and their best value for it; returns the stamp. */
  private mark(word: QueryWord, count: number): number {
    const stamp = this.next();
    const { pool, candidate, wordStamp, wordBest } = this;
    const query = this.query;
    const offer = (slot: number, value: number) => {
      if (wordStamp[slot] !== stamp) {
        wordStamp[slot] = stamp;
        wordBest[slot] = value;
      } else if (value > (wordBest[slot] ?? 0)) wordBest[slot] = value;
    };
    for (const { postings, factor } of word.alternatives) {
      const { slots, impacts, length } = postings;
      // Looking each candidate up costs about log2(length) steps; walking the list costs its length.
      if (count * Math.log2(length + 1) < length) {
        for (let i = 0; i < count; i += 1) {
          const slot = pool[i] ?? 0;
          const at = postings.indexOf(slot);
          if (at >= 0) offer(slot, factor * (impacts[at] ?? 0));
        }
      } else {
        for (let k = 0; k < length; k += 1) {
          const slot = slots[k] ?? 0;
          if (candidate[slot] === query) offer(slot, factor * (impacts[k] ?? 0));
        }
      }
    }
    return stamp;
  }

  /** Keeps the candidates stamped with `stamp`, adding their value for the word; returns how many remain. */
  private keep(count: number, stamp: number): number {
    const { pool, score, candidate, wordStamp, wordBest } = this;
    let kept = 0;
    for (let i = 0; i < count; i += 1) {
      const slot = pool[i] ?? 0;
      if (wordStamp[slot] === stamp) {
        score[slot] = (score[slot] ?? 0) + (wordBest[slot] ?? 0);
        pool[kept] = slot;
        kept += 1;
      } else candidate[slot] = 0;
    }
    return kept;
  }

  private add(count: number, stamp: number): void {
    const { pool, score, wordStamp, wordBest } = this;
    for (let i = 0; i < count; i += 1) {
      const slot = pool[i] ?? 0;
      if (wordStamp[slot] === stamp) score[slot] = (score[slot] ?? 0) + (wordBest[slot] ?? 0);
    }
  }
}
