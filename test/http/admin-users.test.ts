import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
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
  uniqueName,
  type TestUser,
} from '../helpers/client.js';

interface UserBody {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

interface UserList {
  items: UserBody[];
  page: number;
  page_size: number;
  total: number;
}

interface FieldErrorBody {
  field: string;
  message: string;
}

interface Session {
  cookie: string;
}

const USER_FIELDS = ['created_at', 'disabled', 'email', 'id', 'role', 'updated_at', 'username'];

function fieldsOf(body: Record<string, unknown>): string[] {
  return [...new Set((body.errors as FieldErrorBody[]).map((e) => e.field))].sort();
}

function expect401(res: LightMyRequestResponse): Record<string, unknown> {
  const body = expectProblem(res, 401, 'unauthenticated');
  assert.equal(res.headers['www-authenticate'], 'Bearer');
  return body;
}

/** One line for a PATCH outcome: the status with the problem code, or the resulting role and flag. */
function brief(res: LightMyRequestResponse): string {
  const body = json(res);
  return res.statusCode === 200
    ? `200 (role ${String(body.role)}, disabled ${String(body.disabled)})`
    : `${res.statusCode} ${String(body.code)}`;
}

function newAccount(name = uniqueName('adm')): { username: string; email: string; password: string } {
  return { username: name, email: `${name}@example.com`, password: `pw-${name}-secret` };
}

/** A short lower-case tag, unique per call, to build names a `q` search can single out. */
function tag(): string {
  return `t${randomUUID().replace(/-/g, '').slice(0, 10)}`;
}

for (const backend of apiBackends()) {
  describe(`admin users [${backend.name}]`, () => {
    let t: TestApp;
    let admin: Session;
    before(async () => {
      t = await startApp(backend);
      admin = await adminSession(t);
    });
    after(() => t.close());

    async function listUsers(query: string, session: Session = admin): Promise<UserList> {
      const res = expectStatus(await call(t, 'GET', `/v1/admin/users${query}`, session), 200);
      const body = json<UserList>(res);
      assert.deepEqual(Object.keys(body).sort(), ['items', 'page', 'page_size', 'total']);
      for (const item of body.items) assert.deepEqual(Object.keys(item).sort(), USER_FIELDS);
      assert.ok(!/password|argon2/i.test(res.body), 'a user list never carries passwords or hashes');
      return body;
    }

    function createUser(body: unknown, session: Session = admin) {
      return call(t, 'POST', '/v1/admin/users', session, body);
    }

    function patchUser(id: string, body: unknown, session: Session = admin) {
      return call(t, 'PATCH', `/v1/admin/users/${id}`, session, body);
    }

    async function created(body: Record<string, unknown>): Promise<UserBody> {
      return json<UserBody>(expectStatus(await createUser(body), 201));
    }

    /** Inserts many users straight into the database (no password hashing), oldest first. */
    async function insertUsers(prefix: string, count: number): Promise<string[]> {
      const start = Date.now() - 3_600_000;
      const rows = Array.from({ length: count }, (_, i) => {
        const at = new Date(start + i * 1000).toISOString();
        return {
          id: randomUUID(),
          username: `${prefix}n${String(i).padStart(3, '0')}`,
          email: `${prefix}n${i}@example.com`,
          password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
          role: 'user' as const,
          disabled: 0,
          created_at: at,
          updated_at: at,
        };
      });
      await t.runtime.database.db.insertInto('users').values(rows).execute();
      return rows.map((r) => r.username);
    }

    describe('access', () => {
      it('is for an admin session only: anonymous 401, a user 403 not_admin, an admin key 403 admin_session_required', async () => {
        const user = await registerUser(t);
        const adminKey = await createKey(t, admin);
        const requests: ['GET' | 'POST' | 'PATCH', string, unknown][] = [
          ['GET', '/v1/admin/users', undefined],
          ['POST', '/v1/admin/users', newAccount()],
          ['PATCH', `/v1/admin/users/${user.id}`, { role: 'admin' }],
        ];
        for (const [method, url, body] of requests) {
          expect401(await call(t, method, url, null, body));
          expectProblem(await call(t, method, url, user.session, body), 403, 'not_admin');
          expectProblem(await call(t, method, url, { key: adminKey.key }, body), 403, 'admin_session_required');
        }
        // The refused PATCH changed nothing.
        const me = json<{ user: UserBody }>(expectStatus(await call(t, 'GET', '/v1/me', user.session), 200));
        assert.equal(me.user.role, 'user');
      });
    });

    describe('GET /v1/admin/users', () => {
      it('answers the list envelope with defaults page 1 and page_size 20, bootstrap admin first', async () => {
        const body = await listUsers('');
        assert.equal(body.page, 1);
        assert.equal(body.page_size, 20);
        assert.ok(body.total >= 1);
        assert.ok(body.items.length <= 20);
        assert.equal(body.items[0]!.username, ADMIN.username, 'oldest accounts first');
        assert.equal(body.items[0]!.role, 'admin');
        assert.equal(body.items[0]!.email, ADMIN.email);
      });

      it('matches q against username or email, as a case-insensitive substring', async () => {
        const k = tag();
        const byName = await created({ ...newAccount(`${k}-alpha`), email: `first.${uniqueName('m')}@example.com` });
        const byMail = await created({ ...newAccount(), email: `Someone.${k.toUpperCase()}@Example.com` });
        await created(newAccount());

        let body = await listUsers(`?q=${k}`);
        assert.equal(body.total, 2);
        assert.deepEqual(
          body.items.map((u) => u.id),
          [byName.id, byMail.id],
        );

        body = await listUsers(`?q=${k.toUpperCase()}-ALPHA`);
        assert.deepEqual(
          body.items.map((u) => u.id),
          [byName.id],
        );

        body = await listUsers(`?q=someone.${k}@`);
        assert.deepEqual(
          body.items.map((u) => u.id),
          [byMail.id],
        );

        body = await listUsers(`?q=%20%20${k}%20`);
        assert.equal(body.total, 2, 'q is trimmed');

        body = await listUsers(`?q=${tag()}`);
        assert.deepEqual(body, { items: [], page: 1, page_size: 20, total: 0 });
      });

      it('takes LIKE wildcards in q literally', async () => {
        const k = tag();
        const underscore = await created(newAccount(`${k}a_b`));
        await created(newAccount(`${k}axb`));
        const percent = await created({ ...newAccount(), email: `p${k}%q@example.com` });
        await created({ ...newAccount(), email: `p${k}zzq@example.com` });
        const backslash = await created({ ...newAccount(), email: `b${k}\\q@example.com` });
        await created({ ...newAccount(), email: `b${k}q@example.com` });

        assert.deepEqual(
          (await listUsers(`?q=${encodeURIComponent(`${k}a_b`)}`)).items.map((u) => u.id),
          [underscore.id],
        );
        assert.deepEqual(
          (await listUsers(`?q=${encodeURIComponent(`${k}%q`)}`)).items.map((u) => u.id),
          [percent.id],
        );
        assert.deepEqual(
          (await listUsers(`?q=${encodeURIComponent(`${k}\\q`)}`)).items.map((u) => u.id),
          [backslash.id],
        );
        assert.equal((await listUsers(`?q=${encodeURIComponent(`${k}%`)}`)).total, 1);
        assert.equal((await listUsers(`?q=${encodeURIComponent('%%%')}`)).total, 0);
        assert.equal((await listUsers(`?q=${encodeURIComponent('___')}`)).total, 0);
      });

      it('filters by role', async () => {
        const k = tag();
        const plain = await created(newAccount(`${k}-user`));
        const boss = await created({ ...newAccount(`${k}-boss`), role: 'admin' });

        const admins = await listUsers('?role=admin&page_size=100');
        assert.ok(admins.items.every((u) => u.role === 'admin'));
        assert.ok(admins.items.some((u) => u.username === ADMIN.username));
        assert.ok(admins.items.some((u) => u.id === boss.id));
        assert.ok(!admins.items.some((u) => u.id === plain.id));

        assert.deepEqual(
          (await listUsers(`?q=${k}&role=user`)).items.map((u) => u.id),
          [plain.id],
        );
        assert.deepEqual(
          (await listUsers(`?q=${k}&role=admin`)).items.map((u) => u.id),
          [boss.id],
        );

        const body = expectProblem(await call(t, 'GET', '/v1/admin/users?role=root', admin), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['role']);
      });

      it('filters by disabled', async () => {
        const k = tag();
        const active = await created(newAccount(`${k}-on`));
        const off = await created(newAccount(`${k}-off`));
        expectStatus(await patchUser(off.id, { disabled: true }), 200);

        assert.deepEqual(
          (await listUsers(`?q=${k}&disabled=true`)).items.map((u) => u.id),
          [off.id],
        );
        assert.deepEqual(
          (await listUsers(`?q=${k}&disabled=false`)).items.map((u) => u.id),
          [active.id],
        );
        assert.deepEqual(
          (await listUsers(`?q=${k}`)).items.map((u) => u.id),
          [active.id, off.id],
        );
        const all = await listUsers('?disabled=true&page_size=100');
        assert.ok(all.items.length >= 1 && all.items.every((u) => u.disabled));

        const body = expectProblem(await call(t, 'GET', '/v1/admin/users?disabled=maybe', admin), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['disabled']);
      });

      it('pages through the results, oldest first, without repeats', async () => {
        const k = tag();
        const names = await insertUsers(k, 5);
        const seen: string[] = [];
        for (const [page, size] of [
          [1, 2],
          [2, 2],
          [3, 1],
        ] as const) {
          const body = await listUsers(`?q=${k}&page=${page}&page_size=2`);
          assert.equal(body.page, page);
          assert.equal(body.page_size, 2);
          assert.equal(body.total, 5);
          assert.equal(body.items.length, size);
          seen.push(...body.items.map((u) => u.username));
        }
        assert.deepEqual(seen, names);
        const beyond = await listUsers(`?q=${k}&page=4&page_size=2`);
        assert.deepEqual(beyond, { items: [], page: 4, page_size: 2, total: 5 });
      });

      it('clamps page_size to 100', async () => {
        const k = tag();
        await insertUsers(k, 105);
        const body = await listUsers(`?q=${k}&page_size=500`);
        assert.equal(body.page_size, 100);
        assert.equal(body.items.length, 100);
        assert.equal(body.total, 105);
        const second = await listUsers(`?q=${k}&page=2&page_size=1000`);
        assert.equal(second.page_size, 100);
        assert.equal(second.items.length, 5);
        const exact = await listUsers(`?q=${k}&page_size=100`);
        assert.equal(exact.page_size, 100);
        assert.equal(exact.items.length, 100);
      });

      it('refuses a page or page_size that is not a positive integer with 400', async () => {
        for (const query of [
          'page=0',
          'page=-1',
          'page=abc',
          'page=1.5',
          'page=',
          'page_size=0',
          'page_size=-5',
          'page_size=ten',
          'page_size=2.5',
        ]) {
          const res = await call(t, 'GET', `/v1/admin/users?${query}`, admin);
          const body = expectProblem(res, 400, 'validation_failed');
          assert.deepEqual(fieldsOf(body), [query.split('=')[0]!], `${query}: ${res.body}`);
        }
      });

      it('ignores unknown query parameters', async () => {
        const body = await listUsers('?sort=name&foo=bar');
        assert.equal(body.page, 1);
        assert.ok(body.total >= 1);
      });
    });

    describe('POST /v1/admin/users', () => {
      it('creates a user with role user by default, who can sign in', async () => {
        const account = newAccount();
        const res = expectStatus(await createUser(account), 201);
        const user = json<UserBody>(res);
        assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
        assert.equal(user.username, account.username);
        assert.equal(user.email, account.email);
        assert.equal(user.role, 'user');
        assert.equal(user.disabled, false);
        assert.ok(!/password|argon2/i.test(res.body));
        const session = await login(t, account.username, account.password);
        const me = json<{ user: UserBody }>(expectStatus(await call(t, 'GET', '/v1/me', session), 200));
        assert.equal(me.user.id, user.id);
        expectProblem(await call(t, 'GET', '/v1/admin/users', session), 403, 'not_admin');
      });

      it('creates an admin who can use the admin endpoints', async () => {
        const account = newAccount();
        const user = await created({ ...account, role: 'admin' });
        assert.equal(user.role, 'admin');
        const session = await login(t, account.username, account.password);
        const body = await listUsers(`?q=${account.username}`, session);
        assert.deepEqual(
          body.items.map((u) => u.id),
          [user.id],
        );
        assert.equal(json<UserBody>(expectStatus(await createUser({ ...newAccount(), role: 'user' }, session), 201)).role, 'user');
      });

      it('applies the account rules: 400 validation_failed per field', async () => {
        const cases: [Record<string, unknown>, string[]][] = [
          [{ ...newAccount(), username: 'Upper' }, ['username']],
          [{ ...newAccount(), username: 'x' }, ['username']],
          [{ ...newAccount(), username: `a${'b'.repeat(39)}` }, ['username']],
          [{ ...newAccount(), email: 'no-at-sign' }, ['email']],
          [{ ...newAccount(), password: '1234567' }, ['password']],
          [{ ...newAccount(), role: 'root' }, ['role']],
          [{ ...newAccount(), role: 'Admin' }, ['role']],
          [{ ...newAccount(), disabled: true }, ['disabled']],
          [{ username: uniqueName('adm') }, ['email', 'password']],
          [{ ...newAccount(), username: 'Bad Name', email: 'bad', password: 'short' }, ['email', 'password', 'username']],
        ];
        for (const [body, fields] of cases) {
          const problem = expectProblem(await createUser(body), 400, 'validation_failed');
          assert.deepEqual(fieldsOf(problem), fields, `${JSON.stringify(body)}: ${JSON.stringify(problem)}`);
        }
      });

      it('refuses a taken username or email (any case) with 409', async () => {
        const first = await created(newAccount());
        expectProblem(await createUser({ ...newAccount(), username: first.username }), 409, 'username_taken');
        expectProblem(await createUser({ ...newAccount(), username: ADMIN.username }), 409, 'username_taken');
        expectProblem(await createUser({ ...newAccount(), email: first.email.toUpperCase() }), 409, 'email_taken');
        const registered = await registerUser(t);
        expectProblem(await createUser({ ...newAccount(), email: registered.email }), 409, 'email_taken');
      });
    });

    describe('PATCH /v1/admin/users/:userId', () => {
      it('promotes a user, whose existing session can use admin endpoints at once, and demotes them again', async () => {
        const user = await registerUser(t);
        expectProblem(await call(t, 'GET', '/v1/admin/users', user.session), 403, 'not_admin');
        const before = await listUsers(`?q=${user.username}`);
        const res = expectStatus(await patchUser(user.id, { role: 'admin' }), 200);
        const body = json<UserBody>(res);
        assert.deepEqual(Object.keys(body).sort(), USER_FIELDS);
        assert.equal(body.id, user.id);
        assert.equal(body.role, 'admin');
        assert.equal(body.disabled, false);
        assert.ok(Date.parse(body.updated_at) >= Date.parse(before.items[0]!.updated_at));
        assert.equal(body.created_at, before.items[0]!.created_at);
        await listUsers('', user.session);
        const me = json<{ user: UserBody }>(expectStatus(await call(t, 'GET', '/v1/me', user.session), 200));
        assert.equal(me.user.role, 'admin');

        assert.equal(json<UserBody>(expectStatus(await patchUser(user.id, { role: 'user' }), 200)).role, 'user');
        expectProblem(await call(t, 'GET', '/v1/admin/users', user.session), 403, 'not_admin');
        expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
      });

      it('disables a user: sessions and keys get 401 at once, login 403; re-enabling restores login and keys', async () => {
        const user = await registerUser(t);
        const key = await createKey(t, user.session);
        const otherSession = await login(t, user.username, user.password);
        expectStatus(await call(t, 'GET', '/v1/me', user.session), 200);
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);

        const body = json<UserBody>(expectStatus(await patchUser(user.id, { disabled: true }), 200));
        assert.equal(body.disabled, true);
        assert.equal(body.role, 'user');
        expect401(await call(t, 'GET', '/v1/me', user.session));
        expect401(await call(t, 'GET', '/v1/me', otherSession));
        expect401(await call(t, 'GET', '/v1/me', { key: key.key }));
        expect401(await call(t, 'POST', '/v1/skills', { key: key.key }, { name: uniqueName('Blocked ') }));
        expectProblem(
          await call(t, 'POST', '/v1/auth/login', null, { login: user.username, password: user.password }),
          403,
          'account_disabled',
        );
        assert.equal((await listUsers(`?q=${user.username}`)).items[0]!.disabled, true);
        // Disabling twice is harmless.
        assert.equal(json<UserBody>(expectStatus(await patchUser(user.id, { disabled: true }), 200)).disabled, true);

        assert.equal(json<UserBody>(expectStatus(await patchUser(user.id, { disabled: false }), 200)).disabled, false);
        const fresh = await login(t, user.username, user.password);
        expectStatus(await call(t, 'GET', '/v1/me', fresh), 200);
        expectStatus(await call(t, 'GET', '/v1/me', { key: key.key }), 200);
        // Sessions were revoked by disabling; re-enabling does not bring them back.
        expect401(await call(t, 'GET', '/v1/me', user.session));
      });

      it('changes role and disabled together', async () => {
        const user = await registerUser(t);
        const body = json<UserBody>(expectStatus(await patchUser(user.id, { role: 'admin', disabled: true }), 200));
        assert.equal(body.role, 'admin');
        assert.equal(body.disabled, true);
        const listed = (await listUsers(`?q=${user.username}`)).items[0]!;
        assert.equal(listed.role, 'admin');
        assert.equal(listed.disabled, true);
        expectStatus(await patchUser(user.id, { role: 'user', disabled: false }), 200);
      });

      it('answers 404 user_not_found for an unknown user', async () => {
        const body = expectProblem(await patchUser('no-such-user', { role: 'admin' }), 404, 'user_not_found');
        assert.match(String(body.detail), /no-such-user/);
        expectProblem(await patchUser(randomUUID(), { disabled: true }), 404, 'user_not_found');
      });

      it('refuses an over-long user id with 400', async () => {
        const body = expectProblem(await patchUser('u'.repeat(101), { role: 'admin' }), 400, 'validation_failed');
        assert.deepEqual(fieldsOf(body), ['userId']);
      });

      it('refuses invalid bodies with 400 validation_failed', async () => {
        const user = await registerUser(t);
        const cases: [unknown, string[]][] = [
          [{ role: 'root' }, ['role']],
          [{ disabled: 'true' }, ['disabled']],
          [{ disabled: 1 }, ['disabled']],
          [{ disabled: null }, ['disabled']],
          [{ role: 'admin', username: 'renamed' }, ['username']],
          [{ password: 'new-password' }, ['password']],
        ];
        for (const [body, fields] of cases) {
          const problem = expectProblem(await patchUser(user.id, body), 400, 'validation_failed');
          assert.deepEqual(fieldsOf(problem), fields, `${JSON.stringify(body)}: ${JSON.stringify(problem)}`);
        }
        const empty = expectProblem(await patchUser(user.id, {}), 400, 'validation_failed');
        assert.ok(Array.isArray(empty.errors) && empty.errors.length > 0);
        const listed = (await listUsers(`?q=${user.username}`)).items[0]!;
        assert.equal(listed.role, 'user');
        assert.equal(listed.disabled, false);
      });

      it('refuses an admin demoting or disabling themselves with 409 cannot_modify_self', async () => {
        const account = newAccount();
        const self = await created({ ...account, role: 'admin' });
        const session = await login(t, account.username, account.password);
        for (const body of [{ role: 'user' }, { disabled: true }, { role: 'user', disabled: true }, { role: 'admin', disabled: true }]) {
          const problem = expectProblem(await patchUser(self.id, body, session), 409, 'cannot_modify_self');
          assert.match(String(problem.detail), /another administrator/);
        }
        // Changes that keep them an active admin are fine.
        assert.equal(json<UserBody>(expectStatus(await patchUser(self.id, { role: 'admin' }, session), 200)).role, 'admin');
        assert.equal(json<UserBody>(expectStatus(await patchUser(self.id, { disabled: false }, session), 200)).disabled, false);
        await listUsers('', session);
        // Another admin may demote them.
        assert.equal(json<UserBody>(expectStatus(await patchUser(self.id, { role: 'user' }), 200)).role, 'user');
        expectProblem(await call(t, 'GET', '/v1/admin/users', session), 403, 'not_admin');
      });

      it('lets one admin disable another, whose session stops at once', async () => {
        const account = newAccount();
        const other = await created({ ...account, role: 'admin' });
        const session = await login(t, account.username, account.password);
        expectStatus(await patchUser(other.id, { disabled: true }), 200);
        expect401(await call(t, 'GET', '/v1/admin/users', session));
        expectProblem(
          await call(t, 'POST', '/v1/auth/login', null, { login: account.username, password: account.password }),
          403,
          'account_disabled',
        );
      });
    });
  });

