import { compounds, termOf, tokenize, type Token } from './analysis.js';
import { highlight, type Highlights } from './highlights.js';
import { Postings } from './postings.js';
import { STOP_WORDS } from './stop-words.js';
import { Vocabulary } from './vocabulary.js';

/** What the index holds of one skill. */
export interface SearchDocument {
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string | null;
  tags: readonly string[];
  status: string;
  ownerId: string;
  featured: boolean;
  downloads: number;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

export type SearchSort = 'relevance' | 'latest' | 'downloads' | 'featured';

export interface SearchQuery {
  text: string;
  statuses: readonly string[] | 'all';
  ownerId?: string | undefined;
  category?: string | undefined;
  tags: readonly string[];
  featured?: boolean | undefined;
  sort: SearchSort;
  offset: number;
  limit: number;
}

export interface SearchHit {
  id: string;
  highlights: Highlights;
}

export interface SearchAnswer {
  hits: SearchHit[];
  total: number;
  /** `partial` when no skill matched every word and the best partial matches were returned instead. */
  match: 'full' | 'partial';
}

/** Words of a query beyond this many are not searched for: the work of one query stays bounded. */
export const QUERY_WORDS_MAX = 12;

type Field = 'slug' | 'name' | 'tags' | 'category' | 'description';

/** BM25F: slug and name count most, tags and category next, the description least. */
const WEIGHTS: Record<Field, number> = { slug: 3, name: 3, tags: 2, category: 1.5, description: 1 };
/** How much a field's length dampens a word's weight in it: names are short and alike, descriptions vary. */
const LENGTH_DAMPING: Record<Field, number> = { slug: 0.3, name: 0.3, tags: 0.3, category: 0, description: 0.75 };
const K1 = 1.2;
/** How much less a word found through a prefix or a typo counts than the word itself. */
const PREFIX_FACTOR = 0.85;
const TYPO_FACTOR = 0.55;
/** Downloads lift a score by at most this share, so popularity breaks near-ties but never beats a better match. */
const DOWNLOADS_BOOST_MAX = 0.08;

interface Slot {
  document: SearchDocument;
  /** Words per field, to take the slot out of the average lengths again without analysing it twice. */
  lengths: Record<Field, number>;
  /** The name and slug folded and joined, for "an exact name or slug match comes first". */
  exactKeys: string[];
  /** The terms the slot was indexed under, to take it out of the counts again. */
  terms: string[];
  surfaces: string[];
}

interface Alternative {
  postings: Postings;
  factor: number;
}

interface QueryWord {
  alternatives: Alternative[];
  /** A stop word counts towards the score when present, but is not required. */
  optional: boolean;
}

/** What a query matched, for highlighting: whole terms, and the last word as typed when it is a prefix. */
interface Matched {
  terms: Set<string>;
  prefix: string | null;
}

function fieldTokens(document: SearchDocument): Record<Field, Token[]> {
  return {
    slug: tokenize(document.slug),
    name: tokenize(document.name),
    tags: document.tags.flatMap((tag) => tokenize(tag)),
    category: tokenize(document.category ?? ''),
    description: tokenize(document.description),
  };
}

function exactKeysOf(document: SearchDocument): string[] {
  const keys = new Set<string>();
  for (const text of [document.name, document.slug]) {
    const surfaces = tokenize(text).map((t) => t.surface);
    keys.add(surfaces.join(' '));
    keys.add(surfaces.join(''));
  }
  return [...keys];
}

/**
 * An in-memory inverted index of the skills, ranked with BM25F. Documents are appended to slots; a changed
 * document gets a new slot and its old one is skipped until the index is rebuilt. One query's work is the
 * postings of its words (each bounded in expansions), never a walk over every skill.
 */
export class SearchEngine {
  private readonly slots: Slot[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly postings = new Map<string, Postings>();
  private readonly vocabulary = new Vocabulary();
  private readonly fieldLengths: Record<Field, number> = { slug: 0, name: 0, tags: 0, category: 0, description: 0 };
  private live = 0;
  // Scratch arrays reused by every query (the server runs one query at a time), stamped instead of cleared.
  private wordStamp = new Uint32Array(0);
  private wordBest = new Float32Array(0);
  private queryStamp = new Uint32Array(0);
  private matchedWords = new Uint8Array(0);
  private score = new Float64Array(0);
  private alive = new Uint8Array(1024);
  private stamp = 0;

  get size(): number {
    return this.live;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  upsert(document: SearchDocument): void {
    this.remove(document.id);
    const tokens = fieldTokens(document);
    const extra = [...compounds(document.name), ...compounds(document.slug)];
    const averages = this.averages();
    const weighted = new Map<string, number>();
    const surfaces = new Set<string>();
    const lengths: Record<Field, number> = { slug: 0, name: 0, tags: 0, category: 0, description: 0 };
    for (const field of Object.keys(WEIGHTS) as Field[]) {
      const list = tokens[field];
      lengths[field] = list.length;
      this.fieldLengths[field] += list.length;
      const counts = new Map<string, number>();
      for (const token of list) {
        counts.set(token.term, (counts.get(token.term) ?? 0) + 1);
        if (!token.gram) surfaces.add(token.surface);
      }
      if (field === 'name') for (const compound of extra) counts.set(termOf(compound), (counts.get(termOf(compound)) ?? 0) + 1);
      const damping = LENGTH_DAMPING[field];
      const norm = 1 - damping + (damping * Math.max(list.length, 1)) / Math.max(averages[field], 1);
      for (const [term, count] of counts) weighted.set(term, (weighted.get(term) ?? 0) + (WEIGHTS[field] * count) / norm);
    }
    for (const compound of extra) surfaces.add(compound);

    const slot = this.slots.length;
    if (slot >= this.alive.length) {
      const grown = new Uint8Array(this.alive.length * 2);
      grown.set(this.alive);
      this.alive = grown;
    }
    this.alive[slot] = 1;
    this.slots.push({ document, lengths, exactKeys: exactKeysOf(document), terms: [...weighted.keys()], surfaces: [...surfaces] });
    this.slotOf.set(document.id, slot);
    this.live += 1;
    for (const [term, tf] of weighted) {
      let list = this.postings.get(term);
      if (list === undefined) {
        list = new Postings();
        this.postings.set(term, list);
      }
      list.add(slot, (tf * (K1 + 1)) / (tf + K1));
    }
    for (const surface of surfaces) this.vocabulary.add(surface, termOf(surface));
  }

  /** Downloads change too often to re-index a skill for each: the total is updated in place. */
  addDownloads(id: string, count: number): void {
    const at = this.slotOf.get(id);
    const slot = at === undefined ? undefined : this.slots[at];
    if (slot !== undefined) slot.document = { ...slot.document, downloads: slot.document.downloads + count };
  }

  remove(id: string): void {
    const at = this.slotOf.get(id);
    if (at === undefined) return;
    const slot = this.slots[at];
    if (slot === undefined) return;
    this.alive[at] = 0;
    this.slotOf.delete(id);
    this.live -= 1;
    for (const term of slot.terms) {
      const list = this.postings.get(term);
      if (list !== undefined) list.documents -= 1;
    }
    for (const surface of slot.surfaces) this.vocabulary.remove(surface);
    for (const field of Object.keys(WEIGHTS) as Field[]) this.fieldLengths[field] -= slot.lengths[field];
  }

  /** Replaces every document the index holds. */
  static build(documents: Iterable<SearchDocument>): SearchEngine {
    const engine = new SearchEngine();
    for (const document of documents) engine.upsert(document);
    return engine;
  }

  /** Removed slots take memory and query time; past this share of dead ones, the owner should rebuild. */
  get deadShare(): number {
    return this.slots.length === 0 ? 0 : 1 - this.live / this.slots.length;
  }

  documents(): IterableIterator<SearchDocument> {
    const { slots, alive } = this;
    return (function* () {
      for (let at = 0; at < slots.length; at += 1) {
        const slot = slots[at];
        if (slot !== undefined && alive[at] === 1) yield slot.document;
      }
    })();
  }

  search(query: SearchQuery): SearchAnswer {
    const words = this.parse(query.text);
    this.growScratch();
    const candidates = this.collect(words.query);
    const required = words.query.filter((w) => !w.optional).length;
    const filter = this.filterOf(query);
    let kept = candidates.filter((slot) => this.matchedWords[slot] === required && filter(slot));
    let match: SearchAnswer['match'] = 'full';
    if (kept.length === 0 && required > 1) {
      kept = candidates.filter((slot) => (this.matchedWords[slot] ?? 0) > 0 && filter(slot));
      match = 'partial';
    }
    // The query's words as the name's and slug's are kept, so `wiki-page-documenter` is the exact slug it names.
    const exact = tokenize(query.text).map((token) => token.surface);
    const exactKeys = new Set([exact.join(' '), exact.join('')]);
    if (query.sort === 'relevance') this.relevance(kept, exactKeys);
    const page = topK(kept, query.offset + query.limit, this.ranker(query.sort)).slice(query.offset);
    return {
      hits: page.map((slot) => {
        const document = this.document(slot);
        return { id: document.id, highlights: highlight(document, words.matched) };
      }),
      total: kept.length,
      match,
    };
  }

  private document(slot: number): SearchDocument {
    const found = this.slots[slot];
    if (found === undefined) throw new Error(`search slot ${slot} does not exist`);
    return found.document;
  }

  private averages(): Record<Field, number> {
    const count = Math.max(this.live, 1);
    return {
      slug: this.fieldLengths.slug / count,
      name: this.fieldLengths.name / count,
      tags: this.fieldLengths.tags / count,
      category: this.fieldLengths.category / count,
      description: this.fieldLengths.description / count,
    };
  }

  private idf(postings: Postings): number {
    const n = Math.max(this.live, 1);
    const df = Math.max(postings.documents, 0);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** The words of a query with what each may match: itself (its stem), and as a prefix or with a typo. */
  private parse(text: string): { query: QueryWord[]; matched: Matched } {
    const tokens = tokenize(text).slice(0, QUERY_WORDS_MAX);
    const typing = text.length > 0 && !/\s$/u.test(text);
    const matched: Matched = { terms: new Set(), prefix: null };
    const query: QueryWord[] = [];
    const seen = new Set<string>();
    const allStopWords = tokens.every((t) => STOP_WORDS.has(t.surface));
    tokens.forEach((token, index) => {
      const last = index === tokens.length - 1;
      const key = `${token.term}${last ? '*' : ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      const alternatives = new Map<string, number>();
      const offer = (term: string, factor: number) => alternatives.set(term, Math.max(alternatives.get(term) ?? 0, factor));
      offer(token.term, 1);
      if (!token.gram) {
        if (last && typing) {
          matched.prefix = token.surface;
          for (const surface of this.vocabulary.prefixed(token.surface, prefixExpansions(token.surface)))
            offer(this.vocabulary.termOf(surface) ?? surface, PREFIX_FACTOR);
        }
        // A word the index knows is taken as written; only an unknown one is looked for with a typo.
        if (!this.vocabulary.known(token.surface)) {
          for (const surface of this.vocabulary.near(token.surface)) offer(this.vocabulary.termOf(surface) ?? surface, TYPO_FACTOR);
        }
      }
      const word: QueryWord = { alternatives: [], optional: !allStopWords && STOP_WORDS.has(token.surface) && !(last && typing) };
      for (const [term, factor] of alternatives) {
        const postings = this.postings.get(term);
        if (postings === undefined || postings.documents <= 0) continue;
        matched.terms.add(term);
        word.alternatives.push({ postings, factor: factor * this.idf(postings) });
      }
      query.push(word);
    });
    return { query, matched };
  }

  /** Scores every document holding any word; `matchedWords` then says how many required words each holds. */
  private collect(words: QueryWord[]): number[] {
    const candidates: number[] = [];
    this.stamp += 1;
    const queryStamp = this.stamp;
    for (const word of words) {
      this.stamp += 1;
      const wordStamp = this.stamp;
      const touched: number[] = [];
      for (const { postings, factor } of word.alternatives) {
        const { slots, impacts, length } = postings;
        for (let k = 0; k < length; k += 1) {
          const slot = slots[k] ?? 0;
          if (this.alive[slot] === 0) continue;
          const value = factor * (impacts[k] ?? 0);
          if (this.wordStamp[slot] !== wordStamp) {
            this.wordStamp[slot] = wordStamp;
            this.wordBest[slot] = value;
            touched.push(slot);
          } else if (value > (this.wordBest[slot] ?? 0)) this.wordBest[slot] = value;
        }
      }
      for (const slot of touched) {
        if (this.queryStamp[slot] !== queryStamp) {
          if (word.optional) continue;
          this.queryStamp[slot] = queryStamp;
          this.matchedWords[slot] = 0;
          this.score[slot] = 0;
          candidates.push(slot);
        }
        if (!word.optional) this.matchedWords[slot] = (this.matchedWords[slot] ?? 0) + 1;
        this.score[slot] = (this.score[slot] ?? 0) + (this.wordBest[slot] ?? 0);
      }
    }
    return candidates;
  }

  private filterOf(query: SearchQuery): (slot: number) => boolean {
    const statuses = query.statuses === 'all' ? null : new Set(query.statuses);
    return (slot) => {
      const document = this.slots[slot]?.document;
      if (document === undefined) return false;
      if (statuses !== null && !statuses.has(document.status)) return false;
      if (query.ownerId !== undefined && document.ownerId !== query.ownerId) return false;
      if (query.category !== undefined && document.category !== query.category) return false;
      if (query.featured === true && !document.featured) return false;
      return query.tags.every((tag) => document.tags.includes(tag));
    };
  }

  /** Turns each candidate's score into its rank value: an exact name or slug match first, then every required word, then BM25F lifted a little by downloads. */
  private relevance(kept: number[], exactKeys: Set<string>): void {
    for (const slot of kept) {
      const found = this.slots[slot];
      if (found === undefined) continue;
      const exact = found.exactKeys.some((key) => exactKeys.has(key)) ? 1e6 : 0;
      const boost = 1 + Math.min(DOWNLOADS_BOOST_MAX, (DOWNLOADS_BOOST_MAX * Math.log10(1 + found.document.downloads)) / 6);
      this.score[slot] = exact + (this.matchedWords[slot] ?? 0) * 1e4 + (this.score[slot] ?? 0) * boost;
    }
  }

  /** A comparison putting the better result first; ties break on the id, so pages never repeat or skip one. */
  private ranker(sort: SearchSort): (a: number, b: number) => number {
    const byId = (a: SearchDocument, b: SearchDocument) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    const docs = (a: number, b: number) => [this.document(a), this.document(b)] as const;
    switch (sort) {
      case 'latest':
        return (a, b) => {
          const [x, y] = docs(a, b);
          return y.updatedAt - x.updatedAt || byId(x, y);
        };
      case 'downloads':
        return (a, b) => {
          const [x, y] = docs(a, b);
          return y.downloads - x.downloads || byId(x, y);
        };
      case 'featured':
        return (a, b) => {
          const [x, y] = docs(a, b);
          return Number(y.featured) - Number(x.featured) || y.updatedAt - x.updatedAt || byId(x, y);
        };
      case 'relevance':
        return (a, b) => {
          const difference = (this.score[b] ?? 0) - (this.score[a] ?? 0);
          if (difference !== 0) return difference;
          const [x, y] = docs(a, b);
          return y.downloads - x.downloads || byId(x, y);
        };
    }
  }

  private growScratch(): void {
    const n = this.slots.length;
    if (this.wordStamp.length >= n) return;
    const size = Math.max(1024, n * 2);
    this.wordStamp = new Uint32Array(size);
    this.wordBest = new Float32Array(size);
    this.queryStamp = new Uint32Array(size);
    this.matchedWords = new Uint8Array(size);
    this.score = new Float64Array(size);
    this.stamp = 0;
  }
}

/** How many words a prefix may stand for: a letter or two could stand for thousands. */
function prefixExpansions(prefix: string): number {
  if (prefix.length <= 1) return 8;
  if (prefix.length === 2) return 16;
  return 48;
}

/** The best `k` of `items` in order, without sorting all of them when they are many. */
function topK(items: number[], k: number, compare: (a: number, b: number) => number): number[] {
  if (items.length <= k * 4) return items.sort(compare).slice(0, k);
  // A bounded max-heap on "worse first" keeps the k best seen so far.
  const heap: number[] = [];
  const worse = (a: number, b: number) => compare(a, b) > 0;
  const siftUp = (i: number) => {
    let at = i;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(heap[at] ?? 0, heap[parent] ?? 0)) break;
      [heap[at], heap[parent]] = [heap[parent] ?? 0, heap[at] ?? 0];
      at = parent;
    }
  };
  const siftDown = (i: number) => {
    let at = i;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && worse(heap[left] ?? 0, heap[worst] ?? 0)) worst = left;
      if (right < heap.length && worse(heap[right] ?? 0, heap[worst] ?? 0)) worst = right;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst] ?? 0, heap[at] ?? 0];
      at = worst;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap.length - 1);
    } else if (compare(item, heap[0] ?? 0) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}
