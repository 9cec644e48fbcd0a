/**
 * http(s) URLs in a line, as a reader would delimit them: up to whitespace, quotes or angle brackets, without
 * trailing punctuation and without a closing bracket that has no opening one inside the URL.
 */
import { hostFacts, ipv4, isPublicRawIp, type Destination, type HostFacts } from './hosts.js';

export interface FoundUrl {
  url: string;
  /** Lower case, without user information or port. */
  host: string;
  /** What the host is (hosts.ts). */
  facts: HostFacts;
  /** Where the path starts in `url` (its length when there is none). */
  pathStart: number;
  index: number;
}

/** The host of an authority and what it is. */
interface Authority {
  host: string;
  facts: HostFacts;
}

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>`\\|{}^]{1,2000}/gi;
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;
const BARE_IP = /(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\.?\d)/g;
/** A port at the end of an authority, and a dotted address of any numbers (a real host's shape, if not a public one). */
const PORT = /:\d{0,5}$/;
const IPV4_SHAPE = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** `text` without trailing characters from `chars`. */
function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

/** Punctuation a sentence puts after a URL. */
const TRAILING = '.,;:!?*_~';
/** Trailing punctuation or a closing quote, cut before brackets are matched. */
const TRAILING_OR_QUOTE = `${TRAILING}'"`;
const BRACKETS = [
  ['(', ')'],
  ['[', ']'],
] as const;

/** The characters trimUrl may cut from a URL's end (ASCII codes). */
const MAY_TRIM = new Uint8Array(128);
for (const c of TRAILING_OR_QUOTE + BRACKETS.map(([, close]) => close).join('')) MAY_TRIM[c.charCodeAt(0)] = 1;

/** How many times `char` (one code unit) occurs in text[0, end). */
function countOf(text: string, char: number, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === char) count += 1;
  return count;
}

function trimUrl(raw: string): string {
  // Most URLs end with a letter, a digit or a slash: nothing to cut.
  const last = raw.charCodeAt(raw.length - 1);
  if (last >= 128 || MAY_TRIM[last] === 0) return raw;
  const url = trimEnd(raw, TRAILING_OR_QUOTE);
  // A closing bracket ends the URL while it has more of them than opening ones. Counted in place: a Markdown link's
  // URL ends with one, and splitting the URL twice per bracket made two arrays and their strings for every link.
  let end = url.length;
  for (const [open, close] of BRACKETS) {
    const closing = close.charCodeAt(0);
    if (url.charCodeAt(end - 1) !== closing) continue;
    const opened = countOf(url, open.charCodeAt(0), end);
    let closed = countOf(url, closing, end);
    while (end > 0 && url.charCodeAt(end - 1) === closing && opened < closed) {
      end -= 1;
      closed -= 1;
    }
  }
  return trimEnd(end === url.length ? url : url.slice(0, end), TRAILING);
}

/**
 * The last line read and its URLs: several rules read the URLs of one line (the URL list, a download piped to a shell,
 * a request to send data), one after another.
 */
let lastText: string | null = null;
let lastUrls: readonly FoundUrl[] = [];

/** Every http(s) URL in `text` whose host is a real name or IPv4 address (placeholders like `{host}` are skipped). */
export function findUrls(text: string): readonly FoundUrl[] {
  if (text === lastText) return lastUrls;
  lastUrls = readUrls(text);
  lastText = text;
  return lastUrls;
}

function readUrls(text: string): FoundUrl[] {
  const out: FoundUrl[] = [];
  URL_PATTERN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = URL_PATTERN.exec(text)) !== null) {
    const url = trimUrl(m[0]);
    // After `http://` or `https://`.
    const from = url.charCodeAt(4) === 0x3a ? 7 : 8;
    let slash = from;
    while (slash < url.length && !isPathStart(url.charCodeAt(slash))) slash += 1;
    const authority = authorityOf(url.slice(from, slash));
    if (authority !== null) out.push({ url, host: authority.host, facts: authority.facts, pathStart: slash, index: m.index });
  }
  return out;
}

/** `/`, `?` or `#`: where a URL's authority ends. */
function isPathStart(code: number): boolean {
  return code === 0x2f || code === 0x3f || code === 0x23;
}

/**
 * Authorities read lately, with their host and what it is (null: not a real name or address). A package names the
 * same few hosts again and again; emptied when full, as hosts.ts does for addresses.
 */
const recentAuthorities = new Map<string, Authority | null>();
const RECENT_AUTHORITIES_MAX = 1024;

/**
 * The host of a URL's authority, lower case, without user information, port or final dot, with its facts; null for a
 * placeholder.
 */
function authorityOf(authority: string): Authority | null {
  const known = recentAuthorities.get(authority);
  if (known !== undefined) return known;
  // Expressions only where the authority has what they remove: most are a bare name.
  let host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.includes(':')) host = host.replace(PORT, '');
  host = host.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  const real = HOST.test(host) || isPublicRawIp(host) || IPV4_SHAPE.test(host) ? { host, facts: hostFacts(host) } : null;
  if (recentAuthorities.size >= RECENT_AUTHORITIES_MAX) recentAuthorities.clear();
  recentAuthorities.set(authority, real);
  return real;
}

/**
 * What a URL found in a line points at: `local` (nothing outside the machine or the documentation names), a notable
 * destination, or null for an ordinary one.
 */
export function urlDestination(found: FoundUrl): Destination | 'local' | null {
  return found.facts.local ? 'local' : destinationOf(found);
}

/** What kind of notable destination a URL's host and path make, or null for an ordinary one. */
function destinationOf({ facts, url, pathStart }: FoundUrl): Destination | null {
  const { kind, messaging } = facts;
  if (kind === 'raw-ip' || kind === 'collector') return kind;
  // The path is cut out only for a chat service's host, whose webhooks and bot API it tells apart.
  if (messaging?.test(url.slice(pathStart)) === true) return 'messaging';
  return kind;
}

/** Top-level domains most registered for throw-away hosts (cheap, little checked); only used to weigh downloads that run. */
const THROWAWAY_TLD = /\.(?:icu|top|xyz|online|site|click|buzz|monster|rest|cfd|sbs|lol|quest|cyou|bond|gq|tk|ml|cf|ga|zip|mov|su)$/;

/**
 * The most notable destination a line names, by URL or by a bare public IPv4 address. For code that is run
 * (`running`), any IP literal other than loopback and hosts under throw-away top-level domains count too: nobody
 * publishes an installer that way.
 */
export function notableDestination(
  text: string,
  running = false,
): { kind: Destination; index: number; length: number; throwaway?: true } | null {
  for (const found of findUrls(text)) {
    const kind = destinationOf(found);
    if (kind !== null) return { kind, index: found.index, length: found.url.length };
    if (running && ((ipv4(found.host) !== null && !found.host.startsWith('127.')) || THROWAWAY_TLD.test(found.host))) {
      return ipv4(found.host) !== null
        ? { kind: 'raw-ip', index: found.index, length: found.url.length }
        : { kind: 'collector', index: found.index, length: found.url.length, throwaway: true };
    }
  }
  BARE_IP.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BARE_IP.exec(text)) !== null) {
    if (isPublicRawIp(m[0])) return { kind: 'raw-ip', index: m.index, length: m[0].length };
  }
  return null;
}
