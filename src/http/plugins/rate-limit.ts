import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config, RateLimits } from '../../config.js';
import { AppError } from '../../domain/errors.js';
import { HttpProblem } from '../problem.js';

/** Every limit counts requests in a fixed window of one minute per key. */
const WINDOW_MS = 60_000;
/** Keys (bucket and client) counted in process at once; the least recently used go first. */
const LOCAL_KEYS_MAX = 20_000;

/** Redis keys are `skreg:rl:<bucket>:<subject>`, e.g. `skreg:rl:login:203.0.113.7`, `skreg:rl:writes:user:<id>`. */
export const REDIS_KEY_PREFIX = 'skreg:rl:';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bucket the rate limiter counted this request in; null until it is counted (or when it is exempt). */
    rateLimitAssignment: Assignment | null;
  }
}

export type BucketName = 'login' | 'feedback' | 'validate' | 'reports' | 'writes' | 'reads';

interface BucketRule {
  method: string;
  /** The route pattern (or, for a path no route matches, the path itself). */
  url: string;
  bucket: BucketName;
  /** Whom the bucket counts: the IP address, or the signed-in user (the address for a caller who is not). */
  per: 'ip' | 'user';
}

/** Endpoints with a bucket of their own; everything else is a write or a read. */
const RULES: readonly BucketRule[] = [
  { method: 'POST', url: '/v1/auth/login', bucket: 'login', per: 'ip' },
  { method: 'POST', url: '/v1/feedback', bucket: 'feedback', per: 'ip' },
  { method: 'POST', url: '/v1/packages/validate', bucket: 'validate', per: 'ip' },
  { method: 'POST', url: '/v1/skills/:skillId/reports', bucket: 'reports', per: 'user' },
];

/** Never limited: probes, metrics scrapes and the API description. */
const EXEMPT_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/v1/openapi.json']);
const EXEMPT_PREFIXES = ['/docs'];

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const WHAT: Record<BucketName, string> = {
  login: 'sign-in attempts per IP address',
  feedback: 'feedback submissions per IP address',
  validate: 'package validations per IP address',
  reports: 'reports of skills per user',
  writes: 'write requests per user',
  reads: 'requests per IP address',
};

interface Assignment {
  bucket: BucketName;
  /** Who the bucket is counted for: `203.0.113.7` or, for writes, `user:<id>` / `ip:<address>`. */
  subject: string;
  max: number;
}

function limitOf(bucket: BucketName, limits: RateLimits): number {
  switch (bucket) {
    case 'login':
      return limits.login;
    case 'reports':
      return limits.reports;
    case 'feedback':
    case 'validate':
      return limits.feedback;
    case 'writes':
      return limits.writes;
    case 'reads':
      return limits.reads;
  }
}

function pathOf(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern !== undefined) return pattern;
  // No route matched (a 404): the raw path, without query string or trailing slash, stands in for the pattern.
  const raw = request.url.split('?')[0] ?? '/';
  return raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
}

function isExempt(path: string): boolean {
  return EXEMPT_PATHS.has(path) || EXEMPT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Which bucket a request counts against, and for whom; null for the endpoints that are never limited. */
export function classify(request: FastifyRequest, limits: RateLimits): Assignment | null {
  const path = pathOf(request);
  if (isExempt(path)) return null;
  const ip = normalizeIP(request.ip);
  const actor = request.actor;
  const perUser = actor.kind === 'anonymous' ? `ip:${ip}` : `user:${actor.user.id}`;
  const rule = RULES.find((r) => r.method === request.method && r.url === path);
  if (rule) return { bucket: rule.bucket, subject: rule.per === 'user' ? perUser : ip, max: limitOf(rule.bucket, limits) };
  if (WRITE_METHODS.has(request.method)) return { bucket: 'writes', subject: perUser, max: limits.writes };
  return { bucket: 'reads', subject: ip, max: limits.reads };
}

function keyOf(bucket: BucketName, subject: string): string {
  return `${bucket}:${subject}`;
}

function createRedis(url: string, log: FastifyBaseLogger, warn: (error: unknown) => void): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    // A dead or unreachable Redis must cost a request milliseconds, not seconds: no offline queue (commands
    // fail at once while disconnected), one retry, and short connect and command timeouts.
    connectTimeout: 1_000,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  client.on('error', warn);
  client.on('ready', () => log.info('rate limiting: connected to Redis'));
  return client;
}

