import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.js';

/** What a client refused for too many uploads at once is told to wait. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Caps the package uploads (and validations) one client has in flight: each holds a temporary file and a share of
 * the disk, and a client sending many bodies slowly must not hold them all. A client is the signed-in user (all
 * their keys and sessions together), or the address of an anonymous caller. A slot is held until the answer has
 * gone out or the connection closed, however the request ends.
 */
export function uploadSlots(perClient: number) {
  const inFlight = new Map<string, number>();

  return {
    /** Takes a slot for the request's client, or throws 429 `too_many_uploads`. */
    acquire(request: FastifyRequest, reply: FastifyReply): void {
      const actor = request.actor;
      const client = actor.kind === 'anonymous' ? `ip:${request.ip}` : `user:${actor.user.id}`;
      const held = inFlight.get(client) ?? 0;
      if (held >= perClient) {
        throw new AppError(
          429,
          'too_many_uploads',
          `This client already has ${held} uploads in progress, the most the registry takes at once (UPLOADS_PER_CLIENT); wait for one to finish.`,
          undefined,
          RETRY_AFTER_SECONDS,
        );
      }
      inFlight.set(client, held + 1);
      let released = false;
      // 'close' comes once the answer is out, or when the connection goes first: every ending passes here once.
      reply.raw.once('close', () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(client) ?? 1) - 1;
        if (left > 0) inFlight.set(client, left);
        else inFlight.delete(client);
      });
    },
    /** Uploads in flight for every client together (for tests and metrics). */
    get total(): number {
      let sum = 0;
      for (const held of inFlight.values()) sum += held;
      return sum;
    },
  };
}
