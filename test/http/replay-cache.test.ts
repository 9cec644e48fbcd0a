import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../../src/http/cached-json.js';
import { REPLAY_TTL_MS, replayCache } from '../../src/http/replay-cache.js';
import { looksLikeId } from '../../src/lib/id-shape.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { adminSession, call, createKey, createSkill, expectStatus, json, registerUser, setStatus, type TestUser } from '../helpers/client.js';
import { eventually, startRegistryProcess } from '../helpers/process.js';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request over a real socket: the replay cache sits in front of the app, where injection does not go. */
function fetchRaw(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers an answer is compared by: all but those that differ on every response. */
function stable(headers: IncomingHttpHeaders): Record<string, unknown> {
  const { date: _date, 'x-request-id': _id, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

async function replayedCount(base: string): Promise<number> {
  const text = (await fetchRaw(base, 'GET', '/metrics')).body.toString();
  const match = /^http_replayed_responses_total (\d+)/m.exec(text);
  assert.ok(match, 'the metric is exported');
  return Number(match[1]);
}

async function tempDataDir(t: { after(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'skreg-replay-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of backends()) {
  describe(`replay cache [${backend.name}]`, () => {
    let t: TestApp;
    let base: string;
    let alice: TestUser;
    let aliceKey: { key: string; id: string };
    let admin: { cookie: string };
    let published: string;
    let draft: string;

    before(async () => {
      t = await startApp(backend);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      alice = await registerUser(t);
      aliceKey = await createKey(t, alice.session, []);
      admin = await adminSession(t);
      published = (await createSkill(t, alice.session, { name: 'Replayed Skill', description: 'Shown to everyone.' })).slug;
      await setStatus(t, admin, published, 'published');
      draft = (await createSkill(t, alice.session, { name: 'Draft Only', description: 'Shown to its owner.' })).slug;
    });
    after(() => t.close());

    /** Asks twice and returns both answers, with how many of the two the replay cache wrote. */
    async function twice(path: string, headers: Record<string, string> = {}, method = 'GET') {
      const counted = await replayedCount(base);
      const first = await fetchRaw(base, method, path, headers);
      const second = await fetchRaw(base, method, path, headers);
      return { first, second, replayed: (await replayedCount(base)) - counted };
    }

    for (const [what, path] of [
      ['the default list', () => '/v1/skills'],
      ['a search', () => '/v1/skills?q=replayed&page_size=5'],
      ['a skill', () => `/v1/skills/${published}`],
      ['a version list', () => `/v1/skills/${published}/versions`],
    ] as const) {
      it(`repeats ${what} byte for byte, with the app's headers and a fresh request id`, async () => {
        await sleep(REPLAY_TTL_MS + 50);
        const { first, second, replayed } = await twice(path());
        assert.equal(replayed, 1, 'the second answer came from the replay cache');
        assert.equal(first.status, 200);
        assert.equal(second.status, 200);
        assert.deepEqual(second.body, first.body);
        assert.deepEqual(stable(second.headers), stable(first.headers));
        assert.ok(first.headers.etag);
        const ids = [first, second].map((r) => String(r.headers['x-request-id']));
        assert.notEqual(ids[0], ids[1]);
        assert.ok(looksLikeId(ids[1]!));
      });
    }

    it('answers HEAD with the headers the app sends, and no body', async () => {
      await sleep(REPLAY_TTL_MS + 50);
      const path = `/v1/skills/${published}`;
      const { first, second, replayed } = await twice(path, {}, 'HEAD');
      assert.equal(replayed, 1);
      assert.equal(second.status, 200);
      assert.equal(second.body.length, 0);
      assert.deepEqual(stable(second.headers), stable(first.headers));
      const get = await fetchRaw(base, 'GET', path);
      assert.equal(Number(second.headers['content-length']), get.body.length);
    });

    it("answers a matching If-None-Match with the app's 304", async () => {
      await sleep(REPLAY_TTL_MS + 50);
      const path = '/v1/skills?page_size=7';
      const etag = String((await fetchRaw(base, 'GET', path)).headers.etag);
      // The same page under another URL is not remembered yet: the app answers it.
      const fromApp = await fetchRaw(base, 'GET', '/v1/skills?page_size=7&page=1', { 'if-none-match': etag });
      const counted = await replayedCount(base);
      const replayed = await fetchRaw(base, 'GET', path, { 'if-none-match': `W/"other", ${etag}` });
      assert.equal((await replayedCount(base)) - counted, 1);
      assert.equal(fromApp.status, 304);
      assert.equal(replayed.status, 304);
      assert.equal(replayed.body.length, 0);
      assert.deepEqual(stable(replayed.headers), stable(fromApp.headers));
      const stale = await fetchRaw(base, 'GET', path, { 'if-none-match': '"something-else"' });
      assert.equal(stale.status, 200);
    });

    it('forgets everything at once when a skill changes', async () => {
      const path = `/v1/skills/${published}`;
      await fetchRaw(base, 'GET', path);
      expectStatus(await call(t, 'PATCH', path, alice.session, { description: 'Changed just now.' }), 200);
      const { first, replayed } = await twice(path);
      assert.equal(replayed, 1, 'only the second read is replayed');
      assert.equal((JSON.parse(first.body.toString()) as { description: string }).description, 'Changed just now.');
    });

    it('forgets everything when another node announces a change, or download counts are written', async () => {
      const path = `/v1/skills/${published}/versions`;
      await fetchRaw(base, 'GET', path);
      // What the invalidation bus does on a message from another node, and what a download-count flush does.
      t.runtime.services.skills.forgetCached();
      const { replayed } = await twice(path);
      assert.equal(replayed, 1, 'only the second read is replayed');
    });

    it('stops replaying an entry once it is older than REPLAY_TTL_MS', async () => {
      const path = '/v1/skills?sort=downloads';
      await fetchRaw(base, 'GET', path);
      const counted = await replayedCount(base);
      await fetchRaw(base, 'GET', path);
      await sleep(REPLAY_TTL_MS + 50);
      await fetchRaw(base, 'GET', path);
      assert.equal((await replayedCount(base)) - counted, 1);
    });

    it("never replays a draft, which only its owner's key can read", async () => {
      const path = `/v1/skills/${draft}`;
      const { first, second, replayed } = await twice(path, { authorization: `Bearer ${aliceKey.key}` });
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(replayed, 0);
      assert.equal((await fetchRaw(base, 'GET', path)).status, 404);
    });

    it('replays to a known API key, and logs the call with its own request id', async () => {
      await sleep(REPLAY_TTL_MS + 50);
      const path = `/v1/skills/${published}?via=key`;
      const headers = { authorization: `Bearer ${aliceKey.key}`, 'user-agent': 'replay-test/1.0' };
      // Remembered from the key's own first call: the answer is the same for everyone.
      const { first, second, replayed } = await twice(path, headers);
      assert.equal(replayed, 1);
      assert.deepEqual(second.body, first.body);
      const anonymous = await fetchRaw(base, 'GET', path);
      assert.deepEqual(anonymous.body, first.body);
      const id = String(second.headers['x-request-id']);
      const log = json<Record<string, unknown>>(expectStatus(await call(t, 'GET', `/v1/logs/${id}`, { key: aliceKey.key }), 200));
      assert.equal(log.request_id, id);
      assert.equal(log.user_id, alice.id);
      assert.equal(log.method, 'GET');
      assert.equal(log.path, path);
      assert.equal(log.route, '/v1/skills/:skillId');
      assert.equal(log.status_code, 200);
      assert.equal(log.ip, '127.0.0.1');
      assert.equal(log.user_agent, 'replay-test/1.0');
      assert.equal(log.auth, 'api_key');
      assert.equal(log.api_key_id, aliceKey.id);
    });

    it('leaves unknown keys, bad headers and cookies to the app', async () => {
      await sleep(REPLAY_TTL_MS + 50);
      const path = `/v1/skills/${published}`;
      await fetchRaw(base, 'GET', path);
      const counted = await replayedCount(base);
      const unknown = await fetchRaw(base, 'GET', path, { authorization: 'Bearer skreg_notakeyatallnotakeyatallnotakeyatall' });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal((await fetchRaw(base, 'GET', path, { authorization: 'Basic YTpi' })).status, 401);
      const withCookie = await fetchRaw(base, 'GET', path, { cookie: 'session_token=stale' });
      assert.equal(withCookie.status, 200);
      assert.ok(withCookie.headers['set-cookie'], 'the app clears a stale session cookie');
      assert.equal((await replayedCount(base)) - counted, 0);
      // The cookie's answer, with its Set-Cookie, was not remembered for anyone else.
      const next = await fetchRaw(base, 'GET', `${path}?fresh=1`);
      assert.equal(next.headers['set-cookie'], undefined);
    });

    it('leaves other methods, unknown paths and errors to the app', async () => {
      const counted = await replayedCount(base);
      for (let i = 0; i < 2; i += 1) {
        assert.equal((await fetchRaw(base, 'GET', '/v1/skills/no-such-skill')).status, 404);
        assert.equal((await fetchRaw(base, 'GET', '/v1/skills?page_size=0')).status, 400);
        assert.equal((await fetchRaw(base, 'DELETE', `/v1/skills/${published}`)).status, 401);
      }
      assert.equal((await replayedCount(base)) - counted, 0);
    });
  });
}

describe('replay cache with rate limits counted in this process', () => {
  const READS = 6;
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp(backends()[0]!, { RATE_LIMIT: 'on', RATE_LIMIT_READS: String(READS) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it('counts replayed reads in the same allowance, with fresh RateLimit headers, and leaves the 429 to the app', async () => {
    const answers: Raw[] = [];
    for (let i = 0; i < READS; i += 1) answers.push(await fetchRaw(base, 'GET', '/v1/skills'));
    assert.equal(await replayedCount(base), READS - 1, 'every read after the first was replayed');
    assert.deepEqual(
      answers.map((a) => [a.status, Number(a.headers['ratelimit-limit']), Number(a.headers['ratelimit-remaining'])]),
      answers.map((_, i) => [200, READS, READS - 1 - i]),
    );
    for (const a of answers) {
      const reset = Number(a.headers['ratelimit-reset']);
      assert.ok(reset > 0 && reset <= 60, `reset ${reset}`);
    }
    const withoutCounts = (headers: IncomingHttpHeaders) => {
      const { 'ratelimit-remaining': _remaining, 'ratelimit-reset': _reset, ...rest } = stable(headers);
      return rest;
    };
    assert.deepEqual(withoutCounts(answers[1]!.headers), withoutCounts(answers[0]!.headers));
    assert.deepEqual(answers[1]!.body, answers[0]!.body);
    const refused = await fetchRaw(base, 'GET', '/v1/skills');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(await replayedCount(base), READS - 1, 'the refusal came from the app');
    // Still refused while the window lasts, whether or not the answer could be replayed.
    assert.equal((await fetchRaw(base, 'GET', '/v1/skills')).status, 429);
  });
});

describe('replay cache with rate limits counted in Redis', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startApp(backends()[0]!, { RATE_LIMIT: 'on', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  it('is not used: every request reaches the shared counters through the app', async () => {
    const first = await fetchRaw(base, 'GET', '/v1/skills');
    const second = await fetchRaw(base, 'GET', '/v1/skills');
    assert.equal(second.status, 200);
    // Other processes may read from this address through the same Redis at the same time.
    assert.ok(Number(second.headers['ratelimit-remaining']) < Number(first.headers['ratelimit-remaining']));
    assert.equal(await replayedCount(base), 0);
  });
});

describe('replay cache request log', () => {
  it('writes the lines the app writes for every request, with the replayed request id', async (t) => {
    const registry = await startRegistryProcess({ LOG_LEVEL: 'info', RATE_LIMIT: 'off', DATA_DIR: await tempDataDir(t) });
    try {
      const answers = [await fetchRaw(registry.base, 'GET', '/v1/skills'), await fetchRaw(registry.base, 'GET', '/v1/skills')];
      assert.equal(await replayedCount(registry.base), 1);
      const ids = answers.map((a) => String(a.headers['x-request-id']));
      const lines = () =>
        registry
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { reqId?: string; msg: string; level: number; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
      await eventually('both requests are logged', async () => lines().filter((l) => ids.includes(l.reqId ?? '') && l.msg === 'request completed').length === 2, 5_000);
      for (const id of ids) {
        const mine = lines().filter((l) => l.reqId === id);
        assert.deepEqual(mine.map((l) => l.msg), ['incoming request', 'request completed'], `log lines of ${id}`);
        assert.equal(mine[0]!.level, 30);
        assert.deepEqual([mine[0]!.req?.method, mine[0]!.req?.url], ['GET', '/v1/skills']);
        assert.equal(mine[1]!.res?.statusCode, 200);
        assert.equal(typeof mine[1]!.responseTime, 'number');
      }
    } finally {
      await registry.stop();
    }
  });
});

describe('replay cache entries', () => {
  // The smallest request and reply the cache reads: what Fastify hands the app's onResponse hook.
  function exchange(url: string, generation: number) {
    const headers: Record<string, string> = {};
    const request = { url, method: 'GET', headers: {}, routeOptions: { url: '/v1/skills' }, replayGeneration: generation } as unknown as FastifyRequest;
    const reply = {
      statusCode: 200,
      serialize: (payload: unknown) => JSON.stringify(payload),
      header(name: string, value: string) {
        headers[name] = value;
        return reply;
      },
      type(value: string) {
        headers['content-type'] = value;
        return reply;
      },
      code() {
        return reply;
      },
      send() {
        return reply;
      },
      getHeaders: () => headers,
    } as unknown as FastifyReply;
    return { request, reply };
  }

  it('keeps no answer begun before a change cleared the cache', () => {
    const cache = replayCache();
    cache.start({ observe: () => undefined, recallApiKey: () => null, recordCall: () => undefined, log: undefined as never, logRequests: false, socketIsClient: true, countRead: null });
    const older = exchange('/v1/skills?a=1', cache.generation);
    sendJson(older.request, older.reply, { items: [] }, true, () => ({ items: [] }));
    cache.clear();
    cache.remember(older.request, older.reply);
    assert.equal(cache.size, 0);
    const newer = exchange('/v1/skills?a=2', cache.generation);
    sendJson(newer.request, newer.reply, { items: [] }, true, () => ({ items: [] }));
    cache.remember(newer.request, newer.reply);
    assert.equal(cache.size, 1);
  });

  it('keeps no answer that is not the same for everyone', () => {
    const cache = replayCache();
    cache.start({ observe: () => undefined, recallApiKey: () => null, recordCall: () => undefined, log: undefined as never, logRequests: false, socketIsClient: true, countRead: null });
    const own = exchange('/v1/skills/mine', cache.generation);
    sendJson(own.request, own.reply, { id: 'x' }, false, () => ({ id: 'x' }));
    cache.remember(own.request, own.reply);
    assert.equal(cache.size, 0);
  });
});
