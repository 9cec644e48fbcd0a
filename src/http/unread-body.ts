import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A body declared at most this large is read to its end (and thrown away) after an early answer, so the
 * connection serves the client's next request; reading it costs less than a new connection would.
 */
export const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * Settles a request answered before its body was read to the end (a refused upload, a 401 before the body, a
 * full disk): left alone, the unread bytes sit in front of the connection's next request, and a keep-alive
 * client waits for an answer that never comes.
 *
 * A body declared at most DRAIN_LIMIT_BYTES is read on and discarded, and the connection stays open. A larger or
 * chunked one gets `Connection: close`; it is still read while the answer goes out (closing a socket with unread
 * bytes resets it, and the client may lose the answer), and Node closes the connection once the answer is out.
 * Either way the server's idle and request time limits bound how long the rest may take.
 */
export function settleUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  // `complete` is false only on a real socket's request whose body has not all arrived; injected requests and
  // bodies read to the end have nothing left in front of the next request.
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  const declared = Number(raw.headers['content-length']);
  if (!(Number.isSafeInteger(declared) && declared <= DRAIN_LIMIT_BYTES) && !reply.sent) reply.header('connection', 'close');
  // Whatever was reading the body (the multipart parser) has given up on it; the rest goes nowhere.
  raw.unpipe();
  raw.removeAllListeners('data');
  raw.resume();
}
