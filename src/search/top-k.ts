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

/** Up to this many kept, a bounded heap; past it, selection (below) does less work. */
const HEAP_MAX = 256;

/**
 * Rearranges `pool[from, to)` so that the slot of rank `nth` (0 = best) stands at `nth`, every better one before
 * it and every worse one after: Hoare's selection with a random pivot, linear on average whatever the order of
 * the input (the order is total, as ties break on the tie function, so equal keys cannot make it quadratic).
 */
function select(pool: Int32Array, from: number, to: number, nth: number, order: Order): void {
  let low = from;
  let high = to - 1;
  while (high > low) {
    const pivot = pool[low + Math.floor(Math.random() * (high - low + 1))] ?? 0;
    let i = low;
    let j = high;
    while (i <= j) {
      while (before(order, pool[i] ?? 0, pivot)) i += 1;
      while (before(order, pivot, pool[j] ?? 0)) j -= 1;
      if (i <= j) {
        const swap = pool[i] ?? 0;
        pool[i] = pool[j] ?? 0;
        pool[j] = swap;
        i += 1;
        j -= 1;
      }
    }
    if (nth <= j) high = j;
    else if (nth >= i) low = i;
    else return;
  }
}

/**
 * The slots of ranks `offset` to `offset + limit` among the first `count` of `pool`, best first. A first page
 * keeps a bounded heap; a deep one (up to 10,000 items in) selects its two edges and sorts only the page, so
 * its cost stays linear in `count` rather than growing with the depth. `pool` is scratch: it is reordered.
 */
export function pageOf(pool: Int32Array, count: number, offset: number, limit: number, order: Order): number[] {
  const end = Math.min(count, offset + limit);
  if (end <= offset) return [];
  if (end <= HEAP_MAX) return topK(pool, count, end, order).slice(offset);
  select(pool, 0, count, end - 1, order);
  if (offset > 0) select(pool, 0, end, offset, order);
  return Array.from(pool.subarray(offset, end)).sort((a, b) => (before(order, a, b) ? -1 : before(order, b, a) ? 1 : 0));
}
