import type { Redis, Result } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** Where a key's window stands after one more request was counted in it. */
export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/**
 * Counts requests per key in fixed windows: a key's window starts with its first request and lasts `windowMs`.
 * In process the answer is immediate, so the hot path takes no promise; in Redis it is a promise.
 */
export interface RateCounter {
  hit(bucket: string, subject: string): WindowCount | Promise<WindowCount>;
}

/** A counter whose answer is always immediate. */
export interface MemoryCounter extends RateCounter {
  hit(bucket: string, subject: string): WindowCount;
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * Counters in this process, one table per bucket keyed by subject (no key string is built per request), the least
 * recently used subjects of a bucket dropped past `maxKeys` (a dropped subject starts afresh, which can only let its
 * client through sooner). `now` is the clock, injectable for tests.
 */
export function memoryCounter(windowMs: number, maxKeys: number, now: () => number = Date.now): MemoryCounter {
  const buckets = new Map<string, LRUCache<string, Window>>();
  return {
    hit(bucket, subject) {
      let windows = buckets.get(bucket);
      if (windows === undefined) buckets.set(bucket, (windows = new LRUCache<string, Window>({ max: maxKeys })));
      const at = now();
      let window = windows.get(subject);
      if (window === undefined || window.endsAt <= at) {
        window = { count: 0, endsAt: at + windowMs };
        windows.set(subject, window);
      }
      window.count += 1;
      return { count: window.count, resetMs: window.endsAt - at };
    },
  };
}

/**
 * INCR and the window's expiry in one atomic step: the first request of a window sets the expiry, and a key that
 * somehow has none (written by hand, or by an older version) gets one rather than counting for ever.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    skregRateHit(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

/**
 * Counters shared by every node on one Redis, under `prefix` + key. A failing Redis rejects; the caller decides
 * to let the request through (src/http/plugins/rate-limit.ts).
 */
export function redisCounter(redis: Redis, prefix: string, windowMs: number): RateCounter {
  // ioredis sends the script by its hash after the first call, loading it again if Redis lost it.
  redis.defineCommand('skregRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  return {
    async hit(bucket, subject) {
      const [count, ttl] = await redis.skregRateHit(`${prefix}${bucket}:${subject}`, windowMs);
      return { count, resetMs: ttl };
    },
  };
}
