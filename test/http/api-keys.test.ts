import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { AUTH_CACHE_TTL_MS } from '../../src/domain/accounts/authenticate.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { flushBackgroundWrites } from '../helpers/background.js';
import { withStoppedClock } from '../helpers/clock.js';
import {
  adminSession,
  call,
  createKey,
  expectProblem,
  expectStatus,
  expireApiKey,
  json,
  registerUser,
  uniqueName,
  type TestUser,
} from '../helpers/client.js';

interface ApiKeyBody {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

interface CreatedKeyBody extends ApiKeyBody {
  key: string;
}

interface MeBody {
  user: { id: string; username: string };
  auth: { kind: string; scopes: string[]; api_key_id: string | null };
}

interface FieldErrorBody {
  field: string;
  message: string;
}

const KEY_FIELDS = ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'scopes'];
const KEY_PATTERN = /^skreg_[0-9A-Za-z]{43,}$/;
const DAY_MS = 86_400_000;

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function fieldsOf(body: Record<string, unknown>): string[] {
  return [...new Set((body.errors as FieldErrorBody[]).map((e) => e.field))].sort();
}

function expect401(res: LightMyRequestResponse): Record<string, unknown> {
  const body = expectProblem(res, 401, 'unauthenticated');
  assert.equal(res.headers['www-authenticate'], 'Bearer', `no WWW-Authenticate: Bearer on ${res.body}`);
  return body;
}

