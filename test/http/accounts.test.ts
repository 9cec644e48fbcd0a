import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { accountService } from '../../src/domain/accounts/accounts.js';
import { createRuntime } from '../../src/server.js';
import { ADMIN, startApp, type TestApp } from '../helpers/app.js';
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
  sessionFrom,
  uniqueName,
  expireSession,
} from '../helpers/client.js';

interface UserBody {
  id: string;
  username: string;
  email: string;
  role: string;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

interface MeBody {
  user: UserBody;
  auth: { kind: string; scopes: string[]; api_key_id: string | null };
}

interface FieldErrorBody {
  field: string;
  message: string;
}

const USER_FIELDS = ['created_at', 'disabled', 'email', 'id', 'role', 'updated_at', 'username'];
const THIRTY_DAYS_S = 30 * 86_400;
const EVIL = 'https://evil.example';

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

interface ParsedCookie {
  value: string;
  attributes: Map<string, string>;
}

/** The `session_token` Set-Cookie header of a response, split into its value and lower-cased attributes. */
function sessionSetCookie(res: LightMyRequestResponse): ParsedCookie | undefined {
  const header = setCookies(res).find((h) => h.startsWith('session_token='));
  if (header === undefined) return undefined;
  const [pair, ...rest] = header.split(';').map((part) => part.trim());
  const attributes = new Map<string, string>();
  for (const attribute of rest) {
    const eq = attribute.indexOf('=');
    if (eq === -1) attributes.set(attribute.toLowerCase(), '');
    else attributes.set(attribute.slice(0, eq).toLowerCase(), attribute.slice(eq + 1));
  }
  return { value: pair!.slice('session_token='.length), attributes };
}

/** Asserts the response tells the browser to drop the session cookie. */
function expectCookieCleared(res: LightMyRequestResponse): void {
  const cookie = sessionSetCookie(res);
  assert.ok(cookie, `expected the session cookie to be cleared, got ${JSON.stringify(res.headers['set-cookie'])}`);
  assert.equal(cookie.value, '');
  const maxAge = cookie.attributes.get('max-age');
  const expires = cookie.attributes.get('expires');
  assert.ok(
    maxAge === '0' || (expires !== undefined && Date.parse(expires) <= Date.now()),
    `cookie not expired: ${JSON.stringify(res.headers['set-cookie'])}`,
  );
  assert.equal(cookie.attributes.get('path'), '/');
}

function expectUserShape(user: Record<string, unknown>): void {
  assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
  assert.equal(typeof user.id, 'string');
  assert.ok((user.id as string).length > 0);
  assert.ok(!JSON.stringify(user).includes('argon2'), 'a user must never carry a password hash');
  assert.equal(Number.isNaN(Date.parse(String(user.created_at))), false);
  assert.equal(Number.isNaN(Date.parse(String(user.updated_at))), false);
}

function fieldsOf(body: Record<string, unknown>): string[] {
  return [...new Set((body.errors as FieldErrorBody[]).map((e) => e.field))].sort();
}

function register(t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call(t, 'POST', '/v1/auth/register', null, body, headers);
}

function newAccount(name = uniqueName('acct')): { username: string; email: string; password: string } {
  return { username: name, email: `${name}@example.com`, password: `pw-${name}-secret` };
}

function expect401(res: LightMyRequestResponse): Record<string, unknown> {
  const body = expectProblem(res, 401, 'unauthenticated');
  assert.equal(res.headers['www-authenticate'], 'Bearer');
  return body;
}

for (const backend of apiBackends()) {
  describe(`accounts: register [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it('creates a user and answers 201 with the user, never the password or its hash', async () => {
      const account = newAccount();
      const res = expectStatus(await register(t, account), 201);
      const user = json(res);
      expectUserShape(user);
      assert.equal(user.username, account.username);
      assert.equal(user.email, account.email);
      assert.equal(user.role, 'user');
      assert.equal(user.disabled, false);
      assert.ok(!res.body.includes(account.password));
      assert.ok(!/password/i.test(res.body));
      assert.equal(sessionSetCookie(res), undefined, 'registering does not sign in');
      // The account works straight away.
      await login(t, account.username, account.password);
    });

    it('accepts usernames of 2 and 39 characters with digits, "_" and "-"', async () => {
      for (const username of ['7q', `a${'b'.repeat(36)}_-`]) {
        assert.equal(username.length === 2 || username.length === 39, true);
        const res = expectStatus(await register(t, { ...newAccount(), username }), 201);
        assert.equal(json<UserBody>(res).username, username);
      }
    });

    it('refuses usernames that break the pattern', async () => {
      const bad = [
        'A',
        'x', // too short
        `a${'b'.repeat(39)}`, // 40 characters
        'Alice', // upper case
        'aLICE',
        '_alice', // must start with a letter or digit
        '-alice',
        'al ice',
        'al.ice',
        'al@ice',
        'élodie',
        '',
      ];
      for (const username of bad) {
        const body = expectProblem(await register(t, { ...newAccount(), username }), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['username'], `username ${JSON.stringify(username)}: ${JSON.stringify(body)}`);
      }
    });

    it('refuses emails that are not email addresses and accepts name@localhost', async () => {
      for (const email of [
        'not-an-email',
        'a@b',
        '@example.com',
        'a@',
        'a b@example.com',
        'a@@example.com',
        '',
        `${'x'.repeat(65)}@example.com`,
      ]) {
        const body = expectProblem(await register(t, { ...newAccount(), email }), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['email'], `email ${JSON.stringify(email)}: ${JSON.stringify(body)}`);
      }
      const account = newAccount();
      const res = expectStatus(await register(t, { ...account, email: `${account.username}@localhost` }), 201);
      assert.equal(json<UserBody>(res).email, `${account.username}@localhost`);
    });

    it('refuses passwords shorter than 8 characters (counted as characters) or longer than 1024', async () => {
      for (const password of ['', 'short', '1234567', '🔑🔑🔑🔑🔑🔑🔑', 'x'.repeat(1025)]) {
        const body = expectProblem(await register(t, { ...newAccount(), password }), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['password'], `password of ${password.length}: ${JSON.stringify(body)}`);
      }
      expectStatus(await register(t, { ...newAccount(), password: 'q7v-zl3k' }), 201);
      expectStatus(await register(t, { ...newAccount(), password: '🔑🔑🔑🔑🔑🔑🔑🔑' }), 201);
    });

    it('reports every invalid field at once', async () => {
      const body = expectProblem(await register(t, { username: 'Bad Name', email: 'nope', password: 'short' }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['email', 'password', 'username']);
      for (const error of body.errors as FieldErrorBody[]) assert.ok(error.message.length > 0);
    });

    it('refuses missing fields, wrong types and unknown fields', async () => {
      const account = newAccount();
      let body = expectProblem(await register(t, { username: account.username }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['email', 'password']);
      body = expectProblem(await register(t, { ...account, password: 12345678 }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['password']);
      body = expectProblem(await register(t, { ...account, role: 'admin' }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['role']);
      body = expectProblem(await register(t, { ...account, usename: 'typo' }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['usename']);
      // None of these created the account.
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, { login: account.username, password: account.password }),
        401,
        'invalid_credentials',
      );
    });

    it('refuses a taken username with 409 username_taken', async () => {
      const first = newAccount();
      expectStatus(await register(t, first), 201);
      const body = expectProblem(await register(t, { ...newAccount(), username: first.username }), 409, 'username_taken');
      assert.match(String(body.detail), new RegExp(first.username));
      // The bootstrap admin's name is taken too.
      expectProblem(await register(t, { ...newAccount(), username: ADMIN.username }), 409, 'username_taken');
    });

    it('refuses a taken email in any letter case with 409 email_taken', async () => {
      const name = uniqueName('mail');
      expectStatus(await register(t, { ...newAccount(), email: `${name}.Mixed@Example.com` }), 201);
      expectProblem(await register(t, { ...newAccount(), email: `${name}.mixed@example.COM` }), 409, 'email_taken');
      expectProblem(await register(t, { ...newAccount(), email: `${name}.Mixed@Example.com` }), 409, 'email_taken');
      expectProblem(await register(t, { ...newAccount(), email: ADMIN.email.toUpperCase() }), 409, 'email_taken');
    });

    it('refuses a register request sent from a foreign origin', async () => {
      const account = newAccount();
      expectProblem(await register(t, account, { origin: EVIL }), 403, 'csrf_rejected');
      expectProblem(await register(t, account, { origin: 'null' }), 403, 'csrf_rejected');
      expectProblem(await register(t, account, { 'sec-fetch-site': 'cross-site' }), 403, 'csrf_rejected');
      // Nothing was created: the same account can still register from the registry's own origin.
      expectStatus(await register(t, account, { origin: t.config.publicOrigin }), 201);
    });
  });

  describe(`accounts: closed registration [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend, { REGISTRATION: 'closed' });
    });
    after(() => t.close());

