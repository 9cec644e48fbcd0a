import { reservedWord } from './reserved.js';
import { compactForm, letterForm, skeleton, visibleForm } from './skeleton.js';
import { nameSound } from './sound.js';
import { MAX_ADDED_WORDS, nameWords, wordConsonants, wordReadings, wordSound, wordStem, wordsKey, type WordReading } from './words.js';

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

/**
 * From this many characters once folded, two edits still read as the name (`security-rivew`, `codng-standadrs`): a
 * long name is read by its shape, and two long real names rarely lie two edits apart.
 */
export const TWO_EDIT_LENGTH = 10;

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

/**
 * Makers of models, clouds and developer platforms: put before or after a known name, run on or set off, they make it
 * read as that vendor's edition of it (`awssecurityreview`, `meta-pdf-assistant`).
 */
export const VENDOR_WORDS: readonly string[] = [
  'openai',
  'anthropic',
  'claude',
  'gpt',
  'chatgpt',
  'gemini',
  'google',
  'gcp',
  'microsoft',
  'azure',
  'aws',
  'amazon',
  'meta',
  'llama',
  'mistral',
  'github',
  'gitlab',
  'copilot',
  'cursor',
  'vercel',
  'apple',
  'nvidia',
  'ibm',
  'oracle',
];
const VENDORS = new Set(VENDOR_WORDS);

/** What a name says it is besides its subject (`pdf-assistant`): at an end beside a vendor word, a version of another. */
const ROLES = new Set(['assistant', 'bot', 'helper', 'expert', 'specialist', 'advisor', 'guide', 'coach', 'wizard', 'copilot', 'gpt']);

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
export type NameRule =
  | 'reread'
  | 'reserved'
  | 'skeleton'
  | 'one-edit'
  | 'two-edits'
  | 'short-edit'
  | 'sound'
  | 'word-added'
  | 'word-order'
  | 'words-added'
  | 'abbreviated'
  | 'byline';

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
  /** Published names of two to MAX_RUN_TOGETHER words with POPULAR_DOWNLOADS or more, by the sound of their words run together in each other order. */
  popularRunTogether: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names of two or more words with POPULAR_DOWNLOADS or more, by their words' consonants in order (see words.ts). */
  popularByConsonants: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with POPULAR_DOWNLOADS or more, by their words' stems in order (see words.ts). */
  popularByStems: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names of two or more words with POPULAR_DOWNLOADS or more, by their words' consonants run together. */
  popularByJoinedConsonants: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with a connector and two or more other words, POPULAR_DOWNLOADS or more, by those other words. */
  popularWithoutConnectors: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names with a word of CUT_FROM letters or more, POPULAR_DOWNLOADS or more, by their words with that word cut short. */
  popularCut: ReadonlyMap<string, readonly ExistingName[]>;
  /** Published names of two or more words, POPULAR_DOWNLOADS or more, by their words each made plural and run together. */
  popularPluralsRunTogether: ReadonlyMap<string, readonly ExistingName[]>;
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
  const popularRunTogether = new Map<string, ExistingName[]>();
  const popularByConsonants = new Map<string, ExistingName[]>();
  const popularByStems = new Map<string, ExistingName[]>();
  const popularByJoinedConsonants = new Map<string, ExistingName[]>();
  const popularWithoutConnectors = new Map<string, ExistingName[]>();
  const popularCut = new Map<string, ExistingName[]>();
  const popularPluralsRunTogether = new Map<string, ExistingName[]>();
  for (const entry of existing) {
    const key = skeleton(entry.name);
    push(bySkeleton, key, entry);
    if (!entry.published || entry.downloads < POPULAR_DOWNLOADS) continue;
    push(popular, key, entry);
    const letters = letterForm(entry.name);
    push(popularByLetters, letters, entry);
    push(popularBySound, nameSound(entry.name), entry);
    const words = nameWords(entry.name);
    const wordsKeys = new Set([wordsKey(words.map(wordSound)), wordsKey(words.map(nameSound))]);
    for (const key of wordsKeys) push(popularByWords, key, entry);
    // Abbreviated in any order for names of up to three words (`rvw-scrty`).
    if (words.length >= 2)
      for (const order of words.length <= 3 ? orders(words) : [words])
        push(popularByConsonants, order.map(wordConsonants).join(' '), entry);
    const joinedConsonants = words.map(wordConsonants).join('');
    if (words.length >= 2 && joinedConsonants.length >= MIN_JOINED_CONSONANTS) {
      push(popularByJoinedConsonants, joinedConsonants, entry);
      // Read again as one word, as a run-together abbreviation is looked up: a word's first vowel goes and letters
      // that meet double fold into one (`sklladptr`, `cntnslrnng`).
      const again = wordConsonants(joinedConsonants);
      if (again !== joinedConsonants && again.length >= MIN_JOINED_CONSONANTS) push(popularByJoinedConsonants, again, entry);
    }
    push(popularByStems, words.map(wordStem).join(' '), entry);
    const content = words.filter((word) => !CONNECTORS.has(word));
    if (content.length >= 2 && content.length < words.length) push(popularWithoutConnectors, content.join(' '), entry);
    if (words.length >= 2) push(popularPluralsRunTogether, words.map((word) => (word.endsWith('s') ? word : `${word}s`)).join(''), entry);
    if (words.length >= 2)
      words.forEach((word, i) => {
        for (let size = CUT_TO; word.length >= CUT_FROM && size <= word.length - CUT_LEAVES; size += 1)
          push(popularCut, [...words.slice(0, i), word.slice(0, size), ...words.slice(i + 1)].join(' '), entry);
      });
    if (words.length >= 2 && words.length <= MAX_RUN_TOGETHER) {
      const sounds = new Set(orders(words).map((order) => nameSound(order.join(''))));
      sounds.delete(nameSound(entry.name));
      for (const sound of sounds) push(popularRunTogether, sound, entry);
    }
    if (letters.length < MIN_EDIT_LENGTH && letters.length >= 3) {
      for (const edit of shortEdits(entry.name)) push(popularShortEdits, nameSound(edit), entry);
    }
  }
  return {
    bySkeleton,
    popular,
    popularByLetters,
    popularBySound,
    popularShortEdits,
    popularByWords,
    popularRunTogether,
    popularByConsonants,
    popularByStems,
    popularByJoinedConsonants,
    popularWithoutConnectors,
    popularCut,
    popularPluralsRunTogether,
  };
}

