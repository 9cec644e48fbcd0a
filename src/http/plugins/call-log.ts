import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CallLogRecorder } from '../../domain/logs/recorder.js';

const USER_AGENT_MAX = 512;
const PATH_MAX = 2048;

/**
 * Records every /v1 request made with valid credentials once its response has finished. Recording is a
 * push onto an in-memory buffer; the database write happens later, in a batch, off every request's path.
 */
export function callLogger(recorder: CallLogRecorder): (request: FastifyRequest, reply: FastifyReply) => void {
  return (request, reply) => {
    const actor = request.actor;
    if (actor === null || actor === undefined || actor.kind === 'anonymous' || !request.url.startsWith('/v1/')) return;
    const userAgent = request.headers['user-agent'];
    recorder.record({
      request_id: String(request.id),
      user_id: actor.user.id,
      method: request.method,
      path: request.url.slice(0, PATH_MAX),
      route: request.routeOptions.url ?? null,
      status_code: reply.statusCode,
      duration_ms: reply.elapsedTime,
      ip: request.ip ?? null,
      user_agent: typeof userAgent === 'string' ? userAgent.slice(0, USER_AGENT_MAX) : null,
      auth: actor.kind,
      api_key_id: actor.kind === 'api_key' ? actor.apiKeyId : null,
      // When the call arrived: the time filters of GET /v1/logs ask when calls were made.
      created_at: Date.now() - reply.elapsedTime,
    });
  };
}
