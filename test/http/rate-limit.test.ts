import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { REDIS_KEY_PREFIX } from '../../src/http/plugins/rate-limit.js';
import { ADMIN, startApp, type TestApp } from '../helpers/app.js';
import { apiBackends, type Backend } from '../helpers/backends.js';
import { authHeaders, expectProblem, json, sessionFrom, uniqueName, type Auth } from '../helpers/client.js';

/** The Redis the shared-store tests run against; they fail (never skip) when it does not answer. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const LIMITS = { RATE_LIMIT: 'on', RATE_LIMIT_LOGIN: '3', RATE_LIMIT_FEEDBACK: '2', RATE_LIMIT_WRITES: '4', RATE_LIMIT_READS: '5' };
const LOGIN = 3;
const FEEDBACK = 2;
const WRITES = 4;
const READS = 5;

/** Every address and user a test counted for, so the Redis suites delete exactly their own keys afterwards. */
const usedIps = new Set<string>();
const usedUsers = new Set<string>();

/** A fresh client address per scenario: buckets never carry over between tests, backends or runs. */
function freshIp(): string {
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  usedIps.add(ip);
  return ip;
}

interface SendOptions {
  ip: string;
  auth?: Auth;
  body?: unknown;
  headers?: Record<string, string>;
}

function send(t: TestApp, method: InjectOptions['method'], url: string, { ip, auth = null, body, headers = {} }: SendOptions) {
  const options: InjectOptions = { method, url, remoteAddress: ip, headers: { ...authHeaders(auth), ...headers } };
  if (body !== undefined) options.payload = body as InjectOptions['payload'];
  return t.request(options);
}

const badLogin = { login: 'nobody-here', password: 'wrong-password' };

function seconds(res: LightMyRequestResponse, header: string): number {
  const value = res.headers[header];
  assert.match(String(value), /^\d+$/, `${header} must be whole seconds, got ${String(value)}`);
  const n = Number(value);
  assert.ok(n >= 1 && n <= 60, `${header} ${n} must be within the one-minute window`);
  return n;
}

/** A counted request that got through: the draft-standard headers, with `remaining` left after it. */
function expectCounted(res: LightMyRequestResponse, limit: number, remaining: number): void {
  assert.notEqual(res.statusCode, 429, `expected the request to pass, got 429: ${res.body}`);
  assert.equal(res.headers['ratelimit-limit'], String(limit));
  assert.equal(res.headers['ratelimit-remaining'], String(remaining));
  seconds(res, 'ratelimit-reset');
  assert.equal(res.headers['retry-after'], undefined);
}

/** A refused request: a rate_limited problem document with Retry-After and the limit headers. */
function expectLimited(res: LightMyRequestResponse, limit: number): void {
  const body = expectProblem(res, 429, 'rate_limited');
  assert.equal(body.title, 'Too Many Requests');
  const retry = seconds(res, 'retry-after');
  assert.match(String(body.detail), new RegExp(`Retry in ${retry} seconds?\\.`));
  assert.equal(res.headers['ratelimit-limit'], String(limit));
  assert.equal(res.headers['ratelimit-remaining'], '0');
  assert.equal(seconds(res, 'ratelimit-reset'), retry);
}

function expectUnlimited(res: LightMyRequestResponse): void {
  assert.notEqual(res.statusCode, 429, `expected no rate limit, got 429: ${res.body}`);
  for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
    assert.equal(res.headers[header], undefined, `${header} must not be sent here`);
  }
}

/** `limit` requests pass with Remaining counting down to 0, and the next one is a 429. */
async function exhaust(limit: number, make: () => Promise<LightMyRequestResponse>): Promise<void> {
  for (let i = 0; i < limit; i += 1) expectCounted(await make(), limit, limit - 1 - i);
  expectLimited(await make(), limit);
}

/** Registers and signs in a user from addresses of its own, so no shared bucket is spent. */
async function newUser(t: TestApp): Promise<{ id: string; session: { cookie: string } }> {
  const username = uniqueName('rl');
  const password = `pw-${username}-secret`;
  const registered = await send(t, 'POST', '/v1/auth/register', {
    ip: freshIp(),
    body: { username, email: `${username}@example.com`, password },
  });
  assert.equal(registered.statusCode, 201, registered.body);
  const signedIn = await send(t, 'POST', '/v1/auth/login', { ip: freshIp(), body: { login: username, password } });
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  const id = json<{ id: string }>(registered).id;
  usedUsers.add(id);
  return { id, session: { cookie: sessionFrom(signedIn) } };
}

