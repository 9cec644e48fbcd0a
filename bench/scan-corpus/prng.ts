// A small seeded generator (mulberry32) and the choices the corpus makes with it. Each module seeds its own
// generator from a name, so adding samples to one family never shifts what another generates.

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** `k` distinct items, in random order. */
  some<T>(items: readonly T[], k: number): T[];
  shuffle<T>(items: readonly T[]): T[];
  /** `n` characters drawn from `alphabet`. */
  chars(alphabet: string, n: number): string;
  bytes(n: number): Uint8Array;
}

export const DIGITS = '0123456789';
export const HEX = '0123456789abcdef';
export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const ALNUM = UPPER + LOWER + DIGITS;
export const BASE64 = ALNUM + '+/';
export const BASE64URL = ALNUM + '-_';

function hashSeed(seed: string): number {
  // FNV-1a over the seed's UTF-16 code units.
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function rng(seed: string): Rng {
  let state = hashSeed(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)]!;
    },
    some: <T>(items: readonly T[], k: number): T[] => shuffle(items).slice(0, Math.min(k, items.length)),
    shuffle,
    chars: (alphabet, n) => {
      let out = '';
      for (let i = 0; i < n; i++) out += alphabet.charAt(int(0, alphabet.length - 1));
      return out;
    },
    bytes: (n) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = int(0, 255);
      return out;
    },
  };
}
