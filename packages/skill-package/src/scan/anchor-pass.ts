/**
 * The anchor pass compiled to WebAssembly (assembly/anchors.ts, built into wasm/anchors.wasm by `npm run build`):
 * loads it once per thread, fills its tables, and reads byte ranges through its linear memory. prefilter.ts builds
 * the tables from the rules' records (catalogue.ts); this module only moves bytes in and lines out.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The tables of the pass, as prefilter.ts builds them. */
export interface AnchorTables {
  /** Byte classes: 1 word character, 2 punctuation, 3 lead byte of an invisible character, 4 line end, 5 quote. */
  wordClass: Uint8Array;
  lower: Uint8Array;
  /** Byte classes for the line facts, bits as assembly/anchors.ts names them (LINE_*). */
  lineClass: Uint8Array;
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
  /** Shortest line whose base64 facts are noted, and the base64 run that makes FACT_BLOB. */
  wrappedMin: number;
  blobRun: number;
  /** The bits the caller reads the line facts in, which must be those the pass writes. */
  facts: LineFacts;
}

/** Facts of a line the pass notes beside its groups (in a word of their own). */
export interface LineFacts {
  /** A run of `blobRun` base64 characters or more. */
  blob: number;
  /** `wrappedMin` bytes or more, every one base64, `=` or `\r`. */
  base64: number;
  /** A script line that starts like a shell assignment. */
  assigns: number;
  /** A script line whose first bytes rule out a comment or docstring. */
  code: number;
  /** A pair of empty quotes between word characters. */
  emptyQuotes: number;
  /** A `$`. */
  dollar: number;
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
  configure(hidden: number, wrappedMin: number, blobRun: number): void;
  anchor(input: number, length: number, forScript: number, out: number): number;
}

/** Bytes read at once: a block is read in pieces of whole lines no longer than this (but one longer line whole). */
export const PIECE = 64 * 1024;
const PAGE = 65536;
const BUILD = new URL('../../wasm/anchors.wasm', import.meta.url);

/** Views of the pass's memory, made again whenever it grows (growing detaches the old ones). */
interface Views {
  bytes: Buffer;
  words: Uint32Array;
}

/** Bytes the pass writes per line: its end, its groups, its groups read as prose, its facts (u32 each). */
export const RECORD = 16;

/** Rounds up to the next multiple of 8, where the pass writes lines. */
function align(offset: number): number {
  return (offset + 7) & ~7;
}

export class AnchorPass {
  private readonly exports: Exports;
  private readonly input: number;
  private readonly output: number;
  /** Where a line longer than PIECE, or a text read alone, is read; memory grows past it as needed. */
  private readonly scratch: number;
  private views: Views;

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
    this.scratch = this.output + (PIECE + 1) * RECORD;
    this.views = this.viewsOf();
    this.grow(this.scratch);

    const { bytes, words } = this.views;
    bytes.set(tables.wordClass, offset('CLASS'));
    bytes.set(tables.lower, offset('LOWER'));
    bytes.set(tables.lineClass, offset('LINE_CLASS'));
    const records = tables.punctuation;
    if (records.length > offset('PUNCT_RECORDS')) throw new Error('Too many punctuation anchors for the anchor pass.');
    const index = new Uint32Array(256);
    records.forEach(([sequence, groups], record) => {
      const first = sequence[0]!;
      if (index[first] === 0) index[first] = record << 8;
      else if ((index[first]! >>> 8) + (index[first]! & 0xff) !== record)
        throw new Error('Punctuation anchors of one first byte must be together.');
      index[first]! += 1;
      const base = offset('PUNCT') + record * 16;
      bytes.set(sequence.subarray(0, 11), base);
      bytes[base + 11] = sequence.length;
      words[(base + 12) >>> 2] = groups;
    });
    words.set(index, offset('PUNCT_INDEX') >>> 2);
    words.set(tables.shapes, offset('SHAPES') >>> 2);
    words.set(tables.wordsAll, offset('WORDS_ALL') >>> 2);
    words.set(tables.wordsScript, offset('WORDS_SCRIPT') >>> 2);
    words.set(tables.prefix2, offset('PREFIX_2') >>> 2);
    words.set(tables.prefix4, offset('PREFIX_4') >>> 2);
    words.set(tables.dotWords, offset('DOT_WORDS') >>> 2);
    this.exports.configure(tables.hidden, tables.wrappedMin, tables.blobRun);
    const { facts } = tables;
    if (
      facts.blob !== offset('FACT_BLOB') ||
      facts.base64 !== offset('FACT_BASE64') ||
      facts.assigns !== offset('FACT_ASSIGNS') ||
      facts.code !== offset('FACT_CODE') ||
      facts.emptyQuotes !== offset('FACT_EMPTY_QUOTES') ||
      facts.dollar !== offset('FACT_DOLLAR')
    )
      throw new Error('The anchor pass notes line facts in other bits than its caller reads.');
  }

  /**
   * The lines of `bytes` (separated by 0x0A), RECORD bytes each: the line's end offset, its groups, the groups of its
   * words read as prose (with instruction words, in a script too), and its facts (LineFacts). `bytes` must hold at
   * most PIECE bytes or a single line.
   */
  lines(bytes: Uint8Array, forScript: boolean): Uint32Array {
    const alone = bytes.length > PIECE;
    const at = alone ? this.scratch : this.input;
    const out = alone ? align(this.scratch + bytes.length) : this.output;
    if (alone) this.grow(out + RECORD);
    this.views.bytes.set(bytes, at);
    const count = this.exports.anchor(at, bytes.length, forScript ? 1 : 0, out);
    // A copy: whoever takes the lines may read another line (and so this memory) before they are all handed over.
    return this.views.words.slice(out >>> 2, (out >>> 2) + (count * RECORD) / 4);
  }

  /**
   * The groups of a text's anchors, read as one line (a line end in it separates words as a space does); the text is
   * written straight into the pass's memory.
   */
  text(raw: string, forScript: boolean): number {
    // One line, so one record: line ends become spaces, which no anchor holds either.
    const text = raw.includes('\n') ? raw.replace(/\n/g, ' ') : raw;
    // UTF-8 takes at most three bytes for each UTF-16 code unit.
    this.grow(align(this.scratch + text.length * 3) + RECORD);
    const length = this.views.bytes.write(text, this.scratch, 'utf8');
    const out = align(this.scratch + length);
    this.exports.anchor(this.scratch, length, forScript ? 1 : 0, out);
    return this.views.words[(out >>> 2) + 1]!;
  }

  private viewsOf(): Views {
    const { buffer } = this.exports.memory;
    return { bytes: Buffer.from(buffer), words: new Uint32Array(buffer) };
  }

  private grow(bytes: number): void {
    // The views' length, not the memory's: reading `memory.buffer` costs more than the pass over a short line.
    const missing = bytes - this.views.bytes.length;
    if (missing <= 0) return;
    this.exports.memory.grow(Math.ceil(missing / PAGE));
    this.views = this.viewsOf();
  }
}