  describe(`admin users: the last active admin [${backend.name}]`, () => {
    let t: TestApp;
    let a: Session;
    let b: TestUser;
    let bSession: Session;
    let aId: string;

    async function activeAdmins(): Promise<string[]> {
      const rows = await t.runtime.database.db
        .selectFrom('users')
        .select('username')
        .where('role', '=', 'admin')
        .where('disabled', '=', 0)
        .execute();
      return rows.map((r) => r.username).sort();
    }

    /** Resets to exactly two active admins: the bootstrap admin A and B, each with a fresh session. */
    async function twoAdmins(): Promise<void> {
      await t.runtime.services.accounts.ensureAdmin(ADMIN);
      a = await adminSession(t);
      aId = json<{ user: UserBody }>(expectStatus(await call(t, 'GET', '/v1/me', a), 200)).user.id;
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${b.id}`, a, { role: 'admin', disabled: false }), 200);
      bSession = await login(t, b.username, b.password);
      assert.deepEqual(await activeAdmins(), [ADMIN.username, b.username].sort());
    }

    before(async () => {
      t = await startApp(backend);
      b = await registerUser(t);
    });
    after(() => t.close());

    it('has a single active admin at start, who cannot demote or disable themselves', async () => {
      const admin = await adminSession(t);
      const me = json<{ user: UserBody }>(expectStatus(await call(t, 'GET', '/v1/me', admin), 200));
      assert.deepEqual(await activeAdmins(), [ADMIN.username]);
      expectProblem(await call(t, 'PATCH', `/v1/admin/users/${me.user.id}`, admin, { role: 'user' }), 409, 'cannot_modify_self');
      expectProblem(await call(t, 'PATCH', `/v1/admin/users/${me.user.id}`, admin, { disabled: true }), 409, 'cannot_modify_self');
      assert.deepEqual(await activeAdmins(), [ADMIN.username]);
    });

    it('lets either of two admins demote or disable the other, leaving one', async () => {
      await twoAdmins();
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${b.id}`, a, { role: 'user' }), 200);
      assert.deepEqual(await activeAdmins(), [ADMIN.username]);

      await twoAdmins();
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${aId}`, bSession, { disabled: true }), 200);
      assert.deepEqual(await activeAdmins(), [b.username]);
      expect401(await call(t, 'GET', '/v1/admin/users', a));
      // B is now the last active admin and cannot step down either.
      expectProblem(await call(t, 'PATCH', `/v1/admin/users/${b.id}`, bSession, { role: 'user' }), 409, 'cannot_modify_self');
      // A disabled admin does not count: B may demote A without tripping the last-admin rule.
      expectStatus(await call(t, 'PATCH', `/v1/admin/users/${aId}`, bSession, { role: 'user' }), 200);
      assert.deepEqual(await activeAdmins(), [b.username]);
    });

    // Sequentially, 409 last_admin cannot be reached: the caller is itself an active admin, and cannot_modify_self
    // answers first when it targets itself, so any other active admin it targets makes at least two. The rule
    // matters when two admins act at once: each demoting or disabling the other must not leave no admin at all.
    // A race may or may not interleave in a given attempt, so each test makes several attempts.
    for (const change of [{ role: 'user' }, { disabled: true }] as const) {
      it(`keeps an active admin when two admins ${'role' in change ? 'demote' : 'disable'} each other at once`, async () => {
        const failures: string[] = [];
        for (let attempt = 1; attempt <= 8; attempt += 1) {
          await twoAdmins();
          const [ab, ba] = await Promise.all([
            call(t, 'PATCH', `/v1/admin/users/${b.id}`, a, change),
            call(t, 'PATCH', `/v1/admin/users/${aId}`, bSession, change),
          ]);
          const remaining = await activeAdmins();
          const outcome = `attempt ${attempt}: A→B ${brief(ab)}, B→A ${brief(ba)}, active admins [${remaining.join(', ')}]`;
          const statuses = [ab.statusCode, ba.statusCode].sort();
          const refused = ab.statusCode === 200 ? ba : ab;
          const refusedCode = refused.statusCode === 200 ? '' : String(json(refused).code);
          if (remaining.length !== 1 || statuses[0] !== 200 || !['unauthenticated', 'not_admin', 'last_admin'].includes(refusedCode)) {
            failures.push(outcome);
          }
        }
        assert.equal(failures.length, 0, `exactly one change must win and one active admin remain:\n${failures.join('\n')}`);
      });
    }
  });

  describe(`admin users: closed registration [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startApp(backend, { REGISTRATION: 'closed' });
    });
    after(() => t.close());

    it('refuses self-registration but lets an admin create users who can sign in', async () => {
      const account = newAccount();
      expectProblem(await call(t, 'POST', '/v1/auth/register', null, account), 403, 'registration_closed');
      const admin = await adminSession(t);
      const user = json<UserBody>(expectStatus(await call(t, 'POST', '/v1/admin/users', admin, account), 201));
      assert.equal(user.role, 'user');
      const session = await login(t, account.username, account.password);
      const me = json<{ user: UserBody }>(expectStatus(await call(t, 'GET', '/v1/me', session), 200));
      assert.equal(me.user.id, user.id);
      const other = newAccount();
      const boss = json<UserBody>(expectStatus(await call(t, 'POST', '/v1/admin/users', admin, { ...other, role: 'admin' }), 201));
      assert.equal(boss.role, 'admin');
      await login(t, other.username, other.password);
      expectProblem(await call(t, 'POST', '/v1/admin/users', admin, account), 409, 'username_taken');
    });
  });
}
