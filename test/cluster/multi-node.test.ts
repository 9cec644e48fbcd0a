import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { Static } from 'typebox';
import type { CallLog } from '../../src/domain/logs/call-logs.js';
import { PUBLIC_CACHE_TTL_MS, type Skill } from '../../src/domain/skills/skills.js';
import type { Version } from '../../src/domain/versions/views.js';
import type { ApiKeyCreated, User as UserSchema } from '@skill-registry/api-schemas/accounts';
import type { Problem as ProblemSchema } from '@skill-registry/api-schemas/common';
import type { Stats as StatsSchema } from '@skill-registry/api-schemas/versions';
import { REDIS_KEY_PREFIX } from '../../src/http/plugins/rate-limit.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { databaseUrl, eventually, startRegistryProcess, type RegistryProcess } from '../helpers/process.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { ifSet } from '../helpers/hooks.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADMIN = { username: 'admin', password: 'cluster-admin-pw', email: 'admin@example.com' };
const LOGIN_LIMIT = 4;

/**
 * Invalidations travel over Redis pub/sub; a node that heard one answers from the database at once. Anything
 * seen within this bound (well under the public cache's own lifetime) was told, not merely expired.
 */
const TOLD_WITHIN_MS = Math.min(500, PUBLIC_CACHE_TTL_MS / 2);

type User = Static<typeof UserSchema>;
type CreatedKey = Static<typeof ApiKeyCreated>;
type Problem = Static<typeof ProblemSchema>;
type Stats = Static<typeof StatsSchema>;

const postgres = backends().find((b) => b.name === 'postgres');

interface Answer<T> {
  status: number;
  /** The parsed JSON body, typed as the caller expects it (the assertions check what matters of it). */
  body: T;
  headers: Headers;
}

interface Page<T> {
  items: T[];
  total: number;
}

async function send<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: { auth?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth?.startsWith('skreg_')) headers.authorization = `Bearer ${options.auth}`;
  else if (options.auth) headers.cookie = `session_token=${options.auth}`;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: (type.includes('json') && text ? JSON.parse(text) : text) as T, headers: res.headers };
}

