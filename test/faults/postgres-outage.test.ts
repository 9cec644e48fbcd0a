// PostgreSQL going away under a registry running in this process: sessions terminated (a restart, a failover,
// pg_terminate_backend), a server that refuses connections, a network that swallows packets. The process must
// stay up (an unheard `error` event of pg would end this very test process), answer 503 quickly, and recover.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../src/db/faults.js';
import { registryPool } from '../../src/db/postgres-pool.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { adminSession, call, createKey, expectProblem, expectStatus, json, registerUser, uniqueName } from '../helpers/client.js';
import { freePort } from '../helpers/process.js';
import { proxiedRegistry } from './proxied-registry.js';
import { countSessions, databaseProxy, POSTGRES_ONLY, POSTGRES_URL, terminateSessions, type DatabaseProxy } from './postgres-sessions.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * How soon a request is answered while the database is away: the connect limit (2 s), or the statement limit set
 * here (0.5 s) plus 2 s for the server's own cancellation, and room for a machine busy with other tests.
 */
const ANSWER_BOUND_MS = 8_000;

const adminUrl = POSTGRES_URL;
const postgres = backends().find((b) => b.name === 'postgres')!;

/** Every `uncaughtException` while a test runs: there must be none. */
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
before(() => process.on('uncaughtException', onUncaught));
after(() => process.off('uncaughtException', onUncaught));

async function newSkill(t: TestApp, key: string) {
  return call(t, 'POST', '/v1/skills', { key }, { name: uniqueName('Skill '), slug: uniqueName('skill-') });
}

/** Asks until the registry answers `url` with `status`; every answer on the way must be `status` or a 503 problem. */
async function until(t: TestApp, send: () => ReturnType<typeof call>, status: number, attempts = 20) {
  for (let i = 0; i < attempts; i += 1) {
    const res = await send();
    if (res.statusCode === status) return res;
    const expected = res.statusCode !== 503 || res.json<{ code: string }>().code !== 'not_ready' ? 'database_unavailable' : 'not_ready';
    expectProblem(res, 503, expected);
  }
  assert.fail(`no ${status} after ${attempts} attempts`);
}

describe('PostgreSQL sessions terminated under a running registry', { timeout: 120_000, ...POSTGRES_ONLY }, () => {
  let t: TestApp;
  let applicationName: string;
  let key: string;

  before(async () => {
    t = await startApp({
      name: 'postgres',
      async create() {
        const store = await postgres.create();
        applicationName = store.applicationName!;
        return store;
      },
    });
    key = (await createKey(t, await adminSession(t))).key;
  });
  after(async () => {
    await ifSet(t)?.close();
  });

  test('the registry names its sessions, so they can be told apart', async () => {
    assert.ok(applicationName.startsWith('skreg-test-'));
    assert.ok((await countSessions(adminUrl, applicationName)) > 0, 'the registry has sessions under its application_name');
  });

  test('idle sessions terminated: the process stays up and the next requests succeed', async () => {
    // Several requests at once leave several idle connections in the pool.
    const warm = await Promise.all(Array.from({ length: 6 }, () => newSkill(t, key)));
    for (const res of warm) expectStatus(res, 201);
    const terminated = await terminateSessions(adminUrl, applicationName, 'idle');
    assert.ok(terminated > 0, 'there were idle sessions to terminate');
    // The server has let them go; the registry learns of it as the sockets close.
    for (let i = 0; i < 100 && (await countSessions(adminUrl, applicationName)) > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    await until(t, () => newSkill(t, key), 201);
    for (const res of await Promise.all(Array.from({ length: 6 }, () => newSkill(t, key)))) expectStatus(res, 201);
    expectStatus(await call(t, 'GET', '/readyz'), 200);
    assert.deepEqual(uncaught, []);
  });

  test('a session terminated inside a transaction: the caller sees why, not the failed rollback', async () => {
    const db = t.runtime.database.db;
    let failure: unknown;
    try {
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('skills').select('id').limit(1).execute();
        // The session ends itself mid-transaction, as a failover or an operator's pg_terminate_backend would.
        await trx.selectNoFrom((eb) => eb.fn<boolean>('pg_terminate_backend', [eb.fn('pg_backend_pid')]).as('gone')).execute();
      });
    } catch (error) {
      failure = error;
    }
    assert.ok(failure instanceof Error, 'the transaction failed');
    assert.equal((failure as { code?: string }).code, '57P01', `the termination itself is reported, got: ${String(failure)}`);
    assert.ok(isDatabaseUnavailable(failure));
    // The dead connection was not handed back into the pool: the next queries run.
    for (let i = 0; i < 12; i += 1) await db.selectFrom('skills').select('id').limit(1).execute();
    assert.deepEqual(uncaught, []);
  });

  test('a connection lost between two statements of a transaction does not end the process', async () => {
    const db = t.runtime.database.db;
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        await trx.selectFrom('skills').select('id').limit(1).execute();
        // Terminated from outside while this transaction holds its connection and runs nothing.
        await terminateSessions(adminUrl, applicationName, 'all');
        for (let i = 0; i < 100 && (await countSessions(adminUrl, applicationName)) > 0; i += 1)
          await new Promise((r) => setTimeout(r, 20));
        await trx.selectFrom('skills').select('id').limit(1).execute();
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    assert.ok(isDatabaseUnavailable(failure), `the failure reads as the database being unavailable: ${String(failure)}`);
    await until(t, () => newSkill(t, key), 201);
    assert.deepEqual(uncaught, []);
  });
});

