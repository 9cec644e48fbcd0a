// The sixth held-out set of look-alikes for bench/names.ts: written before the rules for vendor words with a claim and
// typos with a number run on, and never tuned against. Each look-alike mixes changes of the earlier sets in new pairs.

const CLAIMS = ['pro', 'official', 'plus', 'hq', 'v3', 'max'];
const VENDORS = ['meta', 'mistral', 'google', 'aws', 'azure'];
const ROLES = ['agent', 'skill', 'bot', 'assistant'];
const DIGIT_FOR: Record<string, string> = { e: '3', i: '1', o: '0', a: '4', s: '5' };

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** The first letter of `word` that has a digit look-alike, replaced by it. */
function oneDigit(word: string): string {
  const at = [...word].findIndex((c, i) => i > 0 && DIGIT_FOR[c] !== undefined);
  return at < 0 ? word : word.slice(0, at) + DIGIT_FOR[word[at]!]! + word.slice(at + 1);
}

/** Two neighbouring letters of `word` swapped, away from its ends. */
function swapped(word: string): string {
  if (word.length < 4) return word;
  const i = Math.floor(word.length / 2) - 1;
  return word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);
}

/**
 * The sixth held-out set: a digit in each of two words with a claim, a vendor word with a role word, a typo in each of
 * two words, every word made plural, a number inside the first word, a changed ending with a claim, the words reversed
 * and run together with a claim, a repeated first word with a claim, a claim word both sides, and a vendor word run on.
 */
export function sixthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const many = words.length >= 2;
  return {
    'a digit in two words and a claim': many
      ? [[oneDigit(words[0]!), ...words.slice(1, -1), oneDigit(words.at(-1)!), pick(CLAIMS, next)].join('-')]
      : [],
    'a vendor word and a role word': [`${pick(VENDORS, next)}-${name}-${pick(ROLES, next)}`],
    'a typo in two words':
      many && words[0]!.length >= 4 && words.at(-1)!.length >= 4
        ? [[swapped(words[0]!), ...words.slice(1, -1), swapped(words.at(-1)!)].join('-')]
        : [],
    'every word made plural': [words.map((w) => (w.endsWith('s') ? w : `${w}s`)).join('-')],
    'a number inside the first word': many ? [[`${words[0]}${Math.floor(next() * 9) + 1}`, ...words.slice(1)].join('-')] : [],
    'a changed ending and a claim': [`${name.replace(/(?:e|er|ing|s)?$/, 'er')}-${pick(CLAIMS, next)}`],
    'the words reversed and run together with a claim': many ? [`${[...words].reverse().join('')}${pick(CLAIMS, next)}`] : [],
    'a repeated first word and a claim': [`${words[0]}-${name}-${pick(CLAIMS, next)}`],
    'a claim word both sides': [`${pick(CLAIMS, next)}-${name}-${pick(CLAIMS, next)}`],
    'a vendor word run on': [`${pick(VENDORS, next)}${words.join('')}`],
  };
}
