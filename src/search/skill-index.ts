/**
 * The index's upkeep: skills in slots, their words in postings and the vocabulary, their filterable attributes in
 * columns and filter lists, and the sort orders kept in step. A changed document gets a new slot and its old one is
 * skipped until the index is rebuilt; a change of status, featuring or downloads alone is set in place.
 */
import { compounds, termOf, type Stem } from './analysis.js';
import { Arena, Columns, Interner } from './columns.js';
import { ListOrders } from './orders.js';
import { Postings, SlotList } from './postings.js';
import { boostOf, exactKeysOf, FIELDS, fieldTokens, fieldWeight, idf, saturated, type Field } from './ranking.js';
import type { SearchDocument } from './types.js';
import { Vocabulary } from './vocabulary.js';

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

function listIn<K>(lists: Map<K, SlotList>, key: K): SlotList {
  let list = lists.get(key);
  if (list === undefined) {
    list = new SlotList();
    lists.set(key, list);
  }
  return list;
}

export class SkillIndex {
  private readonly slots: Slot[] = [];
  /** Every slot's bookkeeping (see `Slot`), in one typed array: a typed array per skill costs the collector a record each. */
  private readonly held = new Arena();
  private readonly slotOf = new Map<string, number>();
  readonly postings = new Map<string, Postings>();
  private readonly postingsById: Postings[] = [];
  readonly vocabulary = new Vocabulary();
  private readonly fieldLengths: Record<Field, number> = { slug: 0, name: 0, tags: 0, category: 0, description: 0 };
  readonly columns = new Columns();
  readonly statuses = new Interner();
  readonly owners = new Interner();
  readonly categories = new Interner();
  /** Slots by filter value, so a filtered list walks only the slots that can pass. */
  readonly byOwner = new Map<number, SlotList>();
  readonly byCategory = new Map<number, SlotList>();
  readonly byTag = new Map<string, SlotList>();
  /** One slot, or several when skills share a name: most keys name one skill, and a list each would double the objects. */
  private readonly byExactKey = new Map<string, number | number[]>();
  readonly orders = new ListOrders(this.columns, (a, b) => this.byId(a, b));
  /** Live skills. */
  live = 0;
  /** Words already indexed are stemmed by a lookup: the stemmer's dozens of expressions ran for every word. */
  readonly stem: Stem = (surface) => this.vocabulary.termOf(surface) ?? termOf(surface);

  /** Slots ever used, live or dead. */
  get slotCount(): number {
    return this.slots.length;
  }

  upsert(document: SearchDocument): void {
    const current = this.slotOf.get(document.id);
    const same = current === undefined ? undefined : this.slots[current];
    if (current !== undefined && same !== undefined && sameText(same.document, document)) {
      // Status, featuring, downloads and times change far more often than text: they are columns, set in place.
      same.document = document;
      this.orders.leave(current);
      this.setColumns(current, document);
      this.orders.enter(current);
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
      for (const [term, count] of counts)
        weighted.set(term, (weighted.get(term) ?? 0) + fieldWeight(field, count, list.length, averages[field]));
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
      list.add(slot, saturated(tf));
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
    this.orders.enter(slot);
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
    this.orders.moveDownloads(at, () => {
      this.columns.downloads[at] = downloads;
      this.columns.boost[at] = boostOf(downloads);
    });
  }

  remove(id: string): void {
    const at = this.slotOf.get(id);
    if (at === undefined) return;
    const slot = this.slots[at];
    if (slot === undefined) return;
    this.orders.leave(at);
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

  documents(): IterableIterator<SearchDocument> {
    const { slots, columns } = this;
    return (function* () {
      for (let at = 0; at < slots.length; at += 1) {
        const slot = slots[at];
        if (slot !== undefined && columns.alive[at] === 1) yield { ...slot.document, downloads: columns.downloads[at] ?? 0 };
      }
    })();
  }

  document(slot: number): SearchDocument {
    const found = this.slots[slot];
    if (found === undefined) throw new Error(`search slot ${slot} does not exist`);
    return found.document;
  }

  /** The slots whose name or slug, folded, is `key`. */
  exactSlots(key: string): readonly number[] {
    const known = this.byExactKey.get(key);
    return known === undefined ? [] : typeof known === 'number' ? [known] : known;
  }

  /** How rare a term is across the live skills. */
  idf(postings: Postings): number {
    return idf(this.live, postings.documents);
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

  /** The larger id first, as the database orders its lists. */
  private byId(a: number, b: number): number {
    const x = this.document(a).id;
    const y = this.document(b).id;
    return x < y ? 1 : x > y ? -1 : 0;
  }
}
