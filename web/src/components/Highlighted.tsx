import type { ReactNode } from 'react';

/** `text` with the spans a search matched (`[start, end)` in UTF-16 code units) marked. */
export function Highlighted({ text, spans }: { text: string; spans: readonly (readonly [number, number])[] | undefined }) {
  if (spans === undefined || spans.length === 0) return <>{text}</>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    // Spans come sorted and apart; anything else (a stale answer for an edited text) is skipped, not drawn wrong.
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}
