import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idTime, looksLikeId, newId } from '../../src/lib/ids.js';

describe('ids', () => {
  it('are UUIDv7 with the current time in their first 48 bits', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(looksLikeId(id));
    const ms = idTime(id);
    assert.ok(ms >= before && ms <= after + 1, `${ms} within [${before}, ${after}]`);
  });

  it('are unique and sort in the order they were made, also within one millisecond', () => {
    const ids = Array.from({ length: 100_000 }, () => newId());
    assert.equal(new Set(ids).size, ids.length);
    const sorted = [...ids].sort();
    assert.deepEqual(sorted, ids);
  });

  it('give times that never run backwards in the order the ids were made', () => {
    const times = Array.from({ length: 10_000 }, () => idTime(newId()));
    for (let i = 1; i < times.length; i += 1) assert.ok(times[i]! >= times[i - 1]!, `time ${i} ran backwards`);
  });
});
