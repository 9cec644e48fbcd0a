// Not @skill-registry/client: that one is built for Node (node:fs, node:crypto, streams for files and digests), and the console needs what it lacks: the session cookie, upload progress (XMLHttpRequest) and a 401 event.
import type { FieldProblem, Problem } from './types';

/** A failed call, carrying the registry's problem document (RFC 9457) or one made up for network failures. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
    this.name = 'ApiError';
  }
  get status(): number {
    return this.problem.status;
  }
  get code(): string {
    return this.problem.code;
  }
  get errors(): FieldProblem[] {
    return this.problem.errors ?? [];
  }
}

/** The message to show a person for any error: the problem's `detail` when the registry sent one. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.problem.detail;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Fired on every 401, so the session state learns at once that the sign-in has ended. */
export const UNAUTHENTICATED_EVENT = 'skreg:unauthenticated';

export type QueryValue = string | number | boolean | null | undefined;

export function withQuery(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

function localProblem(status: number, code: string, detail: string): Problem {
  return { type: 'about:blank', title: code, status, code, detail, request_id: '' };
}

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Problem).detail === 'string' &&
    typeof (value as Problem).status === 'number'
  );
}

/** A body that is not JSON (a proxy's HTML error page) counts as no body. */
function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Turns a non-2xx answer into an ApiError, keeping the registry's problem document when there is one. */
function errorFrom(status: number, statusText: string, text: string): ApiError {
  const body = parseBody(text);
  if (isProblem(body)) return new ApiError(body);
  return new ApiError(localProblem(status, `http_${status}`, `The registry answered ${status} ${statusText}.`.replace(/ \.$/, '.')));
}

function notify(status: number): void {
  if (status === 401) window.dispatchEvent(new Event(UNAUTHENTICATED_EVENT));
}

const NETWORK_DETAIL = 'The registry could not be reached. Check the connection and try again.';

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * One JSON call to the API. The browser sends the session cookie (same origin) and, for writes, an
 * `Origin` header, which is what the registry's CSRF check looks for; nothing else identifies the caller.
 */
export async function request<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const init: RequestInit = { method, headers, credentials: 'same-origin', signal: options.signal };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), init);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(localProblem(0, 'network_error', NETWORK_DETAIL));
  }
  const text = await response.text();
  if (!response.ok) {
    notify(response.status);
    throw errorFrom(response.status, response.statusText, text);
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The text of a file (SKILL.md, a file preview); errors as for `request`. */
export async function fetchText(path: string, signal?: AbortSignal): Promise<{ text: string; contentType: string }> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(localProblem(0, 'network_error', NETWORK_DETAIL));
  }
  const text = await response.text();
  if (!response.ok) {
    notify(response.status);
    throw errorFrom(response.status, response.statusText, text);
  }
  return { text, contentType: response.headers.get('content-type') ?? '' };
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * A multipart upload with progress. fetch() reports no upload progress in browsers; XMLHttpRequest does.
 * The browser sets the multipart boundary itself, so no Content-Type is set here.
 */
export function upload<T>(path: string, form: FormData, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve((xhr.responseText === '' ? undefined : JSON.parse(xhr.responseText)) as T);
        return;
      }
      notify(xhr.status);
      reject(errorFrom(xhr.status, xhr.statusText, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError(localProblem(0, 'network_error', NETWORK_DETAIL)));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The upload was cancelled.', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
