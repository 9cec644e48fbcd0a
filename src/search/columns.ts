/**
 * What filters and sorts read of every slot, one typed array per attribute: a list of a hundred thousand skills
 * is filtered and ordered by walking these, never by touching a document object.
 */
export class Columns {
  alive = new Uint8Array(0);
  status = new Uint8Array(0);
  featured = new Uint8Array(0);
  owner = new Int32Array(0);
  category = new Int32Array(0);
  downloads = new Float64Array(0);
  updatedAt = new Float64Array(0);
  /** The popularity lift of a relevance score, kept with the downloads it follows. */
  boost = new Float32Array(0);

  /** Makes room for slot `slot`. */
  ensure(slot: number): void {
    if (slot < this.alive.length) return;
    const size = Math.max(1024, this.alive.length * 2, slot + 1);
    this.alive = grown(this.alive, new Uint8Array(size));
    this.status = grown(this.status, new Uint8Array(size));
    this.featured = grown(this.featured, new Uint8Array(size));
    this.owner = grown(this.owner, new Int32Array(size));
    this.category = grown(this.category, new Int32Array(size));
    this.downloads = grown(this.downloads, new Float64Array(size));
    this.updatedAt = grown(this.updatedAt, new Float64Array(size));
    this.boost = grown(this.boost, new Float32Array(size));
  }
}

function grown<T extends Uint8Array | Int32Array | Float32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Small integers for the strings a column holds (statuses, owners, categories). */
export class Interner {
  private readonly ids = new Map<string, number>();

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(value, id);
    }
    return id;
  }

  /** The value's number, or -1 when no slot ever held it. */
  find(value: string): number {
    return this.ids.get(value) ?? -1;
  }
}

/**
 * Many short runs of numbers in one growing `Int32Array`: one object for them all, where a typed array each (over
 * 64 bytes, so kept outside the heap) would give the collector an external buffer per run to track and sweep.
 */
export class Arena {
  data = new Int32Array(1024);
  private used = 0;

  /** Makes room for `count` more numbers; returns where they start. */
  reserve(count: number): number {
    const at = this.used;
    const needed = at + count;
    if (needed > this.data.length) {
      const data = new Int32Array(Math.max(needed, this.data.length * 2));
      data.set(this.data.subarray(0, at));
      this.data = data;
    }
    this.used = needed;
    return at;
  }
}
