import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedActor } from '../../domain/actor.js';
import type { CallLogRecorder } from '../../domain/logs/recorder.js';
import { idTime } from '../../lib/ids.js';

/** One finished authenticated call, as the HTTP layer saw it. */
interface CallRecord {
  id: string;
  actor: AuthenticatedActor;
  method: string;
  url: string;
  /** The route pattern, or null when no route matched. */
  route: string | null;
  statusCode: number;
  elapsedMs: number;
  ip: string | null;
  userAgent: string | string[] | undefined;
}

export interface CallLogger {
  /** Records the call a finished Fastify request made, when it carried valid credentials. */
  recordReply(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Records every /v1 request made with valid credentials once its response has finished (a flood of refused calls
 * is summarised by the recorder, see domain/logs/refusals.ts). Recording is a
 * push onto an in-memory buffer; the database write happens later, in a batch, off every request's path.
 */
export function callLogger(recorder: CallLogRecorder): CallLogger {
  function record(call: CallRecord): void {
    // The ClawHub protocol's calls (`clawhub` command line) are the API's too.
    if (!call.url.startsWith('/v1/') && !call.url.startsWith('/api/v1/') && !call.url.startsWith('/api/cli/')) return;
    const { actor, userAgent } = call;
    recorder.record({
      request_id: call.id,
      user_id: actor.user.id,
      method: call.method,
      path: call.url,
      route: call.route,
      status_code: call.statusCode,
      duration_ms: call.elapsedMs,
      ip: call.ip,
      // Cut to the stored lengths by the recorder (domain/logs/stored-entry.ts).
      user_agent: typeof userAgent === 'string' ? userAgent : null,
      auth: actor.kind,
      api_key_id: actor.kind === 'api_key' ? actor.apiKeyId : null,
      // When the call arrived (its request id is made then): the time filters of GET /v1/logs ask when calls were
      // made, and calls listed newest first must follow their ids' order, a tie-break included.
      created_at: idTime(call.id),
    });
  }
  return {
    recordReply(request, reply) {
      const actor = request.actor;
      // A request refused before authentication ran (a malformed URL, a closing server) has no actor yet.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (actor === null || actor === undefined || actor.kind === 'anonymous') return;
      record({
        id: request.id,
        actor,
        method: request.method,
        url: request.url,
        route: request.routeUrl,
        statusCode: reply.statusCode,
        elapsedMs: reply.elapsedTime,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
    },
  };
}
