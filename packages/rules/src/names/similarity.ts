import { reservedWord } from './reserved.js';
import { compactForm, letterForm, skeleton, visibleForm } from './skeleton.js';

/**
 * A published name counts as known enough to imitate from this many downloads: below it a name draws too few
 * installs to be worth a look-alike, and the near-miss rules (one edit, an added word) would otherwise refuse
 * ordinary new names next to every small skill.
 */
export const POPULAR_DOWNLOADS = 100;

/**
 * The one-edit rule applies to names of at least this many characters once folded: among shorter ones (pdf, xlsx,
 * docx) one edit makes another real word, and a typo of a short name is seen at a glance.
 */
export const MIN_EDIT_LENGTH = 5;

/** A word put before or after a known name would make it read as its better, newer or official version. */
export const CLAIM_WORDS: readonly string[] = [
  'official',
  'real',
  'original',
  'genuine',
  'verified',
  'authentic',
  'secure',
  'safe',
  'trusted',
  'pro',
  'plus',
  'premium',
  'ultra',
  'max',
  'lite',
  'free',
  'best',
  'new',
  'latest',
  'updated',
  'update',
  'fixed',
  'fix',
  'patched',
  'beta',
  'app',
  'tool',
  'tools',
  'cli',
  'ai',
  'dev',
  'skill',
  'skills',
  'agent',
  'mcp',
  'hq',
  'team',
];
const CLAIMS = new Set(CLAIM_WORDS);

/** The longest addition to a known name the affix rule looks at, in characters without separators. */
const MAX_AFFIX = Math.max(8, ...CLAIM_WORDS.map((word) => word.length));

/**
 * Any one word set off by a separator before or after a known name reads as a version of it (`pdf-tools-x7k2`,
 * `pdf-tools-turbo`, `the-pdf-tools`): random letters cannot be told from short words, and an attacker picks the word.
 * Over 2,989 real names this refuses 0.84% (`pptx-posters` next to `pptx`); a scope (`@me/pptx-posters`) or an
 * administrator's allowance takes such a name.
 */
const SEPARATOR_RUN = /[\s._-]+/;

/**
 * An addition that reads as a tag rather than a word: a version (`v2`, `2024`), anything holding a digit of at
 * most six characters (`x7k2`), or two to six letters without a vowel (`xkq`, `js`). Words (`hooks`, `native`) are
 * not tags, so `react-hooks` next to `react` stays free.
 */
export function looksLikeTag(affix: string): boolean {
  if (affix.length === 0 || affix.length > 6) return false;
  if (/[0-9]/.test(affix)) return true;
  return affix.length >= 2 && !/[aeiouy]/.test(affix);
}

/** A name that exists, whose holder it belongs to, and how much it is used. */
export interface ExistingName {
  name: string;
  /** Who holds it: the skill's owner, the account itself, the organisation's owner. */
  ownerId: string;
  /** Published skills' downloads (for an account or organisation: those of the skills it publishes). */
  downloads: number;
  published: boolean;
}

export interface NameRefusal {
  code: 'name_too_similar' | 'name_reserved';
  /** The existing or reserved name it resembles. */
  resembles?: string;
  /** Why, in words for the person choosing the name. */
  why: string;
}

