// The ninth held-out set of look-alikes for bench/names.ts: written before the rules for vendor and role words run on
// together, abbreviations beside a vendor word and claims run on both sides, and never tuned against. Each look-alike
// joins a change of the earlier sets to another in a way no earlier set did.

const CLAIMS = ['pro', 'max', 'official', 'plus', 'hq', 'latest'];
const VENDORS = ['aws', 'openai', 'meta', 'github', 'azure', 'claude'];
const ROLES = ['bot', 'agent', 'assistant', 'helper'];
const DIGIT_FOR: Record<string, string> = { e: '3', i: '1', o: '0', a: '4', s: '5' };

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** The first vowel of `word` after its first letter left out. */
function typo(word: string): string {
  const at = [...word].findIndex((c, i) => i > 0 && 'aeiou'.includes(c));
  return at < 0 || word.length < 5 ? word : word.slice(0, at) + word.slice(at + 1);
}

/**
 * The ninth held-out set: a vendor word run on after and a claim set off, a letter tag and a vendor word, a plural
 * and a vendor word run on, two claim words after, a typo and a role word run on, an abbreviation and a role word, a
 * connector and a vendor word, a version and a vendor word before, digits for letters run together with a role word.
 */
export function ninthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const consonants = (w: string): string => w[0]! + w.slice(1).replace(/[aeiou]/g, '');
  const letters = 'bcdfghjklmnpqrstvwxz';
  const tag = Array.from({ length: 3 }, () => letters[Math.floor(next() * letters.length)]!).join('');
  return {
    'a vendor word run on after and a claim': [`${words.join('')}${pick(VENDORS, next)}-${pick(CLAIMS, next)}`],
    'a letter tag and a vendor word': [`${pick(VENDORS, next)}-${name}-${tag}`],
    'a plural and a vendor word run on': [`${pick(VENDORS, next)}${words.join('')}${words.at(-1)!.endsWith('s') ? '' : 's'}`],
    'two claim words after': [`${name}-${pick(CLAIMS, next)}-${pick(CLAIMS, next)}`],
    'a typo and a role word run on': [`${typo(words[0]!)}${words.slice(1).join('')}${pick(ROLES, next)}`],
    'an abbreviation and a role word': words.some((w) => w.length >= 6)
      ? [[...words.map((w) => (w.length >= 6 ? consonants(w) : w)), pick(ROLES, next)].join('-')]
      : [],
    'a connector and a vendor word': [`${name}-for-${pick(VENDORS, next)}`],
    'a version and a vendor word before': [`v${Math.floor(next() * 8) + 2}-${pick(VENDORS, next)}-${name}`],
    'digits for letters run together with a role word': [
      `${words.map((w) => [...w].map((c) => DIGIT_FOR[c] ?? c).join('')).join('')}${pick(ROLES, next)}`,
    ],
  };
}
