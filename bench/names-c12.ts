// The twelfth held-out set of look-alikes for bench/names.ts: written before the rules written against the eleventh
// set's misses, and never tuned against. Each look-alike changes a name in a way no earlier set did, or joins two
// changes in a new way.

const VENDORS = ['aws', 'meta', 'mistral', 'gitlab', 'vercel'];
const ROLES = ['bot', 'agent', 'assistant', 'helper'];
const CONNECTORS = new Set(['for', 'with', 'and', 'to', 'from', 'of', 'in', 'on']);
const DIGIT_WORDS: Record<string, string> = { for: '4', to: '2', and: 'n' };
const VOWELS = 'aeiou';

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

function longestIndex(words: readonly string[]): number {
  let best = 0;
  words.forEach((w, i) => {
    if (w.length > words[best]!.length) best = i;
  });
  return best;
}

/**
 * The twelfth held-out set: a connector dropped; a connector written as a digit or a letter; the longest word cut to
 * five letters; a letter of the longest word doubled, the words run together; a vowel of the longest word changed,
 * with a vendor word before; digits for letters run together with a role word; a random tag run on; the words turned
 * round with a connector between.
 */
export function twelfthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const joined = words.join('');
  const long = longestIndex(words);
  const longest = words[long]!;
  const withLongest = (w: string): string[] => words.map((x, i) => (i === long ? w : x));
  const middle = Math.max(1, Math.floor(longest.length / 2));
  const vowelAt = [...longest].findIndex((c, i) => i > 0 && VOWELS.includes(c));
  const otherVowel = (c: string): string => VOWELS[(VOWELS.indexOf(c) + 1 + Math.floor(next() * 4)) % 5]!;
  const tag = Array.from({ length: 4 }, (_, i) => (i % 2 === 0 ? 'xkqz' : '7394')[Math.floor(next() * 4)]).join('');
  return {
    'a connector dropped':
      words.some((w) => CONNECTORS.has(w)) && words.length > 2 ? [words.filter((w) => !CONNECTORS.has(w)).join('-')] : [],
    'a connector as a digit or a letter': words.some((w) => w in DIGIT_WORDS) ? [words.map((w) => DIGIT_WORDS[w] ?? w).join('-')] : [],
    'the longest word cut to five letters': longest.length >= 8 && words.length > 1 ? [withLongest(longest.slice(0, 5)).join('-')] : [],
    'a letter doubled, run together': [withLongest(`${longest.slice(0, middle)}${longest[middle]!}${longest.slice(middle)}`).join('')],
    'a vowel changed and a vendor word before':
      vowelAt > 0
        ? [
            `${pick(VENDORS, next)}-${withLongest(longest.slice(0, vowelAt) + otherVowel(longest[vowelAt]!) + longest.slice(vowelAt + 1)).join('-')}`,
          ]
        : [],
    'digits for letters run together with a role word': /[eoia]/.test(joined)
      ? [`${joined.replace(/e/g, '3').replace(/o/g, '0')}${pick(ROLES, next)}`]
      : [],
    'a random tag run on': [`${joined}${tag}`],
    'turned round with a connector': words.length === 2 ? [`${words[1]}-for-${words[0]}`] : [],
  };
}