/** A word of a popular name cut short (`secur-review`): words of CUT_FROM letters or more, to CUT_TO letters or more, at least CUT_LEAVES letters off. */
const CUT_FROM = 8;
const CUT_TO = 5;
const CUT_LEAVES = 3;

/** The fewest letters an abbreviation run together is compared by: shorter ones are words of their own. */
const MIN_JOINED_CONSONANTS = 6;

/** The most words of a popular name whose other orders run together are indexed: 5! = 120 orders. */
const MAX_RUN_TOGETHER = 5;

/** Every order of `words` (at most 120 for the five words it is asked for). */
function orders(words: readonly string[]): string[][] {
  if (words.length <= 1) return [[...words]];
  return words.flatMap((word, i) => orders([...words.slice(0, i), ...words.slice(i + 1)]).map((rest) => [word, ...rest]));
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

/** A digit: numbered names (`user-42`, `user-49`) differ by their numbers, not by typos. */
const DIGIT = /[0-9]/;

/**
 * Whether `a` and `b` are at least one and at most `max` edits apart (insertions, deletions, substitutions, swaps of
 * neighbours: optimal string alignment). Hand-written: the band of `max` cells either side of the diagonal is all a
 * bounded check needs, and the check runs against every popular name.
 */
export function editsApart(a: string, b: string, max: number): boolean {
  if (a === b || Math.abs(a.length - b.length) > max) return false;
  if (max === 1) return oneEditApart(a, b);
  const wide = b.length + 1;
  let before = new Array<number>(wide).fill(max + 1);
  let previous = Array.from({ length: wide }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = new Array<number>(wide).fill(max + 1);
    row[0] = i;
    let best = row[0];
    for (let j = Math.max(1, i - max); j <= Math.min(b.length, i + max); j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      row[j] = value;
      best = Math.min(best, value);
    }
    if (best > max) return false;
    before = previous;
    previous = row;
  }
  return previous[b.length]! <= max;
}

/**
 * The first popular name held by others within the edits `letters` may be from it: one for names of MIN_EDIT_LENGTH
 * or more, two where both are of TWO_EDIT_LENGTH or more (only one when `oneOnly`).
 */
function nearPopular(letters: string, name: string, index: NameIndex, ownerId: string | null, oneOnly: boolean): ExistingName | undefined {
  // Popular names are few (thousands where names are a hundred thousand): each is compared, most by length alone.
  for (const [candidate, entries] of index.popularByLetters) {
    if (candidate.length < MIN_EDIT_LENGTH) continue;
    // Two edits only inside the name: its first and last letters are what a reader checks (`app-builder` is not
    // `mcp-builder`, `security-reviewer` not `security-review`); the first two swapped still read as them.
    const two =
      !oneOnly &&
      !DIGIT.test(name) &&
      candidate.length >= TWO_EDIT_LENGTH &&
      letters.length >= TWO_EDIT_LENGTH &&
      (letters.at(0) === candidate.at(0) || (letters.at(0) === candidate.at(1) && letters.at(1) === candidate.at(0))) &&
      letters.at(-1) === candidate.at(-1);
    const max = two ? 2 : 1;
    if (!editsApart(letters, candidate, max)) continue;
    const near = heldByOthers(entries, name, ownerId);
    if (near) return near;
  }
  return undefined;
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
 * or with up to two words added (judgeSoundAndWords); last, the name read another way (judgeRereadings: a repeated part
 * written once, connectors spelt out, left out or a word cut short; `readRepeats` is off when a reading is itself
 * judged). A name identical to a held one (reserved or not) is left to the caller's own
 * "taken" answer.
 */
export function judgeName(name: string, index: NameIndex, ownerId: string | null, readRepeats = true): NameRefusal | null {
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
  const near = nearPopular(letters, name, index, ownerId, false);
  if (near) {
    const one = oneEditApart(letters, letterForm(near.name));
    return {
      code: 'name_too_similar',
      rule: one ? 'one-edit' : 'two-edits',
      resembles: near.name,
      why: `"${name}" is ${one ? 'one typo' : 'two typos'} away from "${near.name}", a published name with many downloads.`,
    };
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
      // A typo in the name as well as the word (`pdf-tols-pro`).
      // Digits are not typos (`user-42` is not `user-49` with a word added).
      const typo = DIGIT.test(rest) ? undefined : nearPopular(letterForm(rest), name, index, ownerId, true);
      if (typo) return added(name, typo, affix, 'one-edit', ' and a typo');
    }
  }
  const compact = compactForm(name);
  for (let cut = 1; cut <= Math.min(MAX_AFFIX, compact.length - 2); cut += 1) {
    for (const [affix, rest] of [
      [compact.slice(compact.length - cut), compact.slice(0, compact.length - cut)],
      [compact.slice(0, cut), compact.slice(cut)],
    ] as const) {
      if (!runsOn(affix)) continue;
      const base = heldByOthers(index.popular.get(skeleton(rest)), name, ownerId);
      if (base) return added(name, base, affix);
      // The name's words run together in another order (`reviewsecurityplus`); a name with separators is read by
      // its words (judgeSoundAndWords).
      const reordered = tokens.length === 1 ? heldByOthers(index.popularRunTogether.get(nameSound(rest)), name, ownerId) : undefined;
      if (reordered) return added(name, reordered, affix, 'word-order', ' and its words in another order');
      // A plural run on before it (`awssecurityreviews`).
      const single = rest.endsWith('s') ? heldByOthers(index.popular.get(skeleton(rest.slice(0, -1))), name, ownerId) : undefined;
      if (single) return added(name, single, affix, 'word-added', ' and a plural');
      // A typo in the name as well as what is run on (`security-rview2`, `securtyreviewbot`).
      const typo =
        rest.length >= MIN_EDIT_LENGTH && editionWord(affix) && !DIGIT.test(rest)
          ? nearPopular(letterForm(rest), name, index, ownerId, true)
          : undefined;
      if (typo) return added(name, typo, affix, 'one-edit', ' and a typo');
      // What is left reads as the name (`ppdf` + `plus`), or is its words abbreviated and run together (`azure` +
      // `scrtyrvw`).
      if (!editionWord(affix)) continue;
      const sounded = heldByOthers(index.popularBySound.get(nameSound(rest)), name, ownerId);
      if (sounded) return added(name, sounded, affix, 'sound', ' and its spelling changed');
      const short = rest.length >= MIN_JOINED_CONSONANTS ? abbreviationOf(rest, index, name, ownerId) : undefined;
      if (short) return added(name, short, affix, 'abbreviated', ' and letters left out');
    }
  }
  // Run on at both ends (`claudesecurityreviewbot`, `prosecurityreviewhq`), or two at one end (`securityreviewawspro`).
  const cuts = (from: number, to: number) => Math.min(MAX_AFFIX, to - from - 2);
  for (let front = 0; front <= cuts(0, compact.length); front += 1) {
    const before = compact.slice(0, front);
    if (front > 0 && !runsOn(before)) continue;
    for (let back = 1; back <= cuts(front, compact.length); back += 1) {
      const after = compact.slice(compact.length - back);
      if (!runsOn(after)) continue;
      const rest = compact.slice(front, compact.length - back);
      const base = front > 0 ? heldByOthers(index.popular.get(skeleton(rest)), name, ownerId) : undefined;
      if (base) return added(name, base, `${before}", "${after}`, 'words-added');
      if (front > 0) continue;
      // A second word run on before the last: `securityreviewaws` + `pro`, and the same at the front.
      for (let inner = 1; inner <= cuts(0, rest.length); inner += 1) {
        const next = rest.slice(rest.length - inner);
        // A connector may stand between (`securityreviewforaws`).
        if (!runsOn(next) && !CONNECTORS.has(next)) continue;
        const twice = heldByOthers(index.popular.get(skeleton(rest.slice(0, rest.length - inner))), name, ownerId);
        if (twice) return added(name, twice, `${next}", "${after}`, 'words-added');
      }
    }
  }
  for (let front = 1; front <= cuts(0, compact.length); front += 1) {
    const before = compact.slice(0, front);
    if (!runsOn(before)) continue;
    for (let inner = 1; inner <= cuts(front, compact.length); inner += 1) {
      const next = compact.slice(front, front + inner);
      if (!runsOn(next) && !CONNECTORS.has(next)) continue;
      const twice = heldByOthers(index.popular.get(skeleton(compact.slice(front + inner))), name, ownerId);
      if (twice) return added(name, twice, `${before}", "${next}`, 'words-added');
    }
  }
  return judgeSoundAndWords(name, index, ownerId) ?? (readRepeats ? judgeRereadings(name, index, ownerId) : null);
}

/** The shortest and longest part whose immediate repeat is read as a stutter (`securityreviewreview`). */
const MIN_REPEAT = 3;
const MAX_REPEAT = 24;
/** The most stutters of one name looked at. */
const MAX_REPEATS = 4;

/**
 * `name` with one part written twice in a row written once, for each such part (up to MAX_REPEATS): whole words where
 * the name has separators, side by side or with a dressing word between (`incident-response-incident-response`,
 * `security-plus-security-review`; `data-databricks` repeats no word), any run of letters where it has none
 * (`securityreviewreview`).
 */
export function withoutRepeats(name: string): string[] {
  const words = nameWords(name);
  const out: string[] = [];
  if (words.length >= 2) {
    // The copies side by side, or with a link word between (`security-plus-security-review`; a tag or a claim between
    // may be a word of substance, `database-migrations-sql-migrations`, `…-review-ai-review`): the first copy and that
    // word go.
    for (let at = 0; at < words.length && out.length < MAX_REPEATS; at += 1)
      for (let size = 1; at + 2 * size <= words.length; size += 1) {
        const copy = words.slice(at, at + size).join('-');
        const gap = copy === words.slice(at + size, at + 2 * size).join('-') ? 0 : linkWord(words[at + size]!) ? 1 : -1;
        if (gap < 0 || (gap === 1 && copy !== words.slice(at + size + 1, at + 2 * size + 1).join('-'))) continue;
        out.push([...words.slice(0, at), ...words.slice(at + size + gap)].join('-'));
        break;
      }
    return out;
  }
  const compact = compactForm(name);
  for (let at = 0; at + 2 * MIN_REPEAT <= compact.length && out.length < MAX_REPEATS; at += 1)
    for (let size = MIN_REPEAT; size <= MAX_REPEAT && at + 2 * size <= compact.length; size += 1)
      if (compact.startsWith(compact.slice(at, at + size), at + size)) {
        out.push(compact.slice(0, at) + compact.slice(at + size));
        break;
      }
  return out;
}

/** Connectors written as a digit or a letter (`scanning-4-secrets`, `md-2-docx`, `rock-n-roll`). */
const SPELLED_CONNECTORS = new Map([
  ['4', 'for'],
  ['2', 'to'],
  ['n', 'and'],
  ['u', 'you'],
]);

/**
 * The last readings, each of which makes the name another before it is judged again (once: a reading is not read
 * again): a part written twice written once (`securityreviewreview`, `microsoftsecuritysecurityreview`), and
 * connectors written as digits spelt out (`scanning-4-secrets`). Then, against popular names, the name's words with a
 * connector left out (`scanning-vulnerabilities` for `scanning-for-vulnerabilities`) or one cut short (`secur-review`).
 */
function judgeRereadings(name: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  const words = nameWords(name);
  const spelled = words.some((word) => SPELLED_CONNECTORS.has(word))
    ? words.map((word) => SPELLED_CONNECTORS.get(word) ?? word).join('-')
    : null;
  for (const [reading, how] of [
    ...withoutRepeats(name).map((once) => [once, 'with a part of it written twice'] as const),
    ...(spelled === null ? [] : [[spelled, 'with a connector written as a digit or a letter'] as const]),
  ]) {
    const same = heldByOthers(index.popular.get(skeleton(reading)), name, ownerId);
    const judged = same === undefined ? judgeName(reading, index, ownerId, false) : null;
    const resembles = same?.name ?? (judged?.code === 'name_too_similar' ? judged.resembles : undefined);
    if (resembles === undefined) continue;
    return reread(name, resembles, how);
  }
  // A vendor word may stand where the connector was (`scanning-aws-secrets`).
  const content = words.filter((word) => !CONNECTORS.has(word) && !VENDORS.has(word));
  const dropped = content.length >= 2 ? heldByOthers(index.popularWithoutConnectors.get(content.join(' ')), name, ownerId) : undefined;
  if (dropped) {
    return reread(name, dropped.name, 'with a connector left out');
  }
  const cut = words.length >= 2 ? heldByOthers(index.popularCut.get(words.join(' ')), name, ownerId) : undefined;
  if (cut) {
    return reread(name, cut.name, 'with a word cut short');
  }
  return words.length === 1 ? judgeOneWord(words[0]!, name, index, ownerId) : null;
}

/**
 * A name of one word that is a popular name's words joined by a letter or a digit in place of separators
 * (`security0review`, `validatingxpcixdss`: split at each character it holds, the parts are the name's words), or with
 * every word made plural and run together (`securitysreviews`).
 */
function judgeOneWord(word: string, name: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  for (const at of new Set(word.slice(1, -1))) {
    const parts = word.split(at);
    if (parts.length < 2 || parts.some((part) => part.length < 2)) continue;
    const base = heldByOthers(index.popular.get(skeleton(parts.join('-'))), name, ownerId);
    if (base) {
      return reread(name, base.name, `with "${at}" for its separators`);
    }
  }
  const plurals = heldByOthers(index.popularPluralsRunTogether.get(word), name, ownerId);
  if (plurals) {
    return reread(name, plurals.name, 'its words made plural and run together');
  }
  return null;
}

/** What may be run on to a known name and still read as a version of it: a claim or role word, a tag, a vendor. */
function runsOn(affix: string): boolean {
  return CLAIMS.has(affix) || looksLikeTag(affix) || VENDORS.has(affix) || ROLES.has(affix);
}

/**
 * The rules past one edit and one word: a name that sounds like a popular one, a confusable edit of a short one, and
 * a popular name's words in another order or with up to MAX_ADDED_WORDS words added anywhere.
 */
function judgeSoundAndWords(name: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  const sound = nameSound(name);
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
  const reordered = heldByOthers(index.popularRunTogether.get(sound), name, ownerId);
  if (reordered) return sameWords(name, reordered);
  // Each word also as written, a final `s` kept: `docks` then reads as `docx`, where as a plural it reads `dock`.
  const readings = [...wordReadings(name), ...wordReadings(name, nameSound)];
  // A `1` reads as `l` in the sound forms; where it stands for an `i` (`d3c1510n`), the name is read that way too.
  if (name.includes('1')) readings.push(...wordReadings(name.replaceAll('1', 'i')));
  for (const reading of readings) {
    if (!addsEnough(reading)) continue;
    const base = heldByOthers(index.popularByWords.get(reading.key), name, ownerId);
    if (!base) continue;
    if (reading.added.length === 0) return sameWords(name, base);
    return reading.added.length === 1
      ? added(name, base, reading.added[0]!, 'word-added')
      : added(name, base, reading.added.join('", "'), 'words-added');
  }
  return judgeDressedWords(name, index, ownerId);
}

function sameWords(name: string, base: ExistingName): NameRefusal {
  return {
    code: 'name_too_similar',
    rule: 'word-order',
    resembles: base.name,
    why: `"${name}" has the words of "${base.name}", a published name with many downloads, in another order or spelling.`,
  };
}

/** Words that start a byline: what follows them names who made the name before them (`pdf-tools-by-acme-labs`). */
const BYLINE_WORDS = new Set(['by', 'from']);

/**
 * The word rules past two added words: a popular name with any number of dressing words (`get-the-best-pdf-tools`),
 * with its words' vowels left out (`scrty-review`), or followed by a byline however long (`pdf-tools-by-acme-labs`,
 * judged by what comes before the byline).
 */
function judgeDressedWords(name: string, index: NameIndex, ownerId: string | null): NameRefusal | null {
  const words = nameWords(name);
  if (words.length - MAX_ADDED_WORDS > 1) {
    const base = undressed(words, index, name, ownerId);
    if (base) return added(name, base, words.filter(dressing).join('", "'), 'words-added');
  }
  // Abbreviated and run together (`scrtyrvw`).
  if (words.length === 1) {
    const base = abbreviationOf(compactForm(name), index, name, ownerId);
    if (base) return abbreviated(name, base);
  }
  // Abbreviated, as written or with a claim word, a version, a vendor or a role word at one end (`scrty-rvw-pro`,
  // `copilot-scrty-rvw`).
  const abbreviations = [
    words,
    ...(words.length >= 3 && editionWord(words.at(-1)!) ? [words.slice(0, -1)] : []),
    ...(words.length >= 3 && editionWord(words[0]!) ? [words.slice(1)] : []),
  ];
  for (const kept of words.length >= 2 ? abbreviations : []) {
    const base = heldByOthers(index.popularByConsonants.get(kept.map(wordConsonants).join(' ')), name, ownerId);
    if (base) return abbreviated(name, base);
  }
  // A claim word, a version, a vendor or a role word at one end and another ending on the name (`security-reviewer-hq`,
  // `pdfer-pro`, `gcp-security-reviewing`).
  for (const [mark, rest] of [
    [words.at(-1)!, words.slice(0, -1)],
    [words[0]!, words.slice(1)],
  ] as const) {
    if (rest.length === 0 || !editionWord(mark)) continue;
    const base = heldByOthers(index.popularByStems.get(rest.map(wordStem).join(' ')), name, ownerId);
    if (base) return added(name, base, mark, 'word-added', ' and another ending');
  }
  const byline = words.findIndex((word, i) => i > 0 && BYLINE_WORDS.has(word));
  // Before the byline, the name itself with nothing but dressing (`pdf-tools-skill-by-acme`): a name that says what
  // else it does before a `from` describes a source (`write-coding-standards-from-file`).
  const base = byline > 0 ? undressed(words.slice(0, byline), index, name, ownerId) : undefined;
  if (base) {
    return {
      code: 'name_too_similar',
      rule: 'byline',
      resembles: base.name,
      why: `"${name}" reads as "${base.name}", a published name with many downloads, with a byline added.`,
    };
  }
  return null;
}

/** The popular name held by others whose words, abbreviated and run together, are `compact` (`scrtyrvw`). */
function abbreviationOf(compact: string, index: NameIndex, name: string, ownerId: string | null): ExistingName | undefined {
  return (
    heldByOthers(index.popularByJoinedConsonants.get(compact), name, ownerId) ??
    heldByOthers(index.popularByJoinedConsonants.get(wordConsonants(compact)), name, ownerId)
  );
}

/**
 * The popular name held by others that `words` are with nothing but dressing around them: the words as they are,
 * then with dressing words taken off either end one by one (`get-the-best-skill-adapter`, `pdf-skill`), then with
 * every dressing word left out.
 */
function undressed(words: readonly string[], index: NameIndex, name: string, ownerId: string | null): ExistingName | undefined {
  const find = (kept: readonly string[]) =>
    kept.length === 0 ? undefined : heldByOthers(index.popularByWords.get(wordsKey(kept.map(wordSound))), name, ownerId);
  for (let start = 0; start < words.length && (start === 0 || dressing(words[start - 1]!)); start += 1) {
    for (let end = words.length; end > start && (end === words.length || dressing(words[end]!)); end -= 1) {
      const base = find(words.slice(start, end));
      if (base) return base;
    }
  }
  return find(words.filter((word) => !dressing(word)));
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

/**
 * The words of a pitch wrapped around a name (`your-pdf-made-easy`, `the-pdf-you-need`, `pdf-for-everyone`): they
 * say nothing of what a skill does.
 */
const PITCH = new Set([
  'you',
  'need',
  'made',
  'easy',
  'simple',
  'everyone',
  'teams',
  'today',
  'now',
  'fast',
  'quick',
  'smart',
  'ultimate',
  'complete',
  'awesome',
  'super',
  'better',
  'done',
  'right',
]);

/** A word that links two things rather than names one: a connector, a pitch word, `plus`. */
function linkWord(word: string): boolean {
  return CONNECTORS.has(word) || PITCH.has(word) || word === 'plus';
}

/** A word that dresses a name up rather than says what else it does: a connector, a claim or pitch word, or a tag. */
function dressing(word: string): boolean {
  return CONNECTORS.has(word) || CLAIMS.has(word) || PITCH.has(word) || looksLikeTag(word);
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
  // Around the name, one word of substance beside a claim word or a version (`acme-pdf-tools-pro`, `google-pdf-v2`).
  // A vendor's or any word of substance beside a role word counts too (`meta-pdf-assistant`); at one end, a role or
  // vendor word beside a claim word or a version (`pdf-tools-bot-pro`, `v3-aws-pdf-tools`).
  return (
    added.some((word) => CONNECTORS.has(word)) ||
    added.every(dressing) ||
    (reading.ends === true && added.some((word) => marks(word) || ROLES.has(word))) ||
    (reading.edge === true && added.some(marks) && added.some((word) => ROLES.has(word) || VENDORS.has(word)))
  );
}

/** A claim word or a tag with a digit (`pro`, `v2`, `2026`): what a name is marked with to pass as a version of another. */
function marks(word: string): boolean {
  return CLAIMS.has(word) || (looksLikeTag(word) && /[0-9]/.test(word));
}

/** A claim word, a numbered tag, a vendor or a role word: what marks a name as an edition of another. */
function editionWord(word: string): boolean {
  return marks(word) || VENDORS.has(word) || ROLES.has(word);
}

/** A refusal for `name` read another way (judgeRereadings): it reads as `resembles` `how` it was changed. */
function reread(name: string, resembles: string, how: string): NameRefusal {
  return {
    code: 'name_too_similar',
    rule: 'reread',
    resembles,
    why: `"${name}" reads as "${resembles}", a published name with many downloads, ${how}.`,
  };
}

function abbreviated(name: string, base: ExistingName): NameRefusal {
  return {
    code: 'name_too_similar',
    rule: 'abbreviated',
    resembles: base.name,
    why: `"${name}" is "${base.name}", a published name with many downloads, with letters left out.`,
  };
}

function added(name: string, base: ExistingName, affix: string, rule: NameRule = 'word-added', also = ''): NameRefusal {
  return {
    code: 'name_too_similar',
    rule,
    resembles: base.name,
    why: `"${name}" is "${base.name}", a published name with many downloads, with "${affix}" added${also}.`,
  };
}
