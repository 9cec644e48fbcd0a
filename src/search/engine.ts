import { compounds, termOf, tokenize, unstemmed, type Stem, type Token } from './analysis.js';
import { Arena, Columns, Interner } from './columns.js';
import { highlighter, type Highlights } from './highlights.js';
import { Matcher, type Admit, type QueryWord } from './matching.js';
import { Postings, SlotList } from './postings.js';
import { STOP_WORDS } from './stop-words.js';
import { SlotOrder } from './slot-order.js';
import { pageOf, type Order } from './top-k.js';
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
const FIELDS: readonly Field[] = ['slug', 'name', 'tags', 'category', 'description'];

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
/** A stop word held by more than this share of the skills is not scored (see `parse`). */
const COMMON_STOP_WORD_SHARE = 0.25;
/** Rank bonuses that outweigh any score: an exact name or slug match, then (in a partial match) each word held. */
const EXACT_BONUS = 1e6;
const WORD_BONUS = 1e4;
/** Featured first, then newest: one sort key, as `featured × this + updatedAt` (milliseconds stay far below it). */
const FEATURED_KEY = 1e13;

interface Slot {
  document: SearchDocument;
  /**
   * Where in `held` (the index's one arena of numbers) this slot keeps what removing it must take back out of the
   * counts, without analysing its text twice: the words per field, then the number of terms, the terms' postings
   * numbers, and the numbers of its words.
   */
  heldAt: number;
  heldLength: number;
}

/** What a query matched, for highlighting: the words of its terms, and the last word as typed when it is a prefix. */
interface Matched {
  surfaces: Set<string>;
  prefix: string | null;
}

function fieldTokens(document: SearchDocument, stem: Stem): Record<Field, Token[]> {
  return {
    slug: tokenize(document.slug, stem),
    name: tokenize(document.name, stem),
    tags: document.tags.flatMap((tag) => tokenize(tag, stem)),
    category: tokenize(document.category ?? '', stem),
    description: tokenize(document.description, stem),
  };
}

/** The name and slug folded and joined, with and without spaces: `PDF Tools` is `pdf tools` and `pdftools`. */
function exactKeysOf(texts: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const text of texts) {
    const surfaces = tokenize(text, unstemmed).map((t) => t.surface);
    if (surfaces.length === 0) continue;
    keys.add(surfaces.join(' '));
    keys.add(surfaces.join(''));
  }
  return keys;
}

/** Whether two versions of a document index the same words under the same owner: then only columns differ. */
function sameText(a: SearchDocument, b: SearchDocument): boolean {
  return (
    a.slug === b.slug &&
    a.name === b.name &&
    a.description === b.description &&
    a.category === b.category &&
    a.ownerId === b.ownerId &&
    a.tags.length === b.tags.length &&
    a.tags.every((tag, i) => tag === b.tags[i])
  );
}

function boostOf(downloads: number): number {
  return 1 + Math.min(DOWNLOADS_BOOST_MAX, (DOWNLOADS_BOOST_MAX * Math.log10(1 + Math.max(downloads, 0))) / 6);
}

function listIn<K>(lists: Map<K, SlotList>, key: K): SlotList {
  let list = lists.get(key);
  if (list === undefined) {
    list = new SlotList();
    lists.set(key, list);
  }
  return list;
}

/**
 * An in-memory inverted index of the skills, ranked with BM25F, that also answers their filtered lists.
 * Documents are appended to slots; a changed document gets a new slot and its old one is skipped until the
 * index is rebuilt. A query's work is the postings of its words (each bounded in expansions), and a list's the
 * slots of its narrowest filter: typed arrays walked in tight loops, never an object per skill.
 */
