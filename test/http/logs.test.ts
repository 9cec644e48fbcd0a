import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { v7 as uuidv7 } from 'uuid';
import type { CallLog } from '../../src/domain/logs/call-logs.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
import { adminSession, call, createKey, expectProblem, expectStatus, json, registerUser, type TestUser } from '../helpers/client.js';

type LogBody = CallLog;

interface LogList {
  items: LogBody[];
  page: number;
  page_size: number;
  total: number;
}

for (const backend of apiBackends()) {
  describe(`call logs [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let admin: { cookie: string };
    let aliceKey: { key: string; id: string };
    before(async () => {
      t = await startApp(backend, { LOG_RETENTION_DAYS: '7' });
      alice = await registerUser(t);
      bob = await registerUser(t);
      admin = await adminSession(t);
      aliceKey = await createKey(t, alice.session, []);
    });
    after(() => t.close());

    const requestIdOf = (res: { headers: Record<string, unknown> }) => String(res.headers['x-request-id']);

    it('records a keyed call with every field, visible at once by its request id', async () => {
      const res = await call(t, 'GET', '/v1/skills/no-such-skill?x=1', { key: aliceKey.key }, undefined, { 'user-agent': 'log-test/1.0' });
      expectStatus(res, 404);
      const log = json<LogBody>(expectStatus(await call(t, 'GET', `/v1/logs/${requestIdOf(res)}`, { key: aliceKey.key }), 200));
      assert.equal(log.request_id, requestIdOf(res));
      assert.equal(log.user_id, alice.id);
      assert.equal(log.method, 'GET');
      assert.equal(log.path, '/v1/skills/no-such-skill?x=1');
      assert.equal(log.route, '/v1/skills/:skillId');
      assert.equal(log.status_code, 404);
      assert.ok(log.duration_ms >= 0);
      assert.equal(log.ip, '127.0.0.1');
      assert.equal(log.user_agent, 'log-test/1.0');
      assert.equal(log.auth, 'api_key');
      assert.equal(log.api_key_id, aliceKey.id);
      assert.ok(Math.abs(Date.now() - Date.parse(log.created_at)) < 60_000);
    });

    it('records session calls as auth "session", writes included', async () => {
      const res = await call(t, 'POST', '/v1/skills', alice.session, { name: 'Logged Skill' });
      expectStatus(res, 201);
      const log = json<LogBody>(expectStatus(await call(t, 'GET', `/v1/logs/${requestIdOf(res)}`, alice.session), 200));
      assert.equal(log.auth, 'session');
      assert.equal(log.api_key_id, null);
      assert.equal(log.method, 'POST');
      assert.equal(log.status_code, 201);
      assert.equal(log.route, '/v1/skills');
    });

    it('records nothing for anonymous calls, bad credentials, or paths outside /v1', async () => {
      const anonymous = await call(t, 'GET', '/v1/skills');
      const badKey = await call(t, 'GET', '/v1/me', { key: 'skreg_notarealkey' });
      expectStatus(badKey, 401);
      const health = await call(t, 'GET', '/healthz', { key: aliceKey.key });
      await t.runtime.services.recorder.flush();
      for (const res of [anonymous, badKey, health]) {
        assert.equal(await t.runtime.services.repositories.callLogs.find(requestIdOf(res)), undefined);
      }
    });

    it('writes entries on its own within a second, without a query on this node', async () => {
      const res = await call(t, 'GET', '/v1/me', { key: aliceKey.key });
      const started = Date.now();
      let found = false;
      while (!found && Date.now() - started < 1000) {
        found = (await t.runtime.services.repositories.callLogs.find(requestIdOf(res))) !== undefined;
        if (!found) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(found, 'the entry reached the database within one second');
    });

    it("hides another user's call (404) except from an admin session", async () => {
      const res = await call(t, 'GET', '/v1/me', bob.session);
      expectProblem(await call(t, 'GET', `/v1/logs/${requestIdOf(res)}`, alice.session), 404, 'log_not_found');
      expectProblem(await call(t, 'GET', '/v1/logs/not-a-request-id', alice.session), 404, 'log_not_found');
      const seen = json<LogBody>(expectStatus(await call(t, 'GET', `/v1/logs/${requestIdOf(res)}`, admin), 200));
      assert.equal(seen.user_id, bob.id);
      const adminKey = await createKey(t, admin, []);
      expectProblem(await call(t, 'GET', `/v1/logs/${requestIdOf(res)}`, { key: adminKey.key }), 404, 'log_not_found');
      expectProblem(await call(t, 'GET', `/v1/logs/${requestIdOf(res)}`), 401, 'unauthenticated');
    });

    describe('GET /v1/logs', () => {
      let carol: TestUser;
      let mark: string;
      before(async () => {
        carol = await registerUser(t);
        // `mark` falls strictly between the first call and the rest (the time filters' `to` is exclusive), which a
        // clock read between two calls made in the same millisecond would not promise.
        await withStoppedClock(async (advance) => {
          expectStatus(await call(t, 'GET', '/v1/me', carol.session), 200);
          advance(1);
          mark = new Date().toISOString();
          advance(4);
          expectStatus(await call(t, 'GET', '/v1/skills/missing-one', carol.session), 404);
          expectStatus(await call(t, 'GET', '/v1/skills/missing-two', carol.session), 404);
          expectStatus(await call(t, 'POST', '/v1/skills', carol.session, { name: 'x', slug: 'Bad Slug' }), 400);
          expectStatus(await call(t, 'GET', '/v1/me', carol.session), 200);
        });
      });

      it("lists the caller's own calls, newest first", async () => {
        const list = json<LogList>(expectStatus(await call(t, 'GET', '/v1/logs', carol.session), 200));
        assert.ok(list.items.every((l) => l.user_id === carol.id));
        // The login itself is anonymous, so the first recorded call is the first GET /v1/me.
        assert.deepEqual(
          list.items.slice(0, 5).map((l) => [l.method, l.status_code]),
          [
            ['GET', 200],
            ['POST', 400],
            ['GET', 404],
            ['GET', 404],
            ['GET', 200],
          ],
        );
        assert.equal(list.page, 1);
        assert.equal(list.page_size, 20);
        const times = list.items.map((l) => l.created_at);
        assert.deepEqual([...times].sort().reverse(), times);
      });

      it('filters by status, status class, method and time range', async () => {
        const exact = json<LogList>(await call(t, 'GET', '/v1/logs?status_code=404', carol.session));
        assert.deepEqual(exact.items.map((l) => l.path).sort(), ['/v1/skills/missing-one', '/v1/skills/missing-two']);
        const clientErrors = json<LogList>(await call(t, 'GET', '/v1/logs?status_code=4xx', carol.session));
        assert.equal(clientErrors.total, 3);
        const posts = json<LogList>(await call(t, 'GET', '/v1/logs?method=post', carol.session));
        assert.deepEqual(
          posts.items.map((l) => l.status_code),
          [400],
        );
        const since = json<LogList>(await call(t, 'GET', `/v1/logs?from=${encodeURIComponent(mark)}`, carol.session));
        assert.ok(since.items.every((l) => l.created_at >= mark));
        assert.ok(since.total >= 4);
        const before = json<LogList>(await call(t, 'GET', `/v1/logs?to=${encodeURIComponent(mark)}`, carol.session));
        assert.equal(before.total, 1);
        assert.equal(before.items[0]!.path, '/v1/me');
        const none = json<LogList>(await call(t, 'GET', '/v1/logs?from=2000-01-01&to=2000-01-02', carol.session));
        assert.equal(none.total, 0);
      });

      it('pages', async () => {
        const all = json<LogList>(await call(t, 'GET', '/v1/logs', carol.session));
        const page2 = json<LogList>(await call(t, 'GET', '/v1/logs?page=2&page_size=2', carol.session));
        // The first listing is itself recorded, as the newest call, so everything moves down by one.
        assert.deepEqual(
          page2.items.map((l) => l.request_id),
          all.items.slice(1, 3).map((l) => l.request_id),
        );
        assert.equal(page2.total, all.total + 1);
        const clamped = json<LogList>(await call(t, 'GET', '/v1/logs?page_size=1000', carol.session));
        assert.equal(clamped.page_size, 100);
      });

      const badFilters = [
        'status_code=abc',
        'status_code=6xx',
        'status_code=4x',
        'from=yesterday',
        'to=2026-13-40',
        'from=2026-11-21T10:00:00',
        'method=FETCH',
        'page=0',
        'page_size=-1',
      ];
      for (const filter of badFilters) {
        it(`refuses ${filter} with 400`, async () => {
          expectProblem(await call(t, 'GET', `/v1/logs?${filter}`, carol.session), 400, 'validation_failed');
        });
      }

      it("lets an admin session read a user's calls with user_id, and nobody else", async () => {
        const list = json<LogList>(expectStatus(await call(t, 'GET', `/v1/logs?user_id=${carol.id}&status_code=404`, admin), 200));
        assert.equal(list.total, 2);
        assert.ok(list.items.every((l) => l.user_id === carol.id));
        expectProblem(await call(t, 'GET', `/v1/logs?user_id=${carol.id}`, alice.session), 403, 'admin_session_required');
        const adminKey = await createKey(t, admin, []);
        expectProblem(await call(t, 'GET', `/v1/logs?user_id=${carol.id}`, { key: adminKey.key }), 403, 'admin_session_required');
        expectProblem(await call(t, 'GET', '/v1/logs'), 401, 'unauthenticated');
      });
    });

    it('prunes entries older than LOG_RETENTION_DAYS', async () => {
      const day = 86_400_000;
      // Request ids are UUIDv7 made when the request arrived, which is what pruning relies on.
      const ids = new Map<string, string>();
      const entry = (name: string, ageDays: number) => {
        const at = Date.now() - ageDays * day;
        ids.set(name, uuidv7({ msecs: at }));
        return entryAt(ids.get(name)!, at);
      };
      const entryAt = (id: string, at: number) => ({
        request_id: id,
        user_id: alice.id,
        method: 'GET',
        path: '/v1/me',
        route: '/v1/me',
        status_code: 200,
        duration_ms: 1,
        ip: '127.0.0.1',
        user_agent: null,
        auth: 'session' as const,
        api_key_id: null,
        created_at: at,
      });
      await t.runtime.services.repositories.callLogs.insertMany([entry('prune-old', 8), entry('prune-edge', 6.9), entry('prune-new', 0)]);
      const removed = await t.runtime.services.logs.prune();
      assert.ok(removed >= 1);
      const logs = t.runtime.services.repositories.callLogs;
      assert.equal(await logs.find(ids.get('prune-old')!), undefined);
      assert.ok(await logs.find(ids.get('prune-edge')!));
      assert.ok(await logs.find(ids.get('prune-new')!));
    });
  });
}
