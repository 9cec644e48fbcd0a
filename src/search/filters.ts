/**
 * A query's filters (status, owner, category, tags, featuring): as one test of a slot, and, for a list without words,
 * as the walk of the narrowest filter list that every other one also holds.
 */
import type { Admit } from './matching.js';
import { SlotList } from './postings.js';
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
  // The owners asked for, as a mask over their ids when few (a user and the organisations they belong to).
  let owners: Set<number> | null = null;
  if (query.ownerIds !== undefined) {
    owners = new Set(query.ownerIds.map((id) => index.owners.find(id)).filter((id) => id >= 0));
    const found = [...owners].map((id) => index.byOwner.get(id)).filter((list) => list !== undefined);
    if (found.length === 0) return null;
    lists.push(found.length === 1 ? found[0]! : union(found));
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
  const plain = owners === null && categoryId < 0 && !onlyFeatured && tags.length === 0;
  // The public search filters on status alone: its test is kept to two loads, as it runs for every posting.
  const columns: Admit = plain
    ? (slot) => alive[slot] === 1 && (statusMask & (1 << (status[slot] ?? 0))) !== 0
    : (slot) =>
        alive[slot] === 1 &&
        (statusMask & (1 << (status[slot] ?? 0))) !== 0 &&
        (owners === null || owners.has(owner[slot] ?? -1)) &&
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

/** The slots of several ascending lists, ascending, each once: the skills of a user and of their organisations. */
function union(lists: readonly SlotList[]): SlotList {
  const all: number[] = [];
  for (const list of lists) for (let k = 0; k < list.length; k += 1) all.push(list.slots[k] ?? 0);
  all.sort((a, b) => a - b);
  const merged = new SlotList();
  for (let k = 0; k < all.length; k += 1) if (k === 0 || all[k] !== all[k - 1]) merged.push(all[k]!);
  return merged;
}
