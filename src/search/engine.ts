/**
 * An in-memory inverted index of the skills, ranked with BM25F, that also answers their filtered lists. Its jobs sit
 * in modules of their own: the index's upkeep (skill-index.ts), the sort orders (orders.ts), the filters
 * (filters.ts), the query's words (query.ts) and the ranking (ranking.ts). A query's work is the postings of its
 * words (each bounded in expansions), and a list's the slots of its narrowest filter: typed arrays walked in tight
 * loops, never an object per skill.
 */
import { highlighter } from './highlights.js';
import { Matcher, type Admit } from './matching.js';
import { admission, filtered } from './filters.js';
import type { SlotList } from './postings.js';
import { parseQuery } from './query.js';
import { rank } from './ranking.js';
import { SkillIndex } from './skill-index.js';
import { pageOf } from './top-k.js';
import type { SearchAnswer, SearchDocument, SearchQuery } from './types.js';

export type { SearchAnswer, SearchDocument, SearchHit, SearchQuery, SearchSort } from './types.js';
export { QUERY_WORDS_MAX } from './query.js';

export class SearchEngine {
  private readonly index = new SkillIndex();
  private readonly matcher = new Matcher();

  get size(): number {
    return this.index.live;
  }

  upsert(document: SearchDocument): void {
    this.index.upsert(document);
  }

  /** Downloads change too often to re-index a skill for each: the total is updated in place. */
  addDownloads(id: string, count: number): void {
    this.index.addDownloads(id, count);
  }

  /** Sorts what was added since the last list into the orders: after filling the index, so no request pays for it. */
  settleOrders(): void {
    this.index.orders.settle();
  }

  remove(id: string): void {
    this.index.remove(id);
  }

  /** Replaces every document the index holds. */
  static build(documents: Iterable<SearchDocument>): SearchEngine {
    const engine = new SearchEngine();
    for (const document of documents) engine.upsert(document);
    return engine;
  }

  /** Removed slots take memory and query time; past this share of dead ones, the owner should rebuild. */
  get deadShare(): number {
    const slots = this.index.slotCount;
    return slots === 0 ? 0 : 1 - this.index.live / slots;
  }

  documents(): IterableIterator<SearchDocument> {
    return this.index.documents();
  }

  /** With words, the skills matching them; without, every skill passing the filters. Either way filtered, sorted and paged. */
  search(query: SearchQuery): SearchAnswer {
    const { index, matcher } = this;
    matcher.ensure(index.slotCount);
    const admit = admission(index, query);
    if (admit === null) return { hits: [], total: 0, match: 'full' };
    const words = parseQuery(index, query.text);
    if (words.query.length === 0) {
      // A text of punctuation alone names no word: nothing matches it, rather than everything.
      return query.text.trim() === '' ? this.list(query, admit.columns, admit.lists) : { hits: [], total: 0, match: 'full' };
    }

    let count = matcher.all(words.query, admit.test);
    let match: SearchAnswer['match'] = 'full';
    const required = words.query.filter((word) => !word.optional).length;
    if (count === 0 && required > 1) {
      count = matcher.partial(words.query, admit.test);
      match = 'partial';
    }
    if (query.sort === 'relevance')
      rank(matcher, index.columns.boost, count, match === 'partial', query.text, (key) => index.exactSlots(key));
    const order = query.sort === 'relevance' ? index.orders.relevance(matcher) : index.orders.of(query.sort, matcher, count);
    const page = pageOf(matcher.pool, count, query.offset, query.limit, order);
    const highlightsOf = highlighter(words.matched);
    return {
      hits: page.map((slot) => {
        const document = index.document(slot);
        return { id: document.id, highlights: highlightsOf(document) };
      }),
      total: count,
      match,
    };
  }

  /**
   * A list without words: with no owner, category or tag filter, read from its sort order; otherwise the slots of
   * the filter lists, admitted, in the order asked for.
   */
  private list(query: SearchQuery, admit: Admit, lists: readonly SlotList[]): SearchAnswer {
    const { index, matcher } = this;
    const sort = query.sort === 'relevance' ? 'latest' : query.sort;
    let slots: number[];
    let total: number;
    if (lists.length === 0) ({ slots, total } = index.orders.front(query, admit, index.statuses));
    else {
      total = filtered(lists, admit, matcher.pool);
      slots = pageOf(matcher.pool, total, query.offset, query.limit, index.orders.of(sort, matcher, total));
    }
    return {
      hits: slots.map((slot) => ({ id: index.document(slot).id, highlights: { name: [], description: [] } })),
      total,
      match: 'full',
    };
  }
}
