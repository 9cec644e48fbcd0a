/**
 * What the authenticator remembers, on a clock the test moves: a successful lookup for a couple of seconds (never
 * past the credential's own expiry), never a lookup that a revocation or an account change overtook, and a key's
 * last use written at most once a minute. The repositories are the registry's own, over a real database.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ApiKeysRepository, SessionsRepository } from '../../src/db/repositories/credentials.js';
import { AUTH_CACHE_TTL_MS, authenticator } from '../../src/domain/accounts/authenticate.js';
import { newSessionToken, sha256Hex } from '../../src/domain/accounts/secrets.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { createKey, registerUser } from '../helpers/client.js';

function manualClock(start = Date.now()) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/**
 * The registry's repositories, counting lookups and touches; `holdNextLookup` lets the next lookup read its row
 * and then waits for `release` before answering, so that a change can happen while it is under way.
 */
function watched(t: TestApp) {
  const real = t.runtime.services.repositories;
  const counts = { keyLookups: 0, sessionLookups: 0, touches: 0 };
  let hold: { arrive: () => void; released: Promise<void> } | null = null;
  async function held<T>(row: Promise<T>): Promise<T> {
    const current = hold;
    hold = null;
    const found = await row;
    if (current) {
      current.arrive();
      await current.released;
    }
    return found;
  }
  const apiKeys: ApiKeysRepository = {
    ...real.apiKeys,
    findByHash(hash) {
      counts.keyLookups += 1;
      return held(real.apiKeys.findByHash(hash));
    },
    touch(id, at) {
      counts.touches += 1;
      return real.apiKeys.touch(id, at);
    },
  };
  const sessions: SessionsRepository = {
    ...real.sessions,
    findByHash(hash) {
      counts.sessionLookups += 1;
      return held(real.sessions.findByHash(hash));
    },
  };
  return {
    apiKeys,
    sessions,
    counts,
    /** Holds the next lookup; `reached` resolves once it has read its row. */
    holdNextLookup() {
      let arrive!: () => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { arrive, released };
      return { reached, release };
    },
  };
}

for (const backend of apiBackends()) {
  describe(`the authentication cache [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it(`remembers a successful lookup for ${AUTH_CACHE_TTL_MS} ms, then looks the key up again`, async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      const clock = manualClock();
      const repos = watched(t);
      const auth = authenticator({ ...repos, now: clock.now });
      assert.equal((await auth.apiKey(key.key)).ok, true);
      clock.advance(AUTH_CACHE_TTL_MS - 1);
      assert.equal((await auth.apiKey(key.key)).ok, true);
      assert.ok(auth.recallApiKey(key.key));
      assert.equal(repos.counts.keyLookups, 1);
      clock.advance(1);
      assert.equal(auth.recallApiKey(key.key), null, 'expired');
      assert.equal((await auth.apiKey(key.key)).ok, true);
      assert.equal(repos.counts.keyLookups, 2);
    });

    for (const change of ['forgetCredential', 'forgetUser'] as const) {
      it(`never remembers a key lookup that ${change} overtook, while still answering it`, async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session, []);
        const repos = watched(t);
        const auth = authenticator({ ...repos, now: manualClock().now });
        const held = repos.holdNextLookup();
        const pending = auth.apiKey(key.key);
        await held.reached;
        auth[change](change === 'forgetUser' ? user.id : key.id);
        held.release();
        assert.equal((await pending).ok, true, 'it began before the change');
        assert.equal(auth.recallApiKey(key.key), null, 'but is not remembered');
        await auth.apiKey(key.key);
        assert.equal(repos.counts.keyLookups, 2, 'the next request looks the key up again');
      });
    }

    it('never remembers a session lookup overtaken by a sign-out', async () => {
      const user = await registerUser(t);
      const repos = watched(t);
      const auth = authenticator({ ...repos, now: manualClock().now });
      const held = repos.holdNextLookup();
      const pending = auth.session(user.session.cookie);
      await held.reached;
      const found = await t.runtime.services.repositories.sessions.findByHash(sha256Hex(user.session.cookie));
      assert.ok(found);
      auth.forgetCredential(found.credential_id);
      held.release();
      assert.equal((await pending).ok, true);
      await auth.session(user.session.cookie);
      assert.equal(repos.counts.sessionLookups, 2);
    });

    it('remembers a session no longer than it lives', async () => {
      const user = await registerUser(t);
      const clock = manualClock();
      const { token, hash } = newSessionToken();
      await t.runtime.database.db
        .insertInto('sessions')
        .values({
          id: randomUUID(),
          user_id: user.id,
          token_hash: hash,
          created_at: new Date(clock.now()).toISOString(),
          expires_at: new Date(clock.now() + 500).toISOString(),
        })
        .execute();
      const repos = watched(t);
      const auth = authenticator({ ...repos, now: clock.now });
      assert.equal((await auth.session(token)).ok, true);
      clock.advance(499);
      assert.equal((await auth.session(token)).ok, true);
      assert.equal(repos.counts.sessionLookups, 1);
      clock.advance(1);
      assert.deepEqual(await auth.session(token), { ok: false, reason: 'The session has expired; sign in again.' });
      assert.equal(repos.counts.sessionLookups, 2);
    });

    it("writes a key's last use at most once a minute, however often it is looked up", async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      const clock = manualClock();
      const repos = watched(t);
      const auth = authenticator({ ...repos, now: clock.now });
      for (let second = 0; second < 60; second += 3) {
        assert.equal((await auth.apiKey(key.key)).ok, true);
        clock.advance(3_000);
      }
      assert.ok(repos.counts.keyLookups >= 20, 'every lookup past the cache');
      assert.equal(repos.counts.touches, 1);
      clock.advance(1_000);
      await auth.apiKey(key.key);
      assert.equal(repos.counts.touches, 2, 'a minute on');
    });
  });
}
