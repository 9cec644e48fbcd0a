import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** The rate-limit headers of one counted request. */
export interface CountedRequest {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  reset: number;
}

interface Window {
  count: number;
  startedAt: number;
}

/**
 * Fixed windows of request counts per key, in this process: the limiter's store when there is no Redis (the same
 * arithmetic as @fastify/rate-limit's own local store: a window opens with a key's first request and lasts
 * `windowMs`), and what the replay cache counts its answers in, synchronously, so that a replayed answer and one
 * from the app use up the same allowance. The least recently used keys go first past `maxKeys`.
 */
export class LocalWindows implements FastifyRateLimitStore {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /** Counts one request and reports the count so far and the milliseconds left in the window. */
  private count(key: string, windowMs: number, now: number): { current: number; ttl: number } {
    let window = this.windows.get(key);
    if (window === undefined || window.startedAt + windowMs <= now) window = { count: 1, startedAt: now };
    else window.count += 1;
    // Re-inserted, so the Map's order is the order of last use.
    this.windows.delete(key);
    this.windows.set(key, window);
    if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    return { current: window.count, ttl: window.startedAt + windowMs - now };
  }

  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
    callback(null, this.count(key, timeWindow, Date.now()));
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  /**
   * Counts one request against `key` if it stays within `max`, and returns its headers; returns null, counting
   * nothing, for a request that would go over (the app then counts it and answers 429).
   */
  take(key: string, max: number): CountedRequest | null {
    const now = Date.now();
    const window = this.windows.get(key);
    const next = window === undefined || window.startedAt + this.windowMs <= now ? 1 : window.count + 1;
    if (next > max) return null;
    const { current, ttl } = this.count(key, this.windowMs, now);
    return { limit: max, remaining: max - current, reset: Math.ceil(ttl / 1000) };
  }
}
