import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress } from '../../src/http/plugins/rate-limit.js';
import { memoryCounter } from '../../src/http/rate-counters.js';

describe('in-process rate counters', () => {
  it('counts within a window, and starts again when the window ends', () => {
    let now = 1_000_000;
    const counter = memoryCounter(60_000, 100, () => now);
    assert.deepEqual(counter.hit('reads', '10.0.0.1'), { count: 1, resetMs: 60_000 });
    now += 20_000;
    assert.deepEqual(counter.hit('reads', '10.0.0.1'), { count: 2, resetMs: 40_000 });
    assert.deepEqual(counter.hit('reads', '10.0.0.2'), { count: 1, resetMs: 60_000 }, 'another key has a window of its own');
    now += 39_999;
    assert.deepEqual(counter.hit('reads', '10.0.0.1'), { count: 3, resetMs: 1 });
    now += 1;
    assert.deepEqual(counter.hit('reads', '10.0.0.1'), { count: 1, resetMs: 60_000 }, 'the window ended: counting starts again');
  });

  it('drops the least recently used keys past its size, which then start afresh', () => {
    const now = 5_000;
    const counter = memoryCounter(60_000, 2, () => now);
    for (const subject of ['a', 'a', 'b', 'a', 'c']) counter.hit('reads', subject);
    assert.equal(counter.hit('reads', 'a').count, 4, 'a, used most recently, is kept');
    assert.equal(counter.hit('reads', 'b').count, 1, 'b was dropped for c');
    assert.equal(counter.hit('login', 'a').count, 1, 'each bucket counts apart');
  });
});

describe('the address a client is counted under', () => {
  it('keeps IPv4, maps IPv4-mapped IPv6 back, and counts IPv6 per /64 network', () => {
    assert.equal(clientAddress('203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddress('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddress('2001:db8:1:2::5'), '2001:db8:1:2::');
    assert.equal(clientAddress('2001:db8:1:2:ffff:eeee:dddd:9'), '2001:db8:1:2::');
    assert.equal(clientAddress('2001:DB8:1:3::5'), '2001:db8:1:3::');
    assert.equal(clientAddress('::1'), '::');
  });
});
