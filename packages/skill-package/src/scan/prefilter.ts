/**
 * The cheap test every line passes before the rules read it: one pass over the characters of a block of lines
 * that splits it into words and looks each word up in a small hash table of anchors — words (and a few
 * character sequences) without which no rule of a group can match. A line is read only by the rule groups its
 * anchors name; a line without an anchor costs its characters and nothing more.
 *
 * Words are runs of ASCII letters and digits, compared in lower case: whole (`curl`), by their first two or four
 * characters (`akia…` access keys, `0x…` obfuscated names), or right after a dot (`~/.ssh`, `os.environ`).
 * The table is indexed by a 16-bit hash: a collision only makes a line be read needlessly, never skipped.
 * Punctuation anchors (`|`, `$(`, `<!--`, `://`, `/dev/`…) are checked where their first character appears, and
 * invisible characters are recognised by code point. The anchors and their groups are the rules' records'
 * (catalogue.ts); the tables are built from them here. The pass itself runs in WebAssembly (assembly/anchors.ts).
 */
import { AnchorPass, PIECE, type AnchorTables, type LineFacts } from './anchor-pass.js';
import { ANCHOR_SETS } from './catalogue.js';

/** The anchor sets' words of one kind, each with the groups it names. */
function anchorsOf(kind: 'words' | 'proseWords' | 'prefixes' | 'afterDot' | 'punctuation'): [string[], number][] {
  return ANCHOR_SETS.map(({ anchors, groups }): [string[], number] => [[...(anchors[kind] ?? [])], groups]);
}

const SLOTS = 1 << 16;

function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) & (SLOTS - 1);
}

/** A table of groups by word hash: a collision only makes a line be read needlessly, never skipped. */
function table(sets: [string[], number][]): Uint32Array {
  const out = new Uint32Array(SLOTS);
  for (const [words, groups] of sets) for (const w of words) out[hashWord(w)]! |= groups;
  return out;
}

/** Bits of the line facts' byte classes, as assembly/anchors.ts reads them (LINE_*). */
const LINE = { base64: 1, padding: 2, name: 4, nameStart: 8, prefix: 16, quote: 32, comment: 64 } as const;

/** Lines this long or longer are checked for wrapped base64 (rules-hidden.ts). */
export const WRAPPED_MIN = 60;
/** The shortest base64 run reported as a blob (rules-hidden.ts). */
export const BLOB_RUN = 200;

