import { LRUCache } from 'lru-cache';

/** An answer in a box: a load may find nothing (an unknown skill), and "nothing" is worth remembering too. */
interface Boxed<T> {
  value: T;
}

/**
 * A short-lived memory of answers that are the same for every caller (published skills, the public list
 * and search). An entry is fresh for `ttlMs`; for one more `ttlMs` it may still be served while a single
 * reload runs in the background, so an expiring entry never makes callers wait for the database. The node
 * that changes a skill clears everything at once; another node serving the same database sees the change
 * within 2 × `ttlMs`. Concurrent misses on one key share one load, and the least recently used entry makes
 * room for a new one.
 *
 * A load that began before a clear may hold the old answer: it still answers the callers that waited for it,
 * but is never kept (clearing aborts it, and an aborted load is returned, not stored).
 */
export function publicCache<T>(options: {
  ttlMs: number;
  maxEntries: number;
  /** The clock entries age by; tests move it rather than wait for it. */
  now?: () => number;
}) {
  const { ttlMs } = options;
  // Read late, so that a test replacing Date ages entries too.
  const now = options.now ?? (() => Date.now());
  const entries = new LRUCache<string, Boxed<T>, () => Promise<T>>({
    max: options.maxEntries,
    ttl: ttlMs,
    // Every read looks at the clock; the default rounds it to a millisecond timer, which a moved clock outruns.
    ttlResolution: 0,
    perf: { now },
    allowStale: true,
    ignoreFetchAbort: true,
    // A failed reload keeps the stale answer until it is too old (below); a failed first load keeps nothing.
    noDeleteOnFetchRejection: true,
    fetchMethod: async (_key, _stale, { context: loader }) => ({ value: await loader() }),
  });

  return {
    async get(key: string, loader: () => Promise<T>): Promise<T> {
      // Past its second lifetime an answer is no longer served, even while a reload runs: the caller waits.
      if (entries.getRemainingTTL(key) <= -ttlMs) entries.delete(key);
      const boxed = await entries.fetch(key, { context: loader });
      // fetchMethod never answers undefined, and rejections throw.
      return boxed!.value;
    },
    clear(): void {
      entries.clear();
    },
    get size(): number {
      return entries.size;
    },
  };
}
