/**
 * Hidden content: invisible and direction-changing characters, instructions in Markdown comments, and long
 * encoded blobs. Invisible characters are looked for in every line of every text file, whatever its context.
 *
 * Legitimate uses are let through: a byte-order mark at the very start of a file, zero-width joiners and
 * non-joiners between non-ASCII characters (emoji sequences, Persian and Indic scripts), left-to-right and
 * right-to-left marks in lines that hold right-to-left letters, and tag characters that follow the black flag
 * U+1F3F4 (subdivision flags such as England's).
 */
import { severityOf } from './catalogue.js';
import type { FileState, LineInput } from './file-state.js';
import { noteFact, report } from './report.js';
import { raise } from './severity.js';
import { scanDecoded } from './decoded-blobs.js';
import { base64Runs, firstHexRun } from './long-runs.js';
import type { ClosedComment } from './markdown.js';

/**
 * The length in UTF-16 units of the invisible character at `at`, or 0: U+200B–U+200F, U+202A–U+202E, U+2060–U+2064,
 * U+2066–U+2069, U+FEFF, U+180E, or a tag character (U+E0000–U+E007F, two units). The anchor pass knows the same
 * characters (assembly/anchors.ts). Read by character code rather than with an expression, which builds a match
 * object per character: finding and removing them that way was a quarter of the time of a megabyte of short lines of
 * them (docs/performance.md, "Adversarial texts on this machine").
 */
export function invisibleAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x180e) return 0;
  if (code === 0xdb40) {
    const low = text.charCodeAt(at + 1);
    return low >= 0xdc00 && low <= 0xdc7f ? 2 : 0;
  }
  return (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff ||
    code === 0x180e
    ? 1
    : 0;
}

/** `text` without its invisible characters (invisibleAt). */
export function withoutInvisible(text: string): string {
  let out = '';
  let from = 0;
  for (let at = 0; at < text.length;) {
    const length = invisibleAt(text, at);
    if (length === 0) {
      at += 1;
      continue;
    }
    out += text.slice(from, at);
    at += length;
    from = at;
  }
  return from === 0 ? text : out + text.slice(from);
}

const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
const BLACK_FLAG = 0x1f3f4;
const RUN_MIN = 4;
/** Matches looked at per line before giving up: enough to see every kind, bounded for adversarial lines. */
const MATCH_BUDGET = 4096;

function isBidiControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

function isAscii(ch: string | undefined): boolean {
  return ch !== undefined && ch.charCodeAt(0) < 0x80;
}

/** Reports invisible characters of one whole line. */
export function scanInvisible(input: LineInput): void {
  const { text } = input;
  let bidi = false;
  let zeroWidth = false;
  let run = false;
  let tag = false;
  let runStart = -1;
  let runLength = 0;
  let budget = MATCH_BUDGET;
  for (let at = 0; at < text.length && budget > 0;) {
    const length = invisibleAt(text, at);
    if (length === 0) {
      at += 1;
      continue;
    }
    budget -= 1;
    const code = text.codePointAt(at)!;
    // Runs of consecutive invisible characters (a tag character is two UTF-16 units).
    if (runStart !== -1 && at === runStart + runLength) runLength += length;
    else {
      runStart = at;
      runLength = length;
    }
    if (code >= 0xe0000) {
      if (!tag && !followsFlag(text, at)) {
        tag = true;
        const decoded = decodeTags(text, at);
        report(
          input,
          'hidden.unicode-tag',
          severityOf('hidden.unicode-tag'),
          at,
          Math.min(text.length - at, 2 * decoded.length || 2),
          `Invisible Unicode tag characters spell ${JSON.stringify(decoded)} for a model that reads them; remove them.`,
        );
      }
    } else if (isBidiControl(code)) {
      if (!bidi) {
        bidi = true;
        // In source code a direction override is the trojan-source attack; in prose it may be misused typography.
        report(input, 'hidden.bidi-control', raise(severityOf('hidden.bidi-control'), input.file.kind === 'script' ? 0 : -1), at, 1);
      }
    } else if (!zeroWidth && isReportableZeroWidth(text, at, code, input)) {
      zeroWidth = true;
      report(input, 'hidden.zero-width', severityOf('hidden.zero-width'), at, 1);
    }
    if (!run && runLength >= RUN_MIN * (code >= 0xe0000 ? 2 : 1) && code < 0xe0000) {
      run = true;
      report(input, 'hidden.invisible-run', severityOf('hidden.invisible-run'), runStart, runLength);
    }
    if (bidi && zeroWidth && run && tag) break;
    at += length;
  }
}

