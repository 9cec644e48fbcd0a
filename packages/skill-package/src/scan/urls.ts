/**
 * http(s) URLs in a line, as a reader would delimit them: up to whitespace, quotes or angle brackets, without
 * trailing punctuation and without a closing bracket that has no opening one inside the URL.
 */
import { destinationKind, isLocalOrExample, isPublicRawIp, type Destination } from './hosts.js';

export interface FoundUrl {
  url: string;
  /** Lower case, without user information or port. */
  host: string;
  path: string;
  index: number;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>`\\|{}^]{1,2000}/gi;
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;
const BARE_IP = /(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\.?\d)/g;

/** `text` without trailing characters from `chars`. */
function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

function trimUrl(raw: string): string {
  let url = trimEnd(raw, `.,;:!?*_~'"`);
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
  ] as const) {
    while (url.endsWith(close) && url.split(open).length < url.split(close).length) url = url.slice(0, -1);
  }
  return trimEnd(url, '.,;:!?*_~');
}

/** Every http(s) URL in `text` whose host is a real name or IPv4 address (placeholders like `{host}` are skipped). */
export function findUrls(text: string): FoundUrl[] {
  const out: FoundUrl[] = [];
  URL_PATTERN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = URL_PATTERN.exec(text)) !== null) {
    const url = trimUrl(m[0]);
    const rest = url.slice(url.indexOf('//') + 2);
    const slash = rest.search(/[/?#]/);
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? '' : rest.slice(slash);
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    const host = hostPort
      .replace(/:\d{0,5}$/, '')
      .toLowerCase()
      .replace(/\.$/, '');
    if (HOST.test(host) || isPublicRawIp(host) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) out.push({ url, host, path, index: m.index });
  }
  return out;
}

/** Whether a URL points outside the machine and outside the documentation-only names. */
export function isExternal(found: FoundUrl): boolean {
  return !isLocalOrExample(found.host);
}

/** The most notable destination a line names, by URL or by a bare public IPv4 address. */
export function notableDestination(text: string): { kind: Destination; index: number; length: number } | null {
  for (const found of findUrls(text)) {
    const kind = destinationKind(found.host, found.path);
    if (kind !== null) return { kind, index: found.index, length: found.url.length };
  }
  BARE_IP.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BARE_IP.exec(text)) !== null) {
    if (isPublicRawIp(m[0])) return { kind: 'raw-ip', index: m.index, length: m[0].length };
  }
  return null;
}
