import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AppError } from '../domain/errors.js';

/** `BODY_MIN_RATE_BYTES` per `BODY_MIN_RATE_WINDOW_MS`; no bytes means no minimum. */
export interface BodyRate {
  bytes: number;
  windowMs: number;
}

/**
 * A minimum rate for request bodies. The idle limit cuts a body that stops; a body that trickles in (ten bytes
 * every few seconds) is never idle, and would hold its connection, its upload slot and its temporary file until
 * the request time limit. Here every request with a body is looked at once a window until its body has arrived:
 * fewer than `bytes` read from its connection in the window, and the request is cut.
 *
 * Bytes are read from the socket's own count, so nothing is added to the body's stream. A window in which the
 * server did not take what the client sent is not the client's: while the request holds unread bytes, or its
 * socket is paused (the reader pushes back), or the check itself ran late (this process was busy), the window
 * starts again.
 *
 * A cut request's reader (the JSON parser, the multipart parser) is handed a 408 `body_too_slow`, which fails the
 * route and is answered as any error, with `Connection: close`: the connection closes once the answer is out, the
 * upload slot and the temporary file are let go as for any failed upload, and the answer counts in the request
 * metrics as a 408 (an answer that does not go out within a window is given up: the connection closes anyway). A
 * request answered already (its body drained after an early refusal) has its connection closed.
 * Before any reader takes the body, the window starts again: the idle limit covers a body that never starts.
 */
export function bodyRateGuard(rate: BodyRate) {
  if (rate.bytes === 0) return null;
  const seconds = rate.windowMs / 1000;
  const tooSlow = () =>
    new AppError(
      408,
      'body_too_slow',
      `The request body arrived at fewer than ${rate.bytes} bytes in ${seconds} s (BODY_MIN_RATE_BYTES per BODY_MIN_RATE_WINDOW_MS); ` +
        'the connection is closed. Send the request again over a faster or steadier connection.',
    );

  return {
    /** From the app's onRequest hook: watches the request's body until it has all arrived. */
    watch(request: FastifyRequest, reply: FastifyReply): void {
      const raw = request.raw;
      const socket = raw.socket as Socket | null;
      // Injected requests have no real socket (and their body at once); a body already read needs no watching.
      if (socket === null || typeof socket.bytesRead !== 'number' || raw.complete || !declaresBody(raw.headers)) return;
      let mark = socket.bytesRead;
      let due = performance.now() + rate.windowMs;
      const stop = () => {
        clearInterval(timer);
        raw.off('end', stop);
        socket.off('close', stop);
      };
      const timer = setInterval(() => {
        if (raw.complete || socket.destroyed) {
          stop();
          return;
        }
        const read = socket.bytesRead;
        const late = performance.now() - due > rate.windowMs / 2;
        due = performance.now() + rate.windowMs;
        const serverBehind = late || raw.readableLength > 0 || socket.isPaused();
        if (serverBehind || read - mark >= rate.bytes) {
          mark = read;
          return;
        }
        if (reply.raw.headersSent) {
          stop();
          socket.destroy();
          return;
        }
        // Nobody reads the body yet: there is no one to fail, and the route has not begun with it.
        if (raw.listenerCount('error') === 0) {
          mark = read;
          return;
        }
        stop();
        reply.header('connection', 'close');
        raw.emit('error', tooSlow());
        // The answer closes the connection once it is out; should none go out within a window, the connection goes.
        setTimeout(() => socket.destroy(), rate.windowMs).unref();
      }, rate.windowMs);
      timer.unref();
      // Stopped as soon as the body has all been read (or dropped), so a keep-alive connection's next request finds
      // nothing of this one left on its socket.
      raw.once('end', stop);
      socket.once('close', stop);
    },
  };
}

/** Whether the request says a body follows (a length above zero, or a chunked body). */
function declaresBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
