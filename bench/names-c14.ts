// The fourteenth held-out set of look-alikes for bench/names.ts: written before the rules written against the
// thirteenth set's misses, and never tuned against. Each look-alike changes a name in a way no earlier set did, or
// joins two changes in a new way.

const EXTENSIONS = ['md', 'js', 'py', 'ts', 'sh'];
const FOREIGN_CLAIMS = ['oficial', 'profesional', 'offiziell', 'officiel', 'premium'];
const LINKS = ['and', 'plus', 'with'];

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** `word` without its first vowel after the first letter, or null when it has none. */
function vowelDropped(word: string): string | null {
  const at = [...word].findIndex((c, i) => i > 0 && 'aeiou'.includes(c));
  return at > 0 ? word.slice(0, at) + word.slice(at + 1) : null;
}

/**
 * The fourteenth held-out set: a file extension as a word after; a year run on; a vowel dropped from two words; a
 * claim word in another language; the first word repeated with a link word between; a letter and a digit run on
 * before; a hyphen inside the longest word with a claim run on.
 */
export function fourteenthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const joined = words.join('');
  const dropped = words.map((w) => (w.length >= 5 ? vowelDropped(w) : null));
  const twoDropped = dropped.filter((d) => d !== null).length >= 2 ? words.map((w, i) => dropped[i] ?? w).join('-') : null;
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
  const split = longest.length >= 6 ? words.map((w) => (w === longest ? `${w.slice(0, 3)}-${w.slice(3)}` : w)).join('-') : null;
  return {
    'a file extension after': [`${name}-${pick(EXTENSIONS, next)}`],
    'a year run on': [`${joined}${2024 + Math.floor(next() * 3)}`],
    'a vowel dropped from two words': twoDropped === null ? [] : [twoDropped],
    'a claim word in another language': [`${name}-${pick(FOREIGN_CLAIMS, next)}`],
    'the first word repeated with a link word': words.length >= 2 ? [[words[0], pick(LINKS, next), ...words].join('-')] : [],
    'a letter and a digit run on before': [`${'xqz'[Math.floor(next() * 3)]}${1 + Math.floor(next() * 9)}${joined}`],
    'a hyphen inside a word and a claim run on': split === null ? [] : [`${split}pro`],
  };
}