/**
 * Rate limits (docs/api-decisions.md, "Rate limits"), on @fastify/rate-limit. One onRequest hook, added after the auth hook so
 * it sees `request.actor`, puts each request into one bucket (login, feedback, validate, writes, reads) and
 * counts it there; health, metrics and the API description are never counted. Counters live in process, or in
 * Redis when REDIS_URL is set, so that several nodes share them. A failing Redis fails open: the request is
 * allowed and a warning is logged (at most every 30 seconds).
 * Must be called after `installAuth` and after the error handler is installed.
 */
export async function installRateLimits(app: FastifyInstance, config: Config): Promise<void> {
  if (!config.rateLimit) return;
  const limits = config.rateLimits;
  // A request decoration, not a map keyed by request: an entry per request in a WeakMap costs the collector
  // more than the counting itself (measured in docs/performance.md, "Hot reads").
  app.decorateRequest<Assignment | null>('rateLimitAssignment', null);

  let lastWarning = 0;
  let suppressed = 0;
  const warn = (error: unknown) => {
    const now = Date.now();
    if (now - lastWarning < 30_000) {
      suppressed += 1;
      return;
    }
    app.log.warn({ err: error, suppressed }, 'rate limiting: the Redis store failed; requests are allowed uncounted until it answers');
    lastWarning = now;
    suppressed = 0;
  };

  let redis: Redis | null = null;
  if (config.redisUrl !== null) {
    redis = createRedis(config.redisUrl, app.log, warn);
    const client = redis;
    app.addHook('onClose', async () => {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    });
    // Start-up does not wait for a Redis that is down: the client keeps reconnecting in the background.
    await client.connect().catch(warn);
  }

  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    timeWindow: WINDOW_MS,
    max: (request) => request.rateLimitAssignment?.max ?? limits.reads,
    keyGenerator: (request) => {
      const assignment = request.rateLimitAssignment;
      return assignment ? keyOf(assignment.bucket, assignment.subject) : keyOf('reads', normalizeIP(request.ip));
    },
    // Failures surface in the hook below, which decides to fail open and logs.
    skipOnError: false,
    // Without Redis, the plugin's own store counts in process, its least recently used keys going first.
    ...(redis ? { redis, nameSpace: REDIS_KEY_PREFIX } : { cache: LOCAL_KEYS_MAX }),
    errorResponseBuilder: (request, context) => {
      const assignment = request.rateLimitAssignment;
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      const what = WHAT[assignment?.bucket ?? 'reads'];
      return new HttpProblem(
        429,
        'rate_limited',
        `Too many requests: the limit is ${context.max} ${what} per minute. Retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        {
          'ratelimit-limit': String(context.max),
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(seconds),
          'retry-after': String(seconds),
        },
      );
    },
  });
  const limit = app.rateLimit();

  const count = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.rateLimitAssignment !== null) return;
    const assignment = classify(request, limits);
    if (assignment === null) return;
    request.rateLimitAssignment = assignment;
    try {
      await limit.call(app, request, reply);
    } catch (error) {
      if (error instanceof AppError) throw error;
      warn(error);
    }
  };
  refusedCounters.set(app, count);
  app.addHook('onRequest', count);
}

const refusedCounters = new WeakMap<FastifyInstance, (request: FastifyRequest, reply: FastifyReply) => Promise<void>>();

/**
 * Counts a request that the app refuses before the limiter's own hook runs (a bad, unknown or expired credential:
 * the caller is then anonymous, so it counts per address), and rejects with the 429 once the client is over its
 * limit; the app then answers that instead of its refusal. Guessing keys is thereby limited like any other
 * request. Does nothing without rate limits, or for a request already counted.
 */
export function countRefused(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return refusedCounters.get(app)?.(request, reply) ?? Promise.resolve();
}
