import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CallLogRow, PendingCallLog } from '../../src/db/schema.js';
import { callLogRecorder } from '../../src/domain/logs/recorder.js';
import { REFUSAL_WINDOW_MS } from '../../src/domain/logs/refusals.js';
import { LOGGED_PATH_MAX, LOGGED_USER_AGENT_MAX } from '../../src/domain/logs/stored-entry.js';
import { newId } from '../../src/lib/ids.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { call, createKey, registerUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

/** A flood of refused calls adds a bounded number of call-log rows, each of bounded size, and says how many it stood for. */

const LONG_PATH = `/v1/skills?pad=${'p'.repeat(2_000)}`;
const LONG_AGENT = `flood-agent/${'u'.repeat(600)}`;
const SUMMARY = /^\[(\d+) calls? refused with 429 from (\S+) to (\S+)\] /;

function entry(userId: string, at: number, overrides: Partial<PendingCallLog> = {}): PendingCallLog {
  return {
    request_id: newId(),
    user_id: userId,
    method: 'GET',
    path: '/v1/skills',
    route: '/v1/skills',
    status_code: 429,
    duration_ms: 0.5,
    ip: '203.0.113.9',
    user_agent: 'flood',
    auth: 'api_key',
    api_key_id: 'key-1',
    created_at: at,
    ...overrides,
  };
}

function assertBoundedRow(row: CallLogRow): void {
  assert.ok(row.path.length <= LOGGED_PATH_MAX, `path of ${row.path.length} characters`);
  assert.ok((row.user_agent ?? '').length <= LOGGED_USER_AGENT_MAX, `user agent of ${(row.user_agent ?? '').length} characters`);
}

