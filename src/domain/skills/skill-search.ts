import type { SkillSearchRow, SkillsRepository } from '../../db/repositories/skills.js';
import { toIso } from '../../lib/time.js';
import { SearchEngine, type SearchAnswer, type SearchDocument, type SearchQuery } from '../../search/engine.js';

function toDocument(row: SkillSearchRow): SearchDocument {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    status: row.status,
    ownerId: row.owner_id,
    featured: row.featured === 1,
    downloads: row.downloads,
    updatedAt: Date.parse(toIso(row.updated_at)),
  };
}

/** How often a node looks for changes other nodes made, when no message told it of them. */
export const SEARCH_SYNC_INTERVAL_MS = 1_000;

/** Skills indexed in one turn of the event loop (about 100 ms of work). */
const INDEX_BATCH = 1_000;

/** Past this share of replaced or removed entries, the index is built again from its live documents. */
const REBUILD_DEAD_SHARE = 0.3;

/**
 * The search index of this node, kept in step with the database: filled once at start-up, then each changed
 * skill read again and replaced. Changes are applied one after the other, so an older read never overwrites a
 * newer one.
 */
export function skillSearch(skills: SkillsRepository) {
  let engine = new SearchEngine();
  let pending: Promise<unknown> = Promise.resolve();

  let watermark: { latest: string | null; count: number } | null = null;
  let loading: Promise<void> | null = null;
  /** Fills the index on first use (the server asks at start-up); a failed load is tried again by the next caller. */
  function ready(): Promise<void> {
    loading ??= (async () => {
      // Taken first: whatever changes while the rows are read is read again by the next catch-up.
      watermark = await skills.searchWatermark();
      const rows = await skills.searchRows();
      await indexInTurns(rows);
    })().catch((error: unknown) => {
      loading = null;
      engine = new SearchEngine();
      throw error;
    });
    return loading;
  }

  /**
   * Indexes rows a batch at a time, letting other work run between batches: a hundred thousand skills take
   * seconds to index, and a node catching up with many changes must go on answering meanwhile.
   */
  async function indexInTurns(rows: readonly SkillSearchRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += INDEX_BATCH) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const row of rows.slice(start, start + INDEX_BATCH)) engine.upsert(toDocument(row));
    }
  }

  /** A fresh index of the live documents, built in turns; changes wait for it (they are applied one at a time). */
  async function rebuild(): Promise<void> {
    const documents = [...engine.documents()];
    const fresh = new SearchEngine();
    for (let start = 0; start < documents.length; start += INDEX_BATCH) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const document of documents.slice(start, start + INDEX_BATCH)) fresh.upsert(document);
    }
    engine = fresh;
  }

  async function refreshNow(id: string): Promise<void> {
    await ready();
    const row = await skills.searchRow(id);
    if (row === undefined) engine.remove(id);
    else engine.upsert(toDocument(row));
    if (engine.deadShare > REBUILD_DEAD_SHARE) await rebuild();
  }

  /**
   * Catches up with changes other nodes made when no message announced them (no Redis, or a message lost): a
   * skill added, edited, re-statused or given a version moves the newest `updated_at`; one removed lowers the
   * count. Either read again what changed since the last look; a lower count also drops the skills now gone.
   */
  async function catchUp(): Promise<void> {
    await ready();
    const now = await skills.searchWatermark();
    const before = watermark;
    watermark = now;
    if (before === null || (before.latest === now.latest && before.count === now.count)) return;
    const changed = before.latest === null ? await skills.searchRows() : await skills.searchRowsSince(before.latest);
    const added = changed.filter((row) => !engine.has(row.id)).length;
    await indexInTurns(changed);
    if (now.count < before.count + added) {
      const live = new Set(await skills.skillIds());
      for (const document of [...engine.documents()]) if (!live.has(document.id)) engine.remove(document.id);
    }
  }

  return {
    ready,

    /** One look for changes made elsewhere; the caller repeats it (every SEARCH_SYNC_INTERVAL_MS on a server). */
    catchUp(): Promise<void> {
      const next = pending.then(catchUp);
      pending = next.catch(() => undefined);
      return next;
    },

    /** Reads one skill again after a change (here or on another node) and replaces what the index holds. */
    refresh(id: string): Promise<void> {
      const next = pending.then(() => refreshNow(id));
      pending = next.catch(() => undefined);
      return next;
    },

    downloaded(counts: ReadonlyMap<string, number>): void {
      for (const [id, count] of counts) engine.addDownloads(id, count);
    },

    /** Waits for the changes already announced, then searches. */
    async search(query: SearchQuery): Promise<SearchAnswer> {
      await ready();
      await pending;
      return engine.search(query);
    },
  };
}

export type SkillSearch = ReturnType<typeof skillSearch>;
