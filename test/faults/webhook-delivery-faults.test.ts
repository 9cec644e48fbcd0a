// Webhook deliveries when things fail: the registry stopping with a delivery pending, receivers that hang up, never
// answer, fail and then recover, or redirect to an address the registry must not reach, and PostgreSQL refusing
// connections while entries are dispatched and sent. Every attempt is in the delivery log with what went wrong, retried
// with the runner's backoff (moved by a stopped clock, never waited for), and no feed entry is lost.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
import { call, createSkill, expectStatus, json, registerUser, type TestUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';
import { POSTGRES_ONLY, POSTGRES_URL, type DatabaseProxy } from './postgres-sessions.js';
import { proxiedRegistry, type ProxiedRegistry } from './proxied-registry.js';

/** What a receiver does with one connection: hang up at once, take the request and never answer, or answer a status. */
type Behaviour = 'hang-up' | 'no-answer' | number | { redirect: string; status: 301 | 302 | 307 | 308 };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  /** What the next connections get, in turn; then 200. */
  script: Behaviour[];
  /** Called with each request before it is answered. */
  onRequest?: (received: Received) => Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (on `port`, or a free one) that follows its script, one connection per delivery (the registry keeps none alive). */
async function receiver(port = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const self: Receiver = {
    url: '',
    received: [],
    script: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  let next: Behaviour = 200;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const received = { headers: request.headers, body };
      self.received.push(received);
      const behaviour = next;
      void (self.onRequest?.(received) ?? Promise.resolve()).then(() => {
        if (behaviour === 'no-answer') return;
        if (typeof behaviour === 'object') {
          response.writeHead(behaviour.status, { location: behaviour.redirect }).end();
          return;
        }
        response.writeHead(behaviour as number, { 'content-type': 'text/plain' }).end(behaviour === 200 ? 'thanks' : 'receiver broken');
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    next = self.script.shift() ?? 200;
    // Accepted, and closed before a byte is read or written.
    if (next === 'hang-up') socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return self;
}

interface Hook {
  id: string;
}
interface Delivery {
  id: string;
  event_id: string;
  state: string;
  attempts: { attempt: number; status_code: number | null; error: string | null; duration_ms: number }[];
}

/**
 * Receivers on 127.0.0.1 are allowed (the address guard refuses loopback otherwise); the jobs run only when the test
 * says (runNow), and a receiver that does not answer is given up after half a second.
 */
const ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_POLL_MS: '86400000', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_DISABLE_AFTER: '50' };
/** The runner's backoff for deliveries (DELIVERY_RETRY): 30 s after the first failure, doubling. */
const FIRST_RETRY_MS = 30_000;

const run = async (t: TestApp, job: 'webhook-dispatch' | 'queue') => t.runtime.jobs.runNow(job);
const subscribe = async (t: TestApp, user: TestUser, url: string) =>
  json<Hook>(expectStatus(await call(t, 'POST', '/v1/webhooks', user.session, { url }), 201));
const deliveries = async (t: TestApp, user: TestUser, hook: Hook) =>
  json<{ items: Delivery[] }>(expectStatus(await call(t, 'GET', `/v1/webhooks/${hook.id}/deliveries`, user.session), 200)).items;
/** One skill created, dispatched and tried once: the subscription's one delivery. */
async function oneDelivery(t: TestApp, user: TestUser, hook: Hook): Promise<Delivery> {
  await createSkill(t, user.session);
  assert.equal(await run(t, 'webhook-dispatch'), 'success');
  assert.equal(await run(t, 'queue'), 'success');
  const [delivery, ...others] = await deliveries(t, user, hook);
  assert.ok(delivery);
  assert.deepEqual(others, []);
  return delivery;
}
const attemptsOf = async (t: TestApp, user: TestUser, hook: Hook, id: string) =>
  (await deliveries(t, user, hook)).find((d) => d.id === id)!;

for (const backend of backends()) {
  describe(`webhook deliveries when things fail [${backend.name}]`, { timeout: 120_000 }, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend, ENV);
    });
    after(async () => {
      await ifSet(t)?.close();
    });

    it('a delivery pending when the registry stops is sent by the registry started again on the same database', async () => {
      const alice = await registerUser(t);
      const hooks = await receiver();
      try {
        // The receiver is down at first: its port refuses, so the first attempt fails and the delivery waits its backoff.
        await hooks.close();
        const hook = await subscribe(t, alice, hooks.url);
        await withStoppedClock(async (advance) => {
          const delivery = await oneDelivery(t, alice, hook);
          assert.equal(delivery.state, 'pending');
          assert.equal(delivery.attempts[0]?.status_code, null);
          assert.match(delivery.attempts[0].error ?? '', /ECONNREFUSED/);

          await t.runtime.close();
          // The receiver is back where it was, and the registry starts again after the delivery's backoff.
          const back = await receiver(Number(new URL(hooks.url).port));
          try {
            advance(FIRST_RETRY_MS + 1_000);
            await t.restart();
            assert.equal(await run(t, 'queue'), 'success');
            assert.equal(back.received.length, 1, 'sent once by the new registry');
            assert.equal(back.received[0]?.headers['skill-registry-delivery'], delivery.id);
            const done = await attemptsOf(t, alice, hook, delivery.id);
            assert.equal(done.state, 'delivered');
            assert.deepEqual(
              done.attempts.map((a) => [a.attempt, a.status_code]),
              [
                [1, null],
                [2, 200],
              ],
            );
          } finally {
            await back.close();
          }
        });
      } finally {
        await hooks.close().catch(() => undefined);
      }
    });

    it('stopped while a delivery waits for its answer: the attempt is logged on the way out and sent again after', async () => {
      const alice = await registerUser(t);
      const hooks = await receiver();
      try {
        hooks.script.push('no-answer');
        const hook = await subscribe(t, alice, hooks.url);
        await withStoppedClock(async (advance) => {
          await createSkill(t, alice.session);
          assert.equal(await run(t, 'webhook-dispatch'), 'success');
          const sending = run(t, 'queue');
          await until(() => hooks.received.length === 1, 'the receiver holds the request');
          // Shutting down waits for the run under way, which ends when the receiver's time is up.
          await t.runtime.close();
          assert.equal(await sending, 'success');
          advance(FIRST_RETRY_MS + 1_000);
          await t.restart();
          assert.equal(await run(t, 'queue'), 'success');
        });
        assert.equal(hooks.received.length, 2);
        assert.equal(hooks.received[1]?.body, hooks.received[0]?.body);
        const [delivery] = await deliveries(t, alice, hook);
        assert.equal(delivery?.state, 'delivered');
        assert.deepEqual(
          delivery.attempts.map((a) => [a.status_code, a.error?.replace(/\d+/, 'N') ?? null]),
          [
            [null, 'no complete answer within N ms'],
            [200, null],
          ],
        );
      } finally {
        await hooks.close();
      }
    });

    it('a receiver that hangs up at once: each attempt logged, retried after 30 s and then 60 s, then delivered', async () => {
      const alice = await registerUser(t);
      const hooks = await receiver();
      try {
        hooks.script.push('hang-up', 'hang-up');
        const hook = await subscribe(t, alice, hooks.url);
        await withStoppedClock(async (advance) => {
          const delivery = await oneDelivery(t, alice, hook);
          assert.equal(delivery.state, 'pending');
          assert.equal(delivery.attempts[0]?.status_code, null);
          assert.match(delivery.attempts[0].error ?? '', /closed the connection without answering/);

          const attempts = async () => (await attemptsOf(t, alice, hook, delivery.id)).attempts.length;
          advance(FIRST_RETRY_MS - 1_000);
          await run(t, 'queue');
          assert.equal(await attempts(), 1, 'not tried again before its backoff');
          advance(2_000);
          await run(t, 'queue');
          assert.equal(await attempts(), 2);
          advance(2 * FIRST_RETRY_MS - 1_000);
          await run(t, 'queue');
          assert.equal(await attempts(), 2, 'the second wait is twice the first');
          advance(2_000);
          await run(t, 'queue');
          const done = await attemptsOf(t, alice, hook, delivery.id);
          assert.equal(done.state, 'delivered');
          assert.deepEqual(
            done.attempts.map((a) => [a.attempt, a.status_code, a.error === null ? null : 'error']),
            [
              [1, null, 'error'],
              [2, null, 'error'],
              [3, 200, null],
            ],
          );
          assert.equal(hooks.received.length, 1, 'only the last connection carried a request');
        });
      } finally {
        await hooks.close();
      }
    });

    it('a receiver that never answers: given up after WEBHOOK_TIMEOUT_MS, logged, and retried', async () => {
      const alice = await registerUser(t);
      const hooks = await receiver();
      try {
        hooks.script.push('no-answer');
        const hook = await subscribe(t, alice, hooks.url);
        // The real clock for the first attempt, so its duration is the timeout's.
        const delivery = await oneDelivery(t, alice, hook);
        assert.equal(delivery.state, 'pending');
        const [first] = delivery.attempts;
        assert.equal(first?.status_code, null);
        assert.match(first.error ?? '', /no complete answer within 500 ms/);
        assert.ok(first.duration_ms >= 450, `gave up after ${first.duration_ms} ms`);
        await withStoppedClock(async (advance) => {
          advance(FIRST_RETRY_MS + 1_000);
          await run(t, 'queue');
        });
        const done = await attemptsOf(t, alice, hook, delivery.id);
        assert.equal(done.state, 'delivered');
        assert.deepEqual(
          done.attempts.map((a) => a.status_code),
          [null, 200],
        );
        assert.equal(hooks.received.length, 2, 'the unanswered request, then the answered one');
        assert.equal(hooks.received[0]?.body, hooks.received[1]?.body, 'the same entry both times');
      } finally {
        await hooks.close();
      }
    });

    it('a receiver that answers 500 and then 200: the failure logged with its answer, the retry delivered', async () => {
      const alice = await registerUser(t);
      const hooks = await receiver();
      try {
        hooks.script.push(500);
        const hook = await subscribe(t, alice, hooks.url);
        await withStoppedClock(async (advance) => {
          const delivery = await oneDelivery(t, alice, hook);
          assert.equal(delivery.state, 'pending');
          assert.equal(delivery.attempts[0]?.status_code, 500);
          advance(FIRST_RETRY_MS + 1_000);
          await run(t, 'queue');
          const done = await attemptsOf(t, alice, hook, delivery.id);
          assert.equal(done.state, 'delivered');
          assert.deepEqual(
            done.attempts.map((a) => a.status_code),
            [500, 200],
          );
        });
        const log = await deliveries(t, alice, hook);
        assert.equal(log.length, 1, 'one delivery, two attempts');
      } finally {
        await hooks.close();
      }
    });

    it('a redirect is never followed, to 127.0.0.1 or to a private address', async () => {
      const alice = await registerUser(t);
      const hooks = await receiver();
      const internal = await receiver();
      try {
        hooks.script.push(
          { status: 302, redirect: internal.url },
          { status: 307, redirect: 'http://169.254.169.254/latest/meta-data/' },
          { status: 308, redirect: 'http://10.0.0.1/admin' },
        );
        const hook = await subscribe(t, alice, hooks.url);
        await withStoppedClock(async (advance) => {
          const delivery = await oneDelivery(t, alice, hook);
          advance(FIRST_RETRY_MS + 1_000);
          await run(t, 'queue');
          advance(2 * FIRST_RETRY_MS + 1_000);
          await run(t, 'queue');
          const logged = await attemptsOf(t, alice, hook, delivery.id);
          assert.equal(logged.state, 'pending');
          assert.deepEqual(
            logged.attempts.map((a) => a.status_code),
            [302, 307, 308],
          );
          for (const attempt of logged.attempts) assert.match(attempt.error ?? '', /redirect.*not followed/i);
          assert.match(logged.attempts[0]?.error ?? '', new RegExp(internal.url.replace(/[/.]/g, '\\$&')));
        });
        assert.equal(hooks.received.length, 3);
        assert.equal(internal.received.length, 0, 'nothing reached the address it was redirected to');
      } finally {
        await hooks.close();
        await internal.close();
      }
    });
  });
}

