// The eleventh held-out set of look-alikes for bench/names.ts: written before the rules for connectors and vendor words
// run together and for abbreviations run together, and never tuned against. Each look-alike joins a change of the
// earlier sets to another in a way no earlier set did.

const CLAIMS = ['pro', 'official', 'plus', 'max', 'hq'];
const VENDORS = ['google', 'openai', 'github', 'azure', 'claude'];
const ROLES = ['bot', 'agent', 'assistant'];
const CONNECTORS = ['by', 'for', 'with', 'from'];

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/**
 * The eleventh held-out set: a connector and a vendor word run on before, a connector and a role word run on after,
 * the name run together between a claim and a role word set off, the words abbreviated with a vendor word run on,
 * the last word doubled and run together, a vendor word run on with a version set off, the first letter doubled and
 * run together with a claim.
 */
export function eleventhHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const joined = words.join('');
  const consonants = (w: string): string => w[0]! + w.slice(1).replace(/[aeiou]/g, '');
  return {
    'a vendor word and a connector run on before': [`${pick(VENDORS, next)}${pick(CONNECTORS, next)}${joined}`],
    'a connector and a role word run on after': [`${joined}${pick(CONNECTORS, next)}${pick(ROLES, next)}`],
    'run together between a claim and a role word': [`${pick(CLAIMS, next)}-${joined}-${pick(ROLES, next)}`],
    'abbreviated with a vendor word run on': words.some((w) => w.length >= 6)
      ? [`${pick(VENDORS, next)}${words.map(consonants).join('')}`]
      : [],
    'the last word doubled and run together': [`${joined}${words.at(-1)}`],
    'a vendor word run on and a version': [`${pick(VENDORS, next)}${joined}-v${Math.floor(next() * 8) + 2}`],
    'the first letter doubled, run together with a claim': [`${joined[0]}${joined}${pick(CLAIMS, next)}`],
  };
}