export class SearchEngine {
  private readonly slots: Slot[] = [];
  /** Every slot's bookkeeping (see `Slot`), in one typed array: a typed array per skill costs the collector a record each. */
  private readonly held = new Arena();
  private readonly slotOf = new Map<string, number>();
  private readonly postings = new Map<string, Postings>();
  private readonly postingsById: Postings[] = [];
  private readonly vocabulary = new Vocabulary();
  private readonly fieldLengths: Record<Field, number> = { slug: 0, name: 0, tags: 0, category: 0, description: 0 };
  private readonly columns = new Columns();
  private readonly statuses = new Interner();
  private readonly owners = new Interner();
  private readonly categories = new Interner();
  /** Slots by filter value, so a filtered list walks only the slots that can pass. */
  private readonly byOwner = new Map<number, SlotList>();
  private readonly byCategory = new Map<number, SlotList>();
  private readonly byTag = new Map<string, SlotList>();
  /** One slot, or several when skills share a name: most keys name one skill, and a list each would double the objects. */
  private readonly byExactKey = new Map<string, number | number[]>();
  private readonly matcher = new Matcher();
  private live = 0;
  /**
   * The live slots in each sort's order, and how many live slots each status has (and how many of them are
   * featured): a list without owner, category or tag filters reads its page from one end of its order and its
   * total from these counts, instead of ordering every skill for every request.
   */
  private readonly orders: Record<Exclude<SearchSort, 'relevance'>, SlotOrder> = {
    latest: new SlotOrder((a, b) => this.columns.updatedAt[a]! - this.columns.updatedAt[b]! || this.idOrder(a, b)),
    downloads: new SlotOrder((a, b) => this.columns.downloads[a]! - this.columns.downloads[b]! || this.idOrder(a, b)),
    featured: new SlotOrder(
      (a, b) =>
        this.columns.featured[a]! - this.columns.featured[b]! ||
        this.columns.updatedAt[a]! - this.columns.updatedAt[b]! ||
        this.idOrder(a, b),
    ),
  };
  private readonly byStatus = new Int32Array(256);
  private readonly featuredByStatus = new Int32Array(256);
  /** Words already indexed are stemmed by a lookup: the stemmer's dozens of expressions ran for every word. */
  private readonly stem: Stem = (surface) => this.vocabulary.termOf(surface) ?? termOf(surface);

