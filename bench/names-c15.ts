// The fifteenth held-out set of look-alikes for bench/names.ts: written before the rules written against the
// fourteenth set's misses, and never tuned against. Each look-alike changes a name in a way no earlier set did, or
// joins two changes in a new way.

const VENDORS = ['aws', 'google', 'openai', 'azure'];
const CLAIMS = ['pro', 'plus', 'hq', 'max'];
const CONNECTORS = new Set(['for', 'with', 'and', 'to', 'from', 'of', 'in', 'on']);

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)]!;
}

/**
 * The fifteenth held-out set: a number between words; a vendor word for a connector; a middle word left out and a
 * claim after; separators written as a letter or a zero; every word made plural and run together; the last word cut
 * to three letters with a claim after.
 */
export function fifteenthHeldOutAttacks(name: string, next: () => number): Record<string, string[]> {
  const words = name.split('-');
  const connector = words.findIndex((w) => CONNECTORS.has(w));
  const last = words.at(-1)!;
  return {
    'a number between words': words.length >= 2 ? [[words[0], String(2 + Math.floor(next() * 8)), ...words.slice(1)].join('-')] : [],
    'a vendor word for a connector': connector > 0 ? [words.map((w, i) => (i === connector ? pick(VENDORS, next) : w)).join('-')] : [],
    'a middle word left out and a claim after':
      words.length >= 3 ? [[...words.slice(0, 1), ...words.slice(2), pick(CLAIMS, next)].join('-')] : [],
    'separators as a letter or a zero': words.length >= 2 ? [words.join(pick(['x', '0', 'z'], next))] : [],
    'every word plural, run together': [words.map((w) => (w.endsWith('s') ? w : `${w}s`)).join('')],
    'the last word cut to three letters and a claim':
      words.length >= 2 && last.length >= 6 ? [[...words.slice(0, -1), last.slice(0, 3), pick(CLAIMS, next)].join('-')] : [],
  };
}
