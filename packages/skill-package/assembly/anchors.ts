/**
 * The scanner's anchor pass (src/scan/prefilter.ts explains it; the anchors and their groups are the rules' records in
 * src/scan/catalogue.ts), compiled to WebAssembly with AssemblyScript: it reads every byte of every text file, and the
 * same loop in JavaScript made the scan of public skill collections about a fifth slower (docs/performance.md, "The
 * anchor pass in WebAssembly").
 *
 * Linear memory holds the tables prefilter.ts builds from the records and fills once (at the offsets exported below),
 * then the bytes to read and the lines found, at offsets the caller chooses. Nothing here knows a rule or a group:
 * groups are bits the tables hold. Nothing here allocates.
 */

/**
 * Byte classes (u8 × 256): 0 nothing, 1 word character, 2 punctuation, 3 a lead byte of an invisible character, 4 a line
 * end, 5 a quote.
 */
export const CLASS: usize = 0;
/** Lower case of word characters (u8 × 256). */
export const LOWER: usize = 256;
/** Byte classes for the line facts (u8 × 256), bits LINE_*. */
export const LINE_CLASS: usize = 512;
/** Punctuation sequences: for each first byte, its first record and how many (u32 × 256: first << 8 | count). */
export const PUNCT_INDEX: usize = 768;
/** Records of 16 bytes: up to 11 bytes of the sequence, its length (u8 at 11), its groups (u32 at 12). */
export const PUNCT: usize = PUNCT_INDEX + 256 * 4;
export const PUNCT_RECORDS: usize = 64;
/** Anchor shapes: by first character and length (under 32), bits of last characters (u32 × 8192). */
export const SHAPES: usize = PUNCT + PUNCT_RECORDS * 16;
/** Groups by word hash (u32 × 65536): every anchor word, then those read in scripts only. */
export const WORDS_ALL: usize = SHAPES + 8192 * 4;
export const WORDS_SCRIPT: usize = WORDS_ALL + 65536 * 4;
/** Groups by the hash of a word's first two or four characters, and of a word right after a dot. */
export const PREFIX_2: usize = WORDS_SCRIPT + 65536 * 4;
export const PREFIX_4: usize = PREFIX_2 + 65536 * 4;
export const DOT_WORDS: usize = PREFIX_4 + 65536 * 4;
/** The first free byte: the caller's input and output go from here. */
export const TABLES_END: usize = DOT_WORDS + 65536 * 4;

// Bits of LINE_CLASS.
const LINE_BASE64: u32 = 1; // A–Z a–z 0–9 + /
const LINE_PADDING: u32 = 2; // = and \r, which may follow base64 on a line
const LINE_NAME: u32 = 4; // _ A–Z a–z 0–9, in a shell variable's name
const LINE_NAME_START: u32 = 8; // _ A–Z a–z
const LINE_PREFIX: u32 = 16; // r R u U b B, a Python string prefix
const LINE_QUOTE: u32 = 32; // " and ', which may open a docstring
const LINE_COMMENT: u32 = 64; // # and /, which may open a comment

// Facts of a line, in its fourth word.
/** The line has a run of at least `blobRun` base64 characters. */
export const FACT_BLOB: u32 = 1;
/** The line has at least `wrappedMin` bytes, every one base64, `=` or `\r`. */
export const FACT_BASE64: u32 = 2;
/** A script line that starts like a shell assignment: `NAME=`, or one word then `NAME=` (`export NAME=`). */
export const FACT_ASSIGNS: u32 = 4;
/** A script line whose first bytes rule out a comment or a docstring. */
export const FACT_CODE: u32 = 8;
/** A pair of empty quotes between word characters (`c""url`), which a shell drops. */
export const FACT_EMPTY_QUOTES: u32 = 16;
/** A `$`, where a shell variable may be expanded. */
export const FACT_DOLLAR: u32 = 32;

/** The group invisible characters name. */
let hiddenGroup: u32 = 0;
let wrappedMin: usize = 0;
let blobRun: u32 = 0;

export function configure(hidden: u32, wrapped: u32, blob: u32): void {
  hiddenGroup = hidden;
  wrappedMin = <usize>wrapped;
  blobRun = blob;
}

function lineClass(p: usize): u32 {
  return at(LINE_CLASS + at(p));
}

/**
 * Base64 facts of a line of `wrappedMin` bytes or more: whether it has a run of `blobRun` base64 bytes, and whether it
 * is base64 alone. The run is looked for by windows of `blobRun` bytes, each read from its end back to the first byte
 * that is not base64 (a run can only start after it), and no byte is read twice: a line of prose, with a space every
 * few bytes, is read a few bytes per window instead of whole. (Reading every byte of every long line was a second pass
 * over most text.)
 */
