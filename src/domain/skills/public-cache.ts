/**
 * A short-lived memory of answers that are the same for every caller (published skills, the public list
 * and search). An entry is fresh for `ttlMs`; for one more `ttlMs` it may still be served while a single
 * reload runs in the background, so an expiring entry never makes callers wait for the database. The node
 * that changes a skill clears everything at once; another node serving the same database sees the change
 * within 2 × `ttlMs`. Concurrent misses on one key share one load.
 */
export function publicCache<T>(options: {
  ttlMs: number;
  maxEntries: number;
  /** The clock entries age by; tests move it rather than wait for it. */
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  interface Entry {
    /** When the entry stops being fresh. */
    until: number;
    value: Promise<T>;
    reloading: boolean;
  }
  const entries = new Map<string, Entry>();
  let generation = 0;

  function load(key: string, loader: () => Promise<T>): Promise<T> {
    const started = generation;
    const value = loader();
    const entry: Entry = { until: now() + options.ttlMs, value, reloading: false };
    if (entries.size >= options.maxEntries && !entries.has(key)) entries.delete(entries.keys().next().value as string);
    entries.set(key, entry);
    value.then(
      () => {
        // A load that began before a change may hold the old answer: it serves its own waiters only.
        if (generation !== started && entries.get(key) === entry) entries.delete(key);
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return value;
  }

  return {
    get(key: string, loader: () => Promise<T>): Promise<T> {
      const entry = entries.get(key);
      const at = now();
      if (entry === undefined || at >= entry.until + options.ttlMs) return load(key, loader);
      if (at >= entry.until && !entry.reloading) {
        entry.reloading = true;
        const started = generation;
        const next = loader();
        next.then(
          () => {
            if (generation === started && entries.get(key) === entry) {
              entries.set(key, { until: now() + options.ttlMs, value: next, reloading: false });
            }
          },
          () => {
            entry.reloading = false;
          },
        );
      }
      return entry.value;
    },
    clear(): void {
      generation += 1;
      entries.clear();
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type PublicCache<T> = ReturnType<typeof publicCache<T>>;
