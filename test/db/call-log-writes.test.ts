import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import type { PendingCallLog } from '../../src/db/schema.js';
import { sql } from 'kysely';
import { callLogRecorder, LOG_BUFFER_MAX, LOG_EARLY_BATCH, LOG_FLUSH_INTERVAL_MS } from '../../src/domain/logs/recorder.js';
import { newId } from '../../src/lib/ids.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { eventually } from '../helpers/process.js';

function entry(userId: string, overrides: Partial<PendingCallLog> = {}): PendingCallLog {
  return {
    request_id: newId(),
    user_id: userId,
    method: 'GET',
    path: '/v1/skills?q=x',
    route: '/v1/skills',
    status_code: 200,
    duration_ms: 1.25,
    ip: '203.0.113.9',
    user_agent: 'writer-test',
    auth: 'api_key',
    api_key_id: 'key-1',
    created_at: Date.now(),
    ...overrides,
  };
}

for (const backend of backends()) {
  describe(`call-log writes [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    const countFor = async (userId: string) => (await t.runtime.services.repositories.callLogs.list({ userId, limit: 1, offset: 0 })).total;

    it(`writes at once when ${LOG_EARLY_BATCH} entries wait, without waiting for the timer`, async () => {
      // Not started: only the early batch can write. Timers are mocked while the entries are recorded, so a timer
      // the recorder set on its own would fire within the tick; a write takes what is pending as it starts.
      mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
      let recorder: ReturnType<typeof callLogRecorder>;
      const user = newId();
      try {
        recorder = callLogRecorder({ logs: t.runtime.services.repositories.callLogs });
        for (let i = 0; i < LOG_EARLY_BATCH - 1; i += 1) recorder.record(entry(user));
        mock.timers.tick(LOG_FLUSH_INTERVAL_MS * 2);
        assert.equal(recorder.pendingCount, LOG_EARLY_BATCH - 1, 'no write has started');
      } finally {
        mock.timers.reset();
      }
      assert.equal(await countFor(user), 0);
      recorder.record(entry(user));
      await eventually('the early batch is written', async () => (await countFor(user)) === LOG_EARLY_BATCH, 5_000);
      assert.equal(recorder.pendingCount, 0);
      await recorder.close();
    });

    it('keeps what it could not write while the table is away, drops the oldest past its bound, and writes the rest once it is back', async () => {
      const logs = t.runtime.services.repositories.callLogs;
      const db = t.runtime.database.db;
      const drops: number[] = [];
      const errors: unknown[] = [];
      const recorder = callLogRecorder({ logs, onDrop: (n) => drops.push(n), onError: (e) => errors.push(e) });
      const user = newId();
      recorder.record(entry(user));
      await recorder.flush();
      await sql`alter table call_logs rename to call_logs_away`.execute(db);
      try {
        const ids: string[] = [];
        for (let i = 0; i < LOG_BUFFER_MAX + 1; i += 1) {
          const e = entry(user);
          ids.push(e.request_id);
          recorder.record(e);
        }
        // The early batches fail and go back into the buffer; nothing else writes (the timer is not started).
        await eventually('the early batches have failed', () => errors.length > 0, 5_000);
        // A flush waits for every write queued before it, then fails on its own: all the early batches are back.
        await assert.rejects(recorder.flush());
        // One drop, down to 90% of the bound, rather than one per entry past it.
        assert.deepEqual(drops, [LOG_BUFFER_MAX / 10 + 1]);
        assert.equal(recorder.pendingCount, LOG_BUFFER_MAX - LOG_BUFFER_MAX / 10);
        await sql`alter table call_logs_away rename to call_logs`.execute(db);
        await recorder.flush();
        assert.equal(recorder.pendingCount, 0);
        assert.equal(await countFor(user), 1 + LOG_BUFFER_MAX - LOG_BUFFER_MAX / 10);
        assert.equal(await logs.find(ids[0]!), undefined, 'the oldest entry was dropped');
        assert.ok(await logs.find(ids.at(-1)!), 'the newest entry was written');
      } finally {
        await sql`alter table if exists call_logs_away rename to call_logs`.execute(db).catch(() => undefined);
        await recorder.close();
      }
    });

    it('stores every field as given, nulls included, and the time as an instant', async () => {
      const recorder = callLogRecorder({ logs: t.runtime.services.repositories.callLogs });
      const user = newId();
      const at = Date.parse('2026-03-04T05:06:07.089Z');
      const full = entry(user, { created_at: at });
      const sparse = entry(user, {
        route: null,
        ip: null,
        user_agent: null,
        api_key_id: null,
        auth: 'session',
        method: 'POST',
        status_code: 503,
      });
      recorder.record(full);
      recorder.record(sparse);
      await recorder.flush();
      const stored = await t.runtime.services.repositories.callLogs.find(full.request_id);
      assert.ok(stored);
      assert.equal(stored.user_id, user);
      assert.equal(stored.path, '/v1/skills?q=x');
      assert.equal(stored.route, '/v1/skills');
      assert.equal(stored.status_code, 200);
      assert.equal(stored.duration_ms, 1.25);
      assert.equal(stored.ip, '203.0.113.9');
      assert.equal(stored.user_agent, 'writer-test');
      assert.equal(stored.api_key_id, 'key-1');
      assert.equal(new Date(stored.created_at).toISOString(), '2026-03-04T05:06:07.089Z');
      const other = await t.runtime.services.repositories.callLogs.find(sparse.request_id);
      assert.ok(other);
      assert.deepEqual(
        [other.route, other.ip, other.user_agent, other.api_key_id, other.auth, other.method, other.status_code],
        [null, null, null, null, 'session', 'POST', 503],
      );
      // A batch written twice (a retry after a lost answer) stores each entry once.
      await t.runtime.services.repositories.callLogs.insertMany([full, sparse]);
      assert.equal(await countFor(user), 2);
      await recorder.close();
    });
  });
}