function expect<T>(answer: Answer<T>, status: number, what: string): Answer<T> {
  assert.equal(answer.status, status, `${what}: expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

async function signIn(base: string, login: string, password: string, ip?: string): Promise<Answer<Problem | User>> {
  return send<Problem | User>(base, 'POST', '/v1/auth/login', {
    json: { login, password },
    ...(ip ? { headers: { 'x-forwarded-for': ip } } : {}),
  });
}

function sessionOf(answer: Answer<unknown>): string {
  const cookie = answer.headers.get('set-cookie') ?? '';
  const match = /session_token=([^;]+)/.exec(cookie);
  assert.ok(match, `no session cookie in ${cookie}`);
  return match[1]!;
}

describe(
  'several nodes: two registry processes on one PostgreSQL database, one S3 bucket and one Redis',
  { skip: postgres ? false : 'needs TEST_DATABASE_URL (PostgreSQL); CI always sets it' },
  () => {
    let store: Awaited<ReturnType<NonNullable<typeof postgres>['create']>>;
    let s3: S3Server;
    let redis: Redis;
    let a: RegistryProcess;
    let b: RegistryProcess;
    let alice: { key: string; session: string; id: string };
    let adminB: string;
    /** What both nodes were started with, for a node started later. */
    let nodeEnv: Record<string, string>;
    const slug = `cluster-skill-${process.pid}`;

    before(async () => {
      store = await postgres!.create();
      s3 = await startS3Server();
      redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      await redis.del(`${REDIS_KEY_PREFIX}login:127.0.0.1`);
      const env = {
        DATABASE_URL: databaseUrl(store.database),
        DATA_DIR: store.dataDir,
        ...s3.env,
        REDIS_URL,
        RATE_LIMIT: 'on',
        RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
        TRUST_PROXY: 'true',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        ADMIN_EMAIL: ADMIN.email,
      };
      nodeEnv = env;
      // Both at once, on an empty database: migrations and the bootstrap admin must not race.
      const started = await Promise.allSettled([startRegistryProcess(env, 60_000), startRegistryProcess(env, 60_000)]);
      const nodes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const [first, second] = nodes;
      if (!first || !second) {
        // A node that did start is stopped here: after() knows only nodes that both came up.
        await Promise.allSettled(nodes.map((node) => node.stop()));
        throw started.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []))[0];
      }
      [a, b] = [first, second];

      const ip = () => `10.77.${randomInt(256)}.${randomInt(1, 255)}`;
      const username = `alice${process.pid}`;
      const password = 'alice-cluster-pw';
      const registered = expect(
        await send<User>(a.base, 'POST', '/v1/auth/register', { json: { username, email: `${username}@example.com`, password } }),
        201,
        'register',
      );
      const session = sessionOf(expect(await signIn(a.base, username, password, ip()), 200, 'alice signs in'));
      const key = expect(
        await send<CreatedKey>(a.base, 'POST', '/v1/me/api-keys', { auth: session, json: { name: 'cluster', scopes: ['skill:upload'] } }),
        201,
        'create key',
      );
      alice = { key: key.body.key, session, id: registered.body.id };
      adminB = sessionOf(expect(await signIn(b.base, ADMIN.username, ADMIN.password, ip()), 200, 'admin signs in on B'));
    });

    after(async () => {
      const stopped = await Promise.allSettled([ifSet(a), ifSet(b)].flatMap((node) => (node ? [node.stop()] : [])));
      await ifSet(redis)?.del(`${REDIS_KEY_PREFIX}login:127.0.0.1`);
      ifSet(redis)?.disconnect();
      await ifSet(s3)?.close();
      await ifSet(store)?.dispose();
      for (const result of stopped) {
        if (result.status === 'rejected') throw result.reason;
        assert.equal(result.value, 0, 'each node shuts down cleanly');
      }
    });

    it('a skill created and uploaded through A is moderated through B, listed, downloaded and counted through both', async () => {
      const pkg = await zip([
        { path: 'SKILL.md', content: skillMd(slug, 'A skill served by two nodes.') },
        { path: 'scripts/run.sh', content: 'echo cluster\n' },
      ]);
      const form = multipart({ name: 'Cluster Skill', slug, version: '1.0.0', tags: '["cluster"]' }, { content: pkg });
      const created = expect(
        await send<{ skill: Skill; version: Version }>(a.base, 'POST', '/v1/skills/with-package', {
          auth: alice.key,
          body: form.payload,
          headers: form.headers,
        }),
        201,
        'with-package on A',
      );
      assert.equal(created.body.skill.status, 'draft');
      const sha256 = created.body.version.sha256;

      // B finds the draft in the shared database and the package in the shared bucket.
      const queue = expect(
        await send<Page<Skill>>(b.base, 'GET', `/v1/skills?status=draft&tags=cluster`, { auth: adminB }),
        200,
        'moderation queue on B',
      );
      assert.ok(
        queue.body.items.some((s) => s.slug === slug),
        'the draft is in B’s moderation queue',
      );
      const files = expect(
        await send<Page<{ path: string }>>(b.base, 'GET', `/v1/skills/${slug}/versions/1.0.0/files`, { auth: adminB }),
        200,
        'file list on B',
      );
      assert.deepEqual(files.body.items.map((f) => f.path).sort(), ['SKILL.md', 'scripts/run.sh']);

      // A has answered (and so remembered) "no such skill" publicly; publishing through B must reach A at once.
      expect(await send(a.base, 'GET', `/v1/skills/${slug}`), 404, 'the draft is hidden on A');
      const emptySearch = expect(await send<Page<Skill>>(a.base, 'GET', `/v1/skills?tags=cluster`), 200, 'search on A');
      assert.equal(emptySearch.body.total, 0);
      expect(
        await send(b.base, 'PATCH', `/v1/admin/skills/${slug}/status`, { auth: adminB, json: { status: 'published' } }),
        200,
        'publish on B',
      );
      await eventually(
        'the published skill is visible through A',
        async () => (await send(a.base, 'GET', `/v1/skills/${slug}`)).status === 200,
        TOLD_WITHIN_MS,
      );
      await eventually(
        'A lists the published skill',
        async () => (await send<Page<Skill>>(a.base, 'GET', `/v1/skills?tags=cluster`)).body.total === 1,
        TOLD_WITHIN_MS,
      );
      // A's search index was told too: the skill is found by its words at once.
      await eventually(
        'A finds the published skill by search',
        async () =>
          (await send<Page<Skill>>(a.base, 'GET', `/v1/skills?q=${encodeURIComponent('cluster skill')}`)).body.items.some(
            (s) => s.slug === slug,
          ),
        TOLD_WITHIN_MS,
      );

      // Downloads through both nodes add up: each counts in memory and adds its share to the shared rows.
      const downloads = { a: 3, b: 4 };
      for (const [node, count] of [
        [a, downloads.a],
        [b, downloads.b],
      ] as const) {
        for (let i = 0; i < count; i += 1) {
          const res = await fetch(`${node.base}/v1/skills/${slug}/versions/latest/download`);
          assert.equal(res.status, 200);
          const bytes = Buffer.from(await res.arrayBuffer());
          assert.deepEqual(bytes, pkg, 'the package bytes come back from the bucket unchanged');
          assert.equal(res.headers.get('etag'), `"${sha256}"`);
        }
      }
      const total = downloads.a + downloads.b;
      for (const node of [a, b]) {
        await eventually(
          `stats through ${node.base} count ${total}`,
          async () => {
            const stats = await send<Stats>(node.base, 'GET', `/v1/skills/${slug}/stats`);
            return stats.status === 200 && stats.body.total_downloads === total && stats.body.versions[0]?.downloads === total;
          },
          5_000,
        );
      }
      await eventually(
        'the skill’s download count on A',
        async () => (await send<Skill>(a.base, 'GET', `/v1/skills/${slug}`)).body.downloads === total,
        5_000,
      );
    });

    it('an edit, featuring, deprecation and deletion through B show in search within a second on A (told over Redis) and on a node without Redis (which reads the change log)', async () => {
      // A third node shares the database and bucket but hears no message: only the change log tells it.
      const { REDIS_URL: _redis, ...withoutRedis } = nodeEnv;
      const c = await startRegistryProcess(withoutRedis, 60_000);
      try {
        const tag = `fresh-${process.pid}`;
        const created = expect(
          await send<Skill>(b.base, 'POST', '/v1/skills', { auth: alice.key, json: { name: `Orbit Lantern ${process.pid}`, tags: [tag] } }),
          201,
          'create on B',
        );
        const { slug } = created.body;
        // Publishing needs a version to install.
        const upload = multipart(
          { version: '1.0.0' },
          { content: await zip([{ path: 'SKILL.md', content: skillMd(slug, 'Lights the orbit.') }]) },
        );
        expect(
          await send(b.base, 'POST', `/v1/skills/${slug}/versions`, { auth: alice.key, body: upload.payload, headers: upload.headers }),
          201,
          'upload on B',
        );
        const onEvery = async (what: string, check: (base: string) => Promise<boolean>) => {
          for (const [name, node] of [
            ['A', a],
            ['C', c],
          ] as const)
            await eventually(`${what} on ${name}`, () => check(node.base), 1_000);
        };
        const found = async (base: string, query: string) =>
          (await send<Page<Skill>>(base, 'GET', `/v1/skills?tags=${tag}&${query}`)).body.items.map((s) => s.slug);

        expect(
          await send(b.base, 'PATCH', `/v1/admin/skills/${slug}/status`, { auth: adminB, json: { status: 'published' } }),
          200,
          'publish',
        );
        await onEvery('the published skill is found by its words', async (base) => (await found(base, 'q=lantern')).includes(slug));

        expect(
          await send(b.base, 'PATCH', `/v1/skills/${slug}`, { auth: alice.key, json: { name: `Orbit Beacon ${process.pid}` } }),
          200,
          'rename on B',
        );
        // The slug stays as it was (it is immutable): the old name's words still find the skill by its slug.
        await onEvery('the renamed skill is found by its new name, which it shows', async (base) => {
          const page = await send<Page<Skill>>(base, 'GET', `/v1/skills?tags=${tag}&q=beacon`);
          return page.body.items.some((s) => s.slug === slug && s.name === `Orbit Beacon ${process.pid}`);
        });

        expect(await send(b.base, 'PATCH', `/v1/admin/skills/${slug}`, { auth: adminB, json: { featured: true } }), 200, 'feature on B');
        await onEvery('the featured skill is listed as featured', async (base) => (await found(base, 'featured=true')).includes(slug));

        expect(
          await send(b.base, 'PATCH', `/v1/admin/skills/${slug}/status`, { auth: adminB, json: { status: 'deprecated' } }),
          200,
          'deprecate',
        );
        await onEvery('the deprecated skill is no longer listed publicly', async (base) => (await found(base, 'q=beacon')).length === 0);

        const draft = expect(
          await send<Skill>(b.base, 'POST', '/v1/skills', { auth: alice.key, json: { name: `Orbit Draft ${process.pid}`, tags: [tag] } }),
          201,
          'create a draft on B',
        );
        const mine = async (base: string) =>
          (await send<Page<Skill>>(base, 'GET', `/v1/me/skills?status=all&tags=${tag}`, { auth: alice.session })).body.items.map(
            (s) => s.slug,
          );
        await onEvery('the owner lists the new draft', async (base) => (await mine(base)).includes(draft.body.slug));
        expect(await send(b.base, 'DELETE', `/v1/skills/${draft.body.slug}`, { auth: alice.key }), 204, 'delete the draft on B');
        await onEvery('the deleted draft is no longer listed', async (base) => !(await mine(base)).includes(draft.body.slug));
      } finally {
        assert.equal(await c.stop(), 0, 'the node without Redis shuts down cleanly');
      }
    });

    it('calls made through either node appear in the caller’s logs on both', async () => {
      const viaA = expect(await send(a.base, 'GET', '/v1/me', { auth: alice.key }), 200, 'me on A');
      const viaB = expect(await send(b.base, 'GET', '/v1/me', { auth: alice.key }), 200, 'me on B');
      const ids = [viaA.headers.get('x-request-id')!, viaB.headers.get('x-request-id')!];
      for (const node of [a, b]) {
        // A node flushes its own buffer before answering; the other node's entries arrive with its next flush.
        await eventually(
          `both calls in the logs through ${node.base}`,
          async () => {
            const logs = expect(await send<Page<CallLog>>(node.base, 'GET', '/v1/logs?page_size=100', { auth: alice.key }), 200, 'logs');
            const seen = new Set(logs.body.items.map((entry) => entry.request_id));
            return ids.every((id) => seen.has(id));
          },
          2_000,
        );
        for (const id of ids) expect(await send(node.base, 'GET', `/v1/logs/${id}`, { auth: alice.key }), 200, `log entry ${id}`);
      }
    });

    it('a rate limit reached through A holds through B', async () => {
      const ip = `10.78.${randomInt(256)}.${randomInt(1, 255)}`;
      for (let i = 0; i < LOGIN_LIMIT; i += 1) {
        const node = i % 2 === 0 ? a : b;
        expect(await signIn(node.base, 'nobody-here', 'wrong-password', ip), 401, `failed sign-in ${i + 1}`);
      }
      const limitedA = expect(await signIn(a.base, 'nobody-here', 'wrong-password', ip), 429, 'limit on A');
      const limitedB = expect(await signIn(b.base, ADMIN.username, ADMIN.password, ip), 429, 'the same budget on B');
      assert.equal((limitedB.body as Problem).code, 'rate_limited');
      assert.ok(Number(limitedA.headers.get('retry-after')) >= 1);
      await redis.del(`${REDIS_KEY_PREFIX}login:${ip}`);
    });

    it('revoking a key or disabling an account through one node is honoured by the other at once', async () => {
      const key = expect(
        await send<CreatedKey>(a.base, 'POST', '/v1/me/api-keys', {
          auth: alice.session,
          json: { name: 'short-lived', scopes: ['skill:upload'] },
        }),
        201,
        'create key',
      );
      // B authenticates the key, and so remembers it for a while.
      expect(await send(b.base, 'GET', '/v1/me', { auth: key.body.key }), 200, 'B accepts the key');
      expect(await send(a.base, 'DELETE', `/v1/me/api-keys/${key.body.id}`, { auth: alice.session }), 204, 'revoke on A');
      await eventually(
        'B refuses the revoked key',
        async () => (await send(b.base, 'GET', '/v1/me', { auth: key.body.key })).status === 401,
        TOLD_WITHIN_MS,
      );

      expect(await send(a.base, 'GET', '/v1/me', { auth: alice.key }), 200, 'A accepts alice’s key');
      expect(await send(b.base, 'PATCH', `/v1/admin/users/${alice.id}`, { auth: adminB, json: { disabled: true } }), 200, 'disable on B');
      await eventually(
        'A refuses the disabled account',
        async () => (await send(a.base, 'GET', '/v1/me', { auth: alice.key })).status === 401,
        TOLD_WITHIN_MS,
      );
    });

    it('both nodes are ready: database, bucket', async () => {
      for (const node of [a, b]) {
        const ready = expect(await send(node.base, 'GET', '/readyz'), 200, 'readyz');
        assert.equal(typeof ready.body, 'object');
      }
    });
  },
);