/** The tables the anchor pass reads. */
function tables(): AnchorTables {
  const wordClass = new Uint8Array(256);
  const lower = new Uint8Array(256);
  // Word characters are ASCII letters and digits; `_` separates words, so `MY_AWS_KEY` holds `aws` and
  // `authorized_keys` holds `authorized`. Non-ASCII letters end words.
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[A-Za-z0-9]/.test(ch)) {
      wordClass[c] = 1;
      lower[c] = ch.toLowerCase().charCodeAt(0);
    }
  }
  wordClass[0x0a] = 4;
  wordClass[0x22] = 5;
  wordClass[0x27] = 5;
  const lineClass = new Uint8Array(256);
  const mark = (chars: string, bit: number) => {
    for (const ch of chars) lineClass[ch.charCodeAt(0)]! |= bit;
  };
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  mark(`${letters}0123456789+/`, LINE.base64);
  mark('=\r', LINE.padding);
  mark(`_${letters}0123456789`, LINE.name);
  mark(`_${letters}`, LINE.nameStart);
  mark('rRuUbB', LINE.prefix);
  mark('"\'', LINE.quote);
  mark('#/', LINE.comment);
  // Lead bytes of the invisible characters: U+180E, U+200B…U+2069, U+FEFF, the tags.
  for (const lead of [0xe1, 0xe2, 0xef, 0xf3]) wordClass[lead] = 3;
  // Sequences of one first character together, the longest first: where one starts another (``` and `), the
  // longer counts. A sequence several sets name names all their groups.
  const sequences = new Map<string, number>();
  for (const [list, groups] of anchorsOf('punctuation'))
    for (const sequence of list) sequences.set(sequence, (sequences.get(sequence) ?? 0) | groups);
  const punctuation = [...sequences]
    .sort(([a], [b]) => a.charCodeAt(0) - b.charCodeAt(0) || b.length - a.length)
    .map(([sequence, groups]): [Uint8Array, number] => [Buffer.from(sequence, 'latin1'), groups]);
  for (const [sequence] of punctuation) wordClass[sequence[0]!] = 2;
  const scriptWords = anchorsOf('words');
  const allWords = [...scriptWords, ...anchorsOf('proseWords')];
  const afterDot = anchorsOf('afterDot');
  const prefixes = anchorsOf('prefixes');
  // The shapes of the anchor words, so a word that no anchor could be is skipped without hashing it: indexed by
  // its first character and its length (under 32), the last characters (bit: code & 31) of the anchors of that shape.
  const shapes = new Uint32Array(256 * 32);
  for (const [ws] of [...allWords, ...afterDot])
    for (const w of ws) if (w.length < 32) shapes[(w.charCodeAt(0) << 5) | w.length]! |= 1 << (w.charCodeAt(w.length - 1) & 31);
  return {
    wordClass,
    lower,
    lineClass,
    punctuation,
    shapes,
    wordsAll: table(allWords),
    wordsScript: table(scriptWords),
    prefix2: table(prefixes.map(([ws, g]) => [ws.filter((w) => w.length === 2), g])),
    prefix4: table(prefixes.map(([ws, g]) => [ws.filter((w) => w.length === 4), g])),
    dotWords: table(afterDot),
    hidden: ANCHOR_SETS.reduce((bits, { anchors, groups }) => (anchors.invisible === true ? bits | groups : bits), 0),
    wrappedMin: WRAPPED_MIN,
    blobRun: BLOB_RUN,
    facts: FACTS,
  };
}

/** Loaded on first use: a registry that scans on worker threads never loads it on the thread serving requests. */
let loaded: AnchorPass | null = null;

function pass(): AnchorPass {
  loaded ??= new AnchorPass(tables());
  return loaded;
}

/** What the anchor pass notes of each line beside its groups, as bits of the `facts` given to LineSink.line. */
export const FACTS: LineFacts = { blob: 1, base64: 2, assigns: 4, code: 8, emptyQuotes: 16, dollar: 32 };

export interface LineSink {
  /**
   * Line `line` spans bytes[start, end), its anchors name `groups` (0: none), and `facts` (FACTS) hold of it. `prose`:
   * the groups its words name read as prose, instruction words included even in a script (to be or'd with `groups`).
   */
  line(start: number, end: number, line: number, groups: number, facts: number, prose: number): void;
}

/**
 * Splits bytes[start, end) (whole lines separated by 0x0A) into lines and calls `sink.line` for each with the
 * groups its anchors name and the facts that hold of it; returns the number of lines. `forScript` leaves out the instruction words, which only
 * prose is read for.
 */
export function anchorLines(b: Uint8Array, start: number, end: number, firstLine: number, forScript: boolean, sink: LineSink): number {
  let line = firstLine;
  let at = start;
  for (;;) {
    // A piece ends at a line end: the last one within PIECE bytes, or else the first one after (a single long line).
    let pieceEnd = end;
    if (end - at > PIECE) {
      const last = b.lastIndexOf(0x0a, at + PIECE - 1);
      pieceEnd = last >= at ? last : b.indexOf(0x0a, at + PIECE);
      if (pieceEnd === -1 || pieceEnd > end) pieceEnd = end;
    }
    const found = pass().lines(b.subarray(at, pieceEnd), forScript);
    let lineStart = at;
    for (let k = 0; k < found.length; k += 4) {
      const lineEnd = at + found[k]!;
      sink.line(lineStart, lineEnd, line, found[k + 1]!, found[k + 3]!, found[k + 2]!);
      lineStart = lineEnd + 1;
      line += 1;
    }
    if (pieceEnd >= end) return line - firstLine;
    at = pieceEnd + 1;
  }
}

/** The groups a text's anchors name, read as one line (line ends in it separate words as spaces do). */
export function groupsOfLine(text: string, forScript: boolean): number {
  return pass().text(text, forScript);
}
