import { ConnectionError, problemFrom, UploadSourceError } from './errors.js';

/** How requests authenticate: an API key (`Authorization: Bearer`), a session token (the cookie), or neither. */
export type Credentials = { apiKey: string } | { session: string } | null;

export interface ClientOptions {
  /** The registry's address, e.g. `https://skills.example.com` (a path prefix before `/v1` is kept). */
  baseUrl: string | URL;
  /** An API key (`skreg_…`), sent as `Authorization: Bearer`. */
  apiKey?: string | null;
  /** A session token, sent as the `session_token` cookie (what `auth.login` obtains). */
  session?: string | null;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
  /** Sent as `User-Agent`. */
  userAgent?: string;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** A JSON body (sent with `Content-Type: application/json`). */
  json?: unknown;
  /** A raw body; `duplex: 'half'` is set for streams. */
  body?: ReadableStream<Uint8Array> | Uint8Array | string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Statuses besides 2xx that are answers rather than errors (304 for conditional requests). */
  accept?: readonly number[];
}

const SESSION_COOKIE = 'session_token';

/**
 * Encodes one path parameter; `*` paths (files inside a package) keep their slashes. A scoped skill's name is one
 * parameter: `@acme/pdf-tools` goes out as `%40acme%2Fpdf-tools`, which the registry reads as the name.
 */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
export function filePath(value: string): string {
  return value.split('/').map(encodeURIComponent).join('/');
}

function causeOfType<T extends Error>(error: unknown, type: new (...args: never[]) => T): T | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof type) return current;
  }
  return null;
}

/** Sends requests to one registry and turns every error answer into a ProblemError. */
export class Transport {
  readonly baseUrl: URL;
  credentials: Credentials;
  private readonly fetchImpl: typeof fetch;
  private readonly userAgent: string | undefined;

  constructor(options: ClientOptions) {
    const base = new URL(String(options.baseUrl));
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new TypeError(`The registry address must be http or https, not ${base.protocol}`);
    base.search = '';
    base.hash = '';
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.baseUrl = base;
    this.credentials = options.apiKey ? { apiKey: options.apiKey } : options.session ? { session: options.session } : null;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.userAgent = options.userAgent;
  }

  /** The registry's address as people write it (no trailing slash), for messages. */
  get address(): string {
    return this.baseUrl.href.replace(/\/$/, '');
  }

  url(path: string, query?: Record<string, QueryValue>): URL {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url;
  }

  /** Sends a request; resolves with the response when its status is 2xx (or listed in `accept`). */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...(this.userAgent ? { 'user-agent': this.userAgent } : {}) };
    const credentials = this.credentials;
    if (credentials && 'apiKey' in credentials) headers.authorization = `Bearer ${credentials.apiKey}`;
    else if (credentials && 'session' in credentials) headers.cookie = `${SESSION_COOKIE}=${credentials.session}`;
    let body: RequestInit['body'];
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      body = options.body;
    }
    Object.assign(headers, options.headers);
    const url = this.url(path, options.query);
    // Redirects are not followed by fetch: a registry that moved is reported with its new address, so credentials are
    // never replayed to another origin and a streamed body is never half-sent twice (moved skills: see below).
    const init: RequestInit & { duplex?: 'half' } = { method, headers, redirect: 'manual' };
    if (body !== undefined) init.body = body;
    if (body instanceof ReadableStream) init.duplex = 'half';
    if (options.signal) init.signal = options.signal;
    let response = await this.fetchOnce(url, init, options.signal);
    // A skill that moved or was renamed answers its old name with 308 to its new one, on this same registry: followed
    // (a few times at most) when nothing would be sent twice but the request itself, so lock files and links keep working.
    for (let hops = 0; response.status === 308 && hops < 3 && !(body instanceof ReadableStream); hops += 1) {
      const next = this.sameRegistry(response.headers.get('location'), url);
      if (next === null) break;
      await response.body?.cancel();
      response = await this.fetchOnce(next, init, options.signal);
    }
    if (response.ok || options.accept?.includes(response.status)) return response;
    throw await problemFrom(response);
  }

  private async fetchOnce(url: URL, init: RequestInit, signal: AbortSignal | undefined): Promise<Response> {
    try {
      return await this.fetchImpl(url, init);
    } catch (error) {
      if (signal?.aborted) throw error;
      // fetch reports a failing request body as its own failure: the body's error is the one to report.
      const local = causeOfType(error, UploadSourceError);
      if (local) throw local;
      throw new ConnectionError(this.address, error);
    }
  }

  /** A redirect's target when it is a skill's path on this registry (same origin, under its API); null otherwise. */
  private sameRegistry(location: string | null, from: URL): URL | null {
    if (location === null) return null;
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      return null;
    }
    const skills = new URL('v1/skills/', this.baseUrl);
    return target.origin === this.baseUrl.origin && target.pathname.startsWith(skills.pathname) ? target : null;
  }

  /** Sends a request and parses its JSON answer. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options);
    return (await response.json()) as T;
  }

  /** Sends a request whose answer has no body (204). */
  async empty(method: string, path: string, options: RequestOptions = {}): Promise<void> {
    const response = await this.send(method, path, options);
    await response.body?.cancel();
  }

  /** The session token a sign-in answer set, if any. */
  static sessionFrom(response: Response): string | null {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) return pair.slice(at + 1).trim();
    }
    return null;
  }
}