  get size(): number {
    return this.live;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  upsert(document: SearchDocument): void {
    const current = this.slotOf.get(document.id);
    const same = current === undefined ? undefined : this.slots[current];
    if (current !== undefined && same !== undefined && sameText(same.document, document)) {
      // Status, featuring, downloads and times change far more often than text: they are columns, set in place.
      same.document = document;
      this.leave(current);
      this.setColumns(current, document);
      this.enter(current);
      return;
    }
    this.remove(document.id);
    const tokens = fieldTokens(document, this.stem);
    const extra = [...compounds(document.name), ...compounds(document.slug)];
    const averages = this.averages();
    const weighted = new Map<string, number>();
    const surfaces = new Set<string>();
    const lengths: Record<Field, number> = { slug: 0, name: 0, tags: 0, category: 0, description: 0 };
    for (const field of FIELDS) {
      const list = tokens[field];
      lengths[field] = list.length;
      this.fieldLengths[field] += list.length;
      const counts = new Map<string, number>();
      for (const token of list) {
        counts.set(token.term, (counts.get(token.term) ?? 0) + 1);
        if (!token.gram) surfaces.add(token.surface);
      }
      if (field === 'name') for (const compound of extra) counts.set(this.stem(compound), (counts.get(this.stem(compound)) ?? 0) + 1);
      const damping = LENGTH_DAMPING[field];
      const norm = 1 - damping + (damping * Math.max(list.length, 1)) / Math.max(averages[field], 1);
      for (const [term, count] of counts) weighted.set(term, (weighted.get(term) ?? 0) + (WEIGHTS[field] * count) / norm);
    }
    for (const compound of extra) surfaces.add(compound);

    const slot = this.slots.length;
    const heldLength = FIELDS.length + 1 + weighted.size + surfaces.size;
    const heldAt = this.held.reserve(heldLength);
    const held = this.held.data;
    FIELDS.forEach((field, i) => (held[heldAt + i] = lengths[field]));
    held[heldAt + FIELDS.length] = weighted.size;
    let at = heldAt + FIELDS.length + 1;
    for (const [term, tf] of weighted) {
      let list = this.postings.get(term);
      if (list === undefined) {
        list = new Postings(this.postingsById.length);
        this.postings.set(term, list);
        this.postingsById.push(list);
      }
      list.add(slot, (tf * (K1 + 1)) / (tf + K1));
      held[at] = list.id;
      at += 1;
    }
    for (const surface of surfaces) {
      held[at] = this.vocabulary.add(surface, this.stem(surface));
      at += 1;
    }
    this.slots.push({ document, heldAt, heldLength });
    this.slotOf.set(document.id, slot);
    this.live += 1;
    this.columns.ensure(slot);
    this.columns.alive[slot] = 1;
    this.setColumns(slot, document);
    this.enter(slot);
    listIn(this.byOwner, this.columns.owner[slot] ?? 0).push(slot);
    const category = this.columns.category[slot] ?? -1;
    if (category >= 0) listIn(this.byCategory, category).push(slot);
    for (const tag of new Set(document.tags)) listIn(this.byTag, tag).push(slot);
    for (const key of exactKeysOf([document.name, document.slug])) {
      const known = this.byExactKey.get(key);
      if (known === undefined) this.byExactKey.set(key, slot);
      else if (typeof known === 'number') this.byExactKey.set(key, [known, slot]);
      else known.push(slot);
    }
  }

  private setColumns(slot: number, document: SearchDocument): void {
    const { columns } = this;
    columns.status[slot] = this.statuses.id(document.status);
    columns.featured[slot] = document.featured ? 1 : 0;
    columns.owner[slot] = this.owners.id(document.ownerId);
    columns.category[slot] = document.category === null ? -1 : this.categories.id(document.category);
    columns.downloads[slot] = document.downloads;
    columns.updatedAt[slot] = document.updatedAt;
    columns.boost[slot] = boostOf(document.downloads);
  }

  /** Downloads change too often to re-index a skill for each: the total is updated in place. */
  addDownloads(id: string, count: number): void {
    const at = this.slotOf.get(id);
    if (at === undefined || count === 0) return;
    const downloads = (this.columns.downloads[at] ?? 0) + count;
    this.orders.downloads.remove(at);
    this.columns.downloads[at] = downloads;
    this.columns.boost[at] = boostOf(downloads);
    this.orders.downloads.add(at);
  }

  /** A live slot enters the sort orders and the counts, with its columns as they now are. */
  private enter(slot: number): void {
    for (const order of Object.values(this.orders)) order.add(slot);
    this.count(slot, 1);
  }

  /** A live slot leaves them, before its columns change or it dies. */
  private leave(slot: number): void {
    for (const order of Object.values(this.orders)) order.remove(slot);
    this.count(slot, -1);
  }

  private count(slot: number, step: number): void {
    const status = this.columns.status[slot] ?? 0;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + step;
    if (this.columns.featured[slot] === 1) this.featuredByStatus[status] = (this.featuredByStatus[status] ?? 0) + step;
  }

  /** Sorts what was added since the last list into the orders: after filling the index, so no request pays for it. */
  settleOrders(): void {
    for (const order of Object.values(this.orders)) order.settle();
  }

  remove(id: string): void {
    const at = this.slotOf.get(id);
    if (at === undefined) return;
    const slot = this.slots[at];
    if (slot === undefined) return;
    this.leave(at);
    this.columns.alive[at] = 0;
    this.slotOf.delete(id);
    this.live -= 1;
    const held = this.held.data;
    const { heldAt, heldLength } = slot;
    FIELDS.forEach((field, i) => (this.fieldLengths[field] -= held[heldAt + i] ?? 0));
    const terms = held[heldAt + FIELDS.length] ?? 0;
    for (let i = heldAt + FIELDS.length + 1; i < heldAt + heldLength; i += 1) {
      if (i <= heldAt + FIELDS.length + terms) {
        const list = this.postingsById[held[i] ?? 0];
        if (list !== undefined) list.documents -= 1;
      } else this.vocabulary.removeId(held[i] ?? 0);
    }
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
    const { slots, columns } = this;
    return (function* () {
      for (let at = 0; at < slots.length; at += 1) {
        const slot = slots[at];
        if (slot !== undefined && columns.alive[at] === 1) yield { ...slot.document, downloads: columns.downloads[at] ?? 0 };
      }
    })();
  }

  /** With words, the skills matching them; without, every skill passing the filters. Either way filtered, sorted and paged. */
  search(query: SearchQuery): SearchAnswer {
    this.matcher.ensure(this.slots.length);
    const admit = this.admission(query);
    if (admit === null) return { hits: [], total: 0, match: 'full' };
    const words = this.parse(query.text);
    if (words.query.length === 0) {
      // A text of punctuation alone names no word: nothing matches it, rather than everything.
      return query.text.trim() === '' ? this.list(query, admit.columns, admit.lists) : { hits: [], total: 0, match: 'full' };
    }

    const { matcher } = this;
    let count = matcher.all(words.query, admit.test);
    let match: SearchAnswer['match'] = 'full';
    const required = words.query.filter((word) => !word.optional).length;
    if (count === 0 && required > 1) {
      count = matcher.partial(words.query, admit.test);
      match = 'partial';
    }
    if (query.sort === 'relevance') this.rank(count, match === 'partial', query.text);
    const order = query.sort === 'relevance' ? this.relevanceOrder() : this.sortOrder(query.sort, count);
    const page = pageOf(matcher.pool, count, query.offset, query.limit, order);
    const highlightsOf = highlighter(words.matched);
    return {
      hits: page.map((slot) => {
        const document = this.document(slot);
        return { id: document.id, highlights: highlightsOf(document) };
      }),
      total: count,
      match,
    };
  }

  /**
   * A list without words: with no owner, category or tag filter, read from its sort order (`ordered`); otherwise
   * the slots of the narrowest filter list that every other filter list also holds (all lists ascend, so one cursor
   * per list walks forward), admitted, in the order asked for.
   */
  private list(query: SearchQuery, admit: Admit, lists: readonly SlotList[]): SearchAnswer {
    const [narrowest, ...others] = lists;
    if (narrowest === undefined) return this.ordered(query, admit);
    const { pool } = this.matcher;
    let count = 0;
    const cursors = others.map(() => 0);
    const { slots, length } = narrowest;
    walk: for (let k = 0; k < length; k += 1) {
      const slot = slots[k] ?? 0;
      for (let o = 0; o < others.length; o += 1) {
        const other = others[o];
        if (other === undefined) continue;
        let at = cursors[o] ?? 0;
        while (at < other.length && (other.slots[at] ?? 0) < slot) at += 1;
        cursors[o] = at;
        if (at >= other.length) break walk;
        if (other.slots[at] !== slot) continue walk;
      }
      if (admit(slot)) {
        pool[count] = slot;
        count += 1;
      }
    }
    const sort = query.sort === 'relevance' ? 'latest' : query.sort;
    const page = pageOf(pool, count, query.offset, query.limit, this.sortOrder(sort, count));
    return {
      hits: page.map((slot) => ({ id: this.document(slot).id, highlights: { name: [], description: [] } })),
      total: count,
      match: 'full',
    };
  }

  /**
   * A list with no owner, category or tag filter (the registry's front page): its order read from the top down,
   * admitted by status (and featuring), until the page is full; the total from the counts by status. The walk is
   * as long as the page is deep (at most MAX_PAGE_DEPTH admitted slots), plus the slots a rare status skips.
   */
  private ordered(query: SearchQuery, admit: Admit): SearchAnswer {
    const page: number[] = [];
    let skipped = 0;
    if (query.limit > 0) {
      this.orders[query.sort === 'relevance' ? 'latest' : query.sort].walkDown((slot) => {
        if (!admit(slot)) return true;
        if (skipped < query.offset) skipped += 1;
        else page.push(slot);
        return page.length < query.limit;
      });
    }
    const counts = query.featured === true ? this.featuredByStatus : this.byStatus;
    let total = 0;
    if (query.statuses === 'all') {
      for (const n of counts) total += n;
    } else {
      for (const value of new Set(query.statuses)) {
        const id = this.statuses.find(value);
        if (id >= 0) total += counts[id] ?? 0;
      }
    }
    return {
      hits: page.map((slot) => ({ id: this.document(slot).id, highlights: { name: [], description: [] } })),
      total,
      match: 'full',
    };
  }

  /** The smaller id first: the orders ascend, and a list reads them from the top, larger id first on a tie. */
  private idOrder(a: number, b: number): number {
    return -this.byId(a, b);
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

  /**
   * The query's filters as one test (over the columns, and the tag lists by binary search), the part of it over
   * the columns alone, and the slot lists of its owner, category and tags, shortest first (a list walks those
   * instead of testing tags); null altogether when a filter names a value no skill has.
   */
  private admission(query: SearchQuery): { test: Admit; columns: Admit; lists: SlotList[] } | null {
    const { alive, status, owner, category, featured } = this.columns;
    let statusMask = -1;
    if (query.statuses !== 'all') {
      statusMask = 0;
      for (const value of query.statuses) {
        const id = this.statuses.find(value);
        if (id >= 0) statusMask |= 1 << id;
      }
      if (statusMask === 0) return null;
    }
    const lists: SlotList[] = [];
    let ownerId = -1;
    if (query.ownerId !== undefined) {
      ownerId = this.owners.find(query.ownerId);
      const list = this.byOwner.get(ownerId);
      if (list === undefined) return null;
      lists.push(list);
    }
    let categoryId = -1;
    if (query.category !== undefined) {
      categoryId = this.categories.find(query.category);
      const list = this.byCategory.get(categoryId);
      if (list === undefined) return null;
      lists.push(list);
    }
    for (const tag of query.tags) {
      const list = this.byTag.get(tag);
      if (list === undefined) return null;
      lists.push(list);
    }
    const onlyFeatured = query.featured === true;
    const tags = query.tags.map((tag) => this.byTag.get(tag)).filter((list) => list !== undefined);
    const plain = ownerId < 0 && categoryId < 0 && !onlyFeatured && tags.length === 0;
    // The public search filters on status alone: its test is kept to two loads, as it runs for every posting.
    const columns: Admit = plain
      ? (slot) => alive[slot] === 1 && (statusMask & (1 << (status[slot] ?? 0))) !== 0
      : (slot) =>
          alive[slot] === 1 &&
          (statusMask & (1 << (status[slot] ?? 0))) !== 0 &&
          (ownerId < 0 || owner[slot] === ownerId) &&
          (categoryId < 0 || category[slot] === categoryId) &&
          (!onlyFeatured || featured[slot] === 1);
    const test: Admit = tags.length === 0 ? columns : (slot) => columns(slot) && tags.every((list) => list.indexOf(slot) >= 0);
    return { test, columns, lists: lists.sort((a, b) => a.length - b.length) };
  }

  /** The words of a query with what each may match: itself (its stem), and as a prefix or with a typo. */
  private parse(text: string): { query: QueryWord[]; matched: Matched } {
    const tokens = tokenize(text, this.stem).slice(0, QUERY_WORDS_MAX);
    const typing = text.length > 0 && !/\s$/u.test(text);
    const matched: Matched = { surfaces: new Set(), prefix: null };
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
      // A stop word in a quarter of all skills weighs a fifth of a rare word at most, yet scoring it means a walk
      // over its postings: it is left out, and the query's other words decide.
      if (word.optional && (this.postings.get(token.term)?.documents ?? 0) > this.live * COMMON_STOP_WORD_SHARE) return;
      for (const [term, factor] of alternatives) {
        const postings = this.postings.get(term);
        if (postings === undefined || postings.documents <= 0) continue;
        // Pairs of unspaced scripts are their own term; words are every surface indexed under it.
        matched.surfaces.add(term);
        for (const surface of this.vocabulary.surfacesOf(term)) matched.surfaces.add(surface);
        word.alternatives.push({ postings, factor: factor * this.idf(postings) });
      }
      query.push(word);
    });
    return { query, matched };
  }

