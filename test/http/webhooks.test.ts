import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
import {
  adminSession,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  uniqueName,
  type Auth,
  type TestUser,
} from '../helpers/client.js';

// The receiver's check, exactly as docs/api-decisions.md ("Webhooks") shows it (a test below holds the two together).
// --- verification snippet ---
function verifyWebhook(secret: string, headers: IncomingHttpHeaders, rawBody: string, toleranceSeconds = 300): boolean {
  const timestamp = headers['skill-registry-timestamp'];
  const signature = headers['skill-registry-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const age = Math.abs(Date.now() / 1000 - Number(timestamp));
  if (!Number.isFinite(age) || age > toleranceSeconds) return false;
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}
// --- end of snippet ---

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1: answers each path with the statuses queued for it (then 200), and keeps every request. */
async function receiver(): Promise<{ url: string; received: Received[]; answers: Map<string, number[]>; close(): Promise<void> }> {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body });
      const status = answers.get(path)?.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'receiver broken '.repeat(200));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Hook {
  id: string;
  url: string;
  active: boolean;
  failures: number;
  disabled_reason: string | null;
  secret?: string;
}
interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  state: string;
  redelivery_of: string | null;
  attempts: { attempt: number; status_code: number | null; error: string | null; response_body: string | null; duration_ms: number }[];
}

const ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_POLL_MS: '86400000', WEBHOOK_DISABLE_AFTER: '2' };

