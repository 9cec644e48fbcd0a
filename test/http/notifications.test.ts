import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { notificationsRepository } from '../../src/db/repositories/notifications.js';
import { NOTIFICATIONS_KEPT, READ_RETENTION_DAYS } from '../../src/domain/notifications/notifications.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
import {
  adminSession,
  call,
  createKey,
  expectProblem,
  expectStatus,
  json,
  login,
  registerUser,
  uniqueName,
  type Auth,
  type TestUser,
} from '../helpers/client.js';

/** A receiver on 127.0.0.1 that answers every request 503, and counts them. */
async function failingReceiver(): Promise<{ url: string; count: () => number; close(): Promise<void> }> {
  let received = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(503, { 'content-type': 'text/plain' }).end('down for good');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Hook {
  id: string;
  url: string;
  active: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
}
interface Note {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  data: { webhook_id?: string; url?: string; reason?: string; disabled_at?: string };
  created_at: string;
  read_at: string | null;
}
interface NotePage {
  items: Note[];
  page: number;
  page_size: number;
  total: number;
  unread: number;
}

// One failed delivery (every one of its attempts) disables a subscription, so each test needs one event.
const ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_POLL_MS: '86400000', WEBHOOK_DISABLE_AFTER: '1' };
const HOUR = 60 * 60 * 1000;

