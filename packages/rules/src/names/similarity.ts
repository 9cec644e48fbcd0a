import { reservedWord } from './reserved.js';
import { compactForm, letterForm, skeleton, visibleForm } from './skeleton.js';
import { soundForm } from './sound.js';
import { nameWords, wordReadings, wordSound, wordsKey, type WordReading } from './words.js';

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
 * With the word-order and added-word rules (judgeSoundAndWords) the rules refuse 0.95% of 4,857 real names
 * (docs/performance.md), such as `pptx-posters` next to `pptx`; a scope (`@me/pptx-posters`) or an administrator's
 * allowance takes such a name.
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

/** Which rule refused a name, for whoever measures the rules. */
export type NameRule = 'reserved' | 'skeleton' | 'one-edit' | 'short-edit' | 'sound' | 'word-added' | 'word-order' | 'words-added';

export interface NameRefusal {
  code: 'name_too_similar' | 'name_reserved';
  rule: NameRule;
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
  /** Published names with POPULAR_DOWNLOADS or more, by sound form (see sound.ts). */
  popularBySound: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with POPULAR_DOWNLOADS or more under MIN_EDIT_LENGTH, by the sound forms of their confusable edits. */
  popularShortEdits: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with POPULAR_DOWNLOADS or more, by their words whatever the order (see words.ts). */
  popularByWords: ReadonlyMap<string, readonly ExistingName[]>;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/**
 * The edits of a short name (under MIN_EDIT_LENGTH once folded) that still read as it: a plural (`pdfs`, `pdfes`),
 * the singular of a name of four letters ending in `s`, and one vowel other than the first letter dropped from a
 * name of four letters (`dcx`). A doubled letter (`pddf`) needs no entry: the sound form makes it single. Other
 * single edits of a three- or four-letter name make other names (`pdq`, `docs`), so they are left free.
 */
export function shortEdits(name: string): string[] {
  const letters = compactForm(name);
  const out = [`${letters}s`, `${letters}es`];
  if (letters.length >= 4 && letters.endsWith('s')) out.push(letters.slice(0, -1));
  if (letters.length >= 4) {
    for (let i = 1; i < letters.length; i += 1) if (VOWELS.has(letters[i]!)) out.push(letters.slice(0, i) + letters.slice(i + 1));
  }
  return out;
}

export function nameIndex(existing: Iterable<ExistingName>): NameIndex {
  const bySkeleton = new Map<string, ExistingName[]>();
  const popular = new Map<string, ExistingName[]>();
  const popularByLetters = new Map<string, ExistingName[]>();
  const popularBySound = new Map<string, ExistingName[]>();
  const popularShortEdits = new Map<string, ExistingName[]>();
  const popularByWords = new Map<string, ExistingName[]>();
  for (const entry of existing) {
    const key = skeleton(entry.name);
    push(bySkeleton, key, entry);
    if (!entry.published || entry.downloads < POPULAR_DOWNLOADS) continue;
    push(popular, key, entry);
    const letters = letterForm(entry.name);
    push(popularByLetters, letters, entry);
    const sound = soundForm(key);
    push(popularBySound, sound, entry);
    // A name of one word is its own word set: its sound form, already at hand.
    const words = nameWords(entry.name);
    push(popularByWords, words.length === 1 ? sound : wordsKey(words.map(wordSound)), entry);
    if (letters.length < MIN_EDIT_LENGTH && letters.length >= 3) {
      for (const edit of shortEdits(entry.name)) push(popularShortEdits, soundForm(skeleton(edit)), entry);
    }
  }
  return { bySkeleton, popular, popularByLetters, popularBySound, popularShortEdits, popularByWords };
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
 * published names with POPULAR_DOWNLOADS or more held by others, one edit away, such a name with a claim word, a tag
 * or any word added before or after it, the same sound, a short name's confusable edit, or its words in another order
 * or with up to two words added (judgeSoundAndWords). A name identical to a held one (reserved or not) is left to the
 * caller's own "taken" answer.
 */
export function judgeName(name: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  const key = skeleton(name);
  // Someone holds this very name (an administrator's `admin`): the caller answers that it is taken.
  if (index.bySkeleton.get(key)?.some((entry) => entry.name === name)) return null;
  const reserved = reservedWord(name);
  if (reserved !== null) {
    return {
      code: 'name_reserved',
      rule: 'reserved',
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
      rule: 'skeleton',
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
        rule: 'one-edit',
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
  return judgeSoundAndWords(name, key, index, ownerId);
}

/**
 * The rules past one edit and one word: a name that sounds like a popular one, a confusable edit of a short one, and
 * a popular name's words in another order or with up to MAX_ADDED_WORDS words added anywhere.
 */
function judgeSoundAndWords(name: string, key: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  const sound = soundForm(key);
  const alike = heldByOthers(index.popularBySound.get(sound), name, ownerId);
  if (alike) {
    return {
      code: 'name_too_similar',
      rule: 'sound',
      resembles: alike.name,
      why: `"${name}" reads and sounds like "${alike.name}", a published name with many downloads.`,
    };
  }
  const edited = heldByOthers(index.popularShortEdits.get(sound), name, ownerId);
  if (edited) {
    return {
      code: 'name_too_similar',
      rule: 'short-edit',
      resembles: edited.name,
      why: `"${name}" reads as "${edited.name}" (a plural or a letter dropped), a published name with many downloads.`,
    };
  }
  for (const reading of wordReadings(name)) {
    if (!addsEnough(reading)) continue;
    const base = heldByOthers(index.popularByWords.get(reading.key), name, ownerId);
    if (!base) continue;
    if (reading.added.length === 0) {
      return {
        code: 'name_too_similar',
        rule: 'word-order',
        resembles: base.name,
        why: `"${name}" has the words of "${base.name}", a published name with many downloads, in another order or spelling.`,
      };
    }
    return reading.added.length === 1
      ? added(name, base, reading.added[0]!, 'word-added')
      : added(name, base, reading.added.join('", "'), 'words-added');
  }
  return null;
}

/**
 * The little words of a byline or a pitch (`pdf-by-acme`, `the-pdf-for-teams`, `get-my-pdf`). Not `to`, which
 * joins two formats in a converter's name (`md-to-docx`).
 */
export const CONNECTOR_WORDS: readonly string[] = [
  'by',
  'for',
  'from',
  'with',
  'of',
  'the',
  'a',
  'an',
  'and',
  'my',
  'your',
  'our',
  'get',
  'x',
];
const CONNECTORS = new Set(CONNECTOR_WORDS);

/** A word that dresses a name up rather than says what else it does: a connector, a claim word or a tag. */
function dressing(word: string): boolean {
  return CONNECTORS.has(word) || CLAIMS.has(word) || looksLikeTag(word);
}

/**
 * Whether the words a reading sets aside are few and idle enough for the rest to be the name it imitates. None: the
 * same words in another order. One first or last: any word (as the affix rule). One between kept words: only a
 * connector, claim word or tag, as a word of substance inside a name makes a narrower one (`python-design-patterns`
 * next to `python-patterns`). Two, anywhere: when one is a connector (`pdf-by-acme`) or both dress the name up
 * (`best-free-pdf`); two words of substance make another name (`pdf-form-filler`, `mcp-implementation-security-review`).
 */
function addsEnough(reading: WordReading): boolean {
  const { added } = reading;
  if (added.length === 0) return true;
  if (added.length === 1) return !reading.inside || dressing(added[0]!);
  return added.some((word) => CONNECTORS.has(word)) || added.every(dressing);
}

function added(name: string, base: ExistingName, affix: string, rule: NameRule = 'word-added'): NameRefusal {
  return {
    code: 'name_too_similar',
    rule,
    resembles: base.name,
    why: `"${name}" is "${base.name}", a published name with many downloads, with "${affix}" added.`,
  };
}