function isReportableZeroWidth(text: string, at: number, code: number, input: LineInput): boolean {
  if (code === 0xfeff && at === 0 && input.line === 1) return false;
  if (code === 0x200c || code === 0x200d) return isAscii(text[at - 1]) || isAscii(text[at + 1]);
  if (code === 0x200e || code === 0x200f) return !RTL_LETTER.test(text);
  return true;
}

function followsFlag(text: string, at: number): boolean {
  let i = at;
  while (i >= 2 && text.charCodeAt(i - 2) === 0xdb40) i -= 2;
  return i >= 2 && text.codePointAt(i - 2) === BLACK_FLAG;
}

function decodeTags(text: string, at: number): string {
  let out = '';
  for (let i = at; i + 1 < text.length && out.length < 120; i += 2) {
    const code = text.codePointAt(i)!;
    if (code < 0xe0000 || code > 0xe007f) break;
    const ascii = code - 0xe0000;
    out += ascii >= 0x20 && ascii < 0x7f ? String.fromCharCode(ascii) : '';
  }
  return out;
}

/** The shortest base64 and hex runs reported as blobs. */
const BASE64_BLOB = 200;
const HEX_BLOB = 256;
const WRAPPED_BASE64 = /^[A-Za-z0-9+/]{60,200}={0,2}\r?$/;
const DATA_URI = /data:(?:image|font|audio|video|application\/(?:font|x-font|vnd\.ms-fontobject))[\w/.+-]{0,60};base64,$/i;
/** Consecutive lines of pure base64 (a wrapped blob) that count as one blob. */
const WRAPPED_MIN_LINES = 8;

function blobSeverity(file: FileState): 'medium' | 'low' {
  return file.kind === 'text' ? 'low' : 'medium';
}

function mixed(run: string): boolean {
  return /[0-9]/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run);
}

/** Long base64 and hex runs in one line; lines shorter than the runs looked for are skipped by the caller. */
export function scanBlobs(input: LineInput): void {
  const { text, file } = input;
  if (file.facts.has('pem-open')) return;
  if (text.length >= BASE64_BLOB) {
    for (const run of base64Runs(text, BASE64_BLOB)) {
      if (mixed(run.text) && !DATA_URI.test(text.slice(Math.max(0, run.index - 80), run.index))) {
        report(
          input,
          'hidden.encoded-blob',
          blobSeverity(file),
          run.index,
          run.text.length,
          `A base64 run of ${run.text.length} characters cannot be reviewed by reading; ship the data as a reviewable file or explain what it is.`,
        );
        scanDecoded(input, run.text);
        return;
      }
    }
  }
  if (text.length >= HEX_BLOB) {
    const run = firstHexRun(text, HEX_BLOB);
    if (run !== null && /[0-9]/.test(run.text) && /[a-fA-F]/.test(run.text)) {
      report(
        input,
        'hidden.encoded-blob',
        blobSeverity(file),
        run.index,
        run.text.length,
        `A hex run of ${run.text.length} characters cannot be reviewed by reading; ship the data as a reviewable file or explain what it is.`,
      );
    }
  }
}

/** A run of wrapped base64 lines: its length, first line and text (the body kept up to BODY_CAP characters). */
export interface WrappedRun {
  run: number;
  start: number;
  text: string;
  body: string;
}

const BODY_CAP = 65536;

/** A finished run long enough to report is decoded and read (decoded-blobs.ts) at its first line. */
export function finishWrappedBase64(input: LineInput, state: WrappedRun): void {
  if (state.run >= WRAPPED_MIN_LINES) scanDecoded({ ...input, text: state.text, line: state.start }, state.body);
  state.run = 0;
  state.body = '';
}

