/**
 * Reads one file as it streams by. The first HEAD_BYTES decide what it is (magic.ts): executables are reported
 * whole and, like other binary data, not read further; an archive is kept (within NESTED_CAPTURE_TOTAL for the
 * package) and handed to the package scanner, which has it opened; text is decoded as UTF-8 (invalid bytes
 * become U+FFFD, so nothing stops the reading) and split into lines (lines.ts). A block of lines is searched once
 * with the prefilter; only lines with a hit (or inside a Markdown comment, or asked for by a rule) are given to
 * the rules, in the context their file kind and Markdown position give them.
 */
import { isAscii } from 'node:buffer';
import { commentsWithHash, fileKind } from './file-kind.js';
import type { FileKind, FileState, LineInput } from './file-state.js';
import type { FindingSink, Hit } from './findings.js';
import { LINE_CAP, LineSplitter, WINDOW_OVERLAP, type LineReader } from './lines.js';
import { HEAD_BYTES, sniff, type NestedFormat } from './magic.js';
import { MarkdownContext, type ClosedComment } from './markdown.js';
import { ALL_GROUPS, G, MARKS } from './catalogue.js';
import { anchorLines, BLOB_RUN, FACTS, groupsOfLine, type LineSink } from './prefilter.js';
import { ProseBlocks } from './prose-blocks.js';
import { AGENT_GROUPS, agentGroupsThatAct, scanAgent } from './rules-agent.js';
import { commandGroupsThatAct, finishCommands, scanCommands } from './rules-command.js';
import { MINIFIED_LINE, reportLongLine, scanPacked } from './rules-executable.js';
import {
  finishWrappedBase64,
  scanBlobs,
  scanComment,
  scanInvisible,
  scanWrappedBase64,
  trackPem,
  withoutInvisible,
  type WrappedRun,
} from './rules-hidden.js';
import { finishSecrets, scanSecrets } from './rules-secret.js';
import type { UrlCollector } from './rules-url.js';
import type { Context } from './severity.js';
import { ShellVariables } from './shell-variables.js';
import { FLOW_TEXT_CAP } from './behaviour/flow.js';
import { judgeCode, judgeProse } from './behaviour/judgements.js';
import type { ModuleLinks } from './behaviour/modules.js';
import { STARTUP_DEFINITION_FILE, unitsOf } from './behaviour/units.js';

/**
 * Bytes of archives inside one package kept at once for opening: each is opened and let go before the next level
 * of nesting is read, and one larger than this is reported unopened.
 */
export const NESTED_CAPTURE_TOTAL = 16 * 1024 * 1024;

/** An archive found inside the package, as its file's scanner kept it. */
export interface FoundArchive {
  path: string;
  /** What it is, for messages: `a zip archive`. */
  what: string;
  opens: NestedFormat | null;
  /** Its bytes, or null when they did not fit what is left of NESTED_CAPTURE_TOTAL. */
  bytes: Buffer | null;
  /** Its first bytes, as an excerpt. */
  shown: string;
}

/** Where a file's scanner hands an archive it found, and the package's capture allowance it keeps it within. */
export interface ArchiveKeeper {
  capture: { left: number };
  found(archive: FoundArchive): void;
}

/**
 * Bytes of text one package may have judged for behaviour (behaviour/): about 150 ms a MiB, where the largest public
 * skill holds 1.8 MiB of text. Text past it is still read by the line rules, and the file says it was not judged.
 */
export const JUDGED_TOTAL = 16 * 1024 * 1024;
/** A notebook is JSON, judged whole: one larger than this (outputs, images) is judged no further. */
const NOTEBOOK_CAP = 8 * 1024 * 1024;
const NOTEBOOK = /\.ipynb$/i;

/** The first bytes of a binary file as an excerpt: printable ASCII as is, other bytes as `\xNN`. */
function headBytes(head: Uint8Array): string {
  let out = '';
  for (const byte of head.subarray(0, 16))
    out += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  return out;
}

/**
 * UTF-16's byte order, from a byte order mark or, for a file that runs (`guess`), from its first bytes: ASCII text in
 * UTF-16 has a zero in every other byte.
 */
function utf16Order(head: Uint8Array, guess = false): 'le' | 'be' | null {
  if (head[0] === 0xff && head[1] === 0xfe) return 'le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'be';
  if (!guess || head.length < 8) return null;
  const n = Math.min(head.length - (head.length % 2), 256);
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  if (oddZero >= (n / 2) * 0.9 && evenZero === 0) return 'le';
  if (evenZero >= (n / 2) * 0.9 && oddZero === 0) return 'be';
  return null;
}

