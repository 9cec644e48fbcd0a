/** How often orphaned blobs are collected, besides once at start-up: a blob orphaned now is gone within two hours. */
export const ORPHAN_COLLECTION_INTERVAL_MS = 60 * 60 * 1000;

export interface OrphanCollectionReport {
  /** Told how many blobs a run removed, when it removed any. */
  onRemoved?: (removed: number) => void;
  onError?: (error: unknown) => void;
}

/**
 * Runs orphan collection at start and then every `intervalMs`, one run at a time, without keeping the process
 * alive. Every node may run it: a collection deletes only blobs past their grace period that no version
 * references, and deleting one twice is not an error.
 */
export function orphanCollection(options: { collect: () => Promise<number>; intervalMs?: number }) {
  const intervalMs = options.intervalMs ?? ORPHAN_COLLECTION_INTERVAL_MS;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let report: OrphanCollectionReport = {};

  function run(): Promise<void> {
    // A run still going when the next is due (a huge store, a slow bucket) covers that one too.
    running ??= options
      .collect()
      .then(
        (removed) => {
          if (removed > 0) report.onRemoved?.(removed);
        },
        (error: unknown) => report.onError?.(error),
      )
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    /** Collects now, in the background, and then every interval. */
    start(reporting: OrphanCollectionReport = {}): void {
      report = reporting;
      if (timer !== null) return;
      void run();
      timer = setInterval(() => void run(), intervalMs);
      timer.unref();
    },
    /** Stops the timer and waits for a run under way. */
    async close(): Promise<void> {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await running;
    },
    /** The run under way, if any (settles when it ends; it never rejects). */
    get idle(): Promise<void> {
      return running ?? Promise.resolve();
    },
  };
}

export type OrphanCollection = ReturnType<typeof orphanCollection>;
