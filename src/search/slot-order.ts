/** Up to this many slots added since the last read are put in place one at a time; more are sorted and merged. */
const INSERT_ONE_BY_ONE = 32;

/**
 * Slots kept in ascending order of `compare`, so that a list without filters reads its page from the top end
 * instead of ordering every skill on every request. `compare` must be a total order over the slots held (ties
 * broken by id), and a slot's sort key must not change while it is held: take it out, change it, add it again.
 *
 * Added slots wait at the end until the next read or removal: a few are then put in place by binary search (a
 * changed skill's new time puts it at the end, so usually nothing moves), many (the index being filled) are sorted
 * together and merged, so filling the index costs one sort, not a move per skill.
 */
export class SlotOrder {
  private slots = new Int32Array(1024);
  private length = 0;
  /** How many slots at the end were added since the order was last whole. */
  private pending = 0;

  constructor(private readonly compare: (a: number, b: number) => number) {}

  get size(): number {
    return this.length;
  }

  add(slot: number): void {
    if (this.length === this.slots.length) {
      const grown = new Int32Array(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[this.length] = slot;
    this.length += 1;
    this.pending += 1;
  }

  /** Takes `slot` out; its sort key must still be the one it was added with. */
  remove(slot: number): void {
    this.settle();
    let at = this.find(slot);
    // Never expected: a key changed while held. The slot is still found, at the cost of a scan.
    if (at < 0) at = this.slots.subarray(0, this.length).indexOf(slot);
    if (at < 0) return;
    this.slots.copyWithin(at, at + 1, this.length);
    this.length -= 1;
  }

  /** The slots in ascending order, valid until the next change: read `slots[length - 1]` first for descending. */
  view(): { slots: Int32Array; length: number } {
    this.settle();
    return { slots: this.slots, length: this.length };
  }

  /** Puts the slots added since the last read in place. */
  settle(): void {
    if (this.pending === 0) return;
    const whole = this.length - this.pending;
    if (this.pending <= INSERT_ONE_BY_ONE) {
      for (let at = whole; at < this.length; at += 1) {
        const slot = this.slots[at] ?? 0;
        const to = this.lowerBound(slot, at);
        this.slots.copyWithin(to + 1, to, at);
        this.slots[to] = slot;
      }
    } else {
      const added = this.slots.slice(whole, this.length).sort(this.compare);
      const merged = new Int32Array(this.slots.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < whole && j < added.length) {
        const a = this.slots[i] ?? 0;
        const b = added[j] ?? 0;
        if (this.compare(a, b) <= 0) {
          merged[k] = a;
          i += 1;
        } else {
          merged[k] = b;
          j += 1;
        }
        k += 1;
      }
      merged.set(this.slots.subarray(i, whole), k);
      merged.set(added.subarray(j), k + whole - i);
      this.slots = merged;
    }
    this.pending = 0;
  }

  /** The first position in [0, end) whose slot does not sort before `slot`. */
  private lowerBound(slot: number, end: number): number {
    let low = 0;
    let high = end;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(this.slots[mid] ?? 0, slot) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private find(slot: number): number {
    const at = this.lowerBound(slot, this.length);
    return at < this.length && this.slots[at] === slot ? at : -1;
  }
}