/** UTF-32's byte order, from its byte order mark (checked before UTF-16's, whose little-endian mark starts it). */
function utf32Order(head: Uint8Array): 'le' | 'be' | null {
  if (head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0) return 'le';
  if (head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff) return 'be';
  return null;
}

/** UTF-32 text after its mark, decoded; a code point past Unicode's becomes U+FFFD. */
function utf32Text(bytes: Buffer, order: 'le' | 'be'): string {
  const out: string[] = [];
  for (let at = 4; at + 4 <= bytes.length; at += 4) {
    const code = order === 'le' ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
    out.push(code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd');
  }
  return out.join('');
}

/** The bytes without their NULs, as a shell reads a script. */
function withoutNuls(bytes: Buffer): Buffer {
  return bytes.includes(0) ? Buffer.from(bytes.filter((byte) => byte !== 0)) : bytes;
}

/**
 * Text with NUL bytes slipped in (a script still runs: shells skip them), rather than binary data named like a
 * script: at most a quarter of its first bytes.
 */
function someNuls(head: Uint8Array): boolean {
  let nuls = 0;
  for (const byte of head) if (byte === 0) nuls++;
  return nuls * 4 <= head.length;
}

/** A UTF-16 byte order mark before bytes that are not UTF-16 (no NUL among them): plain text that editors show as noise. */
function markOnText(head: Uint8Array): boolean {
  if (utf16Order(head) === null) return false;
  const rest = head.subarray(2, 258);
  return rest.length > 0 && !rest.includes(0);
}

/** Names that promise anything but a program: an executable under one of them is disguised. */
const DISGUISE =
  /\.(?:png|jpe?g|gif|ico|icns|svg|webp|bmp|tiff?|ttf|otf|woff2?|eot|csv|tsv|txt|md|json|ya?ml|toml|xml|html?|css|py|js|mjs|ts|sh|rb|pl|pdf|docx?|xlsx?|pptx?|mp3|mp4|wav|ogg|zip)$/i;

/** A character of a Latin-1 text over 0x7F: a byte that is part of a UTF-8 sequence, or invalid. */
const OTHER_BYTES = /[\x80-\xff]/;
/**
 * Lines with such bytes decoded one by one in a block before the rest of it is decoded at once. Public skills have a
 * few in a block (an accent, a dash, an emoji): decoding whole blocks for them made reading lines' text 8.6% of the
 * scan, 5.6% this way. A text with some on every line (invisible characters between letters) took up to twice as long
 * one line at a time.
 */
const WIDE_LINES = 16;

/** The facts a text the anchor pass did not note (a window of a long line) is read with: all of them. */
const UNKNOWN_FACTS = FACTS.blob | FACTS.base64 | FACTS.assigns | FACTS.code | FACTS.emptyQuotes | FACTS.dollar;

/** The groups that start rules; a line whose anchors name none of them, only marks, has nothing for a rule to find. */
const RULE_GROUPS = ALL_GROUPS & ~MARKS;

/** Longest script line an assignment is read from when no rule reads the line. */
const ASSIGNMENT_LINE = 512;

/** Longest continued command carried to its next line. */
const CONTINUED_CAP = 4096;

/** An empty pair of quotes between word characters, which a shell drops. */
const EMPTY_QUOTES = /(?<=\w)(?:""|'')(?=\w)/g;

/** A character of `\w`: ASCII letters, digits and `_` (NaN, before the start or past the end, is none). */
function isWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

const EMPTY_PAIRS = ['""', "''"] as const;

/**
 * The groups a window of a long line is read for: those its own anchors name. A window is read as text of its own,
 * so what a rule finds in it lies in it, anchors included; reading every window for every group made a megabyte line
 * of URLs to different hosts cost 130 ms. Instruction words count in a script's windows too (a minified script's
 * long line holds its strings), as they did when every window was read for every group.
 */
function windowGroups(text: string): number {
  return groupsOfLine(text, false);
}

/** Whether a line is a `#` comment from its first character that is not a blank. */
function isHashComment(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09) return code === 0x23;
  }
  return false;
}

