// Judged queries over the relevance corpus: what a person would type to find one particular skill, and that
// skill's slug as the answer. Every query is checked before it is kept, by a scoring of this file's own (field
// weights, IDF, stems, the last word as a prefix, exact names first) that knows nothing of the registry's engine:
// a query whose answer is not clearly the best skill in the corpus is dropped, so a miss is the engine's.
import { stemmer } from 'stemmer';
import { generator } from './generate.js';
import { VERBS, WORD_FORMS, plural, type NameShape, type RelevanceSkill } from './relevance-corpus.js';

export const QUERY_KINDS = [
  'exact-name',
  'name-words',
  'description-words',
  'typo',
  'prefix',
  'stem',
  'split',
  'intent',
  'diacritics',
  'cjk',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface JudgedQuery {
  kind: QueryKind;
  q: string;
  /** Slugs, the best answer first: the query succeeds at 10 when any of them is among the first ten results. */
  expected: string[];
}

/** The registry refuses longer searches (SEARCH_TEXT_MAX, SEARCH_WORDS_MAX); a judged query stays inside them. */
const MAX_CHARS = 200;
const MAX_WORDS = 8;

/** Another full match scoring this share of the answer's score makes the answer a matter of taste: dropped. */
const MARGIN = 0.75;

const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const CJK_OR_NOT =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+|[^\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;

/** Latin letters without their accents ("café" → "cafe"); kana and Hangul keep theirs. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC');
}

interface Token {
  raw: string;
  stem: string;
  cjk: boolean;
}

/**
 * Words as a reader sees them: accents folded, camelCase, hyphens, underscores and dots split, English words
 * stemmed (Porter, the usual English stemmer); runs of CJK characters, which have no spaces, as overlapping pairs.
 */
function tokenize(text: string): Token[] {
  const spaced = fold(text)
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase();
  const out: Token[] = [];
  for (const piece of spaced.split(/[^\p{L}\p{N}]+/u)) {
    for (const run of piece.match(CJK_OR_NOT) ?? []) {
      if (!CJK.test(run)) {
        out.push({ raw: run, stem: /^[a-z]+$/.test(run) ? stemmer(run) : run, cjk: false });
        continue;
      }
      const chars = [...run];
      if (chars.length === 1) out.push({ raw: run, stem: run, cjk: true });
      for (let i = 0; i + 1 < chars.length; i += 1) {
        const pair = chars[i]! + chars[i + 1]!;
        out.push({ raw: pair, stem: pair, cjk: true });
      }
    }
  }
  return out;
}

const key = (text: string): string => fold(text).toLowerCase().trim().replace(/\s+/g, ' ');

/** Name and slug, then tags and category, then description: what each field is worth to a match. */
const FIELD_WEIGHTS = [3, 2, 1] as const;
/** By the bit mask of the fields a word occurs in: the sum of their weights. */
const WEIGHT_OF_MASK = Array.from({ length: 1 << FIELD_WEIGHTS.length }, (_, mask) =>
  FIELD_WEIGHTS.reduce((sum, w, f) => (mask & (1 << f) ? sum + w : sum), 0),
);

interface Scored {
  score: number;
  full: boolean;
}

/** The corpus indexed for the independent scoring, and the questions the query builders ask of it. */
class Judge {
  readonly byStem = new Map<string, Map<number, number>>();
  readonly byRaw = new Map<string, Map<number, number>>();
  readonly exact = new Map<string, number[]>();
  /** Per skill: every stem in its name and description (intent), and in its name, slug, tags and category. */
  readonly textStems: Set<string>[] = [];
  readonly labelStems: Set<string>[] = [];
  readonly rawWords: Set<string>[] = [];
  readonly stemOfRaw = new Map<string, string>();

  constructor(readonly skills: readonly RelevanceSkill[]) {
    skills.forEach((skill, doc) => {
      const fields = [`${skill.name} ${skill.slug}`, `${skill.tags.join(' ')} ${skill.category}`, skill.description];
      const text = new Set<string>();
      const label = new Set<string>();
      const raws = new Set<string>();
      fields.forEach((field, f) => {
        for (const token of tokenize(field)) {
          add(this.byStem, token.stem, doc, f);
          add(this.byRaw, token.raw, doc, f);
          this.stemOfRaw.set(token.raw, token.stem);
          raws.add(token.raw);
          if (f !== 1) text.add(token.stem);
          if (f !== 2) label.add(token.stem);
        }
      });
      this.textStems.push(text);
      this.labelStems.push(label);
      this.rawWords.push(raws);
      for (const k of new Set([key(skill.name), key(skill.slug)])) this.exact.set(k, [...(this.exact.get(k) ?? []), doc]);
    });
  }

  docFrequency(stem: string): number {
    return this.byStem.get(stem)?.size ?? 0;
  }

  /** Every matching skill's score: per query word, its IDF times the weights of the fields holding it. */
  score(q: string): Map<number, Scored> {
    const tokens = tokenize(q);
    const last = tokens.at(-1);
    // As typed: the last word may be unfinished, so it also matches every word it begins.
    const typing = last !== undefined && !last.cjk && !/\s$/.test(q) ? last : undefined;
    const terms = [...new Set(tokens.map((t) => t.stem))];
    const scores = new Map<number, { score: number; matched: number }>();
    for (const term of terms) {
      const postings = new Map(this.byStem.get(term) ?? []);
      if (typing?.stem === term) {
        for (const [raw, docs] of this.byRaw) {
          if (!raw.startsWith(typing.raw)) continue;
          for (const [doc, mask] of docs) postings.set(doc, (postings.get(doc) ?? 0) | mask);
        }
      }
      const n = this.skills.length;
      const idf = Math.log(1 + (n - postings.size + 0.5) / (postings.size + 0.5));
      for (const [doc, mask] of postings) {
        const s = scores.get(doc) ?? { score: 0, matched: 0 };
        s.score += WEIGHT_OF_MASK[mask]! * idf;
        s.matched += 1;
        scores.set(doc, s);
      }
    }
    return new Map([...scores].map(([doc, s]) => [doc, { score: s.score, full: s.matched === terms.length }]));
  }

  /** Whether `doc` is clearly the best answer to `q`: the one exact name, or a full match well ahead of any other. */
  isBest(q: string, doc: number): boolean {
    const exact = this.exact.get(key(q)) ?? [];
    if (exact.includes(doc)) return exact.length === 1;
    if (exact.length > 0) return false;
    const scores = this.score(q);
    const mine = scores.get(doc);
    if (!mine?.full) return false;
    for (const [other, s] of scores) if (other !== doc && s.full && s.score >= MARGIN * mine.score) return false;
    return true;
  }
}

function add(index: Map<string, Map<number, number>>, word: string, doc: number, field: number): void {
  let docs = index.get(word);
  if (!docs) {
    docs = new Map();
    index.set(word, docs);
  }
  docs.set(doc, (docs.get(doc) ?? 0) | (1 << field));
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost one. Gives
 * up, answering `limit + 1`, as soon as no alignment can stay within `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** The typo tolerance the registry promises: one edit from five letters, two from nine. */
const editsAllowed = (word: string): number => (word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0);

/** Neighbours on a QWERTY keyboard: the letters a slipping finger hits instead. */
const KEYS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
function neighbours(letter: string): string[] {
  const row = KEYS.findIndex((r) => r.includes(letter));
  if (row < 0) return [];
  const at = KEYS[row]!.indexOf(letter);
  return [KEYS[row]![at - 1], KEYS[row]![at + 1], KEYS[row - 1]?.[at], KEYS[row + 1]?.[at]].filter((c): c is string => c !== undefined);
}

const PAST = new Set([...VERBS.values()].map((v) => v.past));
const FORMS_BY_STEM = new Map<string, string[]>();
for (const form of WORD_FORMS) FORMS_BY_STEM.set(stemmer(form), [...(FORMS_BY_STEM.get(stemmer(form)) ?? []), form]);

/** Words of the description templates: shared by thousands of skills, they distinguish none. */
const TEMPLATE_WORDS = new Set(
  (
    'use when user asks them with mind handles covers using checks before anything built returns markdown summary outputs json ' +
    'other tools writes result checklist produces diff review leaves short report chat saves reusable template works triggers ' +
    'requests like not meant dedicated skill that often paired complements fork lighter faster community maintained loved ' +
    'everyday chores sharing round helper'
  ).split(' '),
);

const SPACED: readonly NameShape[] = ['title', 'tool-led', 'workflow', 'imperative', 'kebab'];
const COMPOUND: readonly NameShape[] = ['camel', 'snake', 'dotted'];

type Random = () => number;

interface Candidate {
  q: string;
  /** What the judge scores instead of `q`: the intended words of a query with a typo. */
  meant?: string;
}

interface Context {
  judge: Judge;
  rnd: Random;
}

function shuffle<T>(rnd: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Words as a person reads them off a name or description: split at spaces and punctuation, not inside "CircleCI". */
const plainWords = (text: string): string[] =>
  fold(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
const nameWords = (skill: RelevanceSkill): string[] => plainWords(skill.name);
const isWord = (w: string): boolean => /^[a-z]+$/.test(w);

/** Words a person leaves out of a search ("all" and "in" of "All-in-One"). */
const FILLERS = new Set(['a', 'an', 'and', 'all', 'in', 'of', 'on', 'one', 'the', 'to', 'for', 'with', 'my']);
const isContent = (w: string): boolean => w.length >= 2 && !FILLERS.has(w);

/** The name word typed beside the one at `at`: the nearest content word, the following one first. */
function partnerOf(words: readonly string[], at: number): number | undefined {
  for (let step = 1; step < words.length; step += 1) {
    for (const j of [at + step, at - step]) if (j >= 0 && j < words.length && isContent(words[j]!)) return j;
  }
  return undefined;
}

/** The query keeps the name's order: `picked` are indexes into `words`. */
const inOrder = (words: readonly string[], picked: Iterable<number>): string =>
  [...new Set(picked)]
    .sort((a, b) => a - b)
    .map((i) => words[i]!)
    .join(' ');

const builders: Record<QueryKind, (skill: RelevanceSkill, doc: number, ctx: Context) => Candidate[]> = {
  'exact-name': (skill, _doc, { rnd }) => {
    if (skill.facets.role === 'special') return [];
    return rnd() < 0.7 ? [{ q: skill.name }, { q: skill.slug }] : [{ q: skill.slug }, { q: skill.name }];
  },

  'name-words': (skill, _doc, { rnd }) => {
    if (!SPACED.includes(skill.facets.shape)) return [];
    const words = nameWords(skill);
    const content = [...words.keys()].filter((i) => isContent(words[i]!));
    if (words.length < 3 || content.length < 2) return [];
    const out: Candidate[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const size = Math.min(words.length - 1, content.length, 2 + Math.floor(rnd() * 2));
      out.push({ q: inOrder(words, shuffle(rnd, content).slice(0, size)) });
    }
    return out;
  },

  'description-words': (skill, doc, { judge }) => {
    if (skill.facets.role === 'special') return [];
    const label = judge.labelStems[doc]!;
    const seen = new Set<string>();
    const words: { raw: string; stem: string; at: number }[] = [];
    plainWords(skill.description).forEach((raw, at) => {
      const stem = stemmer(raw);
      if (!isWord(raw) || raw.length < 4 || TEMPLATE_WORDS.has(raw) || label.has(stem) || seen.has(stem)) return;
      seen.add(stem);
      words.push({ raw, stem, at });
    });
    const rarest = [...words].sort((a, b) => judge.docFrequency(a.stem) - judge.docFrequency(b.stem) || a.at - b.at);
    const combos = [
      [0, 1],
      [0, 1, 2],
      [0, 2],
      [1, 2],
      [0, 1, 3],
      [0, 2, 3],
    ];
    return combos
      .filter((c) => c.every((i) => i < rarest.length))
      .map((c) => ({
        q: c
          .map((i) => rarest[i]!)
          .sort((a, b) => a.at - b.at)
          .map((w) => w.raw)
          .join(' '),
      }));
  },

  typo: (skill, _doc, { judge, rnd }) => {
    if (!SPACED.includes(skill.facets.shape)) return [];
    const words = nameWords(skill);
    if (words.length < 2) return [];
    const out: Candidate[] = [];
    for (const at of shuffle(rnd, [...words.keys()])) {
      const word = words[at]!;
      if (!isWord(word) || word.length < 5) continue;
      const other = partnerOf(words, at);
      if (other === undefined) continue;
      for (const typo of shuffle(rnd, typosOf(word, rnd))) {
        if (!typoIsFair(judge, typo, word, other < at)) continue;
        const typed = words.map((w, i) => (i === at ? typo : w));
        out.push({ q: inOrder(typed, [at, other]), meant: inOrder(words, [at, other]) });
      }
    }
    return out.slice(0, 4);
  },

  prefix: (skill, _doc, { rnd }) => {
    if (!SPACED.includes(skill.facets.shape)) return [];
    const words = nameWords(skill);
    const out: Candidate[] = [];
    for (let j = 1; j < words.length; j += 1) {
      const word = words[j]!;
      const typed = words.slice(0, j).filter(isContent).slice(-2);
      if (!isWord(word) || typed.length === 0) continue;
      for (const cut of shuffle(rnd, [3, 4, 5])) {
        if (cut > word.length - 2) continue;
        out.push({ q: `${typed.join(' ')} ${word.slice(0, cut)}` });
      }
    }
    return shuffle(rnd, out).slice(0, 4);
  },

  stem: (skill, doc, { judge, rnd }) => {
    if (!SPACED.includes(skill.facets.shape)) return [];
    const words = nameWords(skill);
    if (words.length < 2) return [];
    const out: Candidate[] = [];
    for (const at of shuffle(rnd, [...words.keys()])) {
      const word = words[at]!;
      if (!isWord(word) || !isContent(word)) continue;
      const other = partnerOf(words, at);
      if (other === undefined) continue;
      // Another form of the same stem that the skill's text never spells and that is no prefix of the word typed.
      const forms = (FORMS_BY_STEM.get(stemmer(word)) ?? []).filter(
        (f) => f !== word && !word.startsWith(f) && !judge.rawWords[doc]!.has(f),
      );
      // "plans", "testing", "forms" before "planned": people search in the present.
      const ordered = [
        ...shuffle(
          rnd,
          forms.filter((f) => !PAST.has(f)),
        ),
        ...shuffle(
          rnd,
          forms.filter((f) => PAST.has(f)),
        ),
      ];
      for (const form of ordered)
        out.push({
          q: inOrder(
            words.map((w, i) => (i === at ? form : w)),
            [at, other],
          ),
        });
    }
    return out.slice(0, 4);
  },

  split: (skill, _doc, { rnd }) => {
    const words = nameWords(skill);
    if (COMPOUND.includes(skill.facets.shape))
      return [
        {
          q: tokenize(skill.name)
            .map((t) => t.raw)
            .join(' '),
        },
      ];
    // The other way round, less often: a name in words, typed as one compound.
    // Brand names with capitals inside ("MyFitnessPal") would be split where their makers never split them.
    const branded = skill.name.split(/\s+/).some((w) => /\p{Lu}.*\p{Lu}/u.test(w) && w !== w.toUpperCase());
    if (!['title', 'tool-led', 'workflow'].includes(skill.facets.shape) || branded || words.length < 2 || rnd() > 0.3) return [];
    const out: Candidate[] = [];
    for (const at of shuffle(rnd, [...words.keys()].slice(0, -1))) {
      const [a, b] = [words[at]!, words[at + 1]!];
      const compound = [`${pascal(a)}${pascal(b)}`, `${a}-${b}`, `${a}_${b}`][Math.floor(rnd() * 3)]!;
      out.push({ q: [...words.slice(0, at), compound, ...words.slice(at + 2)].join(' ') });
    }
    return out.filter((c) => key(c.q) !== key(skill.name));
  },

  intent: (skill, doc, { judge }) => {
    const verb = skill.facets.verb;
    if (!verb || skill.facets.role === 'special' || skill.facets.objects.length === 0) return [];
    const objects = skill.facets.objects;
    const phrasings = [
      [verb.base, ...objects.slice(0, -1), plural(objects.at(-1)!)],
      [verb.base, plural(objects.at(-1)!)],
      [verb.base, ...objects],
    ];
    const name = judge.labelStems[doc]!;
    return phrasings
      .map((words) => words.join(' '))
      .filter((q) => {
        const stems = tokenize(q).map((t) => t.stem);
        // Every word is the skill's own, and at least one comes from what it does rather than what it is called.
        return stems.every((s) => judge.textStems[doc]!.has(s)) && stems.some((s) => !name.has(s)) && !key(skill.name).includes(key(q));
      })
      .map((q) => ({ q }));
  },

  diacritics: (skill) => {
    if (skill.facets.shape !== 'accented') return [];
    const words = skill.name.split(' ');
    const at = words.findIndex((w) => w !== fold(w));
    if (at < 0) return [];
    const plain = words.map((w) => fold(w).toLowerCase());
    const other = at + 1 < words.length ? at + 1 : at - 1;
    return [{ q: inOrder(plain, [at, other]) }, { q: inOrder(plain, [at, other, other + 1 < words.length ? other + 1 : other]) }];
  },

  cjk: (skill, _doc, { rnd }) => (skill.facets.shape === 'cjk' ? shuffle(rnd, skill.facets.terms ?? []).map((q) => ({ q })) : []),
};

function pascal(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One slip each, never in the first letter: a swap of neighbours, a dropped letter (the word keeping five), a neighbouring key. */
function typosOf(word: string, rnd: Random): string[] {
  const out = new Set<string>();
  const at = () => 1 + Math.floor(rnd() * (word.length - 1));
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const i = Math.min(at(), word.length - 2);
    if (word[i] !== word[i + 1]) out.add(word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2));
    const j = at();
    if (word.length >= 6) out.add(word.slice(0, j) + word.slice(j + 1));
    const k = at();
    const keys = neighbours(word[k]!);
    if (keys.length > 0) out.add(word.slice(0, k) + keys[Math.floor(rnd() * keys.length)]! + word.slice(k + 1));
  }
  out.delete(word);
  return [...out];
}

/**
 * A typo the registry can be asked to forgive: tolerated by length, no word of the corpus itself, and within the
 * tolerated distance (or, typed last, as a prefix) of no corpus word but forms of the one meant.
 */
function typoIsFair(judge: Judge, typo: string, meant: string, typedLast: boolean): boolean {
  const allowed = editsAllowed(typo);
  if (allowed === 0 || judge.byRaw.has(typo) || judge.byStem.has(stemmer(typo))) return false;
  const family = stemmer(meant);
  for (const [raw, stem] of judge.stemOfRaw) {
    if (!isWord(raw) || stem === family) continue;
    if (typedLast && raw.startsWith(typo)) return false;
    if (editDistance(typo, raw, allowed) <= allowed) return false;
  }
  return true;
}

export interface QueryOptions {
  /** Queries wanted per kind; a kind with too few fair candidates (a small corpus) gets fewer. */
  perKind?: number;
  seed?: number;
}

/**
 * The judged queries over `corpus`, deterministic for a corpus and seed. Half of each kind's queries look for a
 * skill that has a distractor built against it; the rest for any skill.
 */
export function relevanceQueries(corpus: readonly RelevanceSkill[], options: QueryOptions = {}): JudgedQuery[] {
  const perKind = options.perKind ?? 20;
  const judge = new Judge(corpus);
  const rnd = generator(options.seed ?? 7);
  const ctx: Context = { judge, rnd };
  const attacked = new Set(corpus.map((s) => s.facets.of).filter((slug): slug is string => slug !== undefined));
  const all = [...corpus.keys()];
  const targeted = all.filter((doc) => attacked.has(corpus[doc]!.slug));
  const queries: JudgedQuery[] = [];
  const used = new Set<string>();
  for (const kind of QUERY_KINDS) {
    let found = 0;
    const passes: [number[], number][] = [
      [shuffle(rnd, targeted), Math.ceil(perKind / 2)],
      [shuffle(rnd, all), perKind],
    ];
    const targets = new Set<number>();
    for (const [order, quota] of passes) {
      for (const doc of order) {
        if (found >= quota) break;
        if (targets.has(doc)) continue;
        const skill = corpus[doc]!;
        for (const candidate of builders[kind](skill, doc, ctx)) {
          const q = candidate.q.trim();
          if (used.has(key(q)) || q.length > MAX_CHARS || q.split(/\s+/).length > MAX_WORDS) continue;
          if (!judge.isBest(candidate.meant ?? q, doc)) continue;
          used.add(key(q));
          targets.add(doc);
          queries.push({ kind, q, expected: [skill.slug] });
          found += 1;
          break;
        }
      }
    }
  }
  return queries;
}

/** For checks on the generator itself: whether the independent scoring ranks `slug` first for `q`. */
export function independentlyBest(corpus: readonly RelevanceSkill[], q: string, slug: string): boolean {
  const doc = corpus.findIndex((s) => s.slug === slug);
  return doc >= 0 && new Judge(corpus).isBest(q, doc);
}