  /**
   * Turns each candidate's score into its rank value: an exact name or slug match first, then (in a partial
   * match) every word held, then BM25F lifted a little by downloads.
   */
  private rank(count: number, partial: boolean, text: string): void {
    const { pool, score, matched } = this.matcher;
    const { boost } = this.columns;
    for (let i = 0; i < count; i += 1) {
      const slot = pool[i] ?? 0;
      score[slot] = (partial ? (matched[slot] ?? 0) * WORD_BONUS : 0) + (score[slot] ?? 0) * (boost[slot] ?? 1);
    }
    // The query's words as the name's and slug's are kept, so `wiki-page-documenter` is the exact slug it names.
    const exact = new Set<number>();
    for (const key of exactKeysOf([text])) {
      const known = this.byExactKey.get(key);
      if (known === undefined) continue;
      for (const slot of typeof known === 'number' ? [known] : known) if (this.matcher.isCandidate(slot)) exact.add(slot);
    }
    for (const slot of exact) score[slot] = (score[slot] ?? 0) + EXACT_BONUS;
  }

  private relevanceOrder(): Order {
    const { downloads } = this.columns;
    return {
      key: this.matcher.score,
      tie: (a, b) => (downloads[b] ?? 0) - (downloads[a] ?? 0) || this.byId(a, b),
    };
  }

  /** The order of a sort other than relevance; ties break on the id, so pages never repeat or skip one. */
  private sortOrder(sort: Exclude<SearchSort, 'relevance'>, count: number): Order {
    const { downloads, updatedAt, featured } = this.columns;
    const tie = (a: number, b: number) => this.byId(a, b);
    switch (sort) {
      case 'latest':
        return { key: updatedAt, tie };
      case 'downloads':
        return { key: downloads, tie };
      case 'featured': {
        const { pool, score } = this.matcher;
        for (let i = 0; i < count; i += 1) {
          const slot = pool[i] ?? 0;
          score[slot] = (featured[slot] ?? 0) * FEATURED_KEY + (updatedAt[slot] ?? 0);
        }
        return { key: score, tie };
      }
    }
  }

  /** The larger id first, as the database orders its lists. */
  private byId(a: number, b: number): number {
    const x = this.document(a).id;
    const y = this.document(b).id;
    return x < y ? 1 : x > y ? -1 : 0;
  }
}

/** How many words a prefix may stand for: a letter or two could stand for thousands. */
function prefixExpansions(prefix: string): number {
  if (prefix.length <= 1) return 8;
  if (prefix.length === 2) return 16;
  return 48;
}
