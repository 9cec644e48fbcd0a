// The seventh held-out set of look-alikes for bench/names.ts: written before the rules for vendor and role words around
// a name, changed endings and names run together with a claim or a vendor word, and never tuned against. Each
// look-alike puts a change of the earlier sets in a new place or beside another.

const CLAIMS = ['pro', 'premium', 'ultra', 'official', 'plus', 'v2'];
const VENDORS = ['openai', 'anthropic', 'microsoft', 'github', 'gcp', 'vercel'];
const ROLES = ['agent', 'bot', 'helper', 'tool', 'assistant'];
const DIGIT_FOR: Record<string, string> = { e: '3', i: '1', o: '0', a: '4', s: '5' };

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** The last letter of `word` that has a digit look-alike, away from its ends, replaced by it. */
function lastDigit(word: string): string {
  for (let i = word.length - 2; i > 0; i--) {
    const d = DIGIT_FOR[word[i]!];
    if (d !== undefined) return word.slice(0, i) + d + word.slice(i + 1);
  }
  return word;
}

/** A letter of `word`, the one after its middle, written twice. */
function doubled(word: string): string {
  const i = Math.floor(word.length / 2);
  return word.length < 3 ? word : word.slice(0, i + 1) + word[i]! + word.slice(i + 1);
}

/** The last word's ending changed: `-ing` for `-s`/`-e`/nothing, or `-ed`. */
function ending(word: string): string {
  if (word.endsWith('ing')) return `${word.slice(0, -3)}ed`;
  return `${word.replace(/(?:e|s)$/, '')}ing`;
}

/**
 * The seventh held-out set: a vendor word after the name, a role word and a claim after it, a vendor word before and a
 * changed ending, the name run together with a role word, run together with a version, a digit inside a name run
 * together, a vendor word and a version, the words turned round with a vendor word before, a doubled letter and a
 * claim, a claim run on before the name run together, and a word abbreviated to its consonants with a claim.
 */
export function seventhHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const many = words.length >= 2;
  const consonants = (w: string): string => w[0]! + w.slice(1).replace(/[aeiou]/g, '');
  return {
    'a vendor word after': [`${name}-${pick(VENDORS, next)}`],
    'a role word and a claim after': [`${name}-${pick(ROLES, next)}-${pick(CLAIMS, next)}`],
    'a vendor word before and a changed ending': [[pick(VENDORS, next), ...words.slice(0, -1), ending(words.at(-1)!)].join('-')],
    'run together with a role word': [`${words.join('')}${pick(ROLES, next)}`],
    'run together with a version': [`${words.join('')}${Math.floor(next() * 8) + 2}`],
    'a digit inside a name run together': many ? [words.map((w, i) => (i === 0 ? lastDigit(w) : w)).join('')] : [],
    'a vendor word and a version': [`${pick(VENDORS, next)}-${name}-v${Math.floor(next() * 8) + 2}`],
    'the words turned round with a vendor word before': many ? [[pick(VENDORS, next), ...[...words].reverse()].join('-')] : [],
    'a doubled letter and a claim': [[doubled(words[0]!), ...words.slice(1), pick(CLAIMS, next)].join('-')],
    'a claim run on before the name run together': [`${pick(CLAIMS, next)}${words.join('')}`],
    'a word abbreviated and a claim':
      many && words.some((w) => w.length >= 6)
        ? [[...words.map((w) => (w.length >= 6 && consonants(w) !== w ? consonants(w) : w)), pick(CLAIMS, next)].join('-')]
        : [],
  };
}
