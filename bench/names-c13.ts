// The thirteenth held-out set of look-alikes for bench/names.ts: written before the rules written against the twelfth
// set's misses, and never tuned against. Each look-alike changes a name in a way no earlier set did, or joins two
// changes in a new way.

const VENDORS = ['openai', 'google', 'aws', 'github', 'anthropic', 'azure'];
const ROLES = ['bot', 'agent', 'assistant', 'helper'];
const CLAIMS = ['pro', 'plus', 'official', 'ultra'];
const SENTENCES: [string, string][] = [
  ['the', 'you-need'],
  ['your', 'made-easy'],
  ['best', 'for-teams'],
];

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** Letters that read as others in most fonts: `rn` and `m`, `vv` and `w`, `cl` and `d`, `nn` and `m`. */
function lookAlikeLetters(name: string): string | null {
  for (const [from, to] of [
    ['m', 'rn'],
    ['rn', 'm'],
    ['w', 'vv'],
    ['d', 'cl'],
    ['cl', 'd'],
  ] as const) {
    const at = name.indexOf(from, 1);
    if (at > 0) return name.slice(0, at) + to + name.slice(at + from.length);
  }
  return null;
}

/**
 * The thirteenth held-out set: two vendor words before; the name inside a phrase; letters that read as others; a vowel
 * dropped with a vendor word run on after; a plural with a role word; a claim word inside the name; the words turned
 * round and abbreviated.
 */
export function thirteenthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const joined = words.join('');
  const [before, after] = pick(SENTENCES, next);
  const first = pick(VENDORS, next);
  const second = pick(
    VENDORS.filter((v) => v !== first),
    next,
  );
  const lookAlike = lookAlikeLetters(name);
  const vowel = [...joined].findIndex((c, i) => i > 0 && 'aeiou'.includes(c));
  const consonants = (w: string): string => w[0]! + w.slice(1).replace(/[aeiou]/g, '');
  return {
    'two vendor words before': [`${first}-${second}-${name}`],
    'the name inside a phrase': [`${before}-${name}-${after}`],
    'letters that read as others': lookAlike === null ? [] : [lookAlike],
    'a vowel dropped and a vendor word run on after':
      vowel > 0 ? [`${joined.slice(0, vowel)}${joined.slice(vowel + 1)}${pick(VENDORS, next)}`] : [],
    'a plural and a role word': [`${name}s-${pick(ROLES, next)}`],
    'a claim word inside': words.length >= 2 ? [[words[0], pick(CLAIMS, next), ...words.slice(1)].join('-')] : [],
    'turned round and abbreviated':
      words.length === 2 && words.every((w) => w.length >= 5) ? [[...words].reverse().map(consonants).join('-')] : [],
  };
}
