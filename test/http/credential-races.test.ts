/**
 * Credentials changed while a request is being authenticated: a lookup that began before a revocation, a sign-out
 * or an account change may have read the row as it was, and must never be remembered as valid afterwards. And the
 * per-account limit of live API keys holds under concurrent creates.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_ACTIVE_KEYS } from '../../src/domain/accounts/api-keys.js';
import { sha256Hex } from '../../src/domain/accounts/secrets.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  call,
  createKey,
  expectProblem,
  expectStatus,
  json,
  login,
  registerUser,
  type Auth,
  type TestUser,
} from '../helpers/client.js';

/**
 * Lets the next call of a credential lookup read its row, then holds its answer until released; later calls pass
 * straight through. So a request can be made to have read a credential before a change and to finish after it.
 */
function holdNextLookup(repository: { findByHash(hash: string): Promise<unknown> }) {
  const original = repository.findByHash.bind(repository);
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  repository.findByHash = async (hash: string) => {
    repository.findByHash = original;
    const row = await original(hash);
    arrive();
    await released;
    return row;
  };
  return {
    reached(pending: Promise<LightMyRequestResponse>): Promise<void> {
      return Promise.race([
        arrived,
        pending.then((res) => {
          throw new Error(`The request ended (${res.statusCode}) before its credential lookup was held.`);
        }),
      ]);
    },
    release,
  };
}

const me = (t: TestApp, auth: Auth) => call(t, 'GET', '/v1/me', auth);

for (const backend of apiBackends()) {
  describe(`credential changes during a lookup [${backend.name}]`, () => {
    let t: TestApp;
    let admin: { cookie: string };
    before(async () => {
      t = await startApp(backend);
      admin = await adminSession(t);
    });
    after(() => t.close());

    it('refuses a key revoked while a lookup of it was under way, on the next request', { timeout: 30_000 }, async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      const held = holdNextLookup(t.runtime.services.repositories.apiKeys);
      const pending = me(t, { key: key.key });
      await held.reached(pending);
      expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, user.session), 204);
      held.release();
      // It began before the revocation: it may still be answered.
      expectStatus(await pending, 200);
      expectProblem(await me(t, { key: key.key }), 401, 'unauthenticated');
    });

    it('refuses a key whose revocation another node announced while a lookup of it was under way', { timeout: 30_000 }, async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      const held = holdNextLookup(t.runtime.services.repositories.apiKeys);
      const pending = me(t, { key: key.key });
      await held.reached(pending);
      // Another node revokes it in the shared database and announces it; this node forgets the credential.
      await t.runtime.database.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('id', '=', key.id).execute();
      t.runtime.services.authenticate.forgetCredential(key.id);
      held.release();
      expectStatus(await pending, 200);
      expectProblem(await me(t, { key: key.key }), 401, 'unauthenticated');
    });

    it('refuses a session signed out while a lookup of it was under way', { timeout: 30_000 }, async () => {
      const user = await registerUser(t);
      const second = await login(t, user.username, user.password);
      const held = holdNextLookup(t.runtime.services.repositories.sessions);
      const pending = me(t, second);
      await held.reached(pending);
      expectStatus(await call(t, 'POST', '/v1/auth/logout', second), 204);
      held.release();
      expectStatus(await pending, 200);
      expectProblem(await me(t, second), 401, 'unauthenticated');
    });

    it('refuses the key and session of an account disabled while lookups of them were under way', { timeout: 30_000 }, async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      // A session not used yet, so that its first request looks it up.
      const session = await login(t, user.username, user.password);
      const heldKey = holdNextLookup(t.runtime.services.repositories.apiKeys);
      const heldSession = holdNextLookup(t.runtime.services.repositories.sessions);
      const byKey = me(t, { key: key.key });
      const bySession = me(t, session);
      await Promise.all([heldKey.reached(byKey), heldSession.reached(bySession)]);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${user.id}`, admin, { disabled: true }), 200);
      heldKey.release();
      heldSession.release();
      await Promise.all([byKey, bySession]);
      expectProblem(await me(t, { key: key.key }), 401, 'unauthenticated');
      expectProblem(await me(t, session), 401, 'unauthenticated');
    });

    it('still remembers a lookup that no change overtook', async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      expectStatus(await me(t, { key: key.key }), 200);
      assert.ok(t.runtime.services.authenticate.recallApiKey(key.key), 'remembered');
    });
  });

  describe(`the API-key limit under concurrent creates [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    async function seedKeys(user: TestUser, count: number): Promise<void> {
      const now = new Date().toISOString();
      const rows = Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        user_id: user.id,
        name: `seeded ${i}`,
        prefix: 'skreg_seed0000',
        key_hash: sha256Hex(`seed-${user.id}-${i}-${randomUUID()}`),
        scopes: '[]',
        created_at: now,
        expires_at: null,
      }));
      await t.runtime.database.db.insertInto('api_keys').values(rows).execute();
    }

    const liveKeys = async (userId: string) =>
      (
        await t.runtime.database.db
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n;

    it(
      `never lets concurrent creates pass ${MAX_ACTIVE_KEYS} live keys; the rest get 409 too_many_keys`,
      { timeout: 120_000 },
      async () => {
        const user = await registerUser(t);
        const room = 5;
        await seedKeys(user, MAX_ACTIVE_KEYS - room);
        const attempts = 40;
        const results = await Promise.all(
          Array.from({ length: attempts }, (_, i) => call(t, 'POST', '/v1/me/api-keys', user.session, { name: `racer ${i}`, scopes: [] })),
        );
        const created = results.filter((r) => r.statusCode === 201);
        const refused = results.filter((r) => r.statusCode !== 201);
        for (const res of refused) expectProblem(res, 409, 'too_many_keys');
        assert.equal(created.length, room, 'exactly the room that was left');
        assert.equal(await liveKeys(user.id), MAX_ACTIVE_KEYS);
        // Every key handed out works.
        for (const res of created) expectStatus(await me(t, { key: json<{ key: string }>(res).key }), 200);
      },
    );

    it(
      "counts per account: concurrent creates by two accounts at the limit's edge do not take each other's room",
      { timeout: 120_000 },
      async () => {
        const [a, b] = [await registerUser(t), await registerUser(t)];
        await seedKeys(a, MAX_ACTIVE_KEYS - 1);
        await seedKeys(b, MAX_ACTIVE_KEYS - 1);
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            call(t, 'POST', '/v1/me/api-keys', i % 2 === 0 ? a.session : b.session, { name: `edge ${i}`, scopes: [] }),
          ),
        );
        assert.equal(results.filter((r) => r.statusCode === 201).length, 2);
        assert.equal(await liveKeys(a.id), MAX_ACTIVE_KEYS);
        assert.equal(await liveKeys(b.id), MAX_ACTIVE_KEYS);
      },
    );
  });
}
