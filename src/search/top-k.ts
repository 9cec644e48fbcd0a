/**
 * The order of a result list: `key` higher first, then `tie` (negative when `a` goes first) for equal keys.
 * Keys are read from a typed array by slot, so most comparisons are one load each.
 */
export interface Order {
  key: Float64Array;
  tie: (a: number, b: number) => number;
}

function before(order: Order, a: number, b: number): boolean {
  const difference = (order.key[a] ?? 0) - (order.key[b] ?? 0);
  return difference > 0 || (difference === 0 && order.tie(a, b) < 0);
}

/**
 * The best `k` of the first `count` slots of `pool`, best first, without sorting all of them: a bounded heap
 * whose root is the worst kept so far, so a slot that cannot enter costs one comparison.
 */
export function topK(pool: Int32Array, count: number, k: number, order: Order): number[] {
  const heap: number[] = [];
  if (k <= 0) return heap;
  const worse = (a: number, b: number) => before(order, b, a);
  for (let i = 0; i < count; i += 1) {
    const slot = pool[i] ?? 0;
    if (heap.length < k) {
      heap.push(slot);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        const up = heap[parent] ?? 0;
        if (!worse(slot, up)) break;
        heap[at] = up;
        at = parent;
      }
      heap[at] = slot;
    } else if (before(order, slot, heap[0] ?? 0)) {
      let at = 0;
      for (;;) {
        const left = at * 2 + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        let child = left;
        if (right < heap.length && worse(heap[right] ?? 0, heap[left] ?? 0)) child = right;
        const down = heap[child] ?? 0;
        if (!worse(down, slot)) break;
        heap[at] = down;
        at = child;
      }
      heap[at] = slot;
    }
  }
  return heap.sort((a, b) => (before(order, a, b) ? -1 : before(order, b, a) ? 1 : 0));
}