for (const backend of apiBackends()) {
  describe(`call-log flood [${backend.name}]`, () => {
    describe('over HTTP, with rate limits', () => {
      let t: TestApp;
      before(async () => {
        t = await startApp(backend, { RATE_LIMIT: 'on', RATE_LIMIT_READS: '5' });
      });
      after(() => ifSet(t)?.close());

      const rowsOf = async (keyId: string) => {
        const user = (
          await t.runtime.database.db.selectFrom('api_keys').select('user_id').where('id', '=', keyId).executeTakeFirstOrThrow()
        ).user_id;
        const { rows } = await t.runtime.services.repositories.callLogs.list({ userId: user, limit: 100, offset: 0 });
        return rows.filter((r) => r.api_key_id === keyId);
      };

      it('logs 300 calls of which 295 were refused as the 5 accepted, the first refusal and, once the window is over, one summary of the rest', async () => {
        const alice = await registerUser(t);
        const key = await createKey(t, alice.session);
        const statuses = new Map<number, number>();
        for (let i = 0; i < 300; i += 1) {
          const res = await call(t, 'GET', LONG_PATH, { key: key.key }, undefined, { 'user-agent': LONG_AGENT });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        }
        assert.deepEqual(Object.fromEntries(statuses), { 200: 5, 429: 295 });

        await t.runtime.services.recorder.flush();
        let rows = await rowsOf(key.id);
        assert.deepEqual(rows.map((r) => r.status_code).sort(), [200, 200, 200, 200, 200, 429]);
        for (const row of rows) assertBoundedRow(row);

        // Shutting down writes the summaries of windows still open, as a window's end does.
        await t.restart();
        rows = await rowsOf(key.id);
        assert.equal(rows.length, 7);
        for (const row of rows) assertBoundedRow(row);
        const summaries = rows.filter((r) => SUMMARY.test(r.path));
        assert.equal(summaries.length, 1, rows.map((r) => r.path.slice(0, 80)).join('\n'));
        const [, count, from, to] = SUMMARY.exec(summaries[0]!.path)!;
        assert.equal(Number(count), 294);
        assert.ok(Date.parse(from!) <= Date.parse(to!));
        assert.equal(summaries[0]!.status_code, 429);
        assert.equal(summaries[0]!.api_key_id, key.id);
        assert.ok(summaries[0]!.path.endsWith('…'), 'the last refused path, cut to the stored length');
        const bytes = rows.reduce((n, r) => n + Buffer.byteLength(r.path) + Buffer.byteLength(r.user_agent ?? ''), 0);
        assert.ok(bytes <= 7 * (LOGGED_PATH_MAX + LOGGED_USER_AGENT_MAX) * 3, `${bytes} bytes of paths and user agents`);
      });
    });

    describe('the recorder, on its own clock', () => {
      let t: TestApp;
      before(async () => {
        t = await startApp(backend);
      });
      after(() => ifSet(t)?.close());

      const rowsFor = async (userId: string) =>
        (await t.runtime.services.repositories.callLogs.list({ userId, limit: 100, offset: 0 })).rows.sort(
          (a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime(),
        );

      it('keeps the first refusal of each window, counts the rest into one row per window and user, and logs accepted calls as before', async () => {
        let now = Date.parse('2026-11-24T10:00:00.000Z');
        const recorder = callLogRecorder({ logs: t.runtime.services.repositories.callLogs, now: () => now });
        const alice = newId();
        const bob = newId();

        for (let i = 0; i < 1_000; i += 1) recorder.record(entry(alice, now + i, { path: `/v1/skills/${i}` }));
        recorder.record(entry(alice, now + 1_000, { status_code: 200 }));
        recorder.record(entry(bob, now + 1_000));
        await recorder.flush();
        assert.deepEqual(
          (await rowsFor(alice)).map((r) => r.status_code),
          [429, 200],
        );
        assert.equal((await rowsFor(bob)).length, 1);

        // Within the window nothing more is written, however often the buffer is written out.
        now += REFUSAL_WINDOW_MS - 1;
        recorder.record(entry(alice, now));
        await recorder.flush();
        assert.equal((await rowsFor(alice)).length, 2);

        // The window ends: one summary for alice's 1,000 further refusals; bob had no further one, so none for him.
        now += 1;
        await recorder.flush();
        const rows = await rowsFor(alice);
        assert.equal(rows.length, 3);
        const summary = rows.find((r) => SUMMARY.test(r.path))!;
        assert.ok(summary, rows.map((r) => r.path).join('\n'));
        assert.equal(Number(SUMMARY.exec(summary.path)![1]), 1_000);
        assert.match(summary.path, /\] \/v1\/skills$/, 'ends with the last refused path');
        assert.equal((await rowsFor(bob)).length, 1);

        // A new window starts with its first refusal logged again.
        recorder.record(entry(alice, now));
        recorder.record(entry(alice, now));
        await recorder.close();
        const final = await rowsFor(alice);
        assert.equal(final.length, 5);
        assert.equal(Number(SUMMARY.exec(final.filter((r) => SUMMARY.test(r.path)).at(-1)!.path)![1]), 1);
      });

      it('cuts long paths and user agents to the stored lengths, never through a surrogate pair', async () => {
        const recorder = callLogRecorder({ logs: t.runtime.services.repositories.callLogs });
        const user = newId();
        const emoji = '😀'.repeat(LOGGED_PATH_MAX);
        recorder.record(entry(user, Date.now(), { status_code: 200, path: `/v1/${emoji}`, user_agent: LONG_AGENT }));
        recorder.record(entry(user, Date.now(), { status_code: 200, path: '/v1/short', user_agent: 'short' }));
        await recorder.close();
        const rows = await rowsFor(user);
        assert.equal(rows.length, 2);
        for (const row of rows) assertBoundedRow(row);
        const long = rows.find((r) => r.path !== '/v1/short')!;
        assert.ok(long.path.endsWith('…') && !/\p{Cs}/u.test(long.path), long.path.slice(-4));
        assert.ok(long.user_agent!.startsWith('flood-agent/') && long.user_agent!.endsWith('…'));
        assert.equal(rows.find((r) => r.path === '/v1/short')!.user_agent, 'short');
      });
    });
  });
}
