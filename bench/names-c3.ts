// The third set of look-alikes for bench/names.ts: written before the rules for word order, added words, short
// names and sound-alike letters, and held out from them; the later rules (two typos, run-together orders, bylines,
// runs of dressing words) were written against its misses, so it is training now. Each kind mixes what the documented rules catch
// with something they were not written for, as someone who had read docs/api-decisions.md would.

/** Marketing words that stand in for a word of a name. */
const STAND_INS = ['pro', 'suite', 'studio', 'kit', 'hub', 'toolkit', 'master', 'expert'];
/** Words that make a name read as an agent's tool. */
const ROLE_WORDS = ['skill', 'agent', 'tool'];
const DIGIT_FOR: Record<string, string> = { o: '0', l: '1', i: '1', e: '3', a: '4', s: '5', t: '7', b: '8', g: '9' };
/** Sound-alike spellings an attacker would reach for. */
const SOUND_ALIKE: readonly [RegExp, string][] = [
  [/ck/g, 'k'],
  [/c(?=[aoukrlt])/g, 'k'],
  [/s(?=$|-)/g, 'z'],
  [/ph/g, 'f'],
  [/x/g, 'ks'],
  [/qu/g, 'kw'],
  [/y/g, 'i'],
];

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** A random order of `words` other than the given one (when there is any). */
function shuffled(words: readonly string[], next: () => number): string[] {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const out = [...words];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    if (out.join('-') !== words.join('-')) return out;
  }
  return [...words.slice(1), words[0]!];
}

function soundAlike(name: string): string {
  return SOUND_ALIKE.reduce((out, [pattern, to]) => out.replace(pattern, to), name);
}

/**
 * The third held-out set: three-word reorders, a word replaced by a marketing word (with and without a reorder),
 * digits for letters mixed with a reorder, a role word (`-skill`, `-agent`, `-tool`) with a reorder, a repeated word,
 * other separators with an added word, sound-alike spellings with an added word, a word put in the middle, three
 * added words, the words run together in another order, and a short name made plural with a word added.
 */
export function thirdHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const many = words.length >= 2;
  const replaceAt = Math.floor(next() * words.length);
  const replaced = words.map((word, i) => (i === replaceAt ? pick(STAND_INS, next) : word));
  const digitWord = Math.floor(next() * words.length);
  const withDigits = words.map((word, i) => (i === digitWord ? [...word].map((c) => DIGIT_FOR[c] ?? c).join('') : word));
  return {
    'three or more words in another order': words.length >= 3 ? [shuffled(words, next).join('-'), [...words].reverse().join('-')] : [],
    'a word replaced by a marketing word': many
      ? [replaced.join('-'), shuffled(replaced, next).join('-')]
      : [`${pick(STAND_INS, next)}-${name}-${pick(STAND_INS, next)}`],
    'digits for letters and another order': many ? [shuffled(withDigits, next).join('-')] : [withDigits.join('-') + '-0fficial'],
    'a role word and another order': ROLE_WORDS.map((role) => (many ? [...shuffled(words, next), role] : [role, ...words]).join('-')),
    'a repeated word': [[...words, words.at(-1)!].join('-'), [words[0]!, ...words].join('-')],
    'other separators and an added word': [`${words.join('_')}_${pick(STAND_INS, next)}`, `${pick(STAND_INS, next)}-${words.join('')}`],
    'sound-alike spelling and an added word': [`${soundAlike(name)}-${pick(STAND_INS, next)}`, `the-${soundAlike(name)}`],
    'a word put in the middle': many
      ? [[words[0]!, pick(STAND_INS, next), ...words.slice(1)].join('-')]
      : [`${name}-for-${pick(['teams', 'devs', 'you'], next)}`],
    'three words added': [`get-the-best-${name}`, `${name}-by-acme-labs`],
    'words run together in another order': many ? [shuffled(words, next).join('')] : [],
    'a short name made plural with a word added':
      name.replaceAll('-', '').length < 5 ? [`${name}s-${pick(STAND_INS, next)}`, `my-${name}s`] : [],
  };
}
