/**
 * The documents holding one term, in the order they were indexed, each with the term's impact on its score.
 * Typed arrays rather than objects: a million documents hold tens of millions of these pairs.
 */
export class Postings {
  slots = new Int32Array(4);
  impacts = new Float32Array(4);
  length = 0;
  /** Live documents holding the term (the arrays keep removed ones until the index is rebuilt). */
  documents = 0;

  add(slot: number, impact: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const impacts = new Float32Array(this.length * 2);
      impacts.set(this.impacts);
      this.impacts = impacts;
    }
    this.slots[this.length] = slot;
    this.impacts[this.length] = impact;
    this.length += 1;
    this.documents += 1;
  }
}
