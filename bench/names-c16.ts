// The sixteenth held-out set of look-alikes for bench/names.ts: written before the rules written against the
// fifteenth set's misses, and never tuned against. Each look-alike changes a name in a way no earlier set did, or
// joins two changes in a new way.

const ROLES = ['bot', 'agent', 'helper'];
const TLDS = ['io', 'ai', 'dev', 'app', 'sh'];

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/**
 * The sixteenth held-out set: the name as a domain (a top-level word after); the first letter of every word upper and
 * the words run together, read in lower case; a doubled separator letter; the last two letters swapped with a role
 * word run on; the words joined by `and`; a vowel doubled in every word.
 */
export function sixteenthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const joined = words.join('');
  const swapped = joined.length >= 5 ? `${joined.slice(0, -2)}${joined.at(-1)!}${joined.at(-2)!}` : null;
  const doubledVowels = words.map((w) => w.replace(/[aeiou]/, (v) => v + v)).join('-');
  return {
    'the name as a domain': [`${joined}-${pick(TLDS, next)}`],
    'the words joined by and': words.length === 2 ? [`${words[0]}-and-${words[1]}`] : [],
    'the last two letters swapped and a role word run on': swapped === null ? [] : [`${swapped}${pick(ROLES, next)}`],
    'a vowel doubled in every word': doubledVowels === name ? [] : [doubledVowels],
    'separators doubled as letters': words.length >= 2 ? [words.join('xx')] : [],
    'the name written backwards in words and run together': words.length >= 2 ? [[...words].reverse().join('')] : [],
  };
}
