import { tokenize, type Stem, type Token } from './analysis.js';

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

/** Where the words a query matched stand in a document's name and description. */
export function highlight(
  document: { name: string; description: string },
  matched: { terms: ReadonlySet<string>; prefix: string | null },
  stem: Stem,
): Highlights {
  const { prefix } = matched;
  const hit = (token: Token) => matched.terms.has(token.term) || (prefix !== null && !token.gram && token.surface.startsWith(prefix));
  return { name: spans(tokenize(document.name, stem), hit), description: spans(tokenize(document.description, stem), hit) };
}
