/**
 * A query's filters (status, owner, category, tags, featuring): as one test of a slot, and, for a list without words,
 * as the walk of the narrowest filter list that every other one also holds.
 */
import type { Admit } from './matching.js';
import type { SlotList } from './postings.js';
import type { SkillIndex } from './skill-index.js';
import type { SearchQuery } from './types.js';

export interface Admission {
  /** Every filter: the columns, and the tag lists by binary search. */
  test: Admit;
  /** The filters over the columns alone. */
  columns: Admit;
  /** The slot lists of the owner, category and tags asked for, shortest first. */
  lists: SlotList[];
}

/** The query's filters over the index; null when a filter names a value no skill has. */
export function admission(index: SkillIndex, query: SearchQuery): Admission | null {
  const { alive, status, owner, category, featured } = index.columns;
  let statusMask = -1;
  if (query.statuses !== 'all') {
    statusMask = 0;
    for (const value of query.statuses) {
      const id = index.statuses.find(value);
      if (id >= 0) statusMask |= 1 << id;
    }
    if (statusMask === 0) return null;
  }
  const lists: SlotList[] = [];
  let ownerId = -1;
  if (query.ownerId !== undefined) {
    ownerId = index.owners.find(query.ownerId);
    const list = index.byOwner.get(ownerId);
    if (list === undefined) return null;
    lists.push(list);
  }
  let categoryId = -1;
  if (query.category !== undefined) {
    categoryId = index.categories.find(query.category);
    const list = index.byCategory.get(categoryId);
    if (list === undefined) return null;
    lists.push(list);
  }
  for (const tag of query.tags) {
    const list = index.byTag.get(tag);
    if (list === undefined) return null;
    lists.push(list);
  }
  const onlyFeatured = query.featured === true;
  const tags = query.tags.map((tag) => index.byTag.get(tag)).filter((list) => list !== undefined);
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

/**
 * Puts into `pool` the slots of the narrowest of `lists` that every other list also holds (all lists ascend, so one
 * cursor per list walks forward) and `admit` lets through; returns how many.
 */
export function filtered(lists: readonly SlotList[], admit: Admit, pool: Int32Array): number {
  const [narrowest, ...others] = lists;
  if (narrowest === undefined) return 0;
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
  return count;
}
