import { tokenize, unstemmed, type Token } from './analysis.js';

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
 * Words are compared as written, so a result is never stemmed again to be highlighted.
 */
export function highlight(
  document: { name: string; description: string },
  matched: { surfaces: ReadonlySet<string>; prefix: string | null },
): Highlights {
  const { prefix, surfaces } = matched;
  const hit = (token: Token) => surfaces.has(token.surface) || (prefix !== null && !token.gram && token.surface.startsWith(prefix));
  return { name: spans(tokenize(document.name, unstemmed), hit), description: spans(tokenize(document.description, unstemmed), hit) };
}
