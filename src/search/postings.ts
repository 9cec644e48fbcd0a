/**
 * Slots in the order they were made, so the list is sorted and a slot is found by binary search. Typed arrays
 * rather than objects: a million documents hold tens of millions of these entries.
 */
export class SlotList {
  slots = new Int32Array(4);
  length = 0;

  push(slot: number): void {
    if (this.length === this.slots.length) this.grow(this.length * 2);
    this.slots[this.length] = slot;
    this.length += 1;
  }

  /** Where `slot` stands in the list, or -1: slots only ever grow, so the list is sorted. */
  indexOf(slot: number): number {
    const { slots } = this;
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = slots[middle] ?? 0;
      if (at < slot) low = middle + 1;
      else if (at > slot) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  protected grow(capacity: number): void {
    const slots = new Int32Array(capacity);
    slots.set(this.slots);
    this.slots = slots;
  }
}

/** The documents holding one term, each with the term's impact on its score. */
export class Postings extends SlotList {
  impacts = new Float32Array(4);
  /** Its number in the index, by which a slot remembers the terms it holds. */
  constructor(readonly id: number) {
    super();
  }

  /** Live documents holding the term (the arrays keep removed ones until the index is rebuilt). */
  documents = 0;

  add(slot: number, impact: number): void {
    this.push(slot);
    this.impacts[this.length - 1] = impact;
    this.documents += 1;
  }

  protected override grow(capacity: number): void {
    super.grow(capacity);
    const impacts = new Float32Array(capacity);
    impacts.set(this.impacts);
    this.impacts = impacts;
  }
}
