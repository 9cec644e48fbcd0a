/**
 * The anchor pass compiled to WebAssembly (assembly/anchors.ts, built into wasm/anchors.wasm by `npm run build`):
 * loads it once per thread, fills its tables, and reads byte ranges through its linear memory. prefilter.ts says
 * what the anchors are; this module only moves bytes in and lines out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The tables of the pass, as prefilter.ts builds them. */
export interface AnchorTables {
  /** Byte classes: 1 word character, 2 punctuation, 3 lead byte of an invisible character, 4 line end. */
  wordClass: Uint8Array;
  lower: Uint8Array;
  /** Punctuation sequences (up to 11 bytes each) with their groups, those of one first byte in order of precedence. */
  punctuation: [Uint8Array, number][];
  shapes: Uint32Array;
  wordsAll: Uint32Array;
  wordsScript: Uint32Array;
  prefix2: Uint32Array;
  prefix4: Uint32Array;
  dotWords: Uint32Array;
  /** The group invisible characters name. */
  hidden: number;
}

// Node has WebAssembly, but its types ship only with the DOM's (lib.dom) or newer @types/node: the part used here.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  memory: WasmMemory;
  configure(hidden: number): void;
  anchor(input: number, length: number, forScript: number, out: number): number;
}

/** Bytes read at once: a block is read in pieces of whole lines no longer than this (but one longer line whole). */
export const PIECE = 64 * 1024;
const PAGE = 65536;
const BUILD = new URL('../../wasm/anchors.wasm', import.meta.url);

export class AnchorPass {
  private readonly exports: Exports;
  private readonly input: number;
  private readonly output: number;
  /** Where a line longer than PIECE, or a line read alone, is read; memory grows past it as needed. */
  private readonly scratch: number;

  constructor(tables: AnchorTables) {
    let code: Buffer;
    try {
      code = readFileSync(BUILD);
    } catch (err) {
      throw new Error(`The scanner's anchor pass is not built (${fileURLToPath(BUILD)} is missing): run npm run build.`, { cause: err });
    }
    const raw = new wasm.Instance(new wasm.Module(code), {}).exports;
    this.exports = raw as unknown as Exports;
    const offset = (name: string): number => (raw[name] as { value: number }).value;
    this.input = offset('TABLES_END');
    this.output = this.input + PIECE;
    this.scratch = this.output + (PIECE + 1) * 8;
    this.grow(this.scratch);

    const memory = this.exports.memory.buffer;
    const bytes = new Uint8Array(memory);
    bytes.set(tables.wordClass, offset('CLASS'));
    bytes.set(tables.lower, offset('LOWER'));
    const records = tables.punctuation;
    if (records.length > offset('PUNCT_RECORDS')) throw new Error('Too many punctuation anchors for the anchor pass.');
    const index = new Uint32Array(256);
    const view = new DataView(memory);
    records.forEach(([sequence, groups], record) => {
      const first = sequence[0]!;
      if (index[first] === 0) index[first] = record << 8;
      else if ((index[first]! >>> 8) + (index[first]! & 0xff) !== record)
        throw new Error('Punctuation anchors of one first byte must be together.');
      index[first]! += 1;
      const base = offset('PUNCT') + record * 16;
      bytes.set(sequence.subarray(0, 11), base);
      bytes[base + 11] = sequence.length;
      view.setUint32(base + 12, groups, true);
    });
    const words = (name: string, values: Uint32Array) => {
      new Uint32Array(memory, offset(name), values.length).set(values);
    };
    words('PUNCT_INDEX', index);
    words('SHAPES', tables.shapes);
    words('WORDS_ALL', tables.wordsAll);
    words('WORDS_SCRIPT', tables.wordsScript);
    words('PREFIX_2', tables.prefix2);
    words('PREFIX_4', tables.prefix4);
    words('DOT_WORDS', tables.dotWords);
    this.exports.configure(tables.hidden);
  }

  /**
   * The lines of `bytes` (separated by 0x0A): each line's end offset and groups, as pairs. `bytes` must hold at most
   * PIECE bytes or a single line.
   */
  lines(bytes: Uint8Array, forScript: boolean): Uint32Array {
    const alone = bytes.length > PIECE;
    const at = alone ? this.scratch : this.input;
    const out = alone ? this.scratch + bytes.length + ((8 - (bytes.length % 8)) % 8) : this.output;
    if (alone) this.grow(out + 8);
    return this.read(bytes, at, forScript, out);
  }

  /** The groups of one line's bytes (holding no 0x0A). */
  line(bytes: Uint8Array, forScript: boolean): number {
    const out = this.scratch + bytes.length + ((8 - (bytes.length % 8)) % 8);
    this.grow(out + 8);
    return this.read(bytes, this.scratch, forScript, out)[1]!;
  }

  private read(bytes: Uint8Array, at: number, forScript: boolean, out: number): Uint32Array {
    new Uint8Array(this.exports.memory.buffer, at, bytes.length).set(bytes);
    const count = this.exports.anchor(at, bytes.length, forScript ? 1 : 0, out);
    // A copy: whoever takes the lines may read another line (and so this memory) before they are all handed over.
    return new Uint32Array(this.exports.memory.buffer, out, count * 2).slice();
  }

  private grow(bytes: number): void {
    const missing = bytes - this.exports.memory.buffer.byteLength;
    if (missing > 0) this.exports.memory.grow(Math.ceil(missing / PAGE));
  }
}
