import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedActor } from '../domain/actor.js';
import { newId } from '../lib/ids.js';
import { etagMatches, sharedAnswerOf } from './cached-json.js';
import { bearerToken } from './plugins/auth.js';
import type { CallRecord } from './plugins/call-log.js';
import type { CountedRequest } from './plugins/rate-limit-windows.js';

/**
 * How long a remembered answer is replayed. The answer came from the domain's public cache, which may have held it
 * for up to two seconds, so without the invalidation bus another node's change shows here within 2.5 s (with it,
 * at once, as in the public cache itself).
 */
export const REPLAY_TTL_MS = 500;
/** Entries are a few kilobytes (a page of 20 skills is ~15 KB); the oldest goes first past this many. */
const MAX_ENTRIES = 1_000;

interface Entry {
  /** The route pattern, for metrics and the call log. */
  route: string;
  etag: string;
  /** The 200 answer's headers as sent (without the per-request id), flat as `writeHead` takes them. */
  ok: string[];
  /** The same without the body's headers, for `304 Not Modified`. */
  notModified: string[];
  body: Buffer;
  /** `performance.now()` past which the entry is no longer used. */
  until: number;
}

export interface ReplayDeps {
  /** Counts one answer, as the app's onResponse hook does for every other. */
  observe(method: string, route: string, statusCode: number, elapsedMs: number): void;
  /** The caller of an API key authenticated moments ago, or null (the request then goes through the app). */
  recallApiKey(key: string): AuthenticatedActor | null;
  /** Writes one call-log entry, as the app's onResponse hook does for every other authenticated call. */
  recordCall(call: CallRecord): void;
  log: FastifyBaseLogger;
  /** Whether each request is logged as it arrives and as it completes. */
  logRequests: boolean;
  /** False when the app derives the client address from proxy headers: calls by API key then go through the app. */
  socketIsClient: boolean;
  /**
   * With rate limits: counts the read against the client's allowance and returns its headers, or null when the
   * allowance is used up (the app then answers, with its 429).
   */
  countRead: ((ip: string) => CountedRequest | null) | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The replay cache's generation when the request arrived (see `replayCache().remember`). */
    replayGeneration: number;
  }
}

const BODY_HEADERS = new Set(['content-type', 'content-length']);
/** Headers made afresh for every answer, never replayed. */
const PER_REQUEST_HEADERS = new Set(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']);
const NO_HEADERS: string[] = [];

/**
 * Replays public JSON answers to repeated reads before Fastify routes them. Most of a busy registry's traffic
 * asks the same few URLs (the front page, popular skills). Once the app has answered one of them from the
 * domain's public cache with an answer every caller would get (`sendJson`'s `shared`: published content), the
 * same bytes, headers and ETag are written straight back to later GETs and HEADs of that URL, anonymous or with a
 * recently seen API key, with a fresh request id, the metrics, the call log and the request log lines the app
 * would write. Requests with a cookie (a session may be an admin's, who sees more), unknown keys and everything
 * else go through the app as before.
 *
 * Entries live for `REPLAY_TTL_MS` and are dropped at once with the domain caches on every change (`clear`).
 * With rate limits, a replayed answer is counted in the same in-process counters as the app's reads and carries
 * fresh RateLimit headers; a request over the limit goes to the app, which refuses it. The app leaves the cache
 * unused when its limits are counted in Redis or per address from proxy headers, and stops it when closing, so a
 * request arriving then gets the app's own 503.
 */
export function replayCache() {
  const entries = new Map<string, Entry>();
  let deps: ReplayDeps | null = null;
  /** Counts clears: an answer begun before the latest one may hold what that change replaced. */
  let generation = 0;

  function answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (deps === null) return false;
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url!;
    const entry = entries.get(url);
    if (entry === undefined) return false;
    const started = performance.now();
    if (started >= entry.until) {
      entries.delete(url);
      return false;
    }
    const headers = req.headers;
    // A session may be an admin's, who sees more; a cookie is left to the app, which also clears stale ones.
    if (headers.cookie !== undefined) return false;
    let actor: AuthenticatedActor | null = null;
    if (headers.authorization !== undefined) {
      const key = deps.socketIsClient ? bearerToken(headers.authorization) : null;
      actor = key === null ? null : deps.recallApiKey(key);
      if (actor === null) return false;
    }
    let limits = NO_HEADERS;
    if (deps.countRead !== null) {
      const counted = deps.countRead(req.socket.remoteAddress ?? '');
      if (counted === null) return false;
      limits = ['ratelimit-limit', String(counted.limit), 'ratelimit-remaining', String(counted.remaining), 'ratelimit-reset', String(counted.reset)];
    }
    const id = newId();
    const statusCode = etagMatches(headers['if-none-match'], entry.etag) ? 304 : 200;
    const log = deps.logRequests ? deps.log.child({ reqId: id }) : null;
    log?.info({ req: { method, url, host: headers.host, ip: req.socket.remoteAddress, socket: req.socket, headers } }, 'incoming request');
    res.writeHead(statusCode, [...(statusCode === 200 ? entry.ok : entry.notModified), ...limits, 'x-request-id', id]);
    res.end(statusCode === 200 && method === 'GET' ? entry.body : undefined);
    const elapsed = performance.now() - started;
    deps.observe(method, entry.route, statusCode, elapsed);
    if (actor !== null) {
      const userAgent = headers['user-agent'];
      deps.recordCall({ id, actor, method, url, route: entry.route, statusCode, elapsedMs: elapsed, ip: req.socket.remoteAddress ?? null, userAgent });
    }
    log?.info({ res: { statusCode }, responseTime: elapsed }, 'request completed');
    return true;
  }

  /** Forgets every entry, and any answer still being made that began before. */
  function clear(): void {
    generation += 1;
    entries.clear();
  }

  return {
    /** Starts replaying, with what an answer needs besides its bytes. */
    start(startDeps: ReplayDeps): void {
      deps = startDeps;
    },
    /** Stops replaying (the app is closing) and forgets every entry. */
    stop(): void {
      deps = null;
      clear();
    },
    /** Called with the domain caches on every change. */
    clear,
    /** To be stamped on each request as it arrives (`request.replayGeneration`). */
    get generation(): number {
      return generation;
    },
    /** The server's request listener: a replayed answer, or the app's handler. */
    wrap(handler: RequestListener): RequestListener {
      return (req, res) => {
        if (!answer(req, res)) handler(req, res);
      };
    },
    /**
     * Called once a response has gone out: keeps a 200 that `sendJson` marked as the same for every caller,
     * with the headers exactly as they were sent. Not from a request with a cookie: its answer may clear a
     * stale session cookie, which is that browser's alone.
     */
    remember(request: FastifyRequest, reply: FastifyReply): void {
      if (deps === null || reply.statusCode !== 200 || request.replayGeneration !== generation) return;
      const shared = sharedAnswerOf(reply);
      if (shared === undefined) return;
      if (request.headers.cookie !== undefined) return;
      const route = request.routeOptions.url;
      if (route === undefined) return;
      const ok: string[] = [];
      const notModified: string[] = [];
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (PER_REQUEST_HEADERS.has(name) || value === undefined) continue;
        const text = String(value);
        ok.push(name, text);
        if (!BODY_HEADERS.has(name)) notModified.push(name, text);
      }
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(request.url, { route, etag: shared.etag, ok, notModified, body: shared.body, until: performance.now() + REPLAY_TTL_MS });
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type ReplayCache = ReturnType<typeof replayCache>;