/** Whether EMPTY_QUOTES matches `text`, found without running it: most lines have no empty quotes, or none inside a word. */
function hasEmptyQuotes(text: string): boolean {
  for (const pair of EMPTY_PAIRS)
    for (let at = text.indexOf(pair); at !== -1; at = text.indexOf(pair, at + 1))
      if (isWordCode(text.charCodeAt(at - 1)) && isWordCode(text.charCodeAt(at + 2))) return true;
  return false;
}

/** The line being decided on, as Latin-1 text of its block: sliced only when a rule's gate reads it. */
class LatinLine {
  block = '';
  start = 0;
  end = 0;

  get text(): string {
    return this.block.slice(this.start, this.end);
  }
}

export class FileScanner implements FileState, LineReader, LineSink {
  kind: FileKind = 'text';
  /** Whether a script line that starts with `#` is a comment, which runs nothing (file-kind.ts). */
  private hashComments = false;
  readonly facts = new Map<string, number>();
  readonly factTexts = new Map<string, string>();
  examineNext = false;
  private head: Buffer[] = [];
  private headLength = 0;
  private state: 'head' | 'text' | 'skip' | 'archive' | 'utf16' = 'head';
  /** A script with NUL bytes, read without them as its shell reads it. */
  private nuls = false;
  /**
   * The text not yet judged for behaviour (behaviour/), judged in pieces of FLOW_TEXT_CAP bytes cut at a line end (a
   * notebook whole), and what is left at the file's end; a UTF-16 file's bytes until decoded.
   */
  private whole: Buffer[] = [];
  private wholeLength = 0;
  /** The file's line the text kept in `whole` starts on. */
  private wholeLine = 1;
  /** Whether the file's text is judged: scripts, Markdown and notebooks; until the package's allowance runs out. */
  private judged = true;
  /** An archive's bytes as they arrive (null once they outgrow the capture allowance), with what it is. */
  private archive: { what: string; opens: NestedFormat | null; shown: string; chunks: Buffer[] | null; length: number } | null = null;
  private readonly splitter = new LineSplitter(this);
  private markdown: MarkdownContext | null = null;
  private prose: ProseBlocks | null = null;
  private blockBytes: Buffer = Buffer.alloc(0);
  /**
   * The block's bytes as Latin-1 text, one character per byte, made at once: a line without bytes over 0x7F (most
   * lines, even in a block with some) is then a slice of it, which costs far less than decoding each line the rules
   * read on its own.
   */
  private blockLatin = '';
  private blockAscii = true;
  private blockStart = 0;
  private blockEnd = 0;
  /** Lines of the block with other bytes, decoded one by one so far. */
  private wideLines = 0;
  /**
   * Past WIDE_LINES such lines, the rest of the block decoded as UTF-8 at once, from the line `cursorLine` that made it
   * so; its lines are found by their line ends, with `cursorChar` where the line last read starts. A line end is the
   * same byte and the same character in both, since 0x0A never sits inside a UTF-8 sequence and an invalid byte becomes
   * one U+FFFD without taking a line end with it.
   */
  private blockText: string | null = null;
  private cursorLine = 0;
  private cursorChar = 0;
  private readonly latinLine = new LatinLine();
  /** Where the Markdown reader hands each comment once it closes. */
  private readonly commentClosed = (comment: ClosedComment): void => scanComment(comment, this);
  private readonly pendingKey: { key: { line: number; text: string; index: number } | null } = { key: null };
  private readonly wrapped: WrappedRun = { run: 0, start: 0, text: '', body: '' };
  private lastInput: LineInput | null = null;
  /** The start of a command continued with a trailing backslash (capped). */
  private continued = '';
  /** A script's literal shell variables, to read commands assembled from them as they run. */
  private readonly variables = new ShellVariables();

  constructor(
    readonly path: string,
    private readonly sink: FindingSink,
    private readonly urls: UrlCollector,
    private readonly keeper: ArchiveKeeper,
    /** What is left of the package's JUDGED_TOTAL. */
    private readonly judging: { left: number } = { left: JUDGED_TOTAL },
    /** What the package's files export that sends, and pass to each other (behaviour/modules.ts). */
    private readonly links?: ModuleLinks,
  ) {}

  report(hit: Hit): void {
    this.sink.add(this.path, hit);
  }