function base64Facts(start: usize, end: usize): u32 {
  let only = true;
  for (let p = start; p < end; p++) {
    if (!(lineClass(p) & (LINE_BASE64 | LINE_PADDING))) {
      only = false;
      break;
    }
  }
  const facts: u32 = only ? FACT_BASE64 : 0;
  const run = <usize>blobRun;
  if (run == 0) return facts | FACT_BLOB;
  // A run may start at `from`; the bytes in [from, known) are base64.
  let from = start;
  let known = start;
  while (from + run <= end) {
    const last = from + run - 1;
    let p = last;
    while (p >= known && lineClass(p) & LINE_BASE64) p--;
    if (p < known) return facts | FACT_BLOB;
    from = p + 1;
    known = last + 1;
  }
  return facts;
}

/** Whether a script line starts like a shell assignment (after blanks: a name and `=`, or a word, blanks, a name and `=`). */
function assigns(start: usize, end: usize): bool {
  let i = start;
  while (i < end && (at(i) == 0x20 || at(i) == 0x09)) i++;
  for (let word = 0; word < 2; word++) {
    if (i >= end || !(lineClass(i) & LINE_NAME_START)) return false;
    while (i < end && lineClass(i) & LINE_NAME) i++;
    if (i >= end) return false;
    const c = at(i);
    if (c == 0x3d) return true;
    if (c != 0x20 && c != 0x09) return false;
    while (i < end && (at(i) == 0x20 || at(i) == 0x09)) i++;
  }
  return false;
}

/**
 * Whether a script line's first bytes rule out a comment or docstring: after blanks, not `#`, `/`, a quote, or up
 * to two prefix letters and a quote (`rb"""`). Other white space (U+00A0…) is read as text, as trimStart reads it.
 */
function ruledOutComment(start: usize, end: usize): bool {
  let i = start;
  while (i < end && (at(i) == 0x20 || (at(i) >= 0x09 && at(i) <= 0x0d))) i++;
  if (i < end && at(i) >= 0x80) return false;
  let letters = 0;
  while (letters < 2 && i < end && lineClass(i) & LINE_PREFIX) {
    i++;
    letters++;
  }
  if (i < end && (lineClass(i) & LINE_QUOTE || (letters == 0 && lineClass(i) & LINE_COMMENT))) return false;
  return true;
}

function lineFacts(start: usize, end: usize, forScript: bool): u32 {
  let facts: u32 = end - start >= wrappedMin ? base64Facts(start, end) : 0;
  if (forScript) {
    if (assigns(start, end)) facts |= FACT_ASSIGNS;
    if (ruledOutComment(start, end)) facts |= FACT_CODE;
  }
  return facts;
}

function at(p: usize): u32 {
  return <u32>load<u8>(p);
}

/** Whether the quote at p, on a line from `lineStart`, is the first of an empty pair between word characters (`_` too). */
function emptyQuotesAt(p: usize, lineStart: usize, end: usize): bool {
  return p > lineStart && p + 2 < end && at(p + 1) == at(p) && (lineClass(p - 1) & LINE_NAME) != 0 && (lineClass(p + 2) & LINE_NAME) != 0;
}

function slot(h: u32): usize {
  return (<usize>((h ^ (h >>> 16)) & 0xffff)) << 2;
}

/** The groups of the first punctuation sequence of PUNCT that starts at p and ends by `end`. */
function punctuation(p: usize, end: usize, c: u32): u32 {
  const index = load<u32>(PUNCT_INDEX + ((<usize>c) << 2));
  const first = <usize>(index >>> 8);
  const count = <usize>(index & 0xff);
  for (let r: usize = first; r < first + count; r++) {
    const record = PUNCT + (r << 4);
    const length = <usize>load<u8>(record + 11);
    if (p + length > end) continue;
    let k: usize = 1;
    while (k < length && load<u8>(p + k) == load<u8>(record + k)) k++;
    if (k == length) return load<u32>(record + 12);
  }
  return 0;
}

/**
 * Whether the UTF-8 sequence at p is an invisible character: U+200B–U+200F, U+202A–U+202E, U+2060–U+2064,
 * U+2066–U+2069, U+180E, U+FEFF, or a tag character (U+E0000–U+E007F).
 */
function invisibleAt(p: usize, end: usize): bool {
  const lead = at(p);
  const x: u32 = p + 1 < end ? at(p + 1) : 0;
  const y: u32 = p + 2 < end ? at(p + 2) : 0;
  if (lead == 0xe2) {
    if (x == 0x80) return (y >= 0x8b && y <= 0x8f) || (y >= 0xaa && y <= 0xae);
    if (x == 0x81) return (y >= 0xa0 && y <= 0xa4) || (y >= 0xa6 && y <= 0xa9);
    return false;
  }
  if (lead == 0xef) return x == 0xbb && y == 0xbf;
  if (lead == 0xe1) return x == 0xa0 && y == 0x8e;
  return x == 0xa0 && (y == 0x80 || y == 0x81);
}