for (const backend of apiBackends()) {
  describe(`notifications [${backend.name}]`, () => {
    let t: TestApp;
    let receiver: Awaited<ReturnType<typeof failingReceiver>>;
    let admin: { cookie: string };
    before(async () => {
      receiver = await failingReceiver();
      t = await startApp(backend, ENV);
      admin = await adminSession(t);
    });
    after(async () => {
      await t.close();
      await receiver.close();
    });

    const notes = async (auth: Auth, query = '') =>
      json<NotePage>(expectStatus(await call(t, 'GET', `/v1/me/notifications${query}`, auth), 200));
    const subscribe = async (auth: Auth, body: Record<string, unknown> = {}) =>
      json<Hook>(expectStatus(await call(t, 'POST', '/v1/webhooks', auth, { url: `${receiver.url}/${uniqueName('hook')}`, ...body }), 201));
    const hookOf = async (id: string) => {
      const row = await t.runtime.database.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { active: row.active === 1, disabled_reason: row.disabled_reason, disabled_at: new Date(row.disabled_at ?? 0).toISOString() };
    };
    /** Queues a test event, then lets every one of its attempts fail (the clock moved past each backoff, no waiting). */
    const queueFailure = async (hook: Hook, auth: Auth) => {
      expectStatus(await call(t, 'POST', `/v1/webhooks/${hook.id}/test`, auth), 202);
    };
    const failEverything = async () => {
      await withStoppedClock(async (advance) => {
        for (let i = 0; i < 6; i += 1) {
          assert.equal(await t.runtime.jobs.runNow('queue'), 'success');
          advance(2 * HOUR);
        }
      });
    };
    const disable = async (hook: Hook, auth: Auth) => {
      await queueFailure(hook, auth);
      await failEverything();
      assert.equal((await hookOf(hook.id)).active, false, 'the registry disabled it');
    };

    it("tells a user's webhook's owner, once, with the URL, the reason, when, and the way back", async () => {
      const alice = await registerUser(t);
      const bob = await registerUser(t);
      const hook = await subscribe(alice.session);
      const sent = receiver.count();
      await disable(hook, alice.session);
      assert.equal(receiver.count() - sent, 6, 'every attempt reached the receiver');
      const disabled = await hookOf(hook.id);

      const page = await notes(alice.session);
      assert.deepEqual([page.total, page.unread, page.page, page.page_size], [1, 1, 1, 20]);
      const [note] = page.items;
      assert.equal(note?.kind, 'webhook.disabled');
      assert.equal(note.read_at, null);
      assert.equal(note.link, `/webhooks?id=${hook.id}`);
      assert.deepEqual(note.data, {
        webhook_id: hook.id,
        url: hook.url,
        reason: disabled.disabled_reason,
        disabled_at: disabled.disabled_at,
      });
      assert.equal(note.created_at, disabled.disabled_at, 'written with the disable');
      assert.ok(note.title.includes(hook.url));
      for (const part of [
        hook.url,
        disabled.disabled_at,
        'Disabled after 1 deliveries in a row failed',
        'turn it back on',
        '"active": true',
      ]) {
        assert.ok(note.body.includes(part), `the body names ${part}`);
      }
      // Nobody else is told.
      assert.equal((await notes(bob.session)).total, 0);
      assert.equal((await notes(admin)).items.filter((n) => n.data.webhook_id === hook.id).length, 0);

      // Turned back on, nothing more is written; failing for good again writes one more.
      expectStatus(await call(t, 'PATCH', `/v1/webhooks/${hook.id}`, alice.session, { active: true }), 200);
      assert.equal((await notes(alice.session)).total, 1);
      await disable(hook, alice.session);
      const again = await notes(alice.session);
      assert.deepEqual([again.total, again.unread], [2, 2]);
      assert.ok(again.items[0]!.created_at > again.items[1]!.created_at, 'the newest first');
    });

    it("tells an organisation's owners and admins as they are when it happens, not its publishers nor a maker who left", async () => {
      const owner = await registerUser(t);
      const orgAdmin = await registerUser(t);
      const publisher = await registerUser(t);
      const leaver = await registerUser(t);
      const org = uniqueName('org');
      expectStatus(await call(t, 'POST', '/v1/orgs', owner.session, { handle: org }), 201);
      for (const [user, role] of [
        [orgAdmin, 'admin'],
        [publisher, 'publisher'],
        [leaver, 'admin'],
      ] as const) {
        const invitation = json<{ id: string }>(
          expectStatus(await call(t, 'POST', `/v1/orgs/${org}/invitations`, owner.session, { username: user.username, role }), 201),
        );
        expectStatus(await call(t, 'POST', `/v1/me/invitations/${invitation.id}/accept`, user.session), 200);
      }
      // Made by an admin who is then removed: the subscription stays the organisation's, its maker is no longer told.
      const hook = await subscribe(leaver.session, { org });
      await queueFailure(hook, leaver.session);
      expectStatus(await call(t, 'DELETE', `/v1/orgs/${org}/members/${leaver.username}`, owner.session), 204);
      await failEverything();
      assert.equal((await hookOf(hook.id)).active, false);

      const about = async (user: TestUser) => (await notes(user.session)).items.filter((n) => n.data.webhook_id === hook.id);
      for (const user of [owner, orgAdmin]) {
        const [note] = await about(user);
        assert.ok(note, `${user.username} is told`);
        assert.ok(note.body.startsWith(`The webhook of ${org} to ${hook.url}`));
      }
      assert.equal((await about(publisher)).length, 0, 'a publisher cannot manage it and is not told');
      assert.equal((await about(leaver)).length, 0, 'a former admin is not told');
      // Each reads their own: marking the owner's read leaves the admin's unread.
      const [ownerNote] = await about(owner);
      expectStatus(await call(t, 'POST', `/v1/me/notifications/${ownerNote!.id}/read`, owner.session), 200);
      assert.equal((await about(orgAdmin))[0]?.read_at, null);
      expectProblem(await call(t, 'POST', `/v1/me/notifications/${ownerNote!.id}/read`, orgAdmin.session), 404, 'notification_not_found');
    });

    it('tells the administrator who subscribed to every skill, or every administrator once they are not one', async () => {
      const maker = await registerUser(t);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${maker.id}`, admin, { role: 'admin' }), 200);
      const makerSession = await login(t, maker.username, maker.password);
      const first = await subscribe(makerSession, { all: true });
      await disable(first, makerSession);
      assert.equal((await notes(makerSession)).items.filter((n) => n.data.webhook_id === first.id).length, 1);
      assert.equal((await notes(admin)).items.filter((n) => n.data.webhook_id === first.id).length, 0, 'only its maker');

      // The maker is made an ordinary user again: every administrator is told instead (someone who can turn it on).
      const second = await subscribe(makerSession, { all: true });
      await queueFailure(second, makerSession);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${maker.id}`, admin, { role: 'user' }), 200);
      await failEverything();
      assert.equal((await notes(admin)).items.filter((n) => n.data.webhook_id === second.id).length, 1);
      assert.equal((await notes(maker.session)).items.filter((n) => n.data.webhook_id === second.id).length, 0);
    });

    it('tells no disabled account', async () => {
      const carol = await registerUser(t);
      const hook = await subscribe(carol.session);
      await queueFailure(hook, carol.session);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${carol.id}`, admin, { disabled: true }), 200);
      await failEverything();
      assert.equal((await hookOf(hook.id)).active, false);
      const rows = await t.runtime.database.db.selectFrom('notifications').select('id').where('user_id', '=', carol.id).execute();
      assert.equal(rows.length, 0);
    });

    it("removes a deleted account's notifications with it", async () => {
      const frank = await registerUser(t);
      const hook = await subscribe(frank.session);
      await disable(hook, frank.session);
      assert.equal((await notes(frank.session)).total, 1);
      // The registry deletes no account today; were one deleted, its webhooks and notifications go with it.
      const db = t.runtime.database.db;
      await db.deleteFrom('users').where('id', '=', frank.id).execute();
      assert.equal((await db.selectFrom('notifications').select('id').where('user_id', '=', frank.id).execute()).length, 0);
      assert.equal((await db.selectFrom('webhooks').select('id').where('id', '=', hook.id).execute()).length, 0);
    });

    it('pages the list, counts the unread on every page, and marks one or all read', async () => {
      const dave = await registerUser(t);
      const repository = notificationsRepository(t.runtime.database.db);
      const base = Date.parse('2026-06-01T00:00:00Z');
      await repository.insert(
        Array.from({ length: 5 }, (_, i) => ({
          id: `n-${dave.id}-${i}`,
          user_id: dave.id,
          kind: 'webhook.disabled',
          title: `Webhook disabled: https://example.com/${i}`,
          body: 'body',
          link: null,
          subject_id: null,
          data: '{}',
          created_at: new Date(base + i * 1000).toISOString(),
          read_at: null,
        })),
        NOTIFICATIONS_KEPT,
      );
      const first = await notes(dave.session, '?page=1&page_size=2');
      assert.deepEqual(
        first.items.map((n) => n.id),
        [`n-${dave.id}-4`, `n-${dave.id}-3`],
      );
      assert.deepEqual([first.total, first.unread, first.page, first.page_size], [5, 5, 1, 2]);
      const last = await notes(dave.session, '?page=3&page_size=2');
      assert.deepEqual(
        last.items.map((n) => n.id),
        [`n-${dave.id}-0`],
      );

      const read = json<Note>(expectStatus(await call(t, 'POST', `/v1/me/notifications/n-${dave.id}-4/read`, dave.session), 200));
      assert.ok(read.read_at !== null);
      // Read again: it keeps when it was first read.
      const reread = json<Note>(expectStatus(await call(t, 'POST', `/v1/me/notifications/n-${dave.id}-4/read`, dave.session), 200));
      assert.equal(reread.read_at, read.read_at);
      assert.equal((await notes(dave.session, '?page=2&page_size=2')).unread, 4);

      assert.deepEqual(json(expectStatus(await call(t, 'POST', '/v1/me/notifications/read', dave.session), 200)), { marked: 4 });
      assert.deepEqual(json(expectStatus(await call(t, 'POST', '/v1/me/notifications/read', dave.session), 200)), { marked: 0 });
      const after = await notes(dave.session);
      assert.equal(after.unread, 0);
      assert.ok(after.items.every((n) => n.read_at !== null));

      // Bad input and unknown ids.
      expectProblem(await call(t, 'GET', '/v1/me/notifications?page=0', dave.session), 400, 'validation_failed');
      expectProblem(await call(t, 'GET', '/v1/me/notifications?page_size=abc', dave.session), 400, 'validation_failed');
      expectProblem(await call(t, 'GET', '/v1/me/notifications?page=100000&page_size=100', dave.session), 400, 'validation_failed');
      expectProblem(await call(t, 'GET', '/v1/me/notifications?colour=red', dave.session), 400, 'validation_failed');
      expectProblem(await call(t, 'POST', '/v1/me/notifications/nope/read', dave.session), 404, 'notification_not_found');
      expectProblem(await call(t, 'POST', `/v1/me/notifications/${'x'.repeat(101)}/read`, dave.session), 400, 'validation_failed');
    });

    it('keeps a bounded number per user, and prunes read ones past retention', async () => {
      const erin = await registerUser(t);
      const repository = notificationsRepository(t.runtime.database.db);
      const row = (i: number, readAt: string | null, createdAt: string) => ({
        id: `k-${erin.id}-${String(i).padStart(4, '0')}`,
        user_id: erin.id,
        kind: 'webhook.disabled',
        title: 't',
        body: 'b',
        link: null,
        subject_id: null,
        data: '{}',
        created_at: createdAt,
        read_at: readAt,
      });
      const base = Date.parse('2026-01-01T00:00:00Z');
      await repository.insert(
        Array.from({ length: NOTIFICATIONS_KEPT + 10 }, (_, i) => row(i, null, new Date(base + i * 1000).toISOString())),
        NOTIFICATIONS_KEPT,
      );
      const page = await notes(erin.session, '?page_size=1');
      assert.equal(page.total, NOTIFICATIONS_KEPT, 'the oldest beyond the bound went');
      assert.equal(page.items[0]?.id, `k-${erin.id}-${String(NOTIFICATIONS_KEPT + 9).padStart(4, '0')}`);

      const old = new Date(Date.now() - (READ_RETENTION_DAYS + 1) * 86_400_000).toISOString();
      const recent = new Date(Date.now() - (READ_RETENTION_DAYS - 1) * 86_400_000).toISOString();
      await t.runtime.database.db.deleteFrom('notifications').where('user_id', '=', erin.id).execute();
      await repository.insert([row(1, old, old), row(2, recent, old), row(3, null, old)], NOTIFICATIONS_KEPT);
      assert.ok((await t.runtime.services.notifications.prune()) >= 1);
      const left = await notes(erin.session);
      assert.deepEqual(left.items.map((n) => n.id).sort(), [`k-${erin.id}-0002`, `k-${erin.id}-0003`]);
      // The hourly pruning job runs it.
      assert.equal(await t.runtime.jobs.runNow('log-pruning'), 'success');
    });

    it('answers each caller only about their own (caller × endpoint)', async () => {
      const owner = await registerUser(t);
      const other = await registerUser(t);
      const withScope = await createKey(t, owner.session);
      const withoutScope = await createKey(t, owner.session, []);
      const hook = await subscribe(owner.session);
      await disable(hook, owner.session);
      const noteId = (await notes(owner.session)).items[0]!.id;
      const callers: Record<string, Auth> = {
        anonymous: null,
        owner: owner.session,
        other: other.session,
        admin,
        keyWithScope: { key: withScope.key },
        keyWithoutScope: { key: withoutScope.key },
      };
      const endpoints: Record<string, (auth: Auth) => Promise<LightMyRequestResponse>> = {
        'GET list': (auth) => call(t, 'GET', '/v1/me/notifications', auth),
        'POST one read': (auth) => call(t, 'POST', `/v1/me/notifications/${noteId}/read`, auth),
        'POST all read': (auth) => call(t, 'POST', '/v1/me/notifications/read', auth),
      };
      const expected: Record<string, number[]> = {
        //               anon owner other admin key  keyNoScope
        'GET list': [401, 200, 200, 200, 200, 200],
        'POST one read': [401, 200, 404, 404, 200, 200],
        'POST all read': [401, 200, 200, 200, 200, 200],
      };
      const actual: Record<string, number[]> = {};
      for (const [name, request] of Object.entries(endpoints)) {
        actual[name] = [];
        for (const auth of Object.values(callers)) actual[name].push((await request(auth)).statusCode);
      }
      assert.deepEqual(actual, expected);
      // What each sees: only their own.
      for (const auth of [other.session, admin]) {
        assert.ok(!(await notes(auth)).items.some((n) => n.id === noteId));
      }
      assert.ok(
        (await notes({ key: withoutScope.key })).items.some((n) => n.id === noteId),
        "a key reads its user's",
      );
      expectStatus(await call(t, 'GET', '/v1/me/notifications', { key: 'skr_not-a-key' }), 401);
    });
  });
}
