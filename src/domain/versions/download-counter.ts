import type { DownloadTally, VersionsRepository } from '../../db/repositories/versions.js';
import { periodicFlush } from '../../lib/periodic-flush.js';

export const FLUSH_INTERVAL_MS = 1000;

/**
 * Counts downloads in memory and writes them in one batch at most a second later, so no download waits
 * for a database write. A failed write keeps its counts for the next flush; `close` writes what is left.
 */
export function downloadCounter(deps: {
  versions: VersionsRepository;
  onError?: (error: unknown) => void;
  /** Told after counts were written, so answers that show download totals can be refreshed. */
  onWritten?: () => void;
}) {
  let pending = new Map<string, DownloadTally>();

  async function writeOut(): Promise<void> {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    try {
      await deps.versions.addDownloads(batch);
      deps.onWritten?.();
    } catch (error) {
      for (const tally of batch) add(tally.versionId, tally.skillId, tally.day, tally.count);
      throw error;
    }
  }

  function add(versionId: string, skillId: string, day: string, count: number): void {
    const key = `${versionId}|${day}`;
    const current = pending.get(key);
    if (current) current.count += count;
    else pending.set(key, { versionId, skillId, day, count });
  }

  const flusher = periodicFlush({
    intervalMs: FLUSH_INTERVAL_MS,
    hasPending: () => pending.size > 0,
    writeOut,
    onError: deps.onError,
  });

  return {
    record(versionId: string, skillId: string, at = new Date()): void {
      add(versionId, skillId, at.toISOString().slice(0, 10), 1);
    },
    flush: flusher.flush,
    start: flusher.start,
    close: flusher.close,
    get pendingCount(): number {
      let n = 0;
      for (const t of pending.values()) n += t.count;
      return n;
    },
  };
}

export type DownloadCounter = ReturnType<typeof downloadCounter>;
