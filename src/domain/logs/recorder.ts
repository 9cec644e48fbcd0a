import type { CallLogsRepository } from '../../db/repositories/call-logs.js';
import type { CallLogEntry } from './entry.js';
import { serialFlush } from '../../lib/serial-flush.js';
import { refusalSummaries } from './refusals.js';
import { boundedEntry } from './stored-entry.js';

/** How often buffered entries are written: well inside the one second within which a call must be visible. */
export const LOG_FLUSH_INTERVAL_MS = 250;
/**
 * A busy node writes sooner, once this many entries wait: entries written within milliseconds are collected
 * young, where a quarter of a second's worth would outlive the garbage collector's young generation.
 */
export const LOG_EARLY_BATCH = 500;
/** Past this many unwritten entries (a database outage), the oldest are dropped rather than memory exhausted. */
export const LOG_BUFFER_MAX = 50_000;

/**
 * Collects call-log entries in memory as responses finish and writes them in batches, so no request waits
 * for a log write. `flush` writes what is pending: the job runner calls it every LOG_FLUSH_INTERVAL_MS, and a query
 * on this node first, so a caller sees its own latest call at once; `close` writes the rest when the node stops.
 */
export function callLogRecorder(deps: {
  logs: CallLogsRepository;
  onError?: (error: unknown) => void;
  onDrop?: (count: number) => void;
  /** The clock of the windows of refused calls (tests move it). */
  now?: () => number;
}) {
  let pending: CallLogEntry[] = [];
  const refusals = refusalSummaries(deps.now);

  async function writeOut(): Promise<void> {
    for (const summary of refusals.due()) pending.push(boundedEntry(summary));
    const batch = pending;
    pending = [];
    try {
      await deps.logs.insertMany(batch);
    } catch (error) {
      // Put the batch back in front of anything recorded since, within the buffer's limit.
      pending = [...batch, ...pending];
      trim();
      throw error;
    }
  }

  function trim(): void {
    if (pending.length > LOG_BUFFER_MAX) {
      // Down to 90% at once: dropping one entry per call would copy the whole buffer on every request.
      const dropped = pending.length - LOG_BUFFER_MAX + LOG_BUFFER_MAX / 10;
      pending = pending.slice(dropped);
      deps.onDrop?.(dropped);
    }
  }

  const flush = serialFlush({ hasPending: () => pending.length > 0 || refusals.hasDue(), writeOut });

  return {
    /** Buffers one entry, cut to the stored lengths; a refused call (429) may only be counted (see refusals.ts). */
    record(entry: CallLogEntry): void {
      if (!refusals.admit(entry)) return;
      pending.push(boundedEntry(entry));
      if (pending.length === LOG_EARLY_BATCH) flush().catch((error: unknown) => deps.onError?.(error));
      else trim();
    },
    flush,
    /** Writes everything, the summaries of windows still open included. */
    async close(): Promise<void> {
      for (const summary of refusals.due(true)) pending.push(boundedEntry(summary));
      await flush();
    },
    get pendingCount(): number {
      return pending.length;
    },
  };
}

export type CallLogRecorder = ReturnType<typeof callLogRecorder>;
