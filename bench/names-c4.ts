// The fourth held-out set of look-alikes for bench/names.ts: written before the rules for run-together reorders,
// bylines and runs of dressing words, and never tuned against. It mixes two kinds of change in one name, as an
// attacker who had read docs/api-decisions.md and found the first change refused would.

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Vendor and product words that make a name read as someone's own release of it. */
const VENDORS = ['anthropic', 'openai', 'claude', 'cursor', 'vercel', 'github'];
/** Claim words and version marks, as in the rules' own list and beyond it. */
const MARKS = ['official', 'v3', 'pro', 'plus', 'latest', '2026', 'nextgen', 'hd'];
/** Letters that a pair of letters reads as, written the other way round. */
const PAIR_FOR: Record<string, string> = { m: 'rn', w: 'vv', d: 'cl' };

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** `name` with the letter at one random position (not a separator) changed by `change`. */
function atLetter(name: string, next: () => number, change: (letter: string) => string): string {
  const places = [...name].map((c, i) => [c, i] as const).filter(([c]) => c !== '-');
  const [letter, at] = places[Math.floor(next() * places.length)]!;
  return name.slice(0, at) + change(letter) + name.slice(at + 1);
}

/** Two typos: one letter dropped and two neighbours swapped elsewhere. */
function twoTypos(name: string, next: () => number): string {
  const dropped = atLetter(name, next, () => '');
  const pairs = [...dropped]
    .map((_, i) => i)
    .filter((i) => i + 1 < dropped.length && dropped[i] !== dropped[i + 1] && dropped[i] !== '-' && dropped[i + 1] !== '-');
  if (pairs.length === 0) return dropped;
  const i = pairs[Math.floor(next() * pairs.length)]!;
  return dropped.slice(0, i) + dropped[i + 1]! + dropped[i]! + dropped.slice(i + 2);
}

/** The vowels of the longest word dropped, but its first letter (`code-review` → `code-rvw`). */
function abbreviated(words: readonly string[]): string {
  const longest = words.reduce((best, word, i) => (word.length > words[best]!.length ? i : best), 0);
  return words.map((word, i) => (i === longest ? word[0]! + word.slice(1).replace(/[aeiou]/g, '') : word)).join('-');
}

/**
 * The fourth held-out set: two typos in a long name, a vendor word (one or two) before the name, a letter-pair
 * look-alike with a mark added, separators inside words, a version of several parts, a word abbreviated, a typo with
 * a mark added, a role word with a byline, a plural inside with a mark, and the words turned round a connector.
 */
export function fourthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const letters = name.replaceAll('-', '');
  const pairable = [...name].some((c) => PAIR_FOR[c] !== undefined);
  return {
    'two typos in a long name': letters.length >= 10 ? [twoTypos(name, next)] : [],
    'a vendor word before': [`${pick(VENDORS, next)}-${name}`, `${pick(VENDORS, next)}-code-${name}`],
    'a letter pair for a letter, with a mark': pairable ? [`${[...name].map((c) => PAIR_FOR[c] ?? c).join('')}-${pick(MARKS, next)}`] : [],
    'separators inside a word': [
      atLetter(name, next, (c) => `${c}-`)
        .replace(/-+$/, '')
        .replace(/--+/g, '-'),
    ],
    'a version of several parts': [`${name}-v2-1`, `${name}-2-0`],
    'a word abbreviated': letters.length >= 8 ? [abbreviated(words)] : [],
    'a typo and a mark':
      letters.length >= 5 ? [`${atLetter(name, next, (c) => LETTERS.replace(c, '')[Math.floor(next() * 25)]!)}-${pick(MARKS, next)}`] : [],
    'a role word and a byline': [`${name}-skill-by-${pick(VENDORS, next)}`, `${name}-agent-from-${pick(VENDORS, next)}-labs`],
    'a plural inside, with a mark':
      words.length >= 2 ? [[`${words[0]}s`, ...words.slice(1), pick(MARKS, next)].join('-')] : [`${name}s-${pick(MARKS, next)}`],
    'the words turned round a connector': words.length >= 2 ? [`${words.slice(1).join('-')}-for-${words[0]}`] : [`tools-for-${name}`],
  };
}
