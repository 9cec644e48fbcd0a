/** The time the job runner reads and waits by: the system's, or one a test moves by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Calls `fn` once `ms` have passed, without keeping the process alive; the answer cancels it. */
  after: (ms: number, fn: () => void) => () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