for (const backend of apiBackends()) {
  describe(`api keys [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    function create(user: TestUser, body: unknown) {
      return call(t, 'POST', '/v1/me/api-keys', user.session, body);
    }

    async function list(user: TestUser): Promise<{ res: LightMyRequestResponse; items: ApiKeyBody[] }> {
      const res = expectStatus(await call(t, 'GET', '/v1/me/api-keys', user.session), 200);
      const body = json<{ items: ApiKeyBody[] }>(res);
      assert.deepEqual(Object.keys(body), ['items']);
      return { res, items: body.items };
    }

    async function keyRow(id: string) {
      return t.runtime.database.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    }

    describe('POST /v1/me/api-keys', () => {
      it('creates a key: 201 with the secret once, its prefix, scopes and no expiry', async () => {
        const user = await registerUser(t);
        const before = Date.now();
        const res = expectStatus(await create(user, { name: 'laptop', scopes: ['skill:upload'] }), 201);
        const body = json<CreatedKeyBody>(res);
        assert.deepEqual(Object.keys(body).sort(), [...KEY_FIELDS, 'key'].sort());
        assert.match(body.key, KEY_PATTERN);
        assert.ok(body.key.length - 'skreg_'.length >= 43, 'at least 256 bits of base62');
        assert.ok(body.prefix.startsWith('skreg_'));
        assert.ok(body.prefix.length > 'skreg_'.length, 'the prefix shows some of the random part');
        assert.ok(body.prefix.length <= 'skreg_'.length + 12, 'the prefix must not give away much of the secret');
        assert.equal(body.key.slice(0, body.prefix.length), body.prefix);
        assert.equal(body.name, 'laptop');
        assert.deepEqual(body.scopes, ['skill:upload']);
        assert.equal(body.expires_at, null);
        assert.equal(body.last_used_at, null);
        const created = Date.parse(body.created_at);
        assert.ok(created >= before - 1000 && created <= Date.now() + 1000);
        assert.equal(typeof body.id, 'string');
        // The key works at once.
        const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { key: body.key }), 200));
        assert.equal(me.user.id, user.id);
        assert.deepEqual(me.auth, { kind: 'api_key', scopes: ['skill:upload'], api_key_id: body.id });
      });

      it('gives every key a different secret', async () => {
        const user = await registerUser(t);
        const a = await createKey(t, user.session);
        const b = await createKey(t, user.session);
        assert.notEqual(a.key, b.key);
        assert.notEqual(a.id, b.id);
      });

      it('creates a key without scopes that can read /v1/me but not upload', async () => {
        const user = await registerUser(t);
        const body = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'read only', scopes: [] }), 201));
        assert.deepEqual(body.scopes, []);
        const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { key: body.key }), 200));
        assert.deepEqual(me.auth.scopes, []);
        expectProblem(await call(t, 'POST', '/v1/skills', { key: body.key }, { name: uniqueName('Nope ') }), 403, 'insufficient_scope');
      });

      it('sets expires_at to now + expires_in_days', async () => {
        const user = await registerUser(t);
        for (const days of [1, 7, 3650]) {
          const body = json<CreatedKeyBody>(
            expectStatus(await create(user, { name: `exp ${days}`, scopes: [], expires_in_days: days }), 201),
          );
          assert.ok(body.expires_at);
          assert.equal(Date.parse(body.expires_at) - Date.parse(body.created_at), days * DAY_MS, `${days} days`);
          expectStatus(await call(t, 'GET', '/v1/me', { key: body.key }), 200);
        }
        const never = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'never', scopes: [], expires_in_days: null }), 201));
        assert.equal(never.expires_at, null);
      });

      it('trims the name', async () => {
        const user = await registerUser(t);
        const body = json<CreatedKeyBody>(expectStatus(await create(user, { name: '  ci runner  ', scopes: [] }), 201));
        assert.equal(body.name, 'ci runner');
      });

      it('refuses invalid bodies with 400 validation_failed, naming the field', async () => {
        const user = await registerUser(t);
        const cases: [unknown, string[]][] = [
          [{ scopes: ['skill:upload'] }, ['name']],
          [{ name: '', scopes: ['skill:upload'] }, ['name']],
          [{ name: 'x'.repeat(101), scopes: [] }, ['name']],
          [{ name: 42, scopes: [] }, ['name']],
          [{ name: 'k', scopes: ['skill:delete'] }, ['scopes[0]']],
          [{ name: 'k', scopes: ['skill:upload', 'admin'] }, ['scopes', 'scopes[1]']], // unknown, and one scope too many
          [{ name: 'k', scopes: ['skill:upload', 'skill:upload'] }, ['scopes']],
          [{ name: 'k', scopes: 'skill:upload' }, ['scopes']],
          [{ name: 'k', scopes: [], expires_in_days: 0 }, ['expires_in_days']],
          [{ name: 'k', scopes: [], expires_in_days: -1 }, ['expires_in_days']],
          [{ name: 'k', scopes: [], expires_in_days: 4000 }, ['expires_in_days']],
          [{ name: 'k', scopes: [], expires_in_days: 3651 }, ['expires_in_days']],
          [{ name: 'k', scopes: [], expires_in_days: 1.5 }, ['expires_in_days']],
          [{ name: 'k', scopes: [], expires_in_days: '7' }, ['expires_in_days']],
          [{ name: 'k', scopes: [], expires: 7 }, ['expires']],
          [{ name: 'k', scopes: [], user_id: user.id }, ['user_id']],
        ];
        for (const [body, fields] of cases) {
          const problem = expectProblem(await create(user, body), 400, 'validation_failed');
          assert.deepEqual(fieldsOf(problem), fields, `${JSON.stringify(body)} → ${JSON.stringify(problem)}`);
        }
        assert.deepEqual((await list(user)).items, [], 'no refused request created a key');
      });

      it('refuses a name that is only whitespace', async () => {
        const user = await registerUser(t);
        const problem = expectProblem(await create(user, { name: '   ', scopes: [] }), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(problem), ['name']);
      });

      it('refuses a 101st live key with 409 too_many_keys; revoked keys do not count', async () => {
        const user = await registerUser(t);
        const now = new Date().toISOString();
        const rows = Array.from({ length: 99 }, (_, i) => ({
          id: randomUUID(),
          user_id: user.id,
          name: `bulk ${i}`,
          prefix: 'skreg_bulk0000',
          key_hash: sha256(`bulk-${user.id}-${i}`),
          scopes: '[]',
          created_at: now,
          expires_at: null,
        }));
        await t.runtime.database.db.insertInto('api_keys').values(rows).execute();
        const hundredth = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'hundredth', scopes: [] }), 201));
        const body = expectProblem(await create(user, { name: 'one too many', scopes: [] }), 409, 'too_many_keys');
        assert.match(String(body.detail), /100/);
        expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${hundredth.id}`, user.session), 204);
        expectStatus(await create(user, { name: 'fits again', scopes: [] }), 201);
        // The limit is per user.
        const other = await registerUser(t);
        expectStatus(await create(other, { name: 'unaffected', scopes: [] }), 201);
      });

      it('needs a session: anonymous 401, an API key 403 session_required', async () => {
        expect401(await call(t, 'POST', '/v1/me/api-keys', null, { name: 'k', scopes: [] }));
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        expectProblem(await call(t, 'POST', '/v1/me/api-keys', { key: key.key }, { name: 'k', scopes: [] }), 403, 'session_required');
        expectProblem(await call(t, 'GET', '/v1/me/api-keys', { key: key.key }), 403, 'session_required');
        expectProblem(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, { key: key.key }), 403, 'session_required');
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
      });
    });

    describe('GET /v1/me/api-keys', () => {
      it('lists the caller’s live keys, newest first, never a secret or a hash', async () => {
        const user = await registerUser(t);
        const [first, second, third] = await withStoppedClock(async (advance) => {
          const first = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'first', scopes: ['skill:upload'] }), 201));
          advance(5);
          const second = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'second', scopes: [], expires_in_days: 30 }), 201));
          advance(5);
          const third = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'third', scopes: ['skill:upload'] }), 201));
          return [first, second, third];
        });
        const { res, items } = await list(user);
        assert.deepEqual(
          items.map((k) => k.name),
          ['third', 'second', 'first'],
        );
        for (const item of items) assert.deepEqual(Object.keys(item).sort(), KEY_FIELDS);

        const { key: _secret, ...withoutSecret } = second;
        assert.deepEqual(items[1], withoutSecret);
        for (const created of [first, second, third]) {
          assert.ok(!res.body.includes(created.key), 'a listed key must not carry its secret');
          assert.ok(!res.body.includes(sha256(created.key)), 'a listed key must not carry its hash');
        }
        assert.doesNotMatch(res.body, /[0-9a-f]{64}/, 'no 64-hex hash in the list');
        assert.doesNotMatch(res.body, /skreg_[0-9A-Za-z]{20,}/, 'nothing that looks like a whole key');
      });

      it('leaves revoked keys out', async () => {
        const user = await registerUser(t);
        const keep = await createKey(t, user.session);
        const drop = await createKey(t, user.session);
        expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${drop.id}`, user.session), 204);
        assert.deepEqual(
          (await list(user)).items.map((k) => k.id),
          [keep.id],
        );
      });

      it('shows only the caller’s keys', async () => {
        const alice = await registerUser(t);
        const bob = await registerUser(t);
        const aliceKey = await createKey(t, alice.session);
        const bobKey = await createKey(t, bob.session);
        assert.deepEqual(
          (await list(alice)).items.map((k) => k.id),
          [aliceKey.id],
        );
        assert.deepEqual(
          (await list(bob)).items.map((k) => k.id),
          [bobKey.id],
        );
        const admin = await adminSession(t);
        const adminKeys = json<{ items: ApiKeyBody[] }>(expectStatus(await call(t, 'GET', '/v1/me/api-keys', admin), 200)).items;
        assert.ok(!adminKeys.some((k) => k.id === aliceKey.id || k.id === bobKey.id), 'not even an admin sees other users’ keys here');
      });

      it('answers an empty list for a user without keys, and 401 anonymously', async () => {
        const user = await registerUser(t);
        assert.deepEqual((await list(user)).items, []);
        expect401(await call(t, 'GET', '/v1/me/api-keys'));
      });
    });

    describe('DELETE /v1/me/api-keys/:keyId', () => {
      it('revokes a key: 204, and the key gets 401 at once', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
        const res = expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, user.session), 204);
        assert.equal(res.body, '');
        const body = expect401(await call(t, 'GET', '/v1/me', { key: key.key }));
        assert.match(String(body.detail), /revoked/i);
        expect401(await call(t, 'GET', '/v1/skills', { key: key.key }));
        const row = await keyRow(key.id);
        assert.notEqual(row.revoked_at, null);
      });

      it('answers 404 api_key_not_found when revoking twice or an unknown id', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, user.session), 204);
        const body = expectProblem(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, user.session), 404, 'api_key_not_found');
        assert.match(String(body.detail), new RegExp(key.id));
        expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/does-not-exist', user.session), 404, 'api_key_not_found');
      });

      it('will not revoke another user’s key: 404, and that key keeps working', async () => {
        const alice = await registerUser(t);
        const mallory = await registerUser(t);
        const key = await createKey(t, alice.session);
        expectProblem(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, mallory.session), 404, 'api_key_not_found');
        const admin = await adminSession(t);
        expectProblem(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, admin), 404, 'api_key_not_found');
        const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200));
        assert.equal(me.user.id, alice.id);
        assert.equal((await keyRow(key.id)).revoked_at, null);
      });

      it('refuses an over-long key id with 400', async () => {
        const user = await registerUser(t);
        const body = expectProblem(await call(t, 'DELETE', `/v1/me/api-keys/${'k'.repeat(101)}`, user.session), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['keyId']);
      });

      it('answers 401 anonymously', async () => {
        expect401(await call(t, 'DELETE', '/v1/me/api-keys/whatever'));
      });
    });

    describe('keys at rest and in use', () => {
      it('stores only the SHA-256 hash of the key and its display prefix', async () => {
        const user = await registerUser(t);
        const created = json<CreatedKeyBody>(expectStatus(await create(user, { name: 'stored', scopes: ['skill:upload'] }), 201));
        const row = await keyRow(created.id);
        assert.equal(row.key_hash, sha256(created.key));
        assert.match(row.key_hash, /^[0-9a-f]{64}$/);
        assert.equal(row.prefix, created.prefix);
        assert.equal(row.user_id, user.id);
        assert.deepEqual(JSON.parse(row.scopes), ['skill:upload']);
        const random = created.key.slice('skreg_'.length);
        assert.ok(!JSON.stringify(row).includes(random), 'the secret part of the key is stored nowhere');
      });

      it('records last_used_at after the key is used', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        assert.equal((await list(user)).items[0]!.last_used_at, null);
        const before = Date.now();
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
        await flushBackgroundWrites(t);
        const lastUsed = (await list(user)).items.find((k) => k.id === key.id)?.last_used_at ?? null;
        assert.ok(lastUsed, 'last_used_at is set once the writes off the response path are done');
        const at = Date.parse(lastUsed);
        assert.ok(at >= before - 1000 && at <= Date.now() + 1000, lastUsed);
        const row = await keyRow(key.id);
        assert.notEqual(row.last_used_at, null);
      });

      it('notices a change made behind its back (as by another node) within the two-second memory', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        await withStoppedClock(async (advance) => {
          expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
          // Disabled directly in the database, not through this node's admin endpoint, which would forget at once.
          await t.runtime.database.db.updateTable('users').set({ disabled: 1 }).where('id', '=', user.id).execute();
          advance(AUTH_CACHE_TTL_MS);
          expect401(await call(t, 'GET', '/v1/me', { key: key.key }));
        }, Date.now() - AUTH_CACHE_TTL_MS);
      });

      it('refuses an expired key with 401', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session, ['skill:upload'], { expires_in_days: 1 });
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
        await expireApiKey(t, key.id, new Date(Date.now() - 1000).toISOString());
        const body = expect401(await call(t, 'GET', '/v1/me', { key: key.key }));
        assert.match(String(body.detail), /expired/i);
        expect401(await call(t, 'POST', '/v1/skills', { key: key.key }, { name: uniqueName('Late ') }));
      });

      it('never accepts a key in the query string', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        for (const param of ['api_key', 'key', 'token', 'access_token']) {
          expect401(await call(t, 'GET', `/v1/me?${param}=${encodeURIComponent(key.key)}`));
        }
        expectProblem(
          await call(t, 'POST', `/v1/skills?api_key=${encodeURIComponent(key.key)}`, null, { name: uniqueName('Q ') }),
          401,
          'unauthenticated',
        );
      });

      it('refuses malformed or unknown Authorization headers with 401 and WWW-Authenticate: Bearer', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        const unknownKey = `skreg_${'A'.repeat(44)}`;
        const headers = [
          'Basic x',
          `Basic ${Buffer.from('user:pass').toString('base64')}`,
          'Bearer',
          'Bearer ',
          'Bearer notakey',
          'Bearer skreg_',
          'Bearer skreg_not-base62!',
          `Bearer ${key.key} extra`,
          `Token ${key.key}`,
          key.key,
          `Bearer ${unknownKey}`,
          `Bearer ${key.key.slice(0, -1)}`,
        ];
        for (const authorization of headers) {
          const res = await call(t, 'GET', '/v1/me', null, undefined, { authorization });
          expect401(res);
        }
        // A bad key is an error even on public routes, so a script learns at once that its key is wrong.
        expect401(await call(t, 'GET', '/v1/skills', null, undefined, { authorization: 'Bearer notakey' }));
        // The scheme is case-insensitive, as HTTP says.
        expectStatus(await call(t, 'GET', '/v1/me', null, undefined, { authorization: `bearer ${key.key}` }), 200);
      });

      it('stops a disabled user’s key at once and accepts it again after re-enabling', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
        const admin = await adminSession(t);
        expectStatus(await call(t, 'PATCH', `/v1/admin/users/${user.id}`, admin, { disabled: true }), 200);
        const body = expect401(await call(t, 'GET', '/v1/me', { key: key.key }));
        assert.match(String(body.detail), /disabled/i);
        expect401(await call(t, 'POST', '/v1/skills', { key: key.key }, { name: uniqueName('Blocked ') }));
        expectStatus(await call(t, 'PATCH', `/v1/admin/users/${user.id}`, admin, { disabled: false }), 200);
        const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200));
        assert.equal(me.auth.api_key_id, key.id);
      });
    });
  });
}
