import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerOptions } from 'node:http';
import type { Config, Timeouts } from './config.js';
import { AppError } from './domain/errors.js';
import { installAuth } from './http/plugins/auth.js';
import { callLogger } from './http/plugins/call-log.js';
import { installErrorHandling, installNotFound } from './http/plugins/errors.js';
import { bodyRateGuard } from './http/body-rate.js';
import { inFlightTracker, registerInFlight } from './http/in-flight.js';
import { installJsonParser } from './http/json-body.js';
import { createMetrics } from './http/plugins/metrics.js';
import { installOpenApi } from './http/plugins/openapi.js';
import { installRateLimits } from './http/plugins/rate-limit.js';
import { installValidators, refuseNul } from './http/plugins/validation.js';
import { adminRoutes } from './http/routes/admin.js';
import { agentSkillRoutes } from './http/routes/agent-skills.js';
import { clawhubRoutes } from './http/routes/clawhub.js';
import { clawhubDeviceRoutes } from './http/routes/clawhub-device.js';
import { clawhubManageRoutes } from './http/routes/clawhub-manage.js';
import { clawhubPublishRoutes } from './http/routes/clawhub-publish.js';
import { nameAllowanceRoutes } from './http/routes/name-allowances.js';
import { authRoutes } from './http/routes/auth.js';
import { installConsole } from './http/routes/console.js';
import { feedbackRoutes } from './http/routes/feedback.js';
import { logRoutes } from './http/routes/logs.js';
import { reportRoutes } from './http/routes/reports.js';
import { meRoutes } from './http/routes/me.js';
import { joinScopedName } from './http/scoped-names.js';
import { orgRoutes } from './http/routes/orgs.js';
import { transferRoutes } from './http/routes/transfers.js';
import { operationRoutes } from './http/routes/operations.js';
import { skillRoutes } from './http/routes/skills.js';
import { versionRoutes } from './http/routes/versions.js';
import { scanRoutes } from './http/routes/scans.js';
import { changeRoutes } from './http/routes/changes.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import { notificationRoutes } from './http/routes/notifications.js';
import { newId } from './lib/ids.js';
import type { Services } from './services.js';
import { VERSION } from './version.js';

export const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  config: Config;
  services: Services;
  /** Metrics /metrics shows besides the process's and the requests' (the job runner's), in the text format. */
  moreMetrics?: () => Promise<string>;
}