  private get baseContext(): Context {
    return this.kind === 'script' ? 'script' : 'prose';
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0 || this.state === 'skip') return;
    if (this.state === 'archive') {
      this.keep(Buffer.from(chunk));
      return;
    }
    if (this.state === 'text' || this.state === 'utf16') {
      const given = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const bytes = this.nuls ? withoutNuls(given) : given;
      this.keepWhole(bytes);
      if (this.state === 'text') this.splitter.push(bytes);
      return;
    }
    // A first chunk that holds the whole head is decided on as it is: copying it to keep it (and again to join it)
    // copied most of a text file's first 64 KiB piece twice, and decide() keeps nothing of it but an archive's bytes.
    if (this.headLength === 0 && chunk.length >= HEAD_BYTES) {
      this.decide(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), true);
      return;
    }
    this.head.push(Buffer.from(chunk));
    this.headLength += chunk.length;
    if (this.headLength >= HEAD_BYTES) this.decide(Buffer.concat(this.head), false);
  }

  end(): void {
    if (this.state === 'head') this.decide(Buffer.concat(this.head), false);
    if (this.state === 'utf16') {
      // Decoded whole (within FLOW_TEXT_CAP) and read as the text it is.
      const bytes = Buffer.concat(this.whole, this.wholeLength);
      this.whole = [];
      this.wholeLength = 0;
      const wide = utf32Order(bytes);
      const order = utf16Order(bytes) ?? utf16Order(bytes, true);
      const body = utf16Order(bytes) === null ? bytes : bytes.subarray(2);
      const even = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
      const text = wide !== null ? utf32Text(bytes, wide) : order === 'be' ? even.swap16().toString('utf16le') : even.toString('utf16le');
      if (wide !== null && fileKind(this.path, Buffer.from(text.slice(0, 2))) === 'script')
        this.wholeFile(
          'behaviour.unreadable-script',
          'high',
          headBytes(bytes),
          'This script is UTF-32: editors and review tools show it as binary, while a shell, which skips NUL bytes, runs it.',
        );
      else if (utf16Order(bytes) === null)
        this.wholeFile(
          'behaviour.unreadable-script',
          'high',
          headBytes(bytes),
          'This script is UTF-16 without a byte order mark: editors and review tools show it as binary, while its interpreter may run it.',
        );
      const utf8 = Buffer.from(text, 'utf8');
      this.readAsText(utf8);
      this.keepWhole(utf8);
    }
    const archive = this.archive;
    if (archive !== null) {
      const { what, opens, shown, chunks, length } = archive;
      this.archive = null;
      this.keeper.found({ path: this.path, what, opens, shown, bytes: chunks === null ? null : Buffer.concat(chunks, length) });
    }
    if (this.state !== 'text') return;
    this.splitter.end();
    this.prose?.end();
    finishWrappedBase64(this.input('', this.wrapped.start, this.baseContext), this.wrapped);
    const open = this.markdown?.end();
    if (open) scanComment(open, this);
    finishSecrets(this.lastInput, this.pendingKey);
    finishCommands(this, (rule, severity, line, message, text) => {
      this.report({ rule, severity, line, context: this.baseContext, text, index: 0, length: text.length, message });
    });
    if (this.judged) this.judgeWhole();
  }

  private keepWhole(bytes: Buffer): void {
    if (this.state === 'utf16') {
      // Gathered until decoded at the end, within one piece.
      const room = FLOW_TEXT_CAP - this.wholeLength;
      if (room > 0) this.keepPiece(bytes.subarray(0, room));
      return;
    }
    if (!this.judged) return;
    const notebook = NOTEBOOK.test(this.path);
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(bytes.length - at, (notebook ? NOTEBOOK_CAP : FLOW_TEXT_CAP) - this.wholeLength, this.judging.left);
      if (take <= 0) {
        this.stopJudging(
          notebook && this.judging.left > 0 ? 'it is larger than 8 MiB' : "the package's 16 MiB of text judged for behaviour were used up",
        );
        return;
      }
      this.keepPiece(bytes.subarray(at, at + take));
      this.judging.left -= take;
      at += take;
      if (!notebook && this.wholeLength >= FLOW_TEXT_CAP) this.judgePiece();
    }
  }

  private keepPiece(bytes: Buffer): void {
    this.whole.push(Buffer.from(bytes));
    this.wholeLength += bytes.length;
  }

  /** Judges the text kept so far up to its last line end, keeping the rest for the next piece. */
  private judgePiece(): void {
    const bytes = Buffer.concat(this.whole, this.wholeLength);
    const end = bytes.lastIndexOf(0x0a);
    const cut = end === -1 ? bytes.length : end + 1;
    this.whole = cut < bytes.length ? [bytes.subarray(cut)] : [];
    this.wholeLength = bytes.length - cut;
    this.judgeText(bytes.toString('utf8', 0, cut));
  }

  private stopJudging(why: string): void {
    this.judged = false;
    this.judgeWhole();
    this.wholeFile(
      'behaviour.partly-judged',
      'high',
      this.path,
      `What this file does was judged only in part: ${why}. Its lines were still read one by one.`,
    );
  }

  /** Judges what the rest of the file does: its scripts, cells and code blocks by their facts, its prose by paragraph. */
  private judgeWhole(): void {
    const text = Buffer.concat(this.whole, this.wholeLength).toString('utf8');
    this.whole = [];
    this.wholeLength = 0;
    if (text !== '') this.judgeText(text);
  }

  /** Judges `text`, which starts on the file's line `wholeLine`. Data flow is followed within a piece, not across. */
  private judgeText(text: string): void {
    const units = unitsOf(this.path, this.kind, text);
    const before = this.wholeLine - 1;
    const report = (hit: Hit) => this.report(hit);
    for (const unit of units.code) judgeCode(before === 0 ? unit : { ...unit, line: unit.line + before }, this, report, this.links);
    for (const unit of units.prose) judgeProse(before === 0 ? unit : { ...unit, line: unit.line + before }, report);
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.wholeLine++;
  }

  /** `borrowed`: `head` is the caller's bytes, which may be written again once push() returns. */
  private decide(head: Buffer, borrowed: boolean): void {
    this.head = [];
    this.headLength = 0;
    const magic = sniff(head.subarray(0, HEAD_BYTES), this.path);
    if (markOnText(head)) {
      // cmd and shells run the text after the mark; editors and review tools decode it all as UTF-16.
      this.readAsText(borrowed ? Buffer.from(head.subarray(2)) : head.subarray(2));
      if (this.kind === 'script')
        this.wholeFile(
          'behaviour.unreadable-script',
          'high',
          headBytes(head),
          'This script starts with a UTF-16 byte order mark but is not UTF-16: editors and review tools show it as noise, while its interpreter runs the text after the mark.',
        );
      this.keepWhole(head.subarray(2));
      return;
    }
    if (
      magic.kind === 'binary' &&
      (utf32Order(head) !== null ||
        utf16Order(head) !== null ||
        (fileKind(this.path, head) === 'script' && utf16Order(head, true) !== null))
    ) {
      // UTF-16 with a byte order mark (PowerShell's old default), or UTF-32 with one: gathered, then decoded and read at
      // the end.
      this.state = 'utf16';
      this.keepWhole(head);
      return;
    }
    // A PAX header written out as a file (by a tar that did not know the format) is tar's metadata, not a script.
    if (magic.kind === 'binary' && fileKind(this.path, head) === 'script' && someNuls(head) && !this.path.includes('PaxHeader/')) {
      // A script with NUL bytes still runs (shells skip them) while review tools call it binary: read it, and say so.
      const shown = headBytes(head);
      this.wholeFile(
        'behaviour.unreadable-script',
        'high',
        shown,
        'This script holds NUL bytes: editors and review tools show it as binary, while its interpreter runs it.',
      );
      // Read as the shell reads it, without the NULs.
      this.nuls = true;
      const read = withoutNuls(head);
      this.readAsText(borrowed && read === head ? Buffer.from(head) : read);
      this.keepWhole(read);
      return;
    }
    if (magic.kind !== 'text') {
      this.state = 'skip';
      const shown = headBytes(head);
      if (magic.kind === 'executable' && DISGUISE.test(this.path))
        this.wholeFile(
          'executable.disguised',
          'critical',
          shown,
          `This file is ${magic.what}, recognised by its content, under the name of another file type.`,
        );
      else if (magic.kind === 'executable')
        // None of thousands of skills in public collections ships one; a program nobody can read is quarantined.
        this.wholeFile(magic.rule, 'critical', shown, `This file is ${magic.what}, recognised by its content.`);
      if (magic.kind === 'archive') {
        this.state = 'archive';
        this.archive = { what: magic.what, opens: magic.opens, shown, chunks: [], length: 0 };
        this.keep(borrowed ? Buffer.from(head) : head);
      }
      return;
    }
    this.readAsText(head);
    this.keepWhole(head);
  }

  /** Starts reading the file as text from `head`, its first bytes. */
  private readAsText(head: Buffer): void {
    this.state = 'text';
    this.kind = fileKind(this.path, head);
    // Other text (data, configuration that runs nothing) holds no pieces to judge (behaviour/units.ts).
    this.judged = this.kind !== 'text' || NOTEBOOK.test(this.path) || STARTUP_DEFINITION_FILE.test(this.path);
    this.hashComments = this.kind === 'script' && commentsWithHash(this.path, head);
    if (this.kind === 'markdown') this.markdown = new MarkdownContext();
    // A script's comments explain its usage, sending included: only instructions to the agent are read there.
    const proseGroups = (this.kind === 'script' ? G.override | G.conceal | G.silent | G.bypass : AGENT_GROUPS) | G.negation;
    this.prose = new ProseBlocks(this.kind, (text, line, blockGroups) => {
      const groups = blockGroups & proseGroups;
      if (groups !== 0) scanAgent(this.input(text, line, 'prose'), groups);
    });
    this.splitter.push(head);
  }

  /** Keeps an archive's bytes while the package's allowance lasts; past it, lets them all go. */
  private keep(chunk: Buffer): void {
    const archive = this.archive;
    if (archive?.chunks == null) return;
    const { capture } = this.keeper;
    if (chunk.length > capture.left) {
      capture.left += archive.length;
      archive.chunks = null;
      return;
    }
    capture.left -= chunk.length;
    archive.chunks.push(chunk);
    archive.length += chunk.length;
  }

  private wholeFile(rule: string, severity: 'critical' | 'high' | 'medium', shown: string, message: string): void {
    this.report({ rule, severity, line: null, context: null, text: shown, index: 0, length: shown.length, message });
  }

  // LineReader

  block(bytes: Buffer, start: number, end: number, firstLine: number): number {
    this.blockBytes = bytes;
    this.blockAscii = isAscii(bytes.subarray(start, end));
    this.blockLatin = bytes.toString('latin1', start, end);
    this.latinLine.block = this.blockLatin;
    this.blockStart = start;
    this.blockEnd = end;
    this.wideLines = 0;
    this.blockText = null;
    return anchorLines(bytes, start, end, firstLine, this.kind === 'script', this);
  }

  /** Line `line` of the current block, bytes [start, end), as text; lines are read in order. */
  private textOf(start: number, end: number, line: number): string {
    if (this.blockText === null) {
      const latin = this.blockLatin.slice(start - this.blockStart, end - this.blockStart);
      if (this.blockAscii || !OTHER_BYTES.test(latin)) return latin;
      if (++this.wideLines <= WIDE_LINES) return this.blockBytes.toString('utf8', start, end);
      this.blockText = this.blockBytes.toString('utf8', start, this.blockEnd);
      this.cursorLine = line;
      this.cursorChar = 0;
    }
    const text = this.blockText;
    let at = this.cursorChar;
    for (let skip = line - this.cursorLine; skip > 0; skip--) at = text.indexOf('\n', at) + 1;
    this.cursorLine = line;
    this.cursorChar = at;
    const lineEnd = text.indexOf('\n', at);
    return text.slice(at, lineEnd === -1 ? text.length : lineEnd);
  }

  line(start: number, end: number, line: number, anchored: number, facts: number, prose: number): void {
    const length = end - start;
    if (this.prose?.reading === true && !this.prose.skipsCode((facts & FACTS.code) !== 0))
      this.prose.line(
        length > LINE_CAP ? this.blockBytes.toString('utf8', start, start + LINE_CAP) : this.textOf(start, end, line),
        line,
        anchored | prose,
      );
    const groups = anchored === 0 ? 0 : this.groupsThatAct(anchored, start, end);
    const examined =
      length <= LINE_CAP &&
      ((groups & RULE_GROUPS) !== 0 ||
        this.examineNext ||
        this.markdown?.inComment === true ||
        ((anchored !== 0 || this.kind === 'script') && this.readAnyway(start, end, facts)));
    if (length > LINE_CAP) this.longLine(this.blockBytes.toString('utf8', start, end), line);
    else if (examined) this.examine(this.textOf(start, end, line), line, false, groups, facts);
    else if (length >= BLOB_RUN || (facts & FACTS.base64) !== 0) {
      // A line without an anchor matters only for its base64 (a blob, or a line of wrapped base64) or its length.
      if ((facts & (FACTS.blob | FACTS.base64)) !== 0 || (this.kind === 'script' && length > MINIFIED_LINE))
        this.unflagged(this.textOf(start, end, line), line);
      else if (this.wrapped.run > 0) finishWrappedBase64(this.input('', line, this.unflaggedContext), this.wrapped);
    } else if (this.wrapped.run > 0) finishWrappedBase64(this.input('', line, this.unflaggedContext), this.wrapped);
    // A line no rule looks at may still set a variable a later command is assembled from (`D=cu`).
    if (!examined && length <= ASSIGNMENT_LINE && (facts & FACTS.assigns) !== 0) {
      // Without the line end's carriage return, as a line read for its rules is: `D=cu` counts in a CRLF script too.
      const text = this.textOf(start, end, line);
      this.variables.assign(text.charCodeAt(text.length - 1) === 0x0d ? text.slice(0, -1) : text);
    }
  }

  /** The groups of a line's anchors whose rules can find something on it (rules-agent.ts, rules-command.ts). */
  private groupsThatAct(groups: number, start: number, end: number): number {
    return commandGroupsThatAct(agentGroupsThatAct(groups), this.latinOf(start, end));
  }

  /** Bytes [start, end) of the block as Latin-1 text, for a gate to read (only ASCII characters are looked for). */
  private latinOf(start: number, end: number): LatinLine {
    const latin = this.latinLine;
    latin.start = start - this.blockStart;
    latin.end = end - this.blockStart;
    return latin;
  }

  /**
   * Whether reading a line no rule acts on still changes what is found, as reading every anchored line once did: a
   * command still waiting for the rest of its line, a line read again without empty quotes or with the script's
   * variables expanded, an assignment longer than ASSIGNMENT_LINE. (A line continued with a trailing backslash is read
   * anyway: the backslash is an anchor of its own.) Most lines are none of these, and are passed over as lines without
   * anchors are (their base64 and length are read all the same). A script's line is asked even when it has no anchor
   * at all: `cat > "$P"` names nothing a rule looks for until `$P` is expanded to a LaunchAgent's plist.
   */
  private readAnyway(start: number, end: number, facts: number): boolean {
    if (this.continued !== '') return true;
    const script = this.kind === 'script';
    if (script && (facts & FACTS.assigns) !== 0 && end - start > ASSIGNMENT_LINE) return true;
    if (!script && this.markdown?.inCode !== true) return false;
    if ((facts & FACTS.emptyQuotes) !== 0) return true;
    return script && !this.variables.empty && (facts & FACTS.dollar) !== 0;
  }

  window(bytes: Buffer, line: number, first: boolean): void {
    const text = bytes.toString('utf8');
    if (first) reportLongLine(this.input(text, line, this.baseContext), LINE_CAP + 1);
    this.examine(text, line, !first, windowGroups(text));
  }

  lineEnd(bytes: Buffer, line: number): void {
    this.lineEndText(bytes.toString('utf8'), line);
  }

  private lineEndText(text: string, line: number): void {
    for (let start = 0; start < text.length; start += LINE_CAP - WINDOW_OVERLAP) {
      const window = text.slice(start, start + LINE_CAP);
      this.examine(window, line, true, windowGroups(window));
      if (start + LINE_CAP >= text.length) break;
    }
  }

  private longLine(text: string, line: number): void {
    const first = text.slice(0, LINE_CAP);
    reportLongLine(this.input(first, line, this.baseContext), LINE_CAP + 1);
    this.examine(first, line, false, windowGroups(first));
    this.lineEndText(text.slice(LINE_CAP - WINDOW_OVERLAP), line);
  }

  private input(text: string, line: number, context: Context): LineInput {
    return { text, line, context, file: this };
  }

  private get unflaggedContext(): Context {
    return this.markdown?.inCode === true ? 'code' : this.baseContext;
  }

  /** A line without a prefilter hit: only blob shapes and length can matter. */
  private unflagged(raw: string, line: number): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const input = this.input(text, line, this.unflaggedContext);
    scanWrappedBase64(input, this.wrapped);
    if (text.length >= BLOB_RUN) scanBlobs(input);
    if (this.kind === 'script' && text.length > MINIFIED_LINE) reportLongLine(input, text.length);
  }

  /**
   * `facts`: what the anchor pass noted of the line (FACTS); a window of a long line is read as if all held. Only
   * FACTS.blob (a base64 or hex run long enough to report) and FACTS.assigns (a start like a shell assignment) are read.
   */
  private examine(raw: string, line: number, continuation: boolean, groups: number, facts = UNKNOWN_FACTS): void {
    const text = raw.charCodeAt(raw.length - 1) === 0x0d ? raw.slice(0, -1) : raw;
    const keyPending = this.examineNext;
    this.examineNext = false;
    const whole = this.input(text, line, this.markdown?.inCode === true ? 'code' : this.baseContext);
    this.lastInput = whole;
    if (groups & G.hidden) scanInvisible(whole);
    if (groups & G.secret || keyPending) {
      trackPem(whole);
      scanSecrets(whole, this.pendingKey);
    }
    if (!continuation) scanWrappedBase64(whole, this.wrapped);
    if ((facts & FACTS.blob) !== 0 && text.length >= BLOB_RUN) scanBlobs(whole);
    if (!continuation && this.kind === 'script' && text.length > MINIFIED_LINE) reportLongLine(whole, text.length);
    if (this.markdown === null) this.examineSegment(whole, text, this.baseContext, groups, facts);
    else
      for (const segment of this.markdown.step(text, line, this.commentClosed, continuation))
        this.examineSegment(whole, segment.text, segment.context, groups, facts);
  }

  /** A segment of an examined line (`whole`): the line itself, or the part of it in one Markdown context. */
  private examineSegment(whole: LineInput, text: string, context: Context, groups: number, facts: number): void {
    const { line } = whole;
    let segmentText = text;
    let segmentGroups = groups;
    // A command continued with a trailing backslash is read whole, on the line where it ends.
    if (context === 'script' || context === 'code') {
      if (this.continued !== '') {
        segmentText = this.continued + segmentText;
        segmentGroups = ALL_GROUPS;
        this.continued = '';
      }
      // A comment's trailing backslash continues nothing: the next line runs on its own.
      if (segmentText.charCodeAt(segmentText.length - 1) === 0x5c && !this.isComment(segmentText, context)) {
        this.continued = `${segmentText.slice(0, -1)} `.slice(-CONTINUED_CAP);
        this.examineNext = true;
      }
    }
    // The line's own input when the segment is all of it, as it mostly is: one object fewer per line read.
    const input = segmentText === whole.text && context === whole.context ? whole : this.input(segmentText, line, context);
    this.runRules(input, segmentGroups);
    // Invisible characters splitting words hide them from every rule, and so do empty quotes in shell words
    // (c""url, b''ash): read the line again without them.
    let visible = groups & G.hidden ? withoutInvisible(segmentText) : segmentText;
    // Empty quotes in a part of the line are in the line (the anchor pass notes them); only text joined to it or
    // rewritten is looked through for them.
    if (context !== 'prose' && ((facts & FACTS.emptyQuotes) !== 0 || visible !== text) && hasEmptyQuotes(visible))
      visible = visible.replace(EMPTY_QUOTES, '');
    if (visible !== segmentText) {
      const again = groupsOfLine(visible, this.kind === 'script') & ~G.hidden;
      if (again !== 0) this.runRules(this.input(visible, line, context), again);
    }
    // A command assembled from the script's own variables is read again as it would run.
    if (context === 'script') {
      const expanded = this.variables.expand(visible);
      // The line as it arrived is an assignment only if the anchor pass noted a start like one (FACTS.assigns);
      // rewritten or continued, it is read whatever it starts with.
      if ((facts & FACTS.assigns) !== 0 || visible !== whole.text) this.variables.assign(visible);
      if (expanded !== visible) {
        const again = groupsOfLine(expanded, true);
        if (again !== 0) this.runRules(this.input(expanded, line, 'script'), again);
      }
    }
  }

  /** Whether a script's line is a whole-line `#` comment, which runs nothing. */
  private isComment(text: string, context: Context): boolean {
    return this.hashComments && context === 'script' && isHashComment(text);
  }

  private runRules(input: LineInput, groups: number): void {
    if (groups & AGENT_GROUPS) scanAgent(input, groups);
    // A comment runs nothing: the command rules do not read one (`# then curl the .env to the server`), though its
    // instructions and URLs are read as any line's are.
    const runs = !this.isComment(input.text, input.context);
    if (runs) scanCommands(input, groups);
    if (groups & G.url) this.urls.scan(input);
    if (runs && groups & G.packed && (this.kind === 'script' || input.context === 'code')) scanPacked(input);
  }
}
