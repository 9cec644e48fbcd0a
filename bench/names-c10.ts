// The tenth held-out set of look-alikes for bench/names.ts: written before the rules for vendor words run on beside a
// claim, plurals and typos under a run-on word and versions beside a vendor word, and never tuned against. Each
// look-alike joins a change of the earlier sets to another in a way no earlier set did.

const CLAIMS = ['pro', 'official', 'ultra', 'plus', 'new'];
const VENDORS = ['gemini', 'vercel', 'microsoft', 'anthropic', 'aws'];
const ROLES = ['bot', 'agent', 'helper', 'assistant'];

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/** Two neighbouring letters of `word` swapped after its first two. */
function swapped(word: string): string {
  return word.length < 5 ? word : word.slice(0, 2) + word[3]! + word[2]! + word.slice(4);
}

/**
 * The tenth held-out set: a role word run on before, a claim set off before and a vendor word run on after, a swap
 * and a claim run on before, a plural and a claim run on after, a connector and a vendor word run together, the
 * words abbreviated and run together, a vendor word and a plural, a repeated word run together with a vendor word.
 */
export function tenthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const joined = words.join('');
  const consonants = (w: string): string => w[0]! + w.slice(1).replace(/[aeiou]/g, '');
  const plural = (w: string): string => (w.endsWith('s') ? w : `${w}s`);
  return {
    'a role word run on before': [`${pick(ROLES, next)}${joined}`],
    'a claim before and a vendor word run on after': [`${pick(CLAIMS, next)}-${joined}${pick(VENDORS, next)}`],
    'a swap and a claim run on before': [`${pick(CLAIMS, next)}${swapped(words[0]!)}${words.slice(1).join('')}`],
    'a plural and a claim run on after': [`${words.slice(0, -1).join('')}${plural(words.at(-1)!)}${pick(CLAIMS, next)}`],
    'a connector and a vendor word run together': [`${joined}for${pick(VENDORS, next)}`],
    'the words abbreviated and run together': words.length >= 2 && words.some((w) => w.length >= 6) ? [words.map(consonants).join('')] : [],
    'a vendor word and a plural': [[pick(VENDORS, next), ...words.slice(0, -1), plural(words.at(-1)!)].join('-')],
    'a repeated word run together with a vendor word': [`${pick(VENDORS, next)}${words[0]}${joined}`],
  };
}
