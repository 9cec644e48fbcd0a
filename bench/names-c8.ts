// The eighth held-out set of look-alikes for bench/names.ts: written before the rules for role words beside a claim,
// vendor words beside another ending, role words run on and abbreviations with a claim, and never tuned against. Each
// look-alike puts two changes of the earlier sets together in a way no earlier set did.

const CLAIMS = ['pro', 'official', 'hq', 'plus', 'latest'];
const VENDORS = ['claude', 'gemini', 'amazon', 'copilot', 'google'];
const ROLES = ['agent', 'bot', 'expert', 'assistant', 'wizard'];
const DIGIT_FOR: Record<string, string> = { e: '3', i: '1', o: '0', a: '4', s: '5' };

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** Every letter of `word` that has a digit look-alike, replaced by it. */
function digits(word: string): string {
  return [...word].map((c) => DIGIT_FOR[c] ?? c).join('');
}

/** A letter of `word` after its first two left out. */
function dropped(word: string): string {
  return word.length < 5 ? word : word.slice(0, 3) + word.slice(4);
}

/** `word` cut in two by a hyphen after its first three letters. */
function split(word: string): string {
  return word.length < 6 ? word : `${word.slice(0, 3)}-${word.slice(3)}`;
}

/**
 * The eighth held-out set: a role word and a version after, a vendor and a role word run on, a typo and a vendor word
 * before, a word abbreviated and a vendor word, another ending and a version, a letter dropped and the name run
 * together, a word split and a claim, digits for letters and a vendor word, a role word before and a claim after, and a
 * claim run on both sides.
 */
export function eighthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const consonants = (w: string): string => w[0]! + w.slice(1).replace(/[aeiou]/g, '');
  const last = words.at(-1)!;
  return {
    'a role word and a version after': [`${name}-${pick(ROLES, next)}-v${Math.floor(next() * 8) + 2}`],
    'a vendor and a role word run on': [`${pick(VENDORS, next)}${words.join('')}${pick(ROLES, next)}`],
    'a typo and a vendor word before': [[pick(VENDORS, next), dropped(words[0]!), ...words.slice(1)].join('-')],
    'a word abbreviated and a vendor word': words.some((w) => w.length >= 6)
      ? [[pick(VENDORS, next), ...words.map((w) => (w.length >= 6 ? consonants(w) : w))].join('-')]
      : [],
    'another ending and a version': [
      [...words.slice(0, -1), last.endsWith('ing') ? `${last.slice(0, -3)}er` : `${last}ing`, `v${Math.floor(next() * 8) + 2}`].join('-'),
    ],
    'a letter dropped and the name run together': [words.map((w, i) => (i === 0 ? dropped(w) : w)).join('')],
    'a word split and a claim': words.some((w) => w.length >= 6)
      ? [[...words.map((w) => (w.length >= 6 ? split(w) : w)), pick(CLAIMS, next)].join('-')]
      : [],
    'digits for letters and a vendor word': [[pick(VENDORS, next), ...words.map(digits)].join('-')],
    'a role word before and a claim after': [`${pick(ROLES, next)}-${name}-${pick(CLAIMS, next)}`],
    'a claim run on both sides': [`${pick(CLAIMS, next)}${words.join('')}${pick(CLAIMS, next)}`],
  };
}
