import type { DownloadTally, VersionsRepository } from '../../db/repositories/versions.js';
import { serialFlush } from '../../lib/serial-flush.js';

/**
 * How long a counted download may wait in memory: what a process killed outright (SIGKILL, a crash) loses.
 * A write costs one small transaction whatever the traffic, so four a second cost little.
 */
export const FLUSH_INTERVAL_MS = 250;
/**
 * Written counts are announced (`onWritten`, which drops the public caches) at most this often: every
 * announcement makes each popular answer be loaded again, which would cost more than the writes themselves.
 */
export const ANNOUNCE_INTERVAL_MS = 1000;

/**
 * Counts downloads in memory and writes them in batches, so no download waits for a database write: the job runner
 * calls `write` every FLUSH_INTERVAL_MS, and `flush` when the node stops. A failed write keeps its counts for the
 * next flush.
 */
export function downloadCounter(deps: {
  versions: VersionsRepository;
  /**
   * Told after counts were written, so answers that show download totals can be refreshed: within
   * ANNOUNCE_INTERVAL_MS of a write, at once after `flush`.
   */
  onWritten?: () => void;
  /** Told at once of each written batch, per skill, for what keeps its own copy of the totals (the search index). */
  onCounted?: (counts: ReadonlyMap<string, number>) => void;
  /** The clock that spaces announcements (tests drive their own). */
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let pending = new Map<string, DownloadTally>();
  let unannounced = false;
  let lastAnnounced = Number.NEGATIVE_INFINITY;
  let announceTimer: NodeJS.Timeout | null = null;

  function announce(): void {
    if (announceTimer) clearTimeout(announceTimer);
    announceTimer = null;
    if (!unannounced) return;
    unannounced = false;
    lastAnnounced = now();
    deps.onWritten?.();
  }

  function announceSoon(): void {
    unannounced = true;
    const wait = lastAnnounced + ANNOUNCE_INTERVAL_MS - now();
    if (wait <= 0) announce();
    else if (!announceTimer) {
      announceTimer = setTimeout(announce, wait);
      announceTimer.unref();
    }
  }

  async function writeOut(): Promise<void> {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    try {
      await deps.versions.addDownloads(batch);
      if (deps.onCounted) {
        const counts = new Map<string, number>();
        for (const tally of batch) counts.set(tally.skillId, (counts.get(tally.skillId) ?? 0) + tally.count);
        deps.onCounted(counts);
      }
      announceSoon();
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

  const writeSerially = serialFlush({ hasPending: () => pending.size > 0, writeOut });

  return {
    record(versionId: string, skillId: string, at = new Date()): void {
      add(versionId, skillId, at.toISOString().slice(0, 10), 1);
    },
    /** Writes what is counted; the write is announced within ANNOUNCE_INTERVAL_MS (the runner's timed write). */
    write: () => writeSerially(),
    /** Writes what is counted and announces it at once (a read of the totals, the node stopping). */
    async flush(): Promise<void> {
      await writeSerially();
      announce();
    },
    get pendingCount(): number {
      let n = 0;
      for (const t of pending.values()) n += t.count;
      return n;
    },
  };
}

export type DownloadCounter = ReturnType<typeof downloadCounter>;
