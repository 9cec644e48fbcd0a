import type { SkillChangesRepository } from '../../db/repositories/skill-changes.js';
import type { SkillStatus } from './statuses.js';
import type { SkillRecordRow, SkillsRepository } from '../../db/repositories/skills.js';
import { toIso } from '../../lib/time.js';
import { CHANGES_PAGE } from '../../db/repositories/skill-changes.js';
import type { Highlights } from '../../search/highlights.js';
import { SearchEngine, type SearchDocument, type SearchQuery } from '../../search/engine.js';
import { searchStatus, withQuarantined } from './quarantine.js';

/**
 * The status the index files a skill under: its own, `published:quarantined` while every version it has is judged
 * malicious, prefixed `private:` while only its organisation's members see it, and `hidden:` while reports hide it
 * pending review. Lists asking for a plain status so leave withheld skills out without another filter.
 */
function indexedStatus(row: SkillRecordRow): string {
  const status = row.private === 1 ? `private:${searchStatus(row)}` : searchStatus(row);
  return row.hidden_at === null ? status : `hidden:${status}`;
}

/**
 * The indexed statuses of skills in `statuses`, withheld (hidden, quarantined or private) or not: what owners, members
 * and administrators list.
 */
export function withWithheld(statuses: readonly SkillStatus[] | 'all'): readonly string[] | 'all' {
  const shown = withQuarantined(statuses);
  return shown === 'all' ? 'all' : shown.flatMap((status) => [status, `private:${status}`, `hidden:${status}`, `hidden:private:${status}`]);
}

/** Who a skill belongs to in the index: its user, or `org:<id>` for an organisation's skill. */
export function indexOwner(row: { owner_id: string; org_id: string | null }): string {
  return row.org_id === null ? row.owner_id : `org:${row.org_id}`;
}

function toDocument(row: SkillRecordRow): SearchDocument {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    status: indexedStatus(row),
    ownerId: indexOwner(row),
    featured: row.featured === 1,
    downloads: row.downloads,
    updatedAt: Date.parse(toIso(row.updated_at)),
  };
}

export interface SearchPage {
  hits: { row: SkillRecordRow; highlights: Highlights }[];
  total: number;
  match: 'full' | 'partial';
}

/** Skills indexed in one turn of the event loop (about 100 ms of work). */
const INDEX_BATCH = 1_000;

/** Skills read from the database at a time while the index is filled. */
const READ_PAGE = 5_000;

export interface SkillSearchOptions {
  /** Skills read at a time while the index is filled (READ_PAGE). */
  readPage?: number;
}

/** Past this share of replaced or removed entries, the index is built again from its live documents. */
const REBUILD_DEAD_SHARE = 0.3;

/** Entries kept in the change log behind the newest; a node further behind than this reloads every skill. */
const CHANGES_KEPT = 100_000;
const PRUNE_STEP = 10_000;

/**
 * The search index of this node, kept in step with the database: filled once at start-up, then each changed
 * skill read again and replaced. Changes are applied one after the other, so an older read never overwrites a
 * newer one.
 */
