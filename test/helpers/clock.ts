import { mock } from 'node:test';
import type { Clock } from '../../src/jobs/clock.js';

/**
 * Runs `body` with `Date` (and only `Date`: timers and I/O run as usual) stopped, in this process: the registry
 * started by startApp reads the same clock, so `advance` ages its caches and orders its timestamps without the
 * test waiting. The real clock is back once `body` settles, whether it passed or threw.
 *
 * The clock stops at `from` (now, unless given). Request ids never go back in time, so times taken from them
 * follow this clock only from the last id made onwards; and a clock advanced past the real one leaves later ids
 * that far ahead until the real clock catches up. A test that advances by seconds therefore starts that far in
 * the past.
 */
export async function withStoppedClock<T>(body: (advance: (ms: number) => void) => Promise<T>, from = Date.now()): Promise<T> {
  mock.timers.enable({ apis: ['Date'], now: from });
  try {
    return await body((ms) => mock.timers.tick(ms));
  } finally {
    mock.timers.reset();
  }
}

/** A clock for the job runner that moves only when told to. */
export interface ManualClock extends Clock {
  /**
   * Moves the time `ms` on, calling each timer that falls due on the way at its own time, in order (timers set by
   * those calls too). A run a timer starts goes on asynchronously: the runner's `idle()` waits for it.
   */
  advance: (ms: number) => void;
  /** The timers set and not yet called or cancelled. */
  readonly waiting: number;
}

export function manualClock(start = Date.parse('2026-01-01T00:00:00Z')): ManualClock {
  let now = start;
  let made = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    after(ms, fn) {
      const id = (made += 1);
      timers.set(id, { at: now + ms, fn });
      return () => timers.delete(id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers) if (entry[1].at <= end && (next === undefined || entry[1].at < next[1].at)) next = entry;
        if (next === undefined) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
    get waiting() {
      return timers.size;
    },
  };
}