for (const backend of apiBackends()) {
  describe(`webhooks [${backend.name}]`, () => {
    let t: TestApp;
    let hooks: Awaited<ReturnType<typeof receiver>>;
    let admin: { cookie: string };
    let alice: TestUser;
    before(async () => {
      hooks = await receiver();
      t = await startApp(backend, ENV);
      admin = await adminSession(t);
      alice = await registerUser(t);
    });
    after(async () => {
      await t.close();
      await hooks.close();
    });

    const run = async (job: 'webhook-dispatch' | 'queue') => assert.equal(await t.runtime.jobs.runNow(job), 'success');
    const deliveries = async (hook: Hook, auth: Auth = alice.session) =>
      json<{ items: Delivery[] }>(expectStatus(await call(t, 'GET', `/v1/webhooks/${hook.id}/deliveries`, auth), 200)).items;
    const subscribe = async (path: string, auth: Auth = alice.session, body: Record<string, unknown> = {}) =>
      json<Hook>(expectStatus(await call(t, 'POST', '/v1/webhooks', auth, { url: `${hooks.url}${path}`, ...body }), 201));

    it('signs each delivery, tries a failed one again with backoff, and logs every attempt', async () => {
      const hook = await subscribe('/main');
      assert.match(hook.secret ?? '', /^whsec_/);
      assert.equal(json<Hook>(expectStatus(await call(t, 'GET', `/v1/webhooks/${hook.id}`, alice.session), 200)).secret, undefined);
      hooks.answers.set('/main', [500]);
      const skill = await createSkill(t, alice.session);
      await run('webhook-dispatch');
      await run('queue');
      const first = hooks.received.filter((r) => r.path === '/main');
      assert.equal(first.length, 1);
      let [delivery] = await deliveries(hook);
      assert.equal(delivery?.state, 'pending');
      assert.equal(delivery.attempts[0]?.status_code, 500);
      assert.equal(delivery.attempts[0].response_body?.length, 1024, 'the answer is kept truncated');

      await withStoppedClock(async (advance) => {
        await run('queue');
        assert.equal(hooks.received.filter((r) => r.path === '/main').length, 1, 'not before its backoff');
        advance(31_000);
        await run('queue');
        const both = hooks.received.filter((r) => r.path === '/main');
        assert.equal(both.length, 2);
        for (const r of both) assert.ok(verifyWebhook(hook.secret ?? '', r.headers, r.body), 'the signature verifies');
        assert.ok(!verifyWebhook('whsec_wrong', both[1]!.headers, both[1]!.body));
        assert.ok(!verifyWebhook(hook.secret ?? '', both[1]!.headers, `${both[1]!.body} `));
        advance(301_000);
        assert.ok(!verifyWebhook(hook.secret ?? '', both[1]!.headers, both[1]!.body), 'a replay past the tolerance is refused');
      });
      const last = hooks.received.at(-1)!;
      const event = JSON.parse(last.body) as { id: string; type: string; skill: { id: string; name: string } };
      assert.equal(event.type, 'skill.created');
      assert.equal(event.skill.id, skill.id);
      assert.equal(last.headers['skill-registry-event'], 'skill.created');
      assert.equal(last.headers['skill-registry-delivery'], delivery.id);
      // The event is the feed's entry, as the owner reads it.
      const feed = json<{ items: { id: string }[] }>(
        expectStatus(await call(t, 'GET', `/v1/changes?since=${Number(event.id) - 1}&limit=1`, alice.session), 200),
      );
      assert.deepEqual(feed.items[0], event);
      [delivery] = await deliveries(hook);
      assert.equal(delivery?.state, 'delivered');
      assert.deepEqual(
        delivery.attempts.map((a) => [a.attempt, a.status_code]),
        [
          [1, 500],
          [2, 200],
        ],
      );

      // Sent again by hand: a new delivery of the same body.
      const again = json<Delivery>(
        expectStatus(await call(t, 'POST', `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, alice.session), 202),
      );
      assert.equal(again.redelivery_of, delivery.id);
      await run('queue');
      assert.equal(hooks.received.at(-1)?.body, last.body);
      assert.equal(hooks.received.at(-1)?.headers['skill-registry-delivery'], again.id);
      expectProblem(await call(t, 'POST', `/v1/webhooks/${hook.id}/deliveries/nope/redeliver`, alice.session), 404, 'delivery_not_found');

      // A test event.
      const ping = json<Delivery>(expectStatus(await call(t, 'POST', `/v1/webhooks/${hook.id}/test`, alice.session), 202));
      await run('queue');
      const received = hooks.received.at(-1)!;
      assert.equal(received.headers['skill-registry-event'], 'webhook.ping');
      assert.ok(verifyWebhook(hook.secret ?? '', received.headers, received.body));
      assert.equal((await deliveries(hook)).find((d) => d.id === ping.id)?.state, 'delivered');
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${hook.id}`, alice.session), 204);
    });

    it('turns each entry into one delivery, with dispatchers racing on several nodes', async () => {
      const hook = await subscribe('/race');
      const skills = await Promise.all(Array.from({ length: 5 }, () => createSkill(t, alice.session)));
      const counts = await Promise.all([1, 2, 3].map(() => t.runtime.services.webhooks.dispatch()));
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        5,
      );
      const queued = await deliveries(hook);
      assert.deepEqual(
        queued.map((d) => d.event_type),
        Array.from({ length: 5 }, () => 'skill.created'),
      );
      assert.equal(new Set(queued.map((d) => d.event_id)).size, skills.length);
      await run('queue');
      assert.equal(hooks.received.filter((r) => r.path === '/race').length, 5);
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${hook.id}`, alice.session), 204);
    });

    it('disables a subscription whose deliveries keep failing, and says why', async () => {
      const hook = await subscribe('/broken');
      hooks.answers.set(
        '/broken',
        Array.from({ length: 100 }, () => 503),
      );
      await createSkill(t, alice.session);
      await createSkill(t, alice.session);
      await run('webhook-dispatch');
      await withStoppedClock(async (advance) => {
        for (let i = 0; i < 6; i += 1) {
          await run('queue');
          advance(2 * 60 * 60 * 1000);
        }
      });
      const after = json<Hook>(expectStatus(await call(t, 'GET', `/v1/webhooks/${hook.id}`, alice.session), 200));
      assert.equal(after.active, false);
      assert.match(after.disabled_reason ?? '', /Disabled after 2 deliveries in a row failed/);
      assert.deepEqual(
        (await deliveries(hook)).map((d) => [d.state, d.attempts.length]),
        [
          ['failed', 6],
          ['failed', 6],
        ],
      );
      const audit = await t.runtime.database.db.selectFrom('admin_audit').selectAll().where('target_id', '=', hook.id).execute();
      assert.deepEqual(
        audit.map((a) => a.action),
        ['webhook.disabled'],
      );
      // Nothing more is sent while it is off; turned on again, it counts from none.
      const sent = hooks.received.length;
      await createSkill(t, alice.session);
      await run('webhook-dispatch');
      await run('queue');
      assert.equal(
        hooks.received.filter((r) => r.path === '/broken').length,
        sent - hooks.received.filter((r) => r.path !== '/broken').length,
      );
      const on = json<Hook>(expectStatus(await call(t, 'PATCH', `/v1/webhooks/${hook.id}`, alice.session, { active: true }), 200));
      assert.deepEqual([on.active, on.failures, on.disabled_reason], [true, 0, null]);
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${hook.id}`, alice.session), 204);
    });

    it('delivers what was pending before a restart from the new instance on the same database', async () => {
      const hook = await subscribe('/restart');
      await createSkill(t, alice.session);
      await run('webhook-dispatch');
      assert.equal(hooks.received.filter((r) => r.path === '/restart').length, 0);
      await t.restart();
      await run('queue');
      const got = hooks.received.filter((r) => r.path === '/restart');
      assert.equal(got.length, 1);
      assert.ok(verifyWebhook(hook.secret ?? '', got[0]!.headers, got[0]!.body));
      assert.equal((await deliveries(hook))[0]?.state, 'delivered');
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${hook.id}`, alice.session), 204);
    });

    it('checks the address again at each delivery, and sends nothing to one not allowed now', async () => {
      const hook = await subscribe('/moved');
      // As if the name now resolved elsewhere: the stored URL points at a private address the guard refuses.
      await t.runtime.database.db.updateTable('webhooks').set({ url: 'http://10.0.0.1:9/moved' }).where('id', '=', hook.id).execute();
      const sent = hooks.received.length;
      expectStatus(await call(t, 'POST', `/v1/webhooks/${hook.id}/test`, alice.session), 202);
      await run('queue');
      assert.equal(hooks.received.length, sent);
      const [delivery] = await deliveries(hook);
      assert.equal(delivery?.state, 'pending');
      assert.equal(delivery.attempts[0]?.status_code, null);
      assert.match(delivery.attempts[0].error ?? '', /not a public address/);
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${hook.id}`, alice.session), 204);
    });

    it('answers each caller by what they manage (caller × endpoint)', async () => {
      const owner = await registerUser(t);
      const orgAdmin = await registerUser(t);
      const publisher = await registerUser(t);
      const other = await registerUser(t);
      const org = uniqueName('org-');
      expectStatus(await call(t, 'POST', '/v1/orgs', owner.session, { handle: org }), 201);
      for (const [user, role] of [
        [orgAdmin, 'admin'],
        [publisher, 'publisher'],
      ] as const) {
        const invitation = json<{ id: string }>(
          expectStatus(await call(t, 'POST', `/v1/orgs/${org}/invitations`, owner.session, { username: user.username, role }), 201),
        );
        expectStatus(await call(t, 'POST', `/v1/me/invitations/${invitation.id}/accept`, user.session), 200);
      }
      const withScope = await createKey(t, owner.session);
      const withoutScope = await createKey(t, owner.session, []);
      const callers: Record<string, Auth> = {
        anonymous: null,
        other: other.session,
        owner: owner.session,
        orgAdmin: orgAdmin.session,
        publisher: publisher.session,
        admin,
        keyWithScope: { key: withScope.key },
        keyWithoutScope: { key: withoutScope.key },
      };
      const orgHook = await subscribe('/org', owner.session, { org });
      const url = `${hooks.url}/table`;
      const endpoints: Record<string, (auth: Auth) => Promise<LightMyRequestResponse>> = {
        'POST own': (auth) => call(t, 'POST', '/v1/webhooks', auth, { url }),
        'POST org': (auth) => call(t, 'POST', '/v1/webhooks', auth, { url, org }),
        'POST all': (auth) => call(t, 'POST', '/v1/webhooks', auth, { url, all: true }),
        'GET list': (auth) => call(t, 'GET', '/v1/webhooks', auth),
        'GET org hook': (auth) => call(t, 'GET', `/v1/webhooks/${orgHook.id}`, auth),
        'PATCH org hook': (auth) => call(t, 'PATCH', `/v1/webhooks/${orgHook.id}`, auth, { events: ['skill.published'] }),
        'GET deliveries': (auth) => call(t, 'GET', `/v1/webhooks/${orgHook.id}/deliveries`, auth),
        'POST test': (auth) => call(t, 'POST', `/v1/webhooks/${orgHook.id}/test`, auth),
      };
      const expected: Record<string, number[]> = {
        //                anon other owner orgAdmin publisher admin key  keyNoScope
        'POST own': [401, 201, 201, 201, 201, 201, 201, 403],
        'POST org': [401, 403, 201, 201, 403, 201, 201, 403],
        'POST all': [401, 403, 403, 403, 403, 201, 403, 403],
        'GET list': [401, 200, 200, 200, 200, 200, 200, 200],
        'GET org hook': [401, 404, 200, 200, 404, 200, 200, 200],
        'PATCH org hook': [401, 404, 200, 200, 404, 200, 200, 403],
        'GET deliveries': [401, 404, 200, 200, 404, 200, 200, 200],
        'POST test': [401, 404, 202, 202, 404, 202, 202, 403],
      };
      const actual: Record<string, number[]> = {};
      for (const [name, request] of Object.entries(endpoints)) {
        actual[name] = [];
        for (const auth of Object.values(callers)) actual[name].push((await request(auth)).statusCode);
      }
      assert.deepEqual(actual, expected);
      // Lists: an organisation's admin sees its subscription, a publisher does not; an admin session sees every one.
      const ids = async (auth: Auth) => json<{ items: Hook[] }>(await call(t, 'GET', '/v1/webhooks', auth)).items.map((h) => h.id);
      assert.ok((await ids(orgAdmin.session)).includes(orgHook.id));
      assert.ok(!(await ids(publisher.session)).includes(orgHook.id));
      assert.ok((await ids(admin)).includes(orgHook.id));
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${orgHook.id}`, publisher.session), 404);
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${orgHook.id}`, { key: withoutScope.key }), 403);
      expectStatus(await call(t, 'DELETE', `/v1/webhooks/${orgHook.id}`, orgAdmin.session), 204);
    });

    it('documents the verification code the receiver above runs', () => {
      const test = readFileSync(new URL(import.meta.url), 'utf8');
      const snippet = test.split('// --- verification snippet ---\n')[1]!.split('// --- end of snippet ---')[0]!;
      const docs = readFileSync(new URL('../../docs/api-decisions.md', import.meta.url), 'utf8');
      // The documentation's copy is plain JavaScript: the same lines with the type annotations left out.
      const plain = snippet.replace(
        'secret: string, headers: IncomingHttpHeaders, rawBody: string, toleranceSeconds = 300): boolean',
        'secret, headers, rawBody, toleranceSeconds = 300)',
      );
      assert.ok(docs.includes(plain), 'docs/api-decisions.md shows the receiver code the tests run');
    });
  });

  describe(`webhook addresses [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    before(async () => {
      t = await startApp(backend, { QUEUE_POLL_MS: '86400000' });
      alice = await registerUser(t);
    });
    after(() => t.close());

    it('refuses URLs that reach loopback, private, link-local or metadata addresses unless allowed', async () => {
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://10.1.2.3/hook',
        'http://192.168.0.10/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://[fd00::1]/hook',
        'http://localhost/hook',
        'ftp://example.com/hook',
        'http://user:pw@203.0.113.1/hook',
        'http://0.0.0.0/hook',
        'http://224.0.0.1/hook',
        'http://[fe80::1]/hook',
        'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
        'http://[2002:a9fe:a9fe::1]/hook',
      ]) {
        const problem = expectProblem(await call(t, 'POST', '/v1/webhooks', alice.session, { url }), 400, 'webhook_url_refused');
        assert.equal((problem.errors as { field: string }[])[0]?.field, 'url', url);
      }
      // A public address is taken (an address literal: no resolver needed).
      expectStatus(await call(t, 'POST', '/v1/webhooks', alice.session, { url: 'https://93.184.216.34/hook' }), 201);
    });
  });
}
