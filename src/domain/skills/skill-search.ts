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
      for (const row of rows) engine.upsert(toDocument(row));
    })().catch((error: unknown) => {
      loading = null;
      engine = new SearchEngine();
      throw error;
    });
    return loading;
  }

  async function refreshNow(id: string): Promise<void> {
    await ready();
    const row = await skills.searchRow(id);
    if (row === undefined) engine.remove(id);
    else engine.upsert(toDocument(row));
    if (engine.deadShare > REBUILD_DEAD_SHARE) engine = SearchEngine.build([...engine.documents()]);
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
    let added = 0;
    for (const row of changed) {
      if (!engine.has(row.id)) added += 1;
      engine.upsert(toDocument(row));
    }
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
