import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebounced } from './useDebounced';

/**
 * A text box bound to one URL query parameter: what is typed reaches the URL (and so the query) once
 * typing pauses, replacing the history entry rather than adding one per keystroke; going back or
 * forward puts the URL's value back into the box. Any change resets `page`.
 */
export function useSearchParamText(name: string, delay = 250): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const current = params.get(name) ?? '';
  const [text, setText] = useState(current);
  const settled = useDebounced(text, delay);

  useEffect(() => {
    if (settled.trim() === current) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (settled.trim() === '') next.delete(name);
        else next.set(name, settled.trim());
        next.delete('page');
        return next;
      },
      { replace: true },
    );
    // Only a settled change of the text writes to the URL.
  }, [settled]);

  useEffect(() => {
    if (current !== settled.trim()) setText(current);
    // Only a change of the URL (back, forward, a link) writes to the box.
  }, [current]);

  return [text, setText];
}

/**
 * The URL's query parameters, and a setter of one of them (null or an empty value removes it); setting anything but `page` goes
 * back to the first page, since the old page number belongs to another listing.
 */
export function useSearchParam(): [URLSearchParams, (name: string, value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = (name: string, value: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
      if (name !== 'page') next.delete('page');
      return next;
    });
  return [params, set];
}

/** A positive page number from the URL, 1 when absent or malformed. */
export function pageParam(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