function limitSuite(backend: Backend, store: 'memory' | 'redis'): void {
  describe(`rate limits [${backend.name}, ${store}]`, () => {
    const env = { ...LIMITS, ...(store === 'redis' ? { REDIS_URL } : {}) };
    let t: TestApp;
    before(async () => {
      if (store === 'redis') await redisClient();
      t = await startApp(backend, env);
    });
    after(() => t.close());

    it('refuses the login after RATE_LIMIT_LOGIN attempts from one IP, with the draft headers', async () => {
      const ip = freshIp();
      await exhaust(LOGIN, () => send(t, 'POST', '/v1/auth/login', { ip, body: badLogin }));
      // Right credentials do not help once the bucket is empty: no session is issued.
      const refused = await send(t, 'POST', '/v1/auth/login', { ip, body: { login: ADMIN.username, password: ADMIN.password } });
      expectLimited(refused, LOGIN);
      assert.equal(refused.cookies.length, 0);
      // Another address has its own budget, and the exhausted one may still read.
      const other = await send(t, 'POST', '/v1/auth/login', { ip: freshIp(), body: { login: ADMIN.username, password: ADMIN.password } });
      assert.equal(other.statusCode, 200);
      expectCounted(other, LOGIN, LOGIN - 1);
      expectCounted(await send(t, 'GET', '/v1/skills', { ip }), READS, READS - 1);
    });

    it('gives feedback and package validation per-IP buckets of their own at the feedback rate', async () => {
      const ip = freshIp();
      await exhaust(FEEDBACK, () => send(t, 'POST', '/v1/feedback', { ip, body: {} }));
      await exhaust(FEEDBACK, () => send(t, 'POST', '/v1/packages/validate', { ip, body: {} }));
      expectCounted(await send(t, 'POST', '/v1/feedback', { ip: freshIp(), body: {} }), FEEDBACK, FEEDBACK - 1);
      expectCounted(await send(t, 'POST', '/v1/auth/login', { ip, body: badLogin }), LOGIN, LOGIN - 1);
      expectCounted(await send(t, 'POST', '/v1/auth/register', { ip, body: {} }), WRITES, WRITES - 1);
    });

    it('counts writes per user, across sessions, API keys and addresses', async () => {
      const a = await newUser(t);
      const b = await newUser(t);
      const created = await send(t, 'POST', '/v1/me/api-keys', {
        ip: freshIp(),
        auth: a.session,
        body: { name: 'ci', scopes: ['skill:upload'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      expectCounted(created, WRITES, WRITES - 1);
      const key = { key: json<{ key: string }>(created).key };

      const write = (auth: Auth) => send(t, 'POST', '/v1/skills', { ip: freshIp(), auth, body: {} });
      expectCounted(await write(key), WRITES, WRITES - 2);
      expectCounted(await write(a.session), WRITES, WRITES - 3);
      expectCounted(await write(key), WRITES, WRITES - 4);
      expectLimited(await write(a.session), WRITES);
      expectLimited(await write(key), WRITES);

      // Another user has a budget of their own; reads of the limited user are a different bucket.
      expectCounted(await write(b.session), WRITES, WRITES - 1);
      const me = await send(t, 'GET', '/v1/me', { ip: freshIp(), auth: a.session });
      assert.equal(me.statusCode, 200);
      expectCounted(me, READS, READS - 1);
    });

    it('counts anonymous writes per IP address', async () => {
      const ip = freshIp();
      await exhaust(WRITES, () => send(t, 'POST', '/v1/auth/register', { ip, body: {} }));
      expectCounted(await send(t, 'POST', '/v1/auth/register', { ip: freshIp(), body: {} }), WRITES, WRITES - 1);
    });

    it('counts every other request per IP, unknown paths included, and never limits health, metrics or docs', async () => {
      const ip = freshIp();
      await exhaust(READS, () => send(t, 'GET', '/v1/skills', { ip }));
      expectLimited(await send(t, 'GET', '/v1/no-such-endpoint', { ip }), READS);
      const head = await send(t, 'HEAD', '/v1/skills', { ip });
      assert.equal(head.statusCode, 429);
      assert.equal(head.headers['ratelimit-remaining'], '0');
      seconds(head, 'retry-after');
      for (const url of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json', '/docs', '/healthz/', '/readyz?full=1']) {
        for (let i = 0; i < READS + 2; i += 1) expectUnlimited(await send(t, 'GET', url, { ip }));
      }
      assert.equal((await send(t, 'GET', '/readyz', { ip })).statusCode, 200);
      expectCounted(await send(t, 'GET', '/v1/skills', { ip: freshIp() }), READS, READS - 1);
    });

    it('keys on the socket address and ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
      const ip = freshIp();
      for (let i = 0; i < LOGIN; i += 1) {
        const res = await send(t, 'POST', '/v1/auth/login', { ip, body: badLogin, headers: { 'x-forwarded-for': freshIp() } });
        expectCounted(res, LOGIN, LOGIN - 1 - i);
      }
      expectLimited(await send(t, 'POST', '/v1/auth/login', { ip, body: badLogin, headers: { 'x-forwarded-for': freshIp() } }), LOGIN);
    });

    it('counts an IPv6 client per /64 network, so a new address in the same network does not start afresh', async () => {
      const network = `2001:db8:${randomInt(1, 0x10000).toString(16)}:${randomInt(1, 0x10000).toString(16)}`;
      usedIps.add(`${network}::`);
      for (let i = 0; i < LOGIN; i += 1) {
        expectCounted(await send(t, 'POST', '/v1/auth/login', { ip: `${network}::${i + 1}`, body: badLogin }), LOGIN, LOGIN - 1 - i);
      }
      expectLimited(await send(t, 'POST', '/v1/auth/login', { ip: `${network}:ffff:eeee:dddd:9`, body: badLogin }), LOGIN);
      const other = `2001:db8:${randomInt(1, 0x10000).toString(16)}:${randomInt(1, 0x10000).toString(16)}`;
      usedIps.add(`${other}::`);
      expectCounted(await send(t, 'POST', '/v1/auth/login', { ip: `${other}::1`, body: badLogin }), LOGIN, LOGIN - 1);
    });

    if (store === 'redis') {
      it(`keeps the counters in Redis under ${REDIS_KEY_PREFIX}<bucket>:`, async () => {
        const redis = await redisClient();
        const ip = freshIp();
        expectCounted(await send(t, 'POST', '/v1/auth/login', { ip, body: badLogin }), LOGIN, LOGIN - 1);
        expectCounted(await send(t, 'GET', '/v1/skills', { ip }), READS, READS - 1);
        expectCounted(await send(t, 'GET', '/v1/skills', { ip }), READS, READS - 2);
        assert.equal(await redis.get(`${REDIS_KEY_PREFIX}login:${ip}`), '1');
        assert.equal(await redis.get(`${REDIS_KEY_PREFIX}reads:${ip}`), '2');
        const ttl = await redis.pttl(`${REDIS_KEY_PREFIX}login:${ip}`);
        assert.ok(ttl > 0 && ttl <= 60_000, `the window expires within a minute (pttl ${ttl})`);

        const user = await newUser(t);
        expectCounted(await send(t, 'POST', '/v1/skills', { ip: freshIp(), auth: user.session, body: {} }), WRITES, WRITES - 1);
        assert.equal(await redis.get(`${REDIS_KEY_PREFIX}writes:user:${user.id}`), '1');
      });

      it('gives a counter found without an expiry a window again instead of counting it for ever', async () => {
        const redis = await redisClient();
        const ip = freshIp();
        await redis.set(`${REDIS_KEY_PREFIX}reads:${ip}`, '2');
        expectCounted(await send(t, 'GET', '/v1/skills', { ip }), READS, READS - 3);
        const ttl = await redis.pttl(`${REDIS_KEY_PREFIX}reads:${ip}`);
        assert.ok(ttl > 0 && ttl <= 60_000, `the key has a window again (pttl ${ttl})`);
      });

      it('shares one budget between two instances on the same Redis', async () => {
        const shared = { ...env, RATE_LIMIT_LOGIN: '4' };
        const one = await startApp(backend, shared);
        const two = await startApp(backend, shared);
        try {
          const ip = freshIp();
          const login = (app: TestApp) => send(app, 'POST', '/v1/auth/login', { ip, body: badLogin });
          expectCounted(await login(one), 4, 3);
          expectCounted(await login(one), 4, 2);
          expectCounted(await login(two), 4, 1);
          expectCounted(await login(two), 4, 0);
          expectLimited(await login(one), 4);
          expectLimited(await login(two), 4);
        } finally {
          await one.close();
          await two.close();
        }
      });
    }
  });
}

let sharedRedis: Redis | undefined;

/** A direct connection to the test Redis; throws at once when it is unreachable, under CI and locally alike. */
async function redisClient(): Promise<Redis> {
  if (sharedRedis) return sharedRedis;
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    assert.equal(await client.ping(), 'PONG');
  } catch (error) {
    client.disconnect();
    throw new Error(`Redis at ${REDIS_URL} does not answer (${String(error)}); the shared-store rate-limit tests need it.`, {
      cause: error,
    });
  }
  sharedRedis = client;
  return client;
}

after(async () => {
  if (!sharedRedis) return;
  // Only the keys these tests could have made: every bucket for every address used, the writes of every user.
  const keys = [
    ...[...usedIps].flatMap((ip) =>
      ['login', 'feedback', 'validate', 'reads'].map((b) => `${REDIS_KEY_PREFIX}${b}:${ip}`).concat(`${REDIS_KEY_PREFIX}writes:ip:${ip}`),
    ),
    ...[...usedUsers].map((id) => `${REDIS_KEY_PREFIX}writes:user:${id}`),
  ];
  for (let i = 0; i < keys.length; i += 500) await sharedRedis.del(...keys.slice(i, i + 500));
  await sharedRedis.quit();
});

for (const backend of apiBackends()) {
  limitSuite(backend, 'memory');
  limitSuite(backend, 'redis');

  describe(`rate limits: switches and failures [${backend.name}]`, () => {
    it('RATE_LIMIT=off sends no limit headers and never answers 429', async () => {
      const t = await startApp(backend, { RATE_LIMIT: 'off', RATE_LIMIT_LOGIN: '1', RATE_LIMIT_READS: '1', RATE_LIMIT_WRITES: '1' });
      try {
        const ip = freshIp();
        for (let i = 0; i < 4; i += 1) {
          expectUnlimited(await send(t, 'POST', '/v1/auth/login', { ip, body: badLogin }));
          expectUnlimited(await send(t, 'GET', '/v1/skills', { ip }));
          expectUnlimited(await send(t, 'POST', '/v1/auth/register', { ip, body: {} }));
        }
      } finally {
        await t.close();
      }
    });

    it('honours X-Forwarded-For as the client address when TRUST_PROXY is set', async () => {
      const t = await startApp(backend, { ...LIMITS, TRUST_PROXY: 'true', RATE_LIMIT_LOGIN: '1' });
      try {
        const proxy = freshIp();
        const client = freshIp();
        const login = (forwarded: string) =>
          send(t, 'POST', '/v1/auth/login', { ip: proxy, body: badLogin, headers: { 'x-forwarded-for': forwarded } });
        expectCounted(await login(client), 1, 0);
        expectLimited(await login(client), 1);
        expectCounted(await login(freshIp()), 1, 0);
      } finally {
        await t.close();
      }
    });

    it('fails open, fast and without headers, when Redis is unreachable', async () => {
      // Nothing listens on port 1: every Redis command fails at once, and requests must still be served.
      const t = await startApp(backend, { ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_LOGIN: '1' });
      try {
        const ip = freshIp();
        const started = Date.now();
        for (let i = 0; i < 4; i += 1) {
          const res = await send(t, 'POST', '/v1/auth/login', { ip, body: badLogin });
          assert.equal(res.statusCode, 401, res.body);
          expectUnlimited(res);
        }
        assert.ok(Date.now() - started < 3_000, `a dead Redis must not slow requests down (${Date.now() - started} ms for 4)`);
      } finally {
        await t.close();
      }
    });
  });
}
