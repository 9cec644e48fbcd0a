// The fifth set of look-alikes for bench/names.ts (training since the rules for vendor words with a claim and typos
// with a number run on were written against its misses): written after the rules for two typos, abbreviations,
// bylines, runs of dressing words and run-together orders, and held out from them. Each look-alike is a change the
// rules name combined with another, or a change they do not name.

const MARKS = ['official', 'pro', 'v2', 'plus', 'ai', 'hq'];
const VENDORS = ['anthropic', 'openai', 'google', 'microsoft'];
const VOWELS = 'aeiou';

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** One letter of one word changed by `change` (the word and letter picked at random). */
function inWord(words: readonly string[], next: () => number, change: (word: string, at: number) => string): string {
  const w = Math.floor(next() * words.length);
  const word = words[w]!;
  const at = Math.floor(next() * word.length);
  return words.map((each, i) => (i === w ? change(each, at) : each)).join('-');
}

/** Two neighbouring letters of a word swapped (the last two when the picked one is the last). */
function swapAt(word: string, at: number): string {
  const i = Math.min(at, word.length - 2);
  return i < 0 ? word : word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);
}

/** One vowel of a word changed for another vowel. */
function vowelChanged(word: string, next: () => number): string {
  const at = [...word].findIndex((c, i) => i > 0 && VOWELS.includes(c));
  if (at < 0) return word;
  const other = VOWELS.replace(word[at]!, '');
  return word.slice(0, at) + other[Math.floor(next() * other.length)]! + word.slice(at + 1);
}

/**
 * The fifth held-out set: a doubled letter with a word before, a vendor word with a mark, a swapped pair with a role
 * word, vowels changed in two words, a typo with a number joined on, a word split by a hyphen, `k` for `c` with a
 * plural, a word left out of a long name, digits for letters with a mark before, and the name joined with a number.
 */
export function fifthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const letters = name.replaceAll('-', '');
  return {
    'a doubled letter and a word before': [`the-${inWord(words, next, (word, at) => word.slice(0, at + 1) + word.slice(at))}`],
    'a vendor word and a mark': [`${pick(VENDORS, next)}-${name}-${pick(MARKS, next)}`],
    'two letters swapped and a role word': letters.length >= 6 ? [`${inWord(words, next, swapAt)}-agent`] : [],
    'vowels changed in two words':
      words.length >= 2 && letters.length >= 8
        ? [[vowelChanged(words[0]!, next), ...words.slice(1, -1), vowelChanged(words.at(-1)!, next)].join('-')]
        : [],
    'a typo and a number joined on':
      letters.length >= 6 ? [`${inWord(words, next, (word, at) => word.slice(0, at) + word.slice(at + 1))}2`] : [],
    'a word split by a hyphen': [inWord(words, next, (word) => (word.length >= 4 ? `${word.slice(0, 2)}-${word.slice(2)}` : word))],
    'k for c and a plural': name.includes('c') ? [`${name.replaceAll('c', 'k')}s`] : [],
    'a word left out of a long name': words.length >= 3 ? [words.filter((_, i) => i !== Math.floor(words.length / 2)).join('-')] : [],
    'digits for letters and a mark before': [`${pick(MARKS, next)}-${name.replace(/o/g, '0').replace(/e/g, '3')}`],
    'the name joined with a number': [`${letters}${Math.floor(next() * 90) + 10}`],
  };
}