/**
 * Reads the `length` bytes at `input` (lines separated by 0x0A) and writes, for each line, four u32 at `out`: the
 * offset of its end, the groups its anchors name, the groups its words name read as prose, and its facts (FACT_*);
 * returns the number of lines. `forScript` leaves out the instruction words from the second and notes the facts only
 * scripts need. (The third is what a script's comment is read for: its lines' own words, so that a block of comments
 * need not be read again once joined.)
 */
export function anchor(input: usize, length: usize, forScript: bool, out: usize): u32 {
  const words: usize = forScript ? WORDS_SCRIPT : WORDS_ALL;
  const end = input + length;
  let lines: usize = 0;
  let groups: u32 = 0;
  let prose: u32 = 0;
  let quotes: u32 = 0;
  let dollar: u32 = 0;
  let lineStart = input;
  let i = input;
  while (i < end) {
    const c = at(i);
    const cls = at(CLASS + c);
    if (cls == 0) {
      i++;
      continue;
    }
    if (cls == 1) {
      // A whole word at once; it is hashed only if an anchor starts with its first character and has its length.
      const wordStart = i;
      i++;
      // Sixteen bytes at a time: words are mostly a few bytes long, and the vector finds the end in one step.
      while (i + 16 <= end) {
        const v = v128.load(i);
        const lowered = v128.or(v, i8x16.splat(0x20));
        const letter = i8x16.lt_u(i8x16.sub(lowered, i8x16.splat(0x61)), i8x16.splat(26));
        const digit = i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x30)), i8x16.splat(10));
        const others = ~i8x16.bitmask(v128.or(letter, digit)) & 0xffff;
        if (others != 0) {
          i += <usize>ctz(others);
          break;
        }
        i += 16;
      }
      if (i + 16 > end) while (i < end && at(CLASS + at(i)) == 1) i++;
      const size = <u32>(i - wordStart);
      const first = at(LOWER + c);
      if (size < 32 && (load<u32>(SHAPES + ((<usize>((first << 5) | size)) << 2)) & ((<u32>1) << (at(LOWER + at(i - 1)) & 31))) != 0) {
        let h: u32 = 0x811c9dc5;
        for (let k = wordStart; k < i; k++) h = (h ^ at(LOWER + at(k))) * 0x01000193;
        const s = slot(h);
        groups |= load<u32>(words + s);
        prose |= load<u32>(WORDS_ALL + s);
        if (wordStart > input && at(wordStart - 1) == 0x2e) groups |= load<u32>(DOT_WORDS + s);
      }
      // Only words starting with `a` (access keys) or `0` (0x names) have prefix anchors.
      if ((first == 0x61 || first == 0x30) && size >= 2) {
        let h: u32 = (0x811c9dc5 ^ first) * 0x01000193;
        h = (h ^ at(LOWER + at(wordStart + 1))) * 0x01000193;
        groups |= load<u32>(PREFIX_2 + slot(h));
        if (size >= 4) {
          h = (h ^ at(LOWER + at(wordStart + 2))) * 0x01000193;
          h = (h ^ at(LOWER + at(wordStart + 3))) * 0x01000193;
          groups |= load<u32>(PREFIX_4 + slot(h));
        }
      }
      continue;
    }
    if (cls == 4) {
      const record = out + lines * 16;
      store<u32>(record, <u32>(i - input));
      store<u32>(record + 4, groups);
      store<u32>(record + 8, prose);
      store<u32>(record + 12, lineFacts(lineStart, i, forScript) | quotes | dollar);
      lines++;
      groups = 0;
      prose = 0;
      quotes = 0;
      dollar = 0;
      lineStart = i + 1;
    } else if (cls == 2) {
      groups |= punctuation(i, end, c);
      if (c == 0x24) dollar = FACT_DOLLAR;
    } else if (cls == 5) {
      if (emptyQuotesAt(i, lineStart, end)) quotes = FACT_EMPTY_QUOTES;
    } else if (invisibleAt(i, end)) groups |= hiddenGroup;
    i++;
  }
  const record = out + lines * 16;
  store<u32>(record, <u32>length);
  store<u32>(record + 4, groups);
  store<u32>(record + 8, prose);
  store<u32>(record + 12, lineFacts(lineStart, end, forScript) | quotes | dollar);
  return <u32>lines + 1;
}