    it('answers 403 registration_closed and creates nothing', async () => {
      const account = newAccount();
      const body = expectProblem(await register(t, account), 403, 'registration_closed');
      assert.match(String(body.detail), /administrator/);
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, { login: account.username, password: account.password }),
        401,
        'invalid_credentials',
      );
    });

    it('still lets existing users sign in', async () => {
      const admin = await adminSession(t);
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', admin), 200));
      assert.equal(me.user.username, ADMIN.username);
    });
  });

  describe(`accounts: login and logout [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    function loginReq(body: Record<string, unknown>, headers: Record<string, string> = {}) {
      return call(t, 'POST', '/v1/auth/login', null, body, headers);
    }

    it('signs in by username and answers the user and the session expiry', async () => {
      const account = newAccount();
      const created = json<UserBody>(expectStatus(await register(t, account), 201));
      const before = Date.now();
      const res = expectStatus(await loginReq({ login: account.username, password: account.password }), 200);
      const body = json<{ user: Record<string, unknown>; expires_at: string }>(res);
      assert.deepEqual(Object.keys(body).sort(), ['expires_at', 'user']);
      expectUserShape(body.user);
      assert.equal(body.user.id, created.id);
      assert.equal(body.user.username, account.username);
      const expires = Date.parse(body.expires_at);
      assert.ok(expires >= before + THIRTY_DAYS_S * 1000 - 1000 && expires <= Date.now() + THIRTY_DAYS_S * 1000 + 1000, body.expires_at);
      assert.ok(!res.body.includes(account.password));
      const cookie = sessionFrom(res);
      assert.ok(cookie.length >= 32);
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { cookie }), 200));
      assert.equal(me.user.id, created.id);
    });

    it('signs in by username or email in any letter case', async () => {
      const account = newAccount();
      expectStatus(await register(t, { ...account, email: `${account.username}.Case@Example.com` }), 201);
      for (const loginName of [
        account.username.toUpperCase(),
        `${account.username}.Case@Example.com`,
        `${account.username}.case@example.com`,
        `${account.username.toUpperCase()}.CASE@EXAMPLE.COM`,
        `  ${account.username}  `,
      ]) {
        const res = expectStatus(await loginReq({ login: loginName, password: account.password }), 200);
        assert.equal(json<{ user: UserBody }>(res).user.username, account.username, loginName);
        sessionFrom(res);
      }
    });

    it('answers a wrong password and an unknown user alike: 401 invalid_credentials, no cookie', async () => {
      const account = newAccount();
      expectStatus(await register(t, account), 201);
      const wrong = await loginReq({ login: account.username, password: 'wrong-password' });
      const wrongBody = expectProblem(wrong, 401, 'invalid_credentials');
      const wrongCase = await loginReq({ login: account.username, password: account.password.toUpperCase() });
      expectProblem(wrongCase, 401, 'invalid_credentials');
      const unknown = await loginReq({ login: uniqueName('nobody'), password: account.password });
      const unknownBody = expectProblem(unknown, 401, 'invalid_credentials');
      const unknownEmail = await loginReq({ login: 'nobody@example.com', password: account.password });
      const unknownEmailBody = expectProblem(unknownEmail, 401, 'invalid_credentials');
      assert.equal(wrongBody.detail, unknownBody.detail);
      assert.equal(wrongBody.detail, unknownEmailBody.detail);
      for (const res of [wrong, wrongCase, unknown, unknownEmail]) assert.equal(sessionSetCookie(res), undefined);
    });

    it('validates the login body', async () => {
      let body = expectProblem(await loginReq({ login: '', password: 'whatever1' }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['login']);
      body = expectProblem(await loginReq({ login: 'someone' }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['password']);
      body = expectProblem(await loginReq({ login: 'someone', password: 'whatever1', remember: true }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['remember']);
      body = expectProblem(await loginReq({ username: 'someone', password: 'whatever1' }), 400, 'validation_failed');
      assert.deepEqual(fieldsOf(body), ['login', 'username']);
    });

    it('refuses a disabled user with 403 account_disabled, but only with the right password', async () => {
      const user = await registerUser(t);
      const admin = await adminSession(t);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${user.id}`, admin, { disabled: true }), 200);
      const res = await loginReq({ login: user.username, password: user.password });
      expectProblem(res, 403, 'account_disabled');
      assert.equal(sessionSetCookie(res), undefined);
      // A wrong password does not reveal that the account exists and is disabled.
      expectProblem(await loginReq({ login: user.username, password: 'wrong-password' }), 401, 'invalid_credentials');
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${user.id}`, admin, { disabled: false }), 200);
      await login(t, user.username, user.password);
    });

    it('sets session_token HttpOnly, SameSite=Lax, Path=/, for 30 days, without Secure over http', async () => {
      const user = await registerUser(t);
      const res = expectStatus(await loginReq({ login: user.username, password: user.password }), 200);
      const cookie = sessionSetCookie(res);
      assert.ok(cookie);
      assert.ok(cookie.value.length >= 32);
      assert.equal(cookie.attributes.get('httponly'), '');
      assert.equal(cookie.attributes.get('samesite')?.toLowerCase(), 'lax');
      assert.equal(cookie.attributes.get('path'), '/');
      assert.equal(cookie.attributes.get('max-age'), String(THIRTY_DAYS_S));
      assert.equal(cookie.attributes.has('secure'), false);
      assert.equal(cookie.attributes.has('domain'), false);
    });

    it('gives every sign-in its own session', async () => {
      const user = await registerUser(t);
      const second = await login(t, user.username, user.password);
      assert.notEqual(second.cookie, user.session.cookie);
      expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
      expectStatus(await call(t, 'GET', '/v1/me', second), 200);
      // Signing one out leaves the other alone.
      expectStatus(await call(t, 'POST', '/v1/auth/logout', second), 204);
      expect401(await call(t, 'GET', '/v1/me', second));
      expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
    });

    it('logs out: 204, clears the cookie, and the old cookie no longer works', async () => {
      const user = await registerUser(t);
      expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
      const res = expectStatus(await call(t, 'POST', '/v1/auth/logout', user.session), 204);
      assert.equal(res.body, '');
      expectCookieCleared(res);
      const me = await call(t, 'GET', '/v1/me', user.session);
      expect401(me);
      expectCookieCleared(me);
      // Logging out again with the dead cookie is a 401 as well.
      expect401(await call(t, 'POST', '/v1/auth/logout', user.session));
    });

    it('refuses an anonymous logout with 401 and a logout by API key with 403', async () => {
      expect401(await call(t, 'POST', '/v1/auth/logout'));
      const user = await registerUser(t);
      const key = await createKey(t, user.session);
      expectProblem(await call(t, 'POST', '/v1/auth/logout', { key: key.key }), 403, 'session_required');
      expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
    });
  });

  for (const [label, env] of [
    ['PUBLIC_URL https', { PUBLIC_URL: 'https://registry.example' }],
    ['COOKIE_SECURE=true', { COOKIE_SECURE: 'true' }],
  ] as const) {
    describe(`accounts: Secure cookie with ${label} [${backend.name}]`, () => {
      let t: TestApp;
      before(async () => {
        t = await startApp(backend, env);
      });
      after(() => t.close());

      it('marks the session cookie Secure, keeping the other attributes', async () => {
        const res = expectStatus(await call(t, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: ADMIN.password }), 200);
        const cookie = sessionSetCookie(res);
        assert.ok(cookie);
        assert.equal(cookie.attributes.get('secure'), '');
        assert.equal(cookie.attributes.get('httponly'), '');
        assert.equal(cookie.attributes.get('samesite')?.toLowerCase(), 'lax');
        assert.equal(cookie.attributes.get('path'), '/');
        assert.equal(cookie.attributes.get('max-age'), String(THIRTY_DAYS_S));
      });
    });
  }

  describe(`accounts: COOKIE_SECURE=false overrides an https PUBLIC_URL [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend, { PUBLIC_URL: 'https://registry.example', COOKIE_SECURE: 'false' });
    });
    after(() => t.close());

    it('leaves Secure off', async () => {
      const res = expectStatus(await call(t, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: ADMIN.password }), 200);
      const cookie = sessionSetCookie(res);
      assert.ok(cookie);
      assert.equal(cookie.attributes.has('secure'), false);
    });
  });

  describe(`accounts: GET /v1/me [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it('describes a session caller: kind session, every scope, no key id', async () => {
      const user = await registerUser(t);
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', user.session), 200));
      expectUserShape(me.user as unknown as Record<string, unknown>);
      assert.equal(me.user.id, user.id);
      assert.equal(me.user.username, user.username);
      assert.equal(me.user.email, user.email);
      assert.equal(me.user.role, 'user');
      assert.equal(me.user.disabled, false);
      assert.deepEqual(me.auth, { kind: 'session', scopes: ['skill:upload'], api_key_id: null });
    });

    it('describes an API-key caller: kind api_key with the key scopes and id', async () => {
      const user = await registerUser(t);
      const upload = await createKey(t, user.session, ['skill:upload']);
      let me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { key: upload.key }), 200));
      assert.equal(me.user.id, user.id);
      assert.deepEqual(me.auth, { kind: 'api_key', scopes: ['skill:upload'], api_key_id: upload.id });
      const readOnly = await createKey(t, user.session, []);
      me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', { key: readOnly.key }), 200));
      assert.deepEqual(me.auth, { kind: 'api_key', scopes: [], api_key_id: readOnly.id });
    });

    it('shows an admin their role', async () => {
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', await adminSession(t)), 200));
      assert.equal(me.user.role, 'admin');
      assert.equal(me.user.username, ADMIN.username);
      assert.equal(me.user.email, ADMIN.email);
    });

    it('answers 401 with WWW-Authenticate without credentials', async () => {
      expect401(await call(t, 'GET', '/v1/me'));
      expect401(await call(t, 'GET', '/v1/me', null, undefined, { cookie: 'session_token=' }));
    });
  });

  describe(`accounts: CSRF protection [${backend.name}]`, () => {
    let t: TestApp;
    let user: Awaited<ReturnType<typeof registerUser>>;
    before(async () => {
      t = await startApp(backend);
      user = await registerUser(t);
    });
    after(() => t.close());

    const skillBody = () => ({ name: uniqueName('Csrf Skill '), slug: uniqueName('csrf-') });

    it('refuses cookie-authenticated writes that name a foreign origin', async () => {
      for (const origin of [
        EVIL,
        'http://evil.example',
        'null',
        `${t.config.publicOrigin}.evil.example`,
        'http://127.0.0.1:3001',
        `https://${new URL(t.config.publicOrigin).host}x`,
      ]) {
        const headers = { origin };
        const create = await call(t, 'POST', '/v1/skills', user.session, skillBody(), headers);
        const body = expectProblem(create, 403, 'csrf_rejected');
        assert.ok(String(body.detail).length > 0);
        expectProblem(await call(t, 'POST', '/v1/auth/logout', user.session, undefined, headers), 403, 'csrf_rejected');
        expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/x', user.session, undefined, headers), 403, 'csrf_rejected');
        expectProblem(await call(t, 'POST', '/v1/me/api-keys', user.session, { name: 'k', scopes: [] }, headers), 403, 'csrf_rejected');
        expectProblem(await call(t, 'PATCH', '/v1/skills/whatever', user.session, { name: 'x' }, headers), 403, 'csrf_rejected');
      }
      // None of the refused writes took effect: the session is alive and no key or skill was made.
      expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
      assert.deepEqual(json<{ items: unknown[] }>(await call(t, 'GET', '/v1/me/api-keys', user.session)).items, []);
      assert.equal(json<{ total: number }>(await call(t, 'GET', '/v1/me/skills?status=all', user.session)).total, 0);
    });

    it('refuses a cookie-authenticated write marked Sec-Fetch-Site: cross-site without Origin', async () => {
      const headers = { 'sec-fetch-site': 'cross-site' };
      expectProblem(await call(t, 'POST', '/v1/skills', user.session, skillBody(), headers), 403, 'csrf_rejected');
      expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/x', user.session, undefined, headers), 403, 'csrf_rejected');
      // same-origin and same-site fetch metadata are fine.
      expectStatus(await call(t, 'POST', '/v1/skills', user.session, skillBody(), { 'sec-fetch-site': 'same-origin' }), 201);
    });

    it("allows cookie-authenticated writes from the registry's own origin", async () => {
      const headers = { origin: t.config.publicOrigin };
      expectStatus(await call(t, 'POST', '/v1/skills', user.session, skillBody(), headers), 201);
      expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/x', user.session, undefined, headers), 404, 'api_key_not_found');
      const key = json<{ id: string }>(
        expectStatus(await call(t, 'POST', '/v1/me/api-keys', user.session, { name: 'k', scopes: [] }, headers), 201),
      );
      expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${key.id}`, user.session, undefined, headers), 204);
    });

    it('allows cookie-authenticated writes whose Origin matches the Host header', async () => {
      const headers = { host: 'localhost:3000', origin: 'http://localhost:3000' };
      expectStatus(await call(t, 'POST', '/v1/skills', user.session, skillBody(), headers), 201);
      expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/x', user.session, undefined, headers), 404, 'api_key_not_found');
      // The Host header only vouches for its own origin.
      expectProblem(
        await call(t, 'POST', '/v1/skills', user.session, skillBody(), { host: 'localhost:3000', origin: 'http://localhost:4000' }),
        403,
        'csrf_rejected',
      );
    });

    it('allows cookie-authenticated writes without an Origin header (scripts, curl)', async () => {
      expectStatus(await call(t, 'POST', '/v1/skills', user.session, skillBody()), 201);
      expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/x', user.session), 404, 'api_key_not_found');
    });

    it('refuses login from a foreign origin, allows it from the own origin', async () => {
      const creds = { login: user.username, password: user.password };
      const foreign: Record<string, string>[] = [{ origin: EVIL }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }];
      for (const headers of foreign) {
        const res = await call(t, 'POST', '/v1/auth/login', null, creds, headers);
        expectProblem(res, 403, 'csrf_rejected');
        assert.equal(sessionSetCookie(res), undefined, 'no session may be planted from another site');
      }
      sessionFrom(expectStatus(await call(t, 'POST', '/v1/auth/login', null, creds, { origin: t.config.publicOrigin }), 200));
      sessionFrom(
        expectStatus(
          await call(t, 'POST', '/v1/auth/login', null, creds, { host: 'registry.local:8080', origin: 'http://registry.local:8080' }),
          200,
        ),
      );
    });

    it('allows an API-key write with a foreign Origin: a key is not ambient authority', async () => {
      const key = await createKey(t, user.session);
      const headers = { origin: EVIL };
      expectStatus(await call(t, 'POST', '/v1/skills', { key: key.key }, skillBody(), headers), 201);
      expectProblem(await call(t, 'DELETE', '/v1/me/api-keys/x', { key: key.key }, undefined, headers), 403, 'session_required');
      // Even when a browser adds the cookie as well, the Authorization header decides.
      const both = await call(t, 'POST', '/v1/skills', { key: key.key }, skillBody(), {
        ...headers,
        cookie: `session_token=${user.session.cookie}`,
      });
      expectStatus(both, 201);
    });

    it('allows reads with a foreign Origin', async () => {
      const headers = { origin: EVIL };
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', user.session, undefined, headers), 200));
      assert.equal(me.user.id, user.id);
      expectStatus(await call(t, 'GET', '/v1/me/api-keys', user.session, undefined, headers), 200);
      expectStatus(await call(t, 'GET', '/v1/skills', user.session, undefined, { 'sec-fetch-site': 'cross-site' }), 200);
    });

    it('leaves anonymous non-auth writes to the normal 401', async () => {
      expect401(await call(t, 'POST', '/v1/skills', null, skillBody(), { origin: EVIL }));
    });
  });

  describe(`accounts: stale and expired sessions [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it('serves public pages to a browser with an unknown session cookie and clears the cookie', async () => {
      const stale = { cookie: 'not-a-real-session-token-aaaaaaaaaaaaaaaaaaaa' };
      const res = expectStatus(await call(t, 'GET', '/v1/skills', stale), 200);
      assert.equal(typeof json<{ total: number }>(res).total, 'number');
      expectCookieCleared(res);
      const me = await call(t, 'GET', '/v1/me', stale);
      expect401(me);
      expectCookieCleared(me);
    });

    it('answers 401 once a session has expired', async () => {
      const user = await registerUser(t);
      expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
      assert.equal(await expireSession(t, sha256(user.session.cookie)), 1);
      const me = await call(t, 'GET', '/v1/me', user.session);
      expect401(me);
      expectCookieCleared(me);
      expect401(await call(t, 'GET', '/v1/me/api-keys', user.session));
      // A public page still works, anonymously.
      expectStatus(await call(t, 'GET', '/v1/skills', user.session), 200);
      // A fresh sign-in gets a working session again.
      const again = await login(t, user.username, user.password);
      expectStatus(await call(t, 'GET', '/v1/me', again), 200);
    });
  });

  describe(`accounts: secrets at rest [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    it('stores passwords as argon2id hashes', async () => {
      const user = await registerUser(t);
      const row = await t.runtime.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^\$argon2id\$/);
      assert.ok(!row.password_hash.includes(user.password));
      const admin = await t.runtime.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', ADMIN.username)
        .executeTakeFirstOrThrow();
      assert.match(admin.password_hash, /^\$argon2id\$/);
      // The same password gets a different salt, so equal passwords do not show as equal hashes.
      const a = newAccount();
      const b = { ...newAccount(), password: a.password };
      const idA = json<UserBody>(expectStatus(await register(t, a), 201)).id;
      const idB = json<UserBody>(expectStatus(await register(t, b), 201)).id;
      const hashes = await t.runtime.database.db.selectFrom('users').select('password_hash').where('id', 'in', [idA, idB]).execute();
      assert.equal(hashes.length, 2);
      assert.notEqual(hashes[0]!.password_hash, hashes[1]!.password_hash);
    });

    it('stores session tokens only as SHA-256 hashes', async () => {
      const user = await registerUser(t);
      const rows = await t.runtime.database.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.match(row.token_hash, /^[0-9a-f]{64}$/);
      assert.notEqual(row.token_hash, user.session.cookie);
      assert.equal(row.token_hash, sha256(user.session.cookie));
      assert.ok(!JSON.stringify(rows).includes(user.session.cookie), 'the raw token is stored nowhere in the row');
      const lifetime = Date.parse(new Date(row.expires_at).toISOString()) - Date.parse(new Date(row.created_at).toISOString());
      assert.equal(lifetime, THIRTY_DAYS_S * 1000);
    });

    it('removes the session row on logout', async () => {
      const user = await registerUser(t);
      expectStatus(await call(t, 'POST', '/v1/auth/logout', user.session), 204);
      const rows = await t.runtime.database.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
      assert.equal(rows.length, 0);
    });
  });

  describe(`accounts: admin bootstrap [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend);
    });
    after(() => t.close());

    async function adminRow() {
      return t.runtime.database.db.selectFrom('users').selectAll().where('username', '=', ADMIN.username).executeTakeFirstOrThrow();
    }

    it('creates the ADMIN_USERNAME user with role admin at start-up', async () => {
      const row = await adminRow();
      assert.equal(row.role, 'admin');
      assert.equal(row.disabled, 0);
      assert.equal(row.email, ADMIN.email);
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', await adminSession(t)), 200));
      assert.equal(me.user.role, 'admin');
      const count = await t.runtime.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(count.n, 1);
    });

    it('ensureAdmin promotes, re-enables and resets the password of a tampered admin', async () => {
      const original = await adminRow();
      await t.runtime.database.db
        .updateTable('users')
        .set({
          role: 'user',
          disabled: 1,
          password_hash: '$argon2id$v=19$m=19456,t=2,p=1$bm90LWEtcmVhbA$bm90LWEtcmVhbC1oYXNoLW5vdC1hLXJlYWwtaGFzaA',
        })
        .where('id', '=', original.id)
        .execute();
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: ADMIN.password }),
        401,
        'invalid_credentials',
      );

      const user = await t.runtime.services.accounts.ensureAdmin(ADMIN);
      assert.equal(user.id, original.id);
      assert.equal(user.role, 'admin');
      assert.equal(user.disabled, false);
      const row = await adminRow();
      assert.equal(row.role, 'admin');
      assert.equal(row.disabled, 0);
      assert.match(row.password_hash, /^\$argon2id\$/);
      const me = json<MeBody>(expectStatus(await call(t, 'GET', '/v1/me', await adminSession(t)), 200));
      assert.equal(me.user.role, 'admin');
    });

    it('ensureAdmin sets the configured password, so the old one stops working', async () => {
      await t.runtime.services.accounts.ensureAdmin({ ...ADMIN, password: 'rotated-password-2' });
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: ADMIN.password }),
        401,
        'invalid_credentials',
      );
      await login(t, ADMIN.username, 'rotated-password-2');
      await t.runtime.services.accounts.ensureAdmin(ADMIN);
      await login(t, ADMIN.username, ADMIN.password);
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: 'rotated-password-2' }),
        401,
        'invalid_credentials',
      );
    });

    it('ensureAdmin leaves a healthy admin untouched', async () => {
      const before = await adminRow();
      const user = await t.runtime.services.accounts.ensureAdmin(ADMIN);
      const after = await adminRow();
      assert.equal(user.id, before.id);
      assert.equal(after.password_hash, before.password_hash);
      assert.equal(new Date(after.updated_at).toISOString(), new Date(before.updated_at).toISOString());
    });

    it('ensureAdmin adopts the admin another node commits between its name check and its email check', async () => {
      const before = await adminRow();
      const { users, sessions } = t.runtime.services.repositories;
      // Another node starting at once: this one looks the name up before the other's insert commits (twice: in
      // ensureAdmin, then in the create it falls back to), and finds the email taken just after.
      let hidden = 2;
      const racing = {
        ...users,
        findByUsername: (username: string) => (hidden-- > 0 ? Promise.resolve(undefined) : users.findByUsername(username)),
      };
      const accounts = accountService({
        users: racing,
        sessions,
        config: t.config,
        invalidation: { forgetUser: () => undefined, forgetCredential: () => undefined },
      });
      const user = await accounts.ensureAdmin(ADMIN);
      assert.equal(hidden, -1, 'the race was played out');
      assert.equal(user.id, before.id);
      const count = await t.runtime.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      assert.equal(count.n, 1);
    });

    it('a restart on the same database restores a demoted admin and applies a changed ADMIN_PASSWORD', async () => {
      const original = await adminRow();
      const helper = await registerUser(t);
      // Another admin demotes and disables the bootstrap admin through the API.
      const admin = await adminSession(t);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${helper.id}`, admin, { role: 'admin' }), 200);
      const helperSession = await login(t, helper.username, helper.password);
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${original.id}`, helperSession, { role: 'user', disabled: true }), 200);
      expectProblem(
        await call(t, 'POST', '/v1/auth/login', null, { login: ADMIN.username, password: ADMIN.password }),
        403,
        'account_disabled',
      );

      // A second registry process on the same database, as after a restart with a rotated password.
      const second = await createRuntime({ ...t.config, admin: { ...ADMIN, password: 'restarted-password-3' } });
      try {
        const row = await adminRow();
        assert.equal(row.id, original.id, 'the existing account is reused, not duplicated');
        assert.equal(row.role, 'admin');
        assert.equal(row.disabled, 0);
        const res = expectStatus(
          await second.app.inject({
            method: 'POST',
            url: '/v1/auth/login',
            payload: { login: ADMIN.username, password: 'restarted-password-3' },
          }),
          200,
        );
        assert.equal(json<{ user: UserBody }>(res).user.role, 'admin');
      } finally {
        await second.close();
      }
      // The first process sees the same database.
      await login(t, ADMIN.username, 'restarted-password-3');
      const count = await t.runtime.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('username', '=', ADMIN.username)
        .executeTakeFirstOrThrow();
      assert.equal(count.n, 1);
      await t.runtime.services.accounts.ensureAdmin(ADMIN);
    });
  });
}
