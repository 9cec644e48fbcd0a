/**
 * A short-lived memory of answers that are the same for every caller (published skills, the public list
 * and search). Entries live `ttlMs` at most and the node that changes a skill clears them at once; another
 * node serving the same database sees the change within `ttlMs`. Concurrent misses on one key share one
 * load, so an expiring entry does not send every waiting request to the database at once.
 */
export function publicCache<T>(options: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, { until: number; value: Promise<T> }>();
  let generation = 0;

  return {
    async get(key: string, load: () => Promise<T>): Promise<T> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.until > now) return hit.value;
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
      const started = generation;
      const value = load();
      entries.set(key, { until: now + options.ttlMs, value });
      try {
        return await value;
      } catch (error) {
        entries.delete(key);
        throw error;
      } finally {
        // A load that began before a change may hold the old answer: it serves its own waiters only.
        if (generation !== started && entries.get(key)?.value === value) entries.delete(key);
      }
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