describe('PostgreSQL away and back, behind a proxy', { timeout: 120_000, ...POSTGRES_ONLY }, () => {
  let t: TestApp;
  let proxy: DatabaseProxy;
  let key: string;
  let close: () => Promise<void>;

  before(async () => {
    // A short statement limit, so that a request on a connection into the void gives up well within the bound.
    const registry = await proxiedRegistry({}, { statementTimeoutMs: 500 });
    ({ t, proxy } = registry);
    close = () => registry.close();
    key = (await createKey(t, await adminSession(t))).key;
  });
  after(async () => {
    await ifSet(close)?.();
  });

  async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  }

  test('a server that refuses connections: 503 database_unavailable and readyz 503, fast; then recovery', async () => {
    expectStatus(await newSkill(t, key), 201);
    await proxy.refuse();
    const write = await timed(() => newSkill(t, key));
    expectProblem(write.value, 503, 'database_unavailable');
    assert.ok(write.value.headers['retry-after'], 'a 503 says when to retry');
    // Without the limits a request waits for the database for ever; the bound leaves room for a busy machine.
    assert.ok(write.ms < ANSWER_BOUND_MS, `answered in ${write.ms} ms`);
    const ready = await timed(() => call(t, 'GET', '/readyz'));
    expectProblem(ready.value, 503, 'not_ready');
    assert.ok(ready.ms < ANSWER_BOUND_MS, `readyz answered in ${ready.ms} ms`);

    await proxy.restore();
    await until(t, () => newSkill(t, key), 201, 3);
    expectStatus(await call(t, 'GET', '/readyz'), 200);
    assert.deepEqual(uncaught, []);
  });

  test('organisation and transfer writes while the database refuses: 503, nothing half-written; then each succeeds', async () => {
    const admin = { key };
    const org = uniqueName('acme');
    expectStatus(await call(t, 'POST', '/v1/orgs', admin, { handle: org, display_name: 'Acme' }), 201);
    const bob = await registerUser(t);
    const skill = json<{ id: string; slug: string }>(expectStatus(await newSkill(t, key), 201));
    const second = uniqueName('acme');
    const writes = [
      () => call(t, 'POST', '/v1/orgs', admin, { handle: second, display_name: 'Acme Two' }),
      () => call(t, 'POST', `/v1/orgs/${org}/invitations`, admin, { username: bob.username, role: 'publisher' }),
      () => call(t, 'POST', `/v1/skills/${skill.id}/rename`, admin, { slug: uniqueName('renamed') }),
      () => call(t, 'POST', `/v1/skills/${skill.id}/transfer`, admin, { to: `@${org}` }),
    ];

    await proxy.refuse();
    for (const res of await Promise.all(writes.map((write) => write()))) {
      expectProblem(res, 503, 'database_unavailable');
      assert.ok(res.headers['retry-after'], 'a 503 says when to retry');
    }
    await proxy.restore();
    await until(t, () => call(t, 'GET', `/v1/orgs/${org}`, admin), 200, 3);

    // Nothing of the refused writes was kept: no second organisation, no invitation, no offer, the old slug.
    expectProblem(await call(t, 'GET', `/v1/orgs/${second}`, admin), 404, 'org_not_found');
    assert.deepEqual(json<{ items: unknown[] }>(await call(t, 'GET', '/v1/me/invitations', bob.session)).items, []);
    assert.deepEqual(json<{ items: unknown[] }>(await call(t, 'GET', `/v1/skills/${skill.id}/transfer`, admin)).items, []);
    assert.equal(json<{ slug: string }>(await call(t, 'GET', `/v1/skills/${skill.id}`, admin)).slug, skill.slug);

    // The same writes succeed once the database is back.
    const expected = [201, 201, 200, 201];
    for (const [i, write] of writes.entries()) expectStatus(await write(), expected[i]!);
    assert.deepEqual(uncaught, []);
  });

  test('a network that swallows everything: 503 within the bound on old and new connections; then recovery', async () => {
    // Several connections in the pool, each of which will be cut off mid-conversation.
    for (const res of await Promise.all(Array.from({ length: 4 }, () => newSkill(t, key)))) expectStatus(res, 201);
    proxy.blackhole();
    const answers = await timed(() => Promise.all(Array.from({ length: 4 }, () => newSkill(t, key))));
    for (const res of answers.value) expectProblem(res, 503, 'database_unavailable');
    // The statement limit (0.5 s here) plus the two seconds' grace for the server's own cancellation.
    assert.ok(answers.ms < ANSWER_BOUND_MS, `answered in ${answers.ms} ms`);
    const ready = await timed(() => call(t, 'GET', '/readyz'));
    expectProblem(ready.value, 503, 'not_ready');
    assert.ok(ready.ms < ANSWER_BOUND_MS, `readyz answered in ${ready.ms} ms`);

    await proxy.restore();
    await until(t, () => newSkill(t, key), 201, 3);
    expectStatus(await call(t, 'GET', '/readyz'), 200);
    assert.deepEqual(uncaught, []);
  });
});

