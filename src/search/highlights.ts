import { ASCII, asciiRuns, isUpper, splitRun, tokenize, unstemmed, type Token } from './analysis.js';

/** Matched spans of a result's name and description: `[start, end)` in UTF-16 code units, in order, merged. */
export interface Highlights {
  name: [number, number][];
  description: [number, number][];
}

function spans(tokens: Token[], hit: (token: Token) => boolean): [number, number][] {
  const found: [number, number][] = [];
  for (const token of tokens) {
    if (!hit(token)) continue;
    const last = found.at(-1);
    // Overlapping character pairs of one unspaced run merge into one span.
    if (last !== undefined && token.start <= last[1]) last[1] = Math.max(last[1], token.end);
    else found.push([token.start, token.end]);
  }
  return found;
}

/**
 * Where the words a query matched stand in a document's name and description: the words whose folded form is
 * one the query matched (every word indexed under a matched term), and while typing, those the last word starts.
 * Words are compared as written, so a result is never stemmed again to be highlighted. Made once per query, for
 * the documents of its page.
 */
export function highlighter(matched: {
  surfaces: ReadonlySet<string>;
  prefix: string | null;
}): (document: { name: string; description: string }) => Highlights {
  const { prefix, surfaces } = matched;
  const hit = (token: Token) => surfaces.has(token.surface) || (prefix !== null && !token.gram && token.surface.startsWith(prefix));
  // What an ASCII word must start with, or how long it must be, to be worth reading as a string (see asciiSpans).
  const firsts = new Set<number>();
  const lengths = new Set<number>();
  for (const surface of surfaces) {
    firsts.add(surface.charCodeAt(0));
    lengths.add(surface.length);
  }
  const sieve: Sieve = { firsts, lengths, prefix: prefix !== null && ASCII.test(prefix) ? prefix : null };
  if (prefix !== null) firsts.add(prefix.charCodeAt(0));
  const of = (text: string) => (ASCII.test(text) ? asciiSpans(text, sieve, hit) : spans(tokenize(text, unstemmed), hit));
  return (document) => ({ name: of(document.name), description: of(document.description) });
}

interface Sieve {
  /** First characters of the matched words and of the prefix. */
  firsts: ReadonlySet<number>;
  /** Lengths of the matched words. */
  lengths: ReadonlySet<number>;
  /** The prefix typed, when it is ASCII (an ASCII word can start with no other). */
  prefix: string | null;
}

/**
 * `spans` of an ASCII text, found as `tokenize` would find them but without making a token of every word: a page
 * of twenty results holds a few thousand words, and a token each was most of what a search allocated. A word whose
 * first letter no matched word starts with, or whose length no matched word has and which the prefix does not
 * start, is passed over unread; a word with a capital inside (camelCase) is
 * split by `splitRun`, as the index split it.
 */
function asciiSpans(text: string, sieve: Sieve, hit: (token: Token) => boolean): [number, number][] {
  const { firsts, lengths, prefix } = sieve;
  const found: [number, number][] = [];
  const mark = (start: number, end: number) => {
    const last = found.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else found.push([start, end]);
  };
  asciiRuns(text, (start, end, camel) => {
    if (camel) {
      for (const token of splitRun(text.slice(start, end), start, unstemmed)) if (hit(token)) mark(token.start, token.end);
      return;
    }
    const code = text.charCodeAt(start);
    if (!firsts.has(isUpper(code) ? code + 32 : code)) return;
    if (!lengths.has(end - start) && (prefix === null || !startsFolded(text, start, end, prefix))) return;
    const surface = text.slice(start, end).toLowerCase();
    if (hit({ surface, term: surface, start, end, gram: false })) mark(start, end);
  });
  return found;
}

/** Whether `text[start, end)`, lower-cased, starts with the ASCII `prefix`. */
function startsFolded(text: string, start: number, end: number, prefix: string): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) {
    const code = text.charCodeAt(start + i);
    if ((isUpper(code) ? code + 32 : code) !== prefix.charCodeAt(i)) return false;
  }
  return true;
}
