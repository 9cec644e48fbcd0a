import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Address6 } from 'ip-address';
import { Redis } from 'ioredis';
import { isIPv6 } from 'node:net';
import type { Config, RateLimits } from '../../config.js';
import { HttpProblem } from '../problem.js';
import { memoryCounter, redisCounter, type RateCounter, type WindowCount } from '../rate-counters.js';

/** Every limit counts requests in a fixed window of one minute per key. */
const WINDOW_MS = 60_000;
/** Clients counted in process at once in each bucket; the least recently used go first. */
const LOCAL_KEYS_MAX = 20_000;

/** Redis keys are `skreg:rl:<bucket>:<subject>`, e.g. `skreg:rl:login:203.0.113.7`, `skreg:rl:writes:user:<id>`. */
export const REDIS_KEY_PREFIX = 'skreg:rl:';

export type BucketName = 'login' | 'feedback' | 'validate' | 'reports' | 'writes' | 'reads';

interface BucketRule {
  method: string;
  /** The route pattern (or, for a path no route matches, the path itself). */
  url: string;
  bucket: BucketName;
  /** Whom the bucket counts: the IP address, or the signed-in user (the address for a caller who is not). */
  per: 'ip' | 'user';
  /** The configured limit it takes (validations take the feedback limit). */
  limit: keyof RateLimits;
}

/** Endpoints with a bucket of their own; everything else is a write or a read. */
const RULES: readonly BucketRule[] = [
  { method: 'POST', url: '/v1/auth/login', bucket: 'login', per: 'ip', limit: 'login' },
  { method: 'POST', url: '/v1/feedback', bucket: 'feedback', per: 'ip', limit: 'feedback' },
  { method: 'POST', url: '/v1/packages/validate', bucket: 'validate', per: 'ip', limit: 'feedback' },
  { method: 'POST', url: '/v1/skills/:skillId/reports', bucket: 'reports', per: 'user', limit: 'reports' },
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

function pathOf(request: FastifyRequest): string {
  const pattern = request.routeUrl;
  if (pattern !== null) return pattern;
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
  const ip = clientAddress(request.ip);
  const method = request.method;
  const rule = RULES.find((r) => r.method === method && r.url === path);
  if (rule) return { bucket: rule.bucket, subject: rule.per === 'user' ? perUser(request, ip) : ip, max: limits[rule.limit] };
  if (WRITE_METHODS.has(method)) return { bucket: 'writes', subject: perUser(request, ip), max: limits.writes };
  return { bucket: 'reads', subject: ip, max: limits.reads };
}

function perUser(request: FastifyRequest, ip: string): string {
  const actor = request.actor;
  return actor.kind === 'anonymous' ? `ip:${ip}` : `user:${actor.user.id}`;
}

/**
 * The address a client is counted under: IPv4 as it is, an IPv4-mapped IPv6 address as its IPv4 form, and any
 * other IPv6 address as its /64 network, since one client commonly holds a whole /64 and could otherwise start a
 * fresh count with every address in it.
 */
export function clientAddress(ip: string): string {
  // Every IPv6 form holds a colon and no IPv4 address does: the common case skips the full IPv6 check.
  if (!ip.includes(':') || !isIPv6(ip)) return ip;
  const address = new Address6(ip);
  if (address.isMapped4()) return address.to4().correctForm();
  return new Address6(`${ip}/64`).startAddress().correctForm();
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

/** Counts requests against the limits; `done` gets the 429 problem when the client is over its limit, else nothing. */
export interface RequestLimiter {
  count(request: FastifyRequest, reply: FastifyReply, done: (limited: HttpProblem | undefined) => void): void;
}

/**
 * Rate limits (docs/api-decisions.md, "Rate limits"). The app's onRequest hook calls `count` once per request,
 * after authentication so that writes count per user, and before the request's other checks, so that a refused
 * credential is counted too. Each request falls into one bucket (login, feedback, validate, reports, writes,
 * reads); health, metrics and the API description are never counted. Counters live in process, or in Redis when
 * REDIS_URL is set, so that several nodes share them. A failing Redis fails open: the request is allowed without
 * limit headers and a warning is logged (at most every 30 seconds). Returns null when RATE_LIMIT=off.
 *
 * Counting is written here rather than through @fastify/rate-limit: that plugin awaits its key, its limit and its
 * store in an async hook of its own on every request, which cost the hot read about 1.5 µs of CPU in ~25
 * (docs/performance.md, "The request pipeline, measured per request"); counting in process is now synchronous.
 */
export async function installRateLimits(app: FastifyInstance, config: Config): Promise<RequestLimiter | null> {
  if (!config.rateLimit) return null;
  const limits = config.rateLimits;

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

  let counter: RateCounter;
  if (config.redisUrl !== null) {
    const client = createRedis(config.redisUrl, app.log, warn);
    app.addHook('onClose', async () => {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    });
    // Start-up does not wait for a Redis that is down: the client keeps reconnecting in the background.
    await client.connect().catch(warn);
    counter = redisCounter(client, REDIS_KEY_PREFIX, WINDOW_MS);
  } else {
    counter = memoryCounter(WINDOW_MS, LOCAL_KEYS_MAX);
  }

  return {
    count(request, reply, done) {
      const assignment = classify(request, limits);
      if (assignment === null) {
        done(undefined);
        return;
      }
      const hit = counter.hit(assignment.bucket, assignment.subject);
      if (hit instanceof Promise) {
        hit.then(
          (window) => done(settle(reply, assignment, window)),
          (error: unknown) => {
            warn(error);
            done(undefined);
          },
        );
      } else {
        done(settle(reply, assignment, hit));
      }
    },
  };
}

/** Sets the draft-standard limit headers, and returns the 429 for a request over its bucket's limit. */
function settle(reply: FastifyReply, assignment: Assignment, window: WindowCount): HttpProblem | undefined {
  const seconds = String(Math.max(1, Math.ceil(window.resetMs / 1000)));
  const limit = String(assignment.max);
  if (window.count <= assignment.max) {
    reply.header('ratelimit-limit', limit);
    reply.header('ratelimit-remaining', String(assignment.max - window.count));
    reply.header('ratelimit-reset', seconds);
    return undefined;
  }
  return new HttpProblem(
    429,
    'rate_limited',
    `Too many requests: the limit is ${limit} ${WHAT[assignment.bucket]} per minute. Retry in ${seconds} second${seconds === '1' ? '' : 's'}.`,
    { 'ratelimit-limit': limit, 'ratelimit-remaining': '0', 'ratelimit-reset': seconds, 'retry-after': seconds },
  );
}