/**
 * PostgreSQL behind a proxy that can refuse connections (postgres-sessions.ts). Without TEST_DATABASE_URL it is skipped
 * with that reason, as every PostgreSQL fault suite is; CI=true refuses to run without it.
 */
describe('webhook dispatch and delivery while PostgreSQL refuses connections', { timeout: 120_000, ...POSTGRES_ONLY }, () => {
  let t: TestApp;
  let proxy: DatabaseProxy;
  let registry: ProxiedRegistry | undefined;
  let schema = '';

  before(async () => {
    registry = await proxiedRegistry(ENV);
    ({ t, proxy, schema } = registry);
  });
  after(() => registry?.close());

  it('entries made before the outage are each delivered once to each subscription after it', async () => {
    const alice = await registerUser(t);
    const first = await receiver();
    const second = await receiver();
    const outside = new pg.Client({ connectionString: POSTGRES_URL });
    try {
      const hooks = [await subscribe(t, alice, first.url), await subscribe(t, alice, second.url)];
      const skills = [];
      for (let i = 0; i < 4; i += 1) skills.push(await createSkill(t, alice.session));

      // The dispatcher is cut off inside its transaction: another session holds a lock on the deliveries table, so the
      // dispatch, having read the entries and moved to queue their deliveries, waits there; then the database goes away.
      await outside.connect();
      await outside.query('begin');
      await outside.query(`lock table "${schema}".webhook_deliveries in exclusive mode`);
      const dispatch = run(t, 'webhook-dispatch');
      await waitForLockWait(schema);
      await proxy.refuse();
      assert.equal(await dispatch, 'failure', 'the dispatch failed with the database gone');
      await outside.query('rollback');
      // While it is away, neither dispatching nor sending gets anywhere, and both fail rather than hang.
      assert.equal(await run(t, 'webhook-dispatch'), 'failure');
      assert.equal(await run(t, 'queue'), 'failure');
      assert.equal(first.received.length + second.received.length, 0);

      await proxy.restore();
      assert.equal(await run(t, 'webhook-dispatch'), 'success');
      assert.equal(await run(t, 'queue'), 'success');
      for (const [i, hooked] of [first, second].entries()) {
        const events = hooked.received.map((r) => (JSON.parse(r.body) as { skill: { id: string } }).skill.id);
        assert.deepEqual(events.sort(), skills.map((s) => s.id).sort(), `subscription ${i + 1} got each entry once`);
        const log = await deliveries(t, alice, hooks[i]!);
        assert.deepEqual(
          log.map((d) => d.state),
          ['delivered', 'delivered', 'delivered', 'delivered'],
        );
      }
    } finally {
      await outside.end().catch(() => undefined);
      await first.close();
      await second.close();
    }
  });

  it('the database gone while a delivery is sent: it is sent again once the lease runs out, with the same id', async () => {
    const alice = await registerUser(t);
    const hooks = await receiver();
    try {
      const hook = await subscribe(t, alice, hooks.url);
      const skills = [await createSkill(t, alice.session), await createSkill(t, alice.session)];
      assert.equal(await run(t, 'webhook-dispatch'), 'success');
      await withStoppedClock(async (advance) => {
        // The first request reaches the receiver, and the database goes away before the registry can record it.
        hooks.onRequest = async () => {
          hooks.onRequest = undefined;
          await proxy.refuse();
        };
        assert.equal(await run(t, 'queue'), 'failure');
        assert.equal(hooks.received.length, 1);
        await proxy.restore();
        // The delivery that was under way is held by its lease (5 minutes); the other one goes now.
        assert.equal(await run(t, 'queue'), 'success');
        assert.equal(hooks.received.length, 2);
        advance(5 * 60 * 1000 + 1_000);
        assert.equal(await run(t, 'queue'), 'success');
      });
      const ids = hooks.received.map((r) => r.headers['skill-registry-delivery']);
      assert.equal(ids.length, 3, 'the delivery cut off was sent again, nothing else');
      assert.equal(ids[2], ids[0], 'sent again as the same delivery: its id lets the receiver drop the repeat');
      const events = new Set(hooks.received.map((r) => (JSON.parse(r.body) as { skill: { id: string } }).skill.id));
      assert.deepEqual([...events].sort(), skills.map((s) => s.id).sort());
      assert.deepEqual(
        (await deliveries(t, alice, hook)).map((d) => d.state),
        ['delivered', 'delivered'],
      );
    } finally {
      await hooks.close();
    }
  });
});

/**
 * Waits until a session of the registry waits for a lock on webhook_deliveries (the dispatcher, about to queue). Asked
 * on a connection of its own: a transaction sees pg_stat_activity as it was when it first read it.
 */
async function waitForLockWait(schema: string): Promise<void> {
  const watcher = new pg.Client({ connectionString: POSTGRES_URL });
  await watcher.connect();
  try {
    const deadline = performance.now() + 20_000;
    while (performance.now() < deadline) {
      const { rows } = await watcher.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity
          where application_name = $1 and wait_event_type = 'Lock' and query ilike '%webhook_deliveries%'`,
        [`skreg-test-${schema}`],
      );
      if (Number(rows[0]!.n) > 0) return;
      // A poll of the database's own state, bounded: the dispatch reaches the lock within a few statements.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail('the dispatcher never waited on the locked table');
  } finally {
    await watcher.end();
  }
}

/** Polls a condition of the receivers, bounded; for what a run started and not awaited does. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!check()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