describe("pg's own failures read as the database being unavailable", { timeout: 60_000, ...POSTGRES_ONLY }, () => {
  test('without an application_name of their own, the sessions are named skill-registry', async () => {
    const pool = registryPool({ url: adminUrl });
    try {
      const client = await pool.kysely.connect();
      const { rows } = await client.query<{ name: string }>(
        'select application_name as name from pg_stat_activity where pid = pg_backend_pid()',
        [],
      );
      client.release();
      assert.equal(rows[0]?.name, 'skill-registry');
    } finally {
      await pool.end();
    }
  });

  test('connection refused, by address and by a name with several addresses', async () => {
    const port = await freePort();
    for (const host of ['127.0.0.1', 'localhost']) {
      const client = new pg.Client({ host, port, user: 'postgres', database: 'postgres' });
      const error = await client.connect().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(isDatabaseUnavailable(error), `${host}: ${String(error)}`);
    }
  });

  test('a connection that is never answered, and a pool with no connection free in time', async () => {
    const proxy = await databaseProxy(adminUrl);
    proxy.blackhole();
    const pool = registryPool({ url: proxy.url(adminUrl), max: 1, connectTimeoutMs: 300 });
    try {
      const error = await pool.kysely.connect().then(
        () => null,
        (e: unknown) => e,
      );
      assert.match(String(error), /connection timeout/);
      assert.ok(isDatabaseUnavailable(error), String(error));
    } finally {
      await pool.end();
      await proxy.close();
    }
    const busy = registryPool({ url: adminUrl, max: 1, connectTimeoutMs: 300 });
    try {
      const held = await busy.kysely.connect();
      const error = await busy.kysely.connect().then(
        () => null,
        (e: unknown) => e,
      );
      held.release();
      assert.match(String(error), /timeout exceeded when trying to connect/);
      assert.ok(isDatabaseUnavailable(error), String(error));
    } finally {
      await busy.end();
    }
  });

  test('a statement cancelled by the statement limit, and one left unanswered', async () => {
    const pool = registryPool({ url: adminUrl, statementTimeoutMs: 200 });
    try {
      const client = await pool.kysely.connect();
      const cancelled = await client.query('select pg_sleep(5)', []).then(
        () => null,
        (e: unknown) => e,
      );
      client.release();
      assert.equal((cancelled as { code?: string }).code, '57014');
      assert.ok(isDatabaseUnavailable(cancelled));
    } finally {
      await pool.end();
    }
    const proxy = await databaseProxy(adminUrl);
    const silent = registryPool({ url: proxy.url(adminUrl), statementTimeoutMs: 100 });
    try {
      const client = await silent.kysely.connect();
      proxy.blackhole();
      const unanswered = await client.query('select 1', []).then(
        () => null,
        (e: unknown) => e,
      );
      client.release();
      assert.match(String(unanswered), /Query read timeout/);
      assert.ok(isDatabaseUnavailable(unanswered));
    } finally {
      await proxy.close();
      await silent.end();
    }
  });

  test('a client whose connection died is not queryable, and says so in a way that reads as unavailable', async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    await client.connect();
    const killed = await client.query('select pg_terminate_backend(pg_backend_pid())').then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal((killed as { code?: string }).code, '57P01');
    assert.ok(isDatabaseUnavailable(killed));
    for (let i = 0; i < 100 && errors.length === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    const after = await client.query('select 1').then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(isDatabaseUnavailable(after), String(after));
    for (const e of errors) assert.ok(isDatabaseUnavailable(e), String(e));
  });
});
