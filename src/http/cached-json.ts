import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';

export interface Serialized {
  /** Bytes, not text: a string would be measured and encoded again on every send. */
  body: Buffer;
  etag: string;
}

/**
 * The serialised form of answers that the domain reuses (see publicCache): the same object serialises to the
 * same text, so the text and its ETag are kept beside the object for as long as the object lives.
 */
const serialized = new WeakMap<object, Serialized>();

/**
 * Whether an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks for GET and HEAD). Only that
 * header is handed over: a request with `Cache-Control: no-cache` that names the current ETag still gets its 304.
 */
export const etagMatches = (header: string | undefined, etag: string): boolean => fresh({ 'if-none-match': header }, { etag });

/**
 * Sends `payload` as JSON through the route's response schema, reusing the text made for the same `source`
 * object before, with a strong ETag and `304 Not Modified` for a matching `If-None-Match`. `source` must be an
 * object the domain keeps only until a change clears its caches.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, source: object, payload: () => object): FastifyReply {
  let entry = serialized.get(source);
  if (entry === undefined) {
    // The route's response schema serialises to a string.
    const body = Buffer.from(reply.serialize(payload()) as string);
    entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    serialized.set(source, entry);
  }
  reply.header('etag', entry.etag);
  if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(entry.body);
}

/**
 * Sends an answer made for this request alone (a list or search page) as JSON through the route's response
 * schema, with a strong ETag and `304 Not Modified` for a matching `If-None-Match`. Nothing is kept: an entry
 * per request in the map above would only make work for the collector, and a string body is written to the
 * socket without a buffer of its own (a buffer this size lives outside the heap, and every one made counts
 * towards the next full collection).
 */
export function sendFreshJson(request: FastifyRequest, reply: FastifyReply, payload: object): FastifyReply {
  const body = reply.serialize(payload) as string;
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  reply.header('etag', etag);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}
