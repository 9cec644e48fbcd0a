import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { installAuth } from './http/plugins/auth.js';
import { installCallLog } from './http/plugins/call-log.js';
import { installErrorHandling } from './http/plugins/errors.js';
import { installMetrics } from './http/plugins/metrics.js';
import { installOpenApi } from './http/plugins/openapi.js';
import { installRateLimits } from './http/plugins/rate-limit.js';
import { installValidators } from './http/plugins/validation.js';
import { adminRoutes } from './http/routes/admin.js';
import { authRoutes } from './http/routes/auth.js';
import { feedbackRoutes } from './http/routes/feedback.js';
import { logRoutes } from './http/routes/logs.js';
import { meRoutes } from './http/routes/me.js';
import { operationRoutes } from './http/routes/operations.js';
import { skillRoutes } from './http/routes/skills.js';
import { versionRoutes } from './http/routes/versions.js';
import { newId } from './lib/ids.js';
import type { Services } from './services.js';
import { VERSION } from './version.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  config: Config;
  services: Services;
}

/** Builds the HTTP application around ready services; listening and shutdown belong to the caller. */
export async function buildApp({ config, services }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    genReqId: () => newId(),
    // Request ids are ours to make: a client-chosen id could collide with another call's log entry.
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Hooks that never wait are written in callback style: an async hook costs a promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // Node closes idle keep-alive sockets when the server closes, but a socket busy with a request at that
  // moment would otherwise stay open for the whole keep-alive timeout; telling its client to close lets
  // a shutdown finish as soon as the last answer is sent.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Only JSON is spoken (multipart arrives with uploads); text/plain bodies get a 415 rather than a confusing 400.
  app.removeContentTypeParser('text/plain');
  installValidators(app);
  installErrorHandling(app);
  const metrics = installMetrics(app);
  await app.register(cookie);
  installAuth(app, services, config);
  installCallLog(app, services.recorder);
  // After auth: the writes bucket is counted per user, so the limiter needs request.actor.
  await installRateLimits(app, config);
  await installOpenApi(app, config.publicUrl, VERSION);

  const deps = { services, config };
  await app.register(operationRoutes, { ...deps, metrics });
  await app.register(authRoutes, deps);
  await app.register(meRoutes, deps);
  await app.register(skillRoutes, deps);
  await app.register(versionRoutes, deps);
  await app.register(feedbackRoutes, deps);
  await app.register(logRoutes, deps);
  await app.register(adminRoutes, deps);
  return app;
}
