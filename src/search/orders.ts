/**
 * The sort orders of lists and searches. The live slots are kept in each order other than relevance, with how many
 * live slots each status has (and how many of them are featured): a list without owner, category or tag filters
 * reads its page from one end of its order and its total from these counts, instead of ordering every skill for
 * every request. Ties break on the id, the larger first as the database orders its lists, so pages never repeat or
 * skip one.
 */
import type { Columns, Interner } from './columns.js';
import type { Admit, Matcher } from './matching.js';
import { SlotOrder } from './slot-order.js';
import type { Order } from './top-k.js';
import type { SearchQuery, SearchSort } from './types.js';

/** Featured first, then newest: one sort key, as `featured × this + updatedAt` (milliseconds stay far below it). */
const FEATURED_KEY = 1e13;

export type ListSort = Exclude<SearchSort, 'relevance'>;

export class ListOrders {
  private readonly orders: Record<ListSort, SlotOrder>;
  private readonly byStatus = new Int32Array(256);
  private readonly featuredByStatus = new Int32Array(256);

  /** `byId`: the larger id first. */
  constructor(
    private readonly columns: Columns,
    private readonly byId: (a: number, b: number) => number,
  ) {
    // The orders ascend, and a list reads them from the top: the smaller id first within them.
    const idOrder = (a: number, b: number): number => -this.byId(a, b);
    this.orders = {
      latest: new SlotOrder((a, b) => columns.updatedAt[a]! - columns.updatedAt[b]! || idOrder(a, b)),
      downloads: new SlotOrder((a, b) => columns.downloads[a]! - columns.downloads[b]! || idOrder(a, b)),
      featured: new SlotOrder(
        (a, b) => columns.featured[a]! - columns.featured[b]! || columns.updatedAt[a]! - columns.updatedAt[b]! || idOrder(a, b),
      ),
    };
  }

  /** A live slot enters the sort orders and the counts, with its columns as they now are. */
  enter(slot: number): void {
    for (const order of Object.values(this.orders)) order.add(slot);
    this.count(slot, 1);
  }

  /** A live slot leaves them, before its columns change or it dies. */
  leave(slot: number): void {
    for (const order of Object.values(this.orders)) order.remove(slot);
    this.count(slot, -1);
  }

  /** A slot's downloads change: it moves in the downloads order alone. */
  moveDownloads(slot: number, change: () => void): void {
    this.orders.downloads.remove(slot);
    change();
    this.orders.downloads.add(slot);
  }

  private count(slot: number, step: number): void {
    const status = this.columns.status[slot] ?? 0;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + step;
    if (this.columns.featured[slot] === 1) this.featuredByStatus[status] = (this.featuredByStatus[status] ?? 0) + step;
  }

  /** Sorts what was added since the last list into the orders. */
  settle(): void {
    for (const order of Object.values(this.orders)) order.settle();
  }

  /**
   * A list with no owner, category or tag filter (the registry's front page): its order read from the top down,
   * admitted by status (and featuring), until the page is full; the total from the counts by status. The walk is
   * as long as the page is deep, plus the slots a rare status skips.
   */
  front(query: SearchQuery, admit: Admit, statuses: Interner): { slots: number[]; total: number } {
    const slots: number[] = [];
    let skipped = 0;
    if (query.limit > 0) {
      this.orders[query.sort === 'relevance' ? 'latest' : query.sort].walkDown((slot) => {
        if (!admit(slot)) return true;
        if (skipped < query.offset) skipped += 1;
        else slots.push(slot);
        return slots.length < query.limit;
      });
    }
    const counts = query.featured === true ? this.featuredByStatus : this.byStatus;
    let total = 0;
    if (query.statuses === 'all') {
      for (const n of counts) total += n;
    } else {
      for (const value of new Set(query.statuses)) {
        const id = statuses.find(value);
        if (id >= 0) total += counts[id] ?? 0;
      }
    }
    return { slots, total };
  }

  /** Relevance: the candidates' rank values, then the most downloaded, then the id. */
  relevance(matcher: Matcher): Order {
    const { downloads } = this.columns;
    return {
      key: matcher.score,
      tie: (a, b) => (downloads[b] ?? 0) - (downloads[a] ?? 0) || this.byId(a, b),
    };
  }

  /** The order of a sort other than relevance over the `count` candidates in the matcher's pool. */
  of(sort: ListSort, matcher: Matcher, count: number): Order {
    const { downloads, updatedAt, featured } = this.columns;
    const tie = (a: number, b: number) => this.byId(a, b);
    switch (sort) {
      case 'latest':
        return { key: updatedAt, tie };
      case 'downloads':
        return { key: downloads, tie };
      case 'featured': {
        const { pool, score } = matcher;
        for (let i = 0; i < count; i += 1) {
          const slot = pool[i] ?? 0;
          score[slot] = (featured[slot] ?? 0) * FEATURED_KEY + (updatedAt[slot] ?? 0);
        }
        return { key: score, tie };
      }
    }
  }
}
