/**
 * http(s) URLs in a line, as a reader would delimit them: up to whitespace, quotes or angle brackets, without
 * trailing punctuation and without a closing bracket that has no opening one inside the URL.
 */
import { hostFacts, imitatesVendor, ipv4, isPublicRawIp, type Destination, type HostFacts } from './hosts.js';
import { ownCopy } from './own-copy.js';

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

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;
const BARE_IP = /(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\.?\d)/g;
/** A port at the end of an authority, and a dotted address of any numbers (a real host's shape, if not a public one). */
const PORT = /:\d{0,5}$/;
const IPV4_SHAPE = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * What follows a URL's `://`: 1 to 2,000 characters. A URL is what `/\bhttps?:\/\/[^\s"'<>`\\|{}^]{1,2000}/gi` matches,
 * found from each `://`: the scheme before it is checked by hand (schemeStart) and the rest read by this sticky
 * expression, in place. Matching the whole expression made a match array and its strings per URL, with the URL's
 * slices after them: a third of what a scan of a text-heavy package allocated (30 of 99 MiB for the mixed set of the
 * scanner benchmark), and a scan thread's young generation is small.
 */
const URL_REST = /[^\s"'<>`\\|{}^]{1,2000}/y;
/** Word characters (`\w`), which may not come right before a URL's scheme. */
const WORD = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_') WORD[c.charCodeAt(0)] = 1;

/** Whether text[at, at + 4) is `http` in any case. */
function isHttp(text: string, at: number): boolean {
  return (
    (text.charCodeAt(at) | 0x20) === 0x68 &&
    (text.charCodeAt(at + 1) | 0x20) === 0x74 &&
    (text.charCodeAt(at + 2) | 0x20) === 0x74 &&
    (text.charCodeAt(at + 3) | 0x20) === 0x70
  );
}

/** Where the scheme before the `://` at `colon` starts, or -1 when there is none at or after `from`. */
function schemeStart(text: string, colon: number, from: number): number {
  const start = (text.charCodeAt(colon - 1) | 0x20) === 0x73 ? colon - 5 : colon - 4;
  if (start < from || !isHttp(text, start)) return -1;
  const before = text.charCodeAt(start - 1);
  return before < 128 && WORD[before] === 1 ? -1 : start;
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

/** Where text[start, end) ends without trailing characters from `chars`. */
function trimmedEnd(text: string, start: number, end: number, chars: string): number {
  while (end > start && chars.includes(text[end - 1]!)) end -= 1;
  return end;
}

/** How many times `char` (one code unit) occurs in text[start, end). */
function countOf(text: string, char: number, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === char) count += 1;
  return count;
}

/** Where the URL text[start, end) ends once trailing punctuation and unopened closing brackets are cut. */
function trimUrl(text: string, start: number, end: number): number {
  // Most URLs end with a letter, a digit or a slash: nothing to cut.
  const last = text.charCodeAt(end - 1);
  if (last >= 128 || MAY_TRIM[last] === 0) return end;
  let cut = trimmedEnd(text, start, end, TRAILING_OR_QUOTE);
  // A closing bracket ends the URL while it has more of them than opening ones.
  const trimmed = cut;
  for (const [open, close] of BRACKETS) {
    const closing = close.charCodeAt(0);
    if (text.charCodeAt(cut - 1) !== closing) continue;
    const opened = countOf(text, open.charCodeAt(0), start, cut);
    let closed = countOf(text, closing, start, cut);
    while (cut > start && text.charCodeAt(cut - 1) === closing && opened < closed) {
      cut -= 1;
      closed -= 1;
    }
  }
  return cut === trimmed ? cut : trimmedEnd(text, start, cut, TRAILING);
}

/**
 * The last line read and its URLs: several rules read the URLs of one line (the URL list, a download piped to a shell,
 * a request to send data), one after another.
 */
let lastText: string | null = null;
const NO_URLS: readonly FoundUrl[] = [];
let lastUrls = NO_URLS;

/** Every http(s) URL in `text` whose host is a real name or IPv4 address (placeholders like `{host}` are skipped). */
export function findUrls(text: string): readonly FoundUrl[] {
  if (text === lastText) return lastUrls;
  lastUrls = readUrls(text);
  lastText = text;
  return lastUrls;
}

function readUrls(text: string): readonly FoundUrl[] {
  let out: FoundUrl[] | null = null;
  // Where the last URL ended: the next one starts there or later.
  let from = 0;
  for (let colon = text.indexOf('://'); colon !== -1;) {
    const start = schemeStart(text, colon, from);
    let end = colon + 3;
    if (start !== -1) {
      URL_REST.lastIndex = end;
      if (URL_REST.test(text)) end = URL_REST.lastIndex;
    }
    if (end === colon + 3) {
      colon = text.indexOf('://', colon + 1);
      continue;
    }
    from = end;
    colon = text.indexOf('://', end);
    const urlEnd = trimUrl(text, start, end);
    let slash = start + (text.charCodeAt(start + 4) === 0x3a ? 7 : 8);
    const authorityStart = slash;
    while (slash < urlEnd && !isPathStart(text.charCodeAt(slash))) slash += 1;
    const authority = authorityOf(text.slice(authorityStart, slash));
    if (authority === null) continue;
    const found = { url: text.slice(start, urlEnd), host: authority.host, facts: authority.facts, pathStart: slash - start, index: start };
    // A literal of one: most lines have a single URL, and pushing to an empty array reserves room for seventeen.
    if (out === null) out = [found];
    else out.push(found);
  }
  return out ?? NO_URLS;
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
function authorityOf(sliced: string): Authority | null {
  const known = recentAuthorities.get(sliced);
  if (known !== undefined) return known;
  // Kept from one package to the next: its own characters, not a view of the line's block of text.
  const authority = ownCopy(sliced);
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
 * (`running`), any IP literal other than loopback, hosts under throw-away top-level domains and hosts that imitate a
 * vendor (hosts.ts) count too: nobody publishes an installer that way.
 */
export function notableDestination(
  text: string,
  running = false,
): { kind: Destination; index: number; length: number; throwaway?: true } | null {
  for (const found of findUrls(text)) {
    const kind = destinationOf(found);
    if (kind !== null) return { kind, index: found.index, length: found.url.length };
    if (
      running &&
      ((ipv4(found.host) !== null && !found.host.startsWith('127.')) || THROWAWAY_TLD.test(found.host) || imitatesVendor(found.host))
    ) {
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
