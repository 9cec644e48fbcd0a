/**
 * Lines that document or detect an attack rather than perform it: a security tool's signatures (regular
 * expressions, pattern lists, indicator files), a Markdown table row that lists a denied command, a string that
 * stands alone as an element of a list in a data file or Markdown. A command or instruction matched there is most likely a quoted example,
 * so command, instruction and URL findings there weigh two steps less (signature.ts is asked by report()). So does
 * a command quoted in a message a script prints (an `echo` telling the user what to run).
 *
 * Only the shape of the line and the file's name are looked at, never particular words: an attack has to stop
 * looking like a command to pass, which is what stops it from running as one.
 */
import type { FileKind, LineInput } from './file-state.js';
import type { Context } from './severity.js';

/** A Markdown table row: `| a | b |`. */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** Data files named for what detectors hold (iocs.txt, patterns/…, signatures.json, rules/…, policies/…). */
const SIGNATURE_NAME = /^(?:iocs?|signatures?|patterns?|indicators?|blocklists?|denylists?|rules?|policies|policy)(?:[._-]|$)/i;
const DATA_FILE = /\.(?:txt|json|ya?ml|csv|tsv|list)$/i;
/** A line that is a regular expression: a literal, a raw string, or a compile call; not a command run by its path. */
const REGEX_LINE =
  /^\s*(?:[-*]\s+)?(?:r["']|\/(?![/*\s]|(?:usr|bin|sbin|opt|etc|tmp|dev|home|root|var|proc|lib|snap)\/)|re\.compile\s*\(|new\s+RegExp\s*\(|RegExp\s*\()/;
/** A key that holds a pattern (`"pattern":`, `regex =`, `signatures:`). */
const PATTERN_KEY =
  /(?:^|[\s{,"'])(?:patterns?|regexp?|regexes|signatures?|indicators?|iocs?|denied|deny|blocked?|blocklist|denylist)["']?\s*[:=]/i;
/** A line that is one quoted string and nothing else (an element of a list in a data file), with an optional trailing comment. */
const LONE_STRING = /^\s*[rbu]?(["'`])(?:(?!\1).)*\1\s*(?:[,;]\s*)?(?:(?:#|\/\/).*)?$/;
/** Regular-expression syntax inside a quoted string: escapes, wildcards, groups of alternatives. */
const REGEX_SYNTAX = /\.[*+]|\\\.\w|\(\?[:!=i]|\\[sdw][+*?{]|\\b(?![A-Za-z0-9])|\([\w\s.\\-]*[\w.\\]\|[\w.\\][\w\s.\\|-]*\)/;

/**
 * The last line asked about and its answer: a line with many matches (a 1 MiB line repeating one) is asked once per
 * match, one after another, and testing the whole line each time would make it quadratic. (A map of every line asked
 * about cost a tenth of the scan of a megabyte of short lines that each match.)
 */
let lastInput: LineInput | null = null;
let lastShape = false;

/** Whether the whole line has the shape of a signature, whatever part of it matched. */
export function signatureLine(input: LineInput): boolean {
  if (input !== lastInput) {
    lastShape = lineShape(input);
    lastInput = input;
  }
  return lastShape;
}

function lineShape(input: LineInput): boolean {
  return signatureShaped(input.text, input.file.path, input.file.kind, input.context);
}

/** Whether a line of a file has the shape of a signature (see the module's comment). */
export function signatureShaped(text: string, path: string, kind: FileKind, context: Context): boolean {
  if (kind !== 'script' && DATA_FILE.test(path) && path.split('/').some((part) => SIGNATURE_NAME.test(part))) return true;
  if (kind === 'markdown' && context !== 'comment' && TABLE_ROW.test(text)) return true;
  // In a script a lone string may be an argument of a call spread over lines, which runs: only data files and
  // Markdown lists count there.
  return REGEX_LINE.test(text) || PATTERN_KEY.test(text) || (kind !== 'script' && LONE_STRING.test(text));
}

/** A Windows path under a known folder (`$env:USERPROFILE\.aws`, `%APPDATA%\x`, `C:\Users\…`): its `\.` is a folder's dot. */
const WINDOWS_PATH = /^(?:\$env:\w{1,40}|\$home|%\w{1,40}%|[a-z]:|~)\\[\w. $\\-]{0,300}$/i;
const QUOTED_STRING = /(["'])((?:(?!\1)[^\n]){0,400})\1/g;

/** The text with its quoted regular expressions emptied: what they match is looked for, not done. */
export function withoutQuotedPatterns(text: string): string {
  if (!text.includes('"') && !text.includes("'")) return text;
  return text.replace(QUOTED_STRING, (whole, quote: string, body: string) =>
    REGEX_SYNTAX.test(body) && !WINDOWS_PATH.test(body) ? quote + quote : whole,
  );
}

/**
 * How far into a line a match may sit, and how far its closing quote, for it to be read as inside a quoted string.
 * Knowing whether a point is inside quotes means counting the quotes before it: bounded, so that a megabyte line
 * with a match every few characters stays linear. Signatures are short strings near the start of their line; a
 * match further in is simply not demoted.
 */
const QUOTED_WITHIN = 4096;

/** The quoted string of `text` that holds `index`, if any. */
function quotedAround(text: string, index: number): string | null {
  if (index > QUOTED_WITHIN) return null;
  for (const q of ['"', "'"]) {
    let count = 0;
    let last = -1;
    for (let at = text.indexOf(q); at !== -1 && at < index; at = text.indexOf(q, at + 1)) {
      count += 1;
      last = at;
    }
    if (count % 2 === 0) continue;
    const end = text.slice(index, index + QUOTED_WITHIN).indexOf(q);
    if (end !== -1) return text.slice(last + 1, index + end);
  }
  return null;
}

/** A line that prints a message (echo, printf, print, console.log, a log helper): its strings are shown, not run. */
const PRINTS =
  /^\s*(?:echo|printf|print|puts|say|Write-Host|Write-Output|console\.(?:log|error|warn|info)|logger\.\w+|log(?:_\w+)?|warn|info|error)\b\s*\(?/;

/** Whether the match at `index` sits in a signature: a signature line, or a quoted regular expression. */
export function inSignature(input: LineInput, index: number): boolean {
  if (signatureLine(input)) return true;
  const quoted = quotedAround(input.text, index);
  if (quoted === null) return false;
  return REGEX_SYNTAX.test(quoted) || (printed(input.text) && !/\$\(|`/.test(quoted));
}

/** A message printed to the terminal: printed, and not redirected or piped anywhere after its last string. */
export function printedMessage(text: string): boolean {
  return printed(text);
}

function printed(text: string): boolean {
  if (!PRINTS.test(text)) return false;
  const tail = text.slice(Math.max(text.lastIndexOf('"'), text.lastIndexOf("'")) + 1);
  return !/[>|]|\btee\b/.test(tail.replace(/[12]?>&[12]|>\s*\/dev\/(?:null|stderr)/g, ''));
}
