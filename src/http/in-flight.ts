import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';

/** One request still being answered, as a shutdown reports it. */
export interface InFlightRequest {
  id: string;
  method: string;
  route: string;
  /** Bytes written to the client so far for this request (its headers included). */
  bytesSent: number;
  /** Milliseconds since the request arrived. */
  ageMs: number;
}

type Current = Pick<InFlightRequest, 'id' | 'method' | 'route'> & { bytesBefore: number; startedAt: number };

const current = Symbol('skreg.currentRequest');
type TrackedSocket = Socket & { [current]?: Current | undefined };

/**
 * What the server is answering right now, for a shutdown to say what it waits for and what it cut. It costs a
 * request two property writes: the connection holds its current request (a connection answers one at a time), and
 * the set of open connections is kept by the server's `connection` event, not per request.
 */
export function inFlightTracker(app: FastifyInstance) {
  const sockets = new Set<TrackedSocket>();
  app.server.on('connection', (socket: TrackedSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return {
    /** From the app's onRequest hook. */
    started(request: FastifyRequest): void {
      const socket = request.raw.socket as TrackedSocket | null;
      if (!socket) return;
      socket[current] = {
        id: request.id,
        method: request.method,
        route: request.routeUrl ?? request.url.split('?')[0] ?? '',
        bytesBefore: socket.bytesWritten,
        startedAt: Date.now(),
      };
    },
    /** From the app's onResponse hook: the whole answer is out. */
    finished(request: FastifyRequest): void {
      const socket = request.raw.socket as TrackedSocket | null;
      if (socket?.[current]?.id === request.id) socket[current] = undefined; // eslint-disable-line @typescript-eslint/no-unnecessary-condition -- a socket's slot is empty until its first request
    },
    /** The requests being answered now, oldest first. */
    list(): InFlightRequest[] {
      const now = Date.now();
      const out: InFlightRequest[] = [];
      for (const socket of sockets) {
        const request = socket[current];
        if (request === undefined || socket.destroyed) continue;
        out.push({
          id: request.id,
          method: request.method,
          route: request.route,
          bytesSent: socket.bytesWritten - request.bytesBefore,
          ageMs: now - request.startedAt,
        });
      }
      return out.sort((a, b) => b.ageMs - a.ageMs);
    },
  };
}

export type InFlightTracker = ReturnType<typeof inFlightTracker>;

const trackers = new WeakMap<FastifyInstance, InFlightTracker>();

/** The tracker of an app built by buildApp. */
export function inFlightOf(app: FastifyInstance): InFlightTracker | undefined {
  return trackers.get(app);
}

export function registerInFlight(app: FastifyInstance, tracker: InFlightTracker): void {
  trackers.set(app, tracker);
}
