import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbort } from '../api/client';

export type Resource<T> =
  | { status: 'loading'; data: T | undefined; error: undefined }
  | { status: 'ready'; data: T; error: undefined }
  | { status: 'error'; data: T | undefined; error: unknown };

export interface ResourceHandle<T> {
  resource: Resource<T>;
  /** Loads again (after a change the page made itself). */
  reload: () => void;
  /** Replaces the data in place, e.g. with the record a write returned. */
  setData: (update: (current: T | undefined) => T | undefined) => void;
}

/**
 * Loads data for a view and reloads whenever `deps` change. The previous request is aborted, so a slow
 * answer to an old query never overwrites a newer one; the last data stays visible while a new load
 * runs, so pages do not flash empty between searches.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): ResourceHandle<T> {
  const [resource, setResource] = useState<Resource<T>>({ status: 'loading', data: undefined, error: undefined });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setResource((current) => ({ status: 'loading', data: current.data, error: undefined }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResource({ status: 'ready', data, error: undefined });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        setResource((current) => ({ status: 'error', data: current.data, error }));
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const setData = useCallback((update: (current: T | undefined) => T | undefined) => {
    setResource((current) => {
      const data = update(current.data);
      return data === undefined ? current : { status: 'ready', data, error: undefined };
    });
  }, []);
  return { resource, reload, setData };
}