export function skillSearch(skills: SkillsRepository, changes: SkillChangesRepository, options: SkillSearchOptions = {}) {
  const readPage = options.readPage ?? READ_PAGE;
  let engine = new SearchEngine();
  /** Each indexed skill's row as a list shows it: a page is answered from here, without a read per request. */
  let rows = new Map<string, SkillRecordRow>();
  let pending: Promise<unknown> = Promise.resolve();

  /** The newest change-log entry applied, and the entries applied within the log's late window of it. */
  let watermark = 0;
  let applied = new Set<number>();
  let pruned = 0;
  let loading: Promise<void> | null = null;
  /** Fills the index on first use (the server asks at start-up); a failed load is tried again by the next caller. */
  function ready(): Promise<void> {
    loading ??= (async () => {
      // Read first: whatever changes while the rows are read is applied again by the next catch-up.
      const recent = await changes.since(Math.max(0, (await changes.horizon()).last - changes.lateWindow));
      watermark = recent.at(-1)?.seq ?? (await changes.horizon()).last;
      applied = new Set(recent.map((change) => change.seq));
      engine = new SearchEngine();
      rows = new Map();
      // A page at a time, each indexed before the next is read. Read in one call, the driver's array of every row
      // made each young-generation collection while indexing scan roots for 3 ms instead of 0.1 ms at 500,000
      // skills: collections took 9.9 s of the 38 s start-up there, against 3.1 s of 29 s by pages.
      for (let after = ''; ;) {
        const page = await skills.searchRowsAfter(after, readPage);
        await indexInTurns(page);
        const last = page.at(-1);
        if (last === undefined || page.length < readPage) break;
        after = last.id;
      }
      engine.settleOrders();
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
  async function indexInTurns(batch: readonly SkillRecordRow[]): Promise<void> {
    for (let start = 0; start < batch.length; start += INDEX_BATCH) {
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const read of batch.slice(start, start + INDEX_BATCH)) {
        // PostgreSQL reads timestamps as dates: written out once here, not on every page that shows the row (SQLite
        // reads them as the text they were written as, and its rows are kept as they are).
        const row =
          read.created_at instanceof Date ||
          read.updated_at instanceof Date ||
          read.published_at instanceof Date ||
          read.hidden_at instanceof Date
            ? {
                ...read,
                created_at: toIso(read.created_at),
                updated_at: toIso(read.updated_at),
                published_at: toIso(read.published_at),
                hidden_at: toIso(read.hidden_at),
              }
            : read;
        rows.set(row.id, row);
        engine.upsert(toDocument(row));
      }
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
    fresh.settleOrders();
    engine = fresh;
  }

  /** Reads the named skills again: those still there are replaced, those gone are removed. */
  async function reread(ids: readonly string[]): Promise<void> {
    const read = await skills.findManyByIds(ids);
    const found = new Set(read.map((row) => row.id));
    await indexInTurns(read);
    for (const id of ids) {
      if (found.has(id)) continue;
      engine.remove(id);
      rows.delete(id);
    }
    if (engine.deadShare > REBUILD_DEAD_SHARE) await rebuild();
  }

  async function refreshNow(id: string): Promise<void> {
    await ready();
    await reread([id]);
  }

  /**
   * Applies the change-log entries not yet applied: what other nodes changed when no message announced it (no
   * Redis, or a message lost), and this node's own changes again (harmless: a skill is read as it now is).
   */
  async function catchUp(): Promise<void> {
    await ready();
    for (;;) {
      const entries = await changes.since(Math.max(0, watermark - changes.lateWindow));
      const first = entries[0];
      if (first !== undefined && first.seq > watermark + 1 && watermark > 0 && (await changes.horizon()).first > watermark + 1) {
        // Entries this node never read were pruned: only a full reload is sure to hold every change.
        loading = null;
        await ready();
        return;
      }
      const fresh = entries.filter((entry) => !applied.has(entry.seq));
      if (fresh.length > 0) await reread([...new Set(fresh.map((entry) => entry.skillId))]);
      for (const entry of fresh) applied.add(entry.seq);
      watermark = Math.max(watermark, entries.at(-1)?.seq ?? 0);
      for (const seq of applied) if (seq <= watermark - changes.lateWindow) applied.delete(seq);
      if (entries.length < CHANGES_PAGE) break;
    }
    // Every node prunes; pruning in steps keeps it to one statement per PRUNE_STEP changes.
    if (watermark - CHANGES_KEPT > pruned + PRUNE_STEP) {
      pruned = watermark - CHANGES_KEPT;
      await changes.prune(pruned);
    }
  }

  return {
    ready,

    /** One look for changes made elsewhere; the caller repeats it (every `SEARCH_SYNC_INTERVAL_MS` on a server). */
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
      for (const [id, count] of counts) {
        engine.addDownloads(id, count);
        const row = rows.get(id);
        if (row !== undefined) rows.set(id, { ...row, downloads: row.downloads + count });
      }
    },

    /** Waits for the changes already announced, then searches: a page of rows, each with what matched. */
    async search(query: SearchQuery): Promise<SearchPage> {
      await ready();
      await pending;
      const answer = engine.search(query);
      const hits: SearchPage['hits'] = [];
      for (const hit of answer.hits) {
        const row = rows.get(hit.id);
        if (row !== undefined) hits.push({ row, highlights: hit.highlights });
      }
      return { hits, total: answer.total, match: answer.match };
    },
  };
}
