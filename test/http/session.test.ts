/**
 * GET /v1/auth/session: who is signed in, answered 200 for visitors too, so the console can ask on every page
 * without the browser logging a failed request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { adminSession, call, createKey, expectProblem, expectStatus, json, registerUser } from '../helpers/client.js';

interface SessionBody {
  user: { id: string; username: string; role: string } | null;
  auth: { kind: string; scopes: string[]; api_key_id: string | null } | null;
}

function cleared(res: LightMyRequestResponse): boolean {
  const raw = res.headers['set-cookie'];
  const headers = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return headers.some((h) => h.startsWith('session_token=;') || /^session_token=(;|$)/.test(h));
}

for (const backend of apiBackends()) {
  describe(`GET /v1/auth/session [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it('answers a visitor 200 with no user', async () => {
      const res = expectStatus(await call(t, 'GET', '/v1/auth/session'), 200);
      assert.deepEqual(json<SessionBody>(res), { user: null, auth: null });
      assert.equal(res.headers['set-cookie'], undefined);
    });

    it('describes a signed-in caller as GET /v1/me does', async () => {
      const user = await registerUser(t);
      const session = json<SessionBody>(expectStatus(await call(t, 'GET', '/v1/auth/session', user.session), 200));
      const me = json<SessionBody>(expectStatus(await call(t, 'GET', '/v1/me', user.session), 200));
      assert.deepEqual(session, me);
      assert.equal(session.user?.id, user.id);
      assert.deepEqual(session.auth, { kind: 'session', scopes: ['skill:upload'], api_key_id: null });
      const admin = json<SessionBody>(expectStatus(await call(t, 'GET', '/v1/auth/session', await adminSession(t)), 200));
      assert.equal(admin.user?.role, 'admin');
    });

    it('describes an API-key caller with the key', async () => {
      const user = await registerUser(t);
      const key = await createKey(t, user.session, []);
      const session = json<SessionBody>(expectStatus(await call(t, 'GET', '/v1/auth/session', { key: key.key }), 200));
      assert.equal(session.user?.id, user.id);
      assert.deepEqual(session.auth, { kind: 'api_key', scopes: [], api_key_id: key.id });
    });

    it('answers an ended session 200 with no user and clears its cookie', async () => {
      const user = await registerUser(t);
      expectStatus(await call(t, 'POST', '/v1/auth/logout', user.session), 204);
      const res = expectStatus(await call(t, 'GET', '/v1/auth/session', user.session), 200);
      assert.deepEqual(json<SessionBody>(res), { user: null, auth: null });
      assert.ok(cleared(res), `the cookie is cleared: ${JSON.stringify(res.headers['set-cookie'])}`);
    });

    it("answers a disabled user's session 200 with no user", async () => {
      const user = await registerUser(t);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${user.id}`, await adminSession(t), { disabled: true }), 200);
      const res = expectStatus(await call(t, 'GET', '/v1/auth/session', user.session), 200);
      assert.deepEqual(json<SessionBody>(res), { user: null, auth: null });
    });

    it('refuses a bad API key with 401, as every endpoint does', async () => {
      expectProblem(await call(t, 'GET', '/v1/auth/session', { key: 'skreg_not-a-real-key' }), 401, 'unauthenticated');
    });

    it('is documented as public in the OpenAPI document', async () => {
      const doc = json<{ paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>> }>(
        expectStatus(await call(t, 'GET', '/v1/openapi.json'), 200),
      );
      const operation = doc.paths['/v1/auth/session']?.get;
      assert.ok(operation, 'GET /v1/auth/session is in the document');
      assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '401']);
      assert.deepEqual(operation.security?.[0], {}, 'credentials are optional');
    });
  });
}
