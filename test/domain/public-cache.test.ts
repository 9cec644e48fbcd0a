import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicCache } from '../../src/domain/skills/public-cache.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loader that counts its calls, reads `value()` when called (as a query would), and answers after `delay` ms. */
function counter(value: () => string, delay = 5) {
  const loader = async () => {
    loader.calls += 1;
    const read = value();
    await sleep(delay);
    return read;
  };
  loader.calls = 0;
  return loader;
}

describe('public cache', () => {
  it('shares one load among concurrent misses and serves fresh hits from memory', async () => {
    const cache = publicCache<string>({ ttlMs: 200, maxEntries: 10 });
    const load = counter(() => 'a');
    assert.deepEqual(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]), ['a', 'a', 'a']);
    assert.equal(await cache.get('k', load), 'a');
    assert.equal(load.calls, 1);
  });

  it('serves a stale answer while one reload runs, then the new answer', async () => {
    let current = 'old';
    const cache = publicCache<string>({ ttlMs: 40, maxEntries: 10 });
    const load = counter(() => current, 20);
    assert.equal(await cache.get('k', load), 'old');
    current = 'new';
    await sleep(50);
    assert.equal(await cache.get('k', load), 'old', 'stale, but nobody waits');
    assert.equal(await cache.get('k', load), 'old');
    assert.equal(load.calls, 2, 'one reload for both');
    await sleep(30);
    assert.equal(await cache.get('k', load), 'new');
  });

  it('loads afresh, waiting, once an entry is older than twice its lifetime', async () => {
    let current = 'one';
    const cache = publicCache<string>({ ttlMs: 20, maxEntries: 10 });
    const load = counter(() => current);
    assert.equal(await cache.get('k', load), 'one');
    current = 'two';
    await sleep(60);
    assert.equal(await cache.get('k', load), 'two');
  });

  it('forgets everything on clear, and never keeps an answer loaded before the clear', async () => {
    let current = 'before';
    const cache = publicCache<string>({ ttlMs: 1000, maxEntries: 10 });
    const slow = counter(() => current, 30);
    const pending = cache.get('k', slow);
    current = 'after';
    cache.clear();
    assert.equal(await pending, 'before', 'the waiter gets what its load found');
    assert.equal(await cache.get('k', counter(() => current)), 'after', 'but the next caller does not');
  });

  it('does not keep failures', async () => {
    const cache = publicCache<string>({ ttlMs: 1000, maxEntries: 10 });
    await assert.rejects(cache.get('k', async () => Promise.reject(new Error('down'))));
    assert.equal(await cache.get('k', async () => 'up'), 'up');
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = publicCache<string>({ ttlMs: 1000, maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);
    assert.equal(cache.size, 2);
    const load = counter(() => 'again');
    assert.equal(await cache.get('a', load), 'again');
    assert.equal(load.calls, 1);
  });
});
