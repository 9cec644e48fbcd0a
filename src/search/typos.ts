/**
 * Edit distance with adjacent swaps counting as one edit (optimal string alignment), given up as soon as it must
 * exceed `max`: only "within one or two edits" is ever asked.
 */
export function editDistanceWithin(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  if (a === b) return true;
  const n = b.length;
  let before = new Array<number>(n + 1).fill(0);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  let current = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] ?? 0) + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return false;
    [before, previous, current] = [previous, current, before];
  }
  return (previous[n] ?? Infinity) <= max;
}

/** How many edits a word of this length may carry and still be found: one from 5 letters, two from 9. */
export function typoBudget(length: number): number {
  if (length >= 9) return 2;
  if (length >= 5) return 1;
  return 0;
}

/** The padded character pairs of a word (`^w`, …, `d$`): words one edit apart share all but a few. */
export function pairsOf(word: string): string[] {
  const padded = `^${word}$`;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < padded.length; i += 1) pairs.add(padded.slice(i, i + 2));
  return [...pairs];
}

/**
 * Finds the words of a growing vocabulary within a few edits of a query word, without comparing it with every
 * word: candidates must share enough character pairs with it (an edit changes at most three pairs), and only
 * those are compared exactly.
 */
export class TypoIndex {
  private readonly byPair = new Map<string, number[]>();
  private readonly words: string[] = [];

  add(word: string): void {
    const id = this.words.push(word) - 1;
    for (const pair of pairsOf(word)) {
      const list = this.byPair.get(pair);
      if (list === undefined) this.byPair.set(pair, [id]);
      else list.push(id);
    }
  }

  /** The words within `max` edits of `word`, the word itself excluded. */
  near(word: string, max: number): string[] {
    const pairs = pairsOf(word);
    const needed = Math.max(1, pairs.length - 3 * max);
    const shared = new Map<number, number>();
    for (const pair of pairs) {
      for (const id of this.byPair.get(pair) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
    const found: string[] = [];
    for (const [id, count] of shared) {
      if (count < needed) continue;
      const candidate = this.words[id];
      if (candidate !== undefined && candidate !== word && editDistanceWithin(word, candidate, max)) found.push(candidate);
    }
    return found;
  }
}