/** Counts wrapped base64 lines; reports once a run of WRAPPED_MIN_LINES is seen. */
export function scanWrappedBase64(input: LineInput, state: WrappedRun): void {
  const { text, file } = input;
  if (
    text.length < 60 ||
    text.length > 203 ||
    text.includes(' ') ||
    file.facts.has('pem-open') ||
    !WRAPPED_BASE64.test(text) ||
    !mixed(text)
  ) {
    finishWrappedBase64(input, state);
    return;
  }
  if (state.run === 0) {
    state.start = input.line;
    state.text = text;
    state.body = '';
  }
  state.run += 1;
  if (state.body.length < BODY_CAP) state.body += text;
  if (state.run === WRAPPED_MIN_LINES) {
    file.report({
      rule: 'hidden.encoded-blob',
      severity: blobSeverity(file),
      line: state.start,
      context: input.context,
      text: state.text,
      index: 0,
      length: state.text.length,
      message: `Wrapped base64 over ${WRAPPED_MIN_LINES} or more lines cannot be reviewed by reading; ship the data as a reviewable file or explain what it is.`,
    });
  }
}

/** Marks PEM blocks (certificates, keys), whose base64 body is not an anonymous blob. */
export function trackPem(input: LineInput): void {
  if (input.text.includes('-----BEGIN ')) noteFact(input, 'pem-open');
  else if (input.text.includes('-----END ')) input.file.facts.delete('pem-open');
}

const AGENT_TERM =
  /\b(?:ai|assistant|agent|model|llm|claude|chatgpt|gpt|copilot|gemini)\b|\bsystem\s+prompt\b|\bignore\s+(?:all|any|previous|prior|the\s+above)\b|\bbefore\s+(?:responding|answering|replying)\b|\bwhen\s+(?:you|the\s+agent)\s+(?:read|see|load)\b/i;
const ACTION =
  /\b(?:run|execute|call|invoke|fetch|send|upload|download|install|read|open|include|insert|tell|mention|delete|remove|write|modify|curl|wget|visit|post|email|copy|ignore|disregard|reveal)\b/i;
/** An action verb as an order: opening a sentence or list item, or after "you must", "always", "please"… */
const ORDERED_ACTION = new RegExp(
  `(?:^\\s*|[.!?:;]\\s+|\\n[ \\t]*(?:(?:[-*]|\\d+[.)])[ \\t]*)?|\\b(?:responding|answering|replying|first|then|now),?\\s+|\\b(?:please|you\\s+(?:must|should|will|need\\s+to|are\\s+to)|always|never|do\\s+not|don'?t|make\\s+sure\\s+to|be\\s+sure\\s+to)\\s+)${ACTION.source}`,
  'i',
);
const COMMAND_WORD = /\b(?:curl|wget|bash|sh|powershell|eval|exec|base64|chmod|rm)\b|\|\s*(?:ba)?sh\b/i;
const IMPERATIVE = /\b(?:you\s+(?:must|should|will|need\s+to|are\s+to)|always|never|do\s+not|don'?t|make\s+sure|be\s+sure\s+to)\b/i;

/**
 * A closed Markdown comment: instructions aimed at an agent (an assistant named and an action ordered), or
 * commands, are hidden from the rendered page.
 */
export function scanComment(comment: ClosedComment, file: FileState): void {
  const { text } = comment;
  // Mentioning an assistant and a verb is a note ("generated from the model overview and read by the docs build"); ordering an
  // action is an instruction. Each expression is run only when the one it pairs with matched.
  const agent = AGENT_TERM.exec(text);
  let found = agent !== null && ORDERED_ACTION.test(text) ? agent : null;
  if (found === null) {
    const command = COMMAND_WORD.exec(text);
    if (command !== null && IMPERATIVE.test(text)) found = command;
  }
  if (found === null) return;
  file.report({
    rule: 'hidden.comment-instruction',
    severity: severityOf('hidden.comment-instruction'),
    line: comment.line,
    context: 'comment',
    text: text.replace(/\n/g, ' '),
    index: found.index,
    length: found[0].length,
  });
}
