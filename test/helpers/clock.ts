import { mock } from 'node:test';

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
