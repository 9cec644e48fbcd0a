/**
 * Three rows of the distance table, reused by every comparison: a query word is compared with hundreds of
 * candidates, and three arrays for each were a good part of what a search allocated.
 */
let table = new Int32Array(3 * 64);

/**
 * Edit distance with adjacent swaps counting as one edit (optimal string alignment), given up as soon as it must
 * exceed `max`: only "within one or two edits" is ever asked.
 */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  if (a === b) return true;
  const n = b.length;
  const width = n + 1;
  if (table.length < 3 * width) table = new Int32Array(6 * width);
  // Rows rotate through the three thirds of the table: `before` (i - 2), `previous` (i - 1) and `current` (i).
  let before = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j <= n; j += 1) {
    table[before + j] = 0;
    table[previous + j] = j;
  }
  for (let i = 1; i <= a.length; i += 1) {
    table[current] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((table[previous + j] ?? 0) + 1, (table[current + j - 1] ?? 0) + 1, (table[previous + j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (table[before + j - 2] ?? 0) + 1);
      table[current + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return false;
    [before, previous, current] = [previous, current, before];
  }
  return (table[previous + n] ?? Infinity) <= max;
}

/** How many edits a word of this length may carry and still be found: one from 5 letters, two from 9. */
export function typoBudget(length: number): number {
  if (length >= 9) return 2;
  if (length >= 5) return 1;
  return 0;
}

/**
 * The padded character pairs of a word (`^w`, …, `d$`), each once, as numbers (the two UTF-16 units side by side,
 * the padding as 0 and 1): words one edit apart share all but a few. Numbers rather than strings: a million skills
 * hold millions of words, and a string key per pair per word was most of the cost of indexing one.
 */
export function pairsOf(word: string): number[] {
  const codes: number[] = [];
  for (let i = -1; i < word.length; i += 1) {
    const first = i < 0 ? 0 : word.charCodeAt(i);
    const second = i + 1 < word.length ? word.charCodeAt(i + 1) : 1;
    const code = first * 65_536 + second;
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/**
 * Finds the words of a growing vocabulary within a few edits of a query word, without comparing it with every
 * word. An edit changes at most three of a word's character pairs, so a word within `max` edits shares at least
 * one of any `3 × max + 1` of the query's pairs: only the words holding one of its rarest pairs, and of a length
 * within `max`, are compared exactly. Lists are kept per pair and length, so a common pair of a long vocabulary
 * (`^s`, `in`) never means a walk over a large share of it.
 */
export class TypoIndex {
  /** By word length, then by pair: the words' numbers. */
  private readonly byLength: Map<number, number[]>[] = [];
  private readonly words: string[] = [];
  /** Stamps of the last `near` call, to take each candidate once without a set. */
  private seen = new Uint32Array(1024);
  private stamp = 0;

  add(word: string): void {
    const id = this.words.push(word) - 1;
    let lists = this.byLength[word.length];
    if (lists === undefined) {
      lists = new Map();
      this.byLength[word.length] = lists;
    }
    for (const pair of pairsOf(word)) {
      const list = lists.get(pair);
      if (list === undefined) lists.set(pair, [id]);
      else list.push(id);
    }
  }

  /** The words within `max` edits of `word`, the word itself excluded. */
  near(word: string, max: number): string[] {
    if (this.seen.length < this.words.length) this.seen = new Uint32Array(this.words.length * 2);
    this.stamp += 1;
    const found: string[] = [];
    const pairs = pairsOf(word);
    for (let length = Math.max(1, word.length - max); length <= word.length + max; length += 1) {
      const byPair = this.byLength[length];
      if (byPair === undefined) continue;
      const lists = pairs.map((pair) => byPair.get(pair) ?? []).sort((a, b) => a.length - b.length);
      for (const list of lists.slice(0, 3 * max + 1)) {
        for (const id of list) {
          if (this.seen[id] === this.stamp) continue;
          this.seen[id] = this.stamp;
          const candidate = this.words[id];
          if (candidate !== undefined && candidate !== word && editDistanceWithin(word, candidate, max)) found.push(candidate);
        }
      }
    }
    return found;
  }
}
