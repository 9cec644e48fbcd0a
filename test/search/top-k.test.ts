import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageOf, topK, type Order } from '../../src/search/top-k.js';

/** Keys with many ties (a sort by downloads or date has many), broken by the slot number as ids break them. */
function orderOf(keys: number[]): Order {
  return { key: Float64Array.from(keys), tie: (a, b) => a - b };
}

function sorted(count: number, order: Order): number[] {
  return Array.from({ length: count }, (_, slot) => slot).sort((a, b) => {
    const difference = (order.key[b] ?? 0) - (order.key[a] ?? 0);
    return difference !== 0 ? difference : order.tie(a, b);
  });
}

describe('pages of a ranked pool', () => {
  const count = 20_000;
  // A fixed pseudo-random sequence: the same keys on every run.
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  const order = orderOf(Array.from({ length: count }, () => next() % 500));
  const expected = sorted(count, order);
  const pool = () => Int32Array.from({ length: count }, (_, i) => (i * 7_919) % count);

  for (const [offset, limit] of [
    [0, 20],
    [0, 100],
    [240, 20],
    [300, 100],
    [9_900, 100],
    [19_990, 100],
    [20_000, 20],
  ] as const) {
    it(`items ${offset + 1} to ${offset + limit} are the ones a full sort puts there, in its order`, () => {
      assert.deepEqual(pageOf(pool(), count, offset, limit, order), expected.slice(offset, offset + limit));
    });
  }

  it('a deep page of a pool of one key throughout is ordered by the tie alone', () => {
    const flat = orderOf(Array.from({ length: count }, () => 1));
    assert.deepEqual(
      pageOf(pool(), count, 5_000, 50, flat),
      Array.from({ length: 50 }, (_, i) => 5_000 + i),
    );
  });

  it('the bounded heap and the selection agree where both apply', () => {
    assert.deepEqual(topK(pool(), count, 256, order), pageOf(pool(), count, 0, 256, order));
    assert.deepEqual(topK(pool(), count, 300, order).slice(200), pageOf(pool(), count, 200, 100, order));
  });
});