/** Builds the HTTP application around ready services; listening and shutdown belong to the caller. */
export async function buildApp({ config, services, moreMetrics }: AppOptions): Promise<FastifyInstance> {
  const limits = serverTimeouts(config.timeouts);
  const app = Fastify({
    // A client that stalls must not hold a connection (and an upload's temporary file) for ever: Fastify's and
    // Node's own defaults let a slow body run without end.
    connectionTimeout: limits.connectionTimeout,
    requestTimeout: limits.requestTimeout,
    http: limits.http,
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    genReqId: () => newId(),
    // Request ids are ours to make: a client-chosen id could collide with another call's log entry.
    requestIdHeader: false,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    rewriteUrl: (request) => joinScopedName(request.url ?? '/'),
    // A request that arrives while the server closes is refused by the onRequest hook below, as problem+json.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Node closes idle keep-alive sockets when the server closes, but a socket busy with a request at that moment
  // would stay open for the whole keep-alive timeout. Once its answer is out it is idle too, and the next sweep
  // closes it (a request that slips in first gets a 503 with Connection: close), so a shutdown ends as soon as
  // the last answer is sent, at no cost to any request before it.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    const sweep = setInterval(() => app.server.closeIdleConnections(), 20);
    sweep.unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });

  // Only JSON is spoken (multipart arrives with uploads); text/plain bodies get a 415 rather than a confusing 400.
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);
  installValidators(app);
  installErrorHandling(app, (request, ref) => services.transfers.whereNow(request.actor, ref));
  const metrics = createMetrics();
  const authenticate = installAuth(app, services, config);
  const calls = callLogger(services.recorder);
  // What a shutdown waits for, and names when its grace period runs out (src/cli/serve.ts).
  const inFlight = inFlightTracker(app);
  registerInFlight(app, inFlight);
  const bodyRate = bodyRateGuard(config.bodyMinRate);
  const limiter = await installRateLimits(app, config);
  app.decorateRequest<string | null>('routeUrl', null);
  // One hook per stage, in callback style: every hook a stage holds, and every async hook, costs each request.
  app.addHook('onRequest', (request, reply, done) => {
    // Fastify builds `routeOptions` afresh on every read, so it is read once, here, for every later stage.
    const route = request.routeOptions;
    request.routeUrl = route.url ?? null;
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      done(shuttingDown());
      return;
    }
    inFlight.started(request);
    bodyRate?.watch(request, reply);
    // A request no route matched has no route config at all, whatever the type says.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    const access = route.config?.auth;
    // Credentials first, then the limit (writes are counted per user), then the input.
    authenticate(request, reply, access, (refused) => {
      if (limiter === null) {
        done(refused ?? refuseNul(request));
        return;
      }
      // A refused credential is counted too (the caller is then anonymous, so per address): guessing keys is
      // limited, and a client over its limit gets the 429 rather than the refusal.
      limiter.count(request, reply, (limited) => done(limited ?? refused ?? refuseNul(request)));
    });
  });
  app.addHook('onResponse', (request, reply, done) => {
    done();
    inFlight.finished(request);
    metrics.observe(request, reply);
    calls.recordReply(request, reply);
  });
  await installOpenApi(app, config.publicUrl, VERSION);

  const deps = { services, config };
  const exposition = async () => `${await metrics.exposition()}\n${moreMetrics ? await moreMetrics() : ''}`;
  await app.register(operationRoutes, { ...deps, metrics: { contentType: metrics.contentType, exposition } });
  await app.register(authRoutes, deps);
  await app.register(meRoutes, deps);
  await app.register(orgRoutes, deps);
  await app.register(transferRoutes, deps);
  await app.register(skillRoutes, deps);
  await app.register(versionRoutes, deps);
  await app.register(scanRoutes, deps);
  await app.register(feedbackRoutes, deps);
  await app.register(reportRoutes, deps);
  await app.register(logRoutes, deps);
  await app.register(adminRoutes, deps);
  await app.register(nameAllowanceRoutes, deps);
  await app.register(agentSkillRoutes, deps);
  await app.register(clawhubRoutes, deps);
  await app.register(clawhubPublishRoutes, deps);
  await app.register(clawhubDeviceRoutes, deps);
  await app.register(clawhubManageRoutes, deps);
  await app.register(changeRoutes, deps);
  await app.register(webhookRoutes, deps);
  await app.register(notificationRoutes, deps);
  // Last: the console answers only what no API route does.
  installNotFound(app, await installConsole(app, config));

  return app;
}

/**
 * The time limits of the HTTP server. `connectionTimeout` is the socket's idle limit: a connection that sends and
 * takes nothing for that long (a body that stopped arriving, a client that stopped reading) is closed.
 * `requestTimeout` bounds the whole request, headers and body; `headersTimeout` the headers alone. Node checks
 * the last two on a timer (every 30 s by default, which would let a short limit run far over): here a tenth of the
 * shorter limit, between 100 ms and 1 s.
 */
export function serverTimeouts(timeouts: Timeouts) {
  const checkEvery = Math.min(1_000, Math.max(100, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 10)));
  return {
    connectionTimeout: timeouts.bodyIdleMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: checkEvery,
    } satisfies ServerOptions,
  };
}

/** The answer to a request that reaches a node after its shutdown began: another node, or this one restarted, takes it. */
function shuttingDown(): AppError {
  return new AppError(503, 'shutting_down', 'This node is shutting down; send the request again.', undefined, 1);
}
