/**
 * How matched text is shown in a finding: a short excerpt around the match, secrets redacted first, then every
 * invisible or control character written as an escape such as `<U+202E>`, so the excerpt shows what a reader of
 * the file would not see.
 */
import { ownCopy } from './own-copy.js';
import { redactSecrets } from './redact.js';

export const EXCERPT_MAX = 160;
/** Characters taken around a match before redaction, so a secret cut by the window's edge is still recognised. */
const CONTEXT_CHARS = 240;

/** Invisible, format and control characters (tab excepted), and the tag and variation-selector supplements. */
export const ESCAPED = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- each escape is one code point to match alone, none combines.
  '[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f' +
    '\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}]',
  'gu',
);

function escapeChar(ch: string): string {
  return `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Writes invisible and control characters as `<U+XXXX>` and tabs as spaces. */
export function escapeInvisible(text: string): string {
  return text.replace(/\t/g, ' ').replace(ESCAPED, escapeChar);
}

/** Cuts `text` to `max` characters without splitting a `<U+XXXX>` escape or a surrogate pair, adding `…` when cut. */
function clip(text: string, max: number, fromEnd: boolean): string {
  if (text.length <= max) return text;
  if (fromEnd) {
    let start = text.length - (max - 1);
    const open = text.lastIndexOf('<U+', start);
    if (open !== -1 && open < start && text.indexOf('>', open) >= start) start = text.indexOf('>', open) + 1;
    if (/[\udc00-\udfff]/.test(text.charAt(start))) start += 1;
    return `…${text.slice(start)}`;
  }
  let end = max - 1;
  const open = text.lastIndexOf('<U+', end);
  if (open !== -1 && text.indexOf('>', open) >= end) end = open;
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * An excerpt of `line` around the match at [index, index + length): at most EXCERPT_MAX characters, secrets
 * redacted, invisible characters escaped, leading blanks dropped.
 */
export function excerptOf(line: string, index: number, length: number): string {
  const from = Math.max(0, index - CONTEXT_CHARS);
  const to = Math.min(line.length, index + length + CONTEXT_CHARS);
  const before = escapeInvisible(redactSecrets(line.slice(from, index))).trimStart();
  const match = escapeInvisible(redactSecrets(line.slice(index, Math.min(to, index + length))));
  const after = escapeInvisible(redactSecrets(line.slice(index + length, to))).trimEnd();
  const matchPart = clip(match, EXCERPT_MAX - 20, false);
  const room = EXCERPT_MAX - matchPart.length;
  const beforeRoom = Math.min(before.length, Math.max(20, Math.floor(room / 3)), room);
  const beforePart = beforeRoom > 0 ? clip(before, beforeRoom, true) : '';
  const afterPart = clip(after, Math.max(0, EXCERPT_MAX - matchPart.length - beforePart.length), false);
  return ownCopy((beforePart + matchPart + afterPart).slice(0, EXCERPT_MAX));
}
