import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicCache } from '../../src/domain/skills/public-cache.js';

/** A clock the test moves: entries age only when it says so. */
function manualClock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/**
 * A loader that counts its calls and reads `value()` when called (as a query would). Its answers resolve at
 * once, or, when `held`, only once the test calls `release()`, so a test sees a load still running.
 */
function counter(value: () => string, options: { held?: boolean } = {}) {
  const waiting: (() => void)[] = [];
  const loader = async () => {
    loader.calls += 1;
    const read = value();
    if (options.held) await new Promise<void>((resolve) => waiting.push(resolve));
    return read;
  };
  loader.calls = 0;
  /** Lets every load started so far answer. */
  loader.release = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  return loader;
}

/** What `answer` resolves to if it does so before the event loop turns, else 'still waiting'. */
function answeredAtOnce<T>(answer: Promise<T>): Promise<T | 'still waiting'> {
  return Promise.race([answer, new Promise<'still waiting'>((resolve) => setImmediate(() => resolve('still waiting')))]);
}

describe('public cache', () => {
  it('shares one load among concurrent misses and serves fresh hits from memory', async () => {
    const clock = manualClock();
    const cache = publicCache<string>({ ttlMs: 200, maxEntries: 10, now: clock.now });
    const load = counter(() => 'a', { held: true });
    const all = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    load.release();
    assert.deepEqual(await all, ['a', 'a', 'a']);
    clock.advance(199);
    assert.equal(await cache.get('k', load), 'a');
    assert.equal(load.calls, 1);
  });

  it('serves a stale answer while one reload runs, then the new answer', async () => {
    let current = 'old';
    const clock = manualClock();
    const cache = publicCache<string>({ ttlMs: 40, maxEntries: 10, now: clock.now });
    const load = counter(() => current, { held: true });
    const first = cache.get('k', load);
    load.release();
    assert.equal(await first, 'old');
    current = 'new';
    clock.advance(50);
    // The reload is held: an answer that waited for it would not be there yet.
    assert.equal(await answeredAtOnce(cache.get('k', load)), 'old', 'stale, but nobody waits');
    assert.equal(await answeredAtOnce(cache.get('k', load)), 'old');
    assert.equal(load.calls, 2, 'one reload for both');
    load.release();
    // Let the reload's answer settle into the cache (a few turns of the microtask queue, no time passes).
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await cache.get('k', load), 'new');
    assert.equal(load.calls, 2);
  });

  it('loads afresh, waiting, once an entry is older than twice its lifetime', async () => {
    let current = 'one';
    const clock = manualClock();
    const cache = publicCache<string>({ ttlMs: 20, maxEntries: 10, now: clock.now });
    const load = counter(() => current);
    assert.equal(await cache.get('k', load), 'one');
    current = 'two';
    clock.advance(19);
    assert.equal(await cache.get('k', load), 'one', 'still fresh');
    clock.advance(21);
    assert.equal(await cache.get('k', load), 'two');
    assert.equal(load.calls, 2);
  });

  it('forgets everything on clear, and never keeps an answer loaded before the clear', async () => {
    let current = 'before';
    const cache = publicCache<string>({ ttlMs: 1000, maxEntries: 10, now: manualClock().now });
    const slow = counter(() => current, { held: true });
    const pending = cache.get('k', slow);
    current = 'after';
    cache.clear();
    slow.release();
    assert.equal(await pending, 'before', 'the waiter gets what its load found');
    assert.equal(
      await cache.get(
        'k',
        counter(() => current),
      ),
      'after',
      'but the next caller does not',
    );
  });

  it('never keeps a background reload begun before a clear', async () => {
    let current = 'old';
    const clock = manualClock();
    const cache = publicCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now });
    const load = counter(() => current, { held: true });
    const first = cache.get('k', load);
    load.release();
    assert.equal(await first, 'old');
    clock.advance(150);
    // The background reload reads 'old' and is held; then the skill changes and this node clears.
    assert.equal(await answeredAtOnce(cache.get('k', load)), 'old');
    assert.equal(load.calls, 2);
    current = 'new';
    cache.clear();
    load.release();
    await new Promise((resolve) => setImmediate(resolve));
    const fresh = counter(() => current);
    assert.equal(await cache.get('k', fresh), 'new', 'the reload from before the clear was not kept');
    assert.equal(fresh.calls, 1);
  });

  it('keeps serving the stale answer when a reload fails, until it is too old', async () => {
    const clock = manualClock();
    const cache = publicCache<string>({ ttlMs: 100, maxEntries: 10, now: clock.now });
    assert.equal(await cache.get('k', () => Promise.resolve('kept')), 'kept');
    clock.advance(150);
    assert.equal(await cache.get('k', async () => Promise.reject(new Error('down'))), 'kept');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(await cache.get('k', async () => Promise.reject(new Error('still down'))), 'kept');
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(50);
    await assert.rejects(
      cache.get('k', async () => Promise.reject(new Error('down for good'))),
      /down for good/,
    );
  });

  it('remembers that there was nothing to find', async () => {
    const cache = publicCache<string | undefined>({ ttlMs: 1000, maxEntries: 10, now: manualClock().now });
    const load = () => {
      load.calls += 1;
      return Promise.resolve(undefined);
    };
    load.calls = 0;
    assert.equal(await cache.get('missing', load), undefined);
    assert.equal(await cache.get('missing', load), undefined);
    assert.equal(load.calls, 1);
  });

  it('does not keep failures', async () => {
    const cache = publicCache<string>({ ttlMs: 1000, maxEntries: 10 });
    await assert.rejects(cache.get('k', async () => Promise.reject(new Error('down'))));
    assert.equal(await cache.get('k', () => Promise.resolve('up')), 'up');
  });

  it('holds at most maxEntries, dropping the least recently used', async () => {
    const cache = publicCache<string>({ ttlMs: 1000, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, () => Promise.resolve(key));
    assert.equal(cache.size, 2);
    const load = counter(() => 'again');
    assert.equal(await cache.get('a', load), 'again');
    assert.equal(load.calls, 1);
  });
});