/** The names a new one is judged against, with their skeletons worked out once. */
export interface NameIndex {
  /** Every name by skeleton. */
  bySkeleton: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with POPULAR_DOWNLOADS or more, by skeleton. */
  popular: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with POPULAR_DOWNLOADS or more, by letter form. */
  popularByLetters: ReadonlyMap<string, readonly ExistingName[]>;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function nameIndex(existing: Iterable<ExistingName>): NameIndex {
  const bySkeleton = new Map<string, ExistingName[]>();
  const popular = new Map<string, ExistingName[]>();
  const popularByLetters = new Map<string, ExistingName[]>();
  for (const entry of existing) {
    const key = skeleton(entry.name);
    push(bySkeleton, key, entry);
    if (!entry.published || entry.downloads < POPULAR_DOWNLOADS) continue;
    push(popular, key, entry);
    push(popularByLetters, letterForm(entry.name), entry);
  }
  return { bySkeleton, popular, popularByLetters };
}

/** Whether `a` and `b` differ by exactly one insertion, deletion, substitution or swap of neighbours. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length + restB.length === 1) return true; // one inserted or deleted
  if (restA.length === 1 && restB.length === 1) return true; // one substituted
  return restA.length === 2 && restB.length === 2 && restA === restB[1]! + restB[0]!; // swapped
}

/** The first of `entries` that someone other than `ownerId` holds under another name than `name`. */
function heldByOthers(entries: readonly ExistingName[] | undefined, name: string, ownerId: string | null): ExistingName | undefined {
  return entries?.find((entry) => entry.ownerId !== ownerId && entry.name !== name);
}

/**
 * Why `name` may not be taken by `ownerId` (null: a new account, which holds nothing yet), or null when it may.
 * In order: a reserved word or its look-alike; the same skeleton as a name held by someone else; then, against
 * published names with POPULAR_DOWNLOADS or more held by others, one edit away, or such a name with a claim word or
 * a tag added before or after it. A name identical to a held one (reserved or not) is left to the caller's own "taken"
 * answer.
 */
export function judgeName(name: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  const key = skeleton(name);
  // Someone holds this very name (an administrator's `admin`): the caller answers that it is taken.
  if (index.bySkeleton.get(key)?.some((entry) => entry.name === name)) return null;
  const reserved = reservedWord(name);
  if (reserved !== null) {
    return {
      code: 'name_reserved',
      resembles: reserved,
      why:
        reserved === name
          ? `"${name}" is reserved for the registry itself.`
          : `"${name}" reads as "${reserved}", which is reserved for the registry itself.`,
    };
  }
  const same = heldByOthers(index.bySkeleton.get(key), name, ownerId);
  if (same) {
    return {
      code: 'name_too_similar',
      resembles: same.name,
      why: `"${name}" looks the same as "${same.name}" once case, separators and look-alike characters are set aside.`,
    };
  }

  const letters = letterForm(name);
  // Popular names are few (thousands where names are a hundred thousand): each is compared, most by length alone.
  for (const [candidate, entries] of index.popularByLetters) {
    if (candidate.length < MIN_EDIT_LENGTH || !oneEditApart(letters, candidate)) continue;
    const near = heldByOthers(entries, name, ownerId);
    if (near) {
      return {
        code: 'name_too_similar',
        resembles: near.name,
        why: `"${name}" is one typo away from "${near.name}", a published name with many downloads.`,
      };
    }
  }

  const tokens = visibleForm(name)
    .split(SEPARATOR_RUN)
    .filter((token) => token !== '');
  if (tokens.length >= 2) {
    for (const [affix, rest] of [
      [tokens.at(-1)!, tokens.slice(0, -1).join('')],
      [tokens[0]!, tokens.slice(1).join('')],
    ] as const) {
      const base = heldByOthers(index.popular.get(skeleton(rest)), name, ownerId);
      if (base) return added(name, base, affix);
    }
  }
  const compact = compactForm(name);
  for (let cut = 1; cut <= Math.min(MAX_AFFIX, compact.length - 2); cut += 1) {
    for (const [affix, rest] of [
      [compact.slice(compact.length - cut), compact.slice(0, compact.length - cut)],
      [compact.slice(0, cut), compact.slice(cut)],
    ] as const) {
      if (!CLAIMS.has(affix) && !looksLikeTag(affix)) continue;
      const base = heldByOthers(index.popular.get(skeleton(rest)), name, ownerId);
      if (base) return added(name, base, affix);
    }
  }
  return null;
}

function added(name: string, base: ExistingName, affix: string): NameRefusal {
  return {
    code: 'name_too_similar',
    resembles: base.name,
    why: `"${name}" is "${base.name}", a published name with many downloads, with "${affix}" added.`,
  };
}
