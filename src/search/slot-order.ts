/**
 * Slots per block once an order is laid out afresh; a block splits in two when it reaches twice this. Moving a
 * slot costs a binary search over the blocks and a shift within one block (a few microseconds), where one sorted
 * array of a million slots moved up to four megabytes for every change.
 */
const BLOCK = 1_024;

/**
 * Slots kept in ascending order of `compare`, so that a list without filters reads its page from the top end
 * instead of ordering every skill on every request. `compare` must be a total order over the slots held (ties
 * broken by id), and a slot's sort key must not change while it is held: take it out, change it, add it again.
 *
 * The order is a list of sorted blocks, each of at most `2 × BLOCK` slots, every slot of a block sorting before
 * every slot of the next. Added slots wait until the next read or removal: a few are then put in place one at a
 * time, many (the index being filled) are sorted together and merged with the blocks in one pass, so filling the
 * index costs one sort, not a move per skill.
 */
export class SlotOrder {
  private blocks: Int32Array[] = [];
  private lengths: number[] = [];
  private length = 0;
  private pending = new Int32Array(1_024);
  private pendingLength = 0;

  constructor(private readonly compare: (a: number, b: number) => number) {}

  get size(): number {
    return this.length + this.pendingLength;
  }

  add(slot: number): void {
    if (this.pendingLength === this.pending.length) {
      const grown = new Int32Array(this.pending.length * 2);
      grown.set(this.pending);
      this.pending = grown;
    }
    this.pending[this.pendingLength] = slot;
    this.pendingLength += 1;
  }

  /** Takes `slot` out; its sort key must still be the one it was added with. */
  remove(slot: number): void {
    this.settle();
    let block = this.blockFor(slot);
    let at = block < 0 ? -1 : this.lowerBound(block, slot);
    if (block >= 0 && (at >= (this.lengths[block] ?? 0) || this.blocks[block]?.[at] !== slot)) at = -1;
    // Never expected: a key changed while held. The slot is still found, at the cost of a scan.
    if (at < 0) [block, at] = this.scanFor(slot);
    if (at < 0) return;
    const slots = this.blocks[block]!;
    const length = this.lengths[block]!;
    slots.copyWithin(at, at + 1, length);
    this.length -= 1;
    if (length === 1) {
      this.blocks.splice(block, 1);
      this.lengths.splice(block, 1);
    } else this.lengths[block] = length - 1;
  }

  /**
   * Visits the slots from the last in the order to the first, while `visit` answers true. Valid while the order
   * does not change.
   */
  walkDown(visit: (slot: number) => boolean): void {
    this.settle();
    for (let block = this.blocks.length - 1; block >= 0; block -= 1) {
      const slots = this.blocks[block]!;
      for (let at = (this.lengths[block] ?? 0) - 1; at >= 0; at -= 1) if (!visit(slots[at]!)) return;
    }
  }

  /** Puts the slots added since the last read in place. */
  settle(): void {
    const waiting = this.pendingLength;
    if (waiting === 0) return;
    // One at a time costs a block's shift each; a merge costs a pass over every slot.
    if (waiting <= Math.max(32, this.length / BLOCK)) {
      for (let i = 0; i < waiting; i += 1) this.insert(this.pending[i]!);
    } else {
      this.layOut(this.merged(this.pending.slice(0, waiting).sort(this.compare)));
    }
    this.pendingLength = 0;
    if (this.pending.length > 1_024 && waiting < this.pending.length / 4) this.pending = new Int32Array(1_024);
  }

  /** Every slot held, in order, merged with `added` (sorted). */
  private merged(added: Int32Array): Int32Array {
    const all = new Int32Array(this.length + added.length);
    let j = 0;
    let k = 0;
    for (let block = 0; block < this.blocks.length; block += 1) {
      const slots = this.blocks[block]!;
      const length = this.lengths[block]!;
      for (let i = 0; i < length; i += 1) {
        const a = slots[i]!;
        while (j < added.length && this.compare(added[j]!, a) < 0) all[k++] = added[j++]!;
        all[k++] = a;
      }
    }
    while (j < added.length) all[k++] = added[j++]!;
    return all;
  }

  /** Replaces the blocks with `all` (in order), cut into blocks of BLOCK. */
  private layOut(all: Int32Array): void {
    this.blocks = [];
    this.lengths = [];
    for (let start = 0; start < all.length; start += BLOCK) {
      const block = new Int32Array(2 * BLOCK);
      const part = all.subarray(start, Math.min(all.length, start + BLOCK));
      block.set(part);
      this.blocks.push(block);
      this.lengths.push(part.length);
    }
    this.length = all.length;
  }

  private insert(slot: number): void {
    if (this.blocks.length === 0) {
      const first = new Int32Array(2 * BLOCK);
      first[0] = slot;
      this.blocks.push(first);
      this.lengths.push(1);
      this.length = 1;
      return;
    }
    let block = this.blockFor(slot);
    if (block < 0) block = this.blocks.length - 1;
    const at = this.lowerBound(block, slot);
    const slots = this.blocks[block]!;
    const length = this.lengths[block]!;
    slots.copyWithin(at + 1, at, length);
    slots[at] = slot;
    this.lengths[block] = length + 1;
    this.length += 1;
    if (length + 1 === slots.length) {
      const upper = new Int32Array(2 * BLOCK);
      upper.set(slots.subarray(BLOCK, length + 1));
      this.blocks.splice(block + 1, 0, upper);
      this.lengths.splice(block + 1, 0, length + 1 - BLOCK);
      this.lengths[block] = BLOCK;
    }
  }

  /** The first block whose last slot does not sort before `slot`, or -1 when every block's does. */
  private blockFor(slot: number): number {
    let low = 0;
    let high = this.blocks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const last = this.blocks[mid]![this.lengths[mid]! - 1]!;
      if (this.compare(last, slot) < 0) low = mid + 1;
      else high = mid;
    }
    return low < this.blocks.length ? low : -1;
  }

  /** The first position of `block` whose slot does not sort before `slot`. */
  private lowerBound(block: number, slot: number): number {
    const slots = this.blocks[block]!;
    let low = 0;
    let high = this.lengths[block]!;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(slots[mid]!, slot) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private scanFor(slot: number): [number, number] {
    for (let block = 0; block < this.blocks.length; block += 1) {
      const at = this.blocks[block]!.subarray(0, this.lengths[block]).indexOf(slot);
      if (at >= 0) return [block, at];
    }
    return [-1, -1];
  }
}
