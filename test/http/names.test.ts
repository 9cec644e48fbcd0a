import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { ifSet } from '../helpers/hooks.js';
import {
  adminSession,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  uniqueName,
  type Auth,
  type TestUser,
} from '../helpers/client.js';

interface Allowance {
  name: string;
  reason: string;
  granted_by: string | null;
  created_at: string;
}

/** A slug of letters only, unlike any other test's (whose names carry digits). */
function letters(length = 10): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += 'bcdfghjkmnpqrstvwxz'[Math.floor(Math.random() * 19)]!;
  return out;
}

for (const backend of apiBackends()) {
  describe(`look-alike and reserved names (${backend.name})`, () => {
    let t: TestApp;
    let admin: { cookie: string };
    let alice: TestUser;
    let mallory: TestUser;

    before(async () => {
      t = await startApp(backend);
      admin = await adminSession(t);
      alice = await registerUser(t);
      mallory = await registerUser(t);
    });
    after(() => ifSet(t)?.close());

    /** A skill of alice's, published with `downloads` downloads. */
    async function popularSkill(slug: string, downloads = 1000): Promise<void> {
      const skill = await createSkill(t, alice.session, { slug });
      await setStatus(t, admin, skill.id, 'published');
      await t.runtime.database.db.updateTable('skills').set({ downloads }).where('id', '=', skill.id).execute();
    }

    const create = (auth: Auth, slug: string) => call(t, 'POST', '/v1/skills', auth, { name: `Skill ${slug}`, slug });

    describe('at skill creation', () => {
      it('refuses a look-alike of another owner’s slug, naming it', async () => {
        const base = `${letters()}-tools`;
        await createSkill(t, alice.session, { slug: base });
        for (const variant of [base.replace('-', ''), base.replace('o', '0'), base.replace('l', '1'), base.replace('-t', 't-')]) {
          const res = await create(mallory.session, variant);
          const body = expectProblem(res, 409, 'name_too_similar');
          assert.match(String(body.detail), new RegExp(`"${base}"`), variant);
        }
        const res = await create(mallory.session, base.replace('o', '0'));
        assert.match(String(expectProblem(res, 409, 'name_too_similar').detail), /look-alike/);
      });

      it('refuses a typo or an added word of a popular skill, not of a little-used one', async () => {
        const base = `${letters()}-writer`;
        await popularSkill(base);
        for (const variant of [`${base}-official`, `${base}-pro`, `${base}-v2`, `official-${base}`, base.slice(0, -1), `${base}-x7k2`]) {
          const body = expectProblem(await create(mallory.session, variant), 409, 'name_too_similar');
          assert.match(String(body.detail), new RegExp(`"${base}"`), variant);
        }
        const quiet = `${letters()}-reader`;
        await popularSkill(quiet, 99);
        expectStatus(await create(mallory.session, `${quiet}-pro`), 201);
      });

      it('lets the owner publish next to its own names', async () => {
        const base = `${letters()}-maker`;
        await popularSkill(base);
        expectStatus(await create(alice.session, `${base}-pro`), 201);
        expectStatus(await create(alice.session, base.replace('-', '')), 201);
      });

      it('refuses reserved words and their look-alikes, and keeps slug_taken for an identical slug', async () => {
        for (const word of ['admin', 'with-package', 'latest', 'healthz', 'adm1n', 'settings']) {
          const body = expectProblem(await create(mallory.session, word), 409, 'name_reserved');
          assert.match(String(body.detail), /reserved/);
        }
        const taken = `${letters()}-kept`;
        await createSkill(t, alice.session, { slug: taken });
        expectProblem(await create(mallory.session, taken), 409, 'slug_taken');
      });

      it('compares unscoped slugs only: a skill in a scope does not hold its slug against others', async () => {
        const base = `${letters()}-scoped`;
        await createSkill(t, alice.session, { slug: base, scope: alice.username });
        expectStatus(await create(mallory.session, base.replace('-', '')), 201);
      });

      it('stores nothing when it refuses', async () => {
        const base = `${letters()}-store`;
        await createSkill(t, alice.session, { slug: base });
        expectProblem(await create(mallory.session, base.replace('-', '')), 409, 'name_too_similar');
        expectStatus(await call(t, 'GET', `/v1/skills/${base.replace('-', '')}`, admin), 404);
      });
    });

    describe('at account creation', () => {
      const register = (username: string) =>
        call(t, 'POST', '/v1/auth/register', null, {
          username,
          email: `${uniqueName('mail')}@example.com`,
          password: `pw-${username}-long-secret`,
        });

      it('refuses a look-alike of another account’s username, naming it', async () => {
        const name = `${letters()}-smith`;
        await registerUser(t, name);
        for (const variant of [name.replace('-', '_'), name.replace('-', ''), name.replace('s', '5')]) {
          const body = expectProblem(await register(variant), 409, 'name_too_similar');
          assert.match(String(body.detail), new RegExp(`"${name}"`), variant);
        }
      });

      it('refuses reserved usernames at registration and admin creation', async () => {
        for (const word of ['adm1n', 'root', 'support', 'security', 'rn3']) expectProblem(await register(word), 409, 'name_reserved');
        const res = await call(t, 'POST', '/v1/admin/users', admin, {
          username: 'system',
          email: `${uniqueName('m')}@example.com`,
          password: 'a-long-secret-123',
        });
        expectProblem(res, 409, 'name_reserved');
        const look = await call(t, 'POST', '/v1/admin/users', admin, {
          username: alice.username.replace('user', 'usег'),
          email: 'x@example.com',
          password: 'a-long-secret-123',
        });
        expectProblem(look, 400, 'validation_failed');
      });

      it('refuses an account named like a popular publisher with a word added', async () => {
        const publisher = await registerUser(t, `${letters()}-labs`);
        const skill = await createSkill(t, publisher.session, { slug: `${letters()}-skill` });
        await setStatus(t, admin, skill.id, 'published');
        await t.runtime.database.db.updateTable('skills').set({ downloads: 500 }).where('id', '=', skill.id).execute();
        expectProblem(await register(`${publisher.username}-official`), 409, 'name_too_similar');
        expectStatus(await register(`${letters()}-other`), 201);
      });
    });

    describe('administrators’ allowances', () => {
      const grant = (auth: Auth, body: unknown) => call(t, 'POST', '/v1/admin/name-allowances', auth, body);

      it('answer each caller as its access says', async () => {
        const key = await createKey(t, admin);
        const name = `${letters()}-allowed`;
        const cases: [string, Auth, number, string | null][] = [
          ['anonymous', null, 401, 'unauthenticated'],
          ['a user', alice.session, 403, 'not_admin'],
          ["an administrator's API key", { key: key.key }, 403, 'admin_session_required'],
          ["an administrator's session", admin, 0, null],
        ];
        for (const [who, auth, status, code] of cases) {
          const responses = [
            await grant(auth, { name, reason: 'the holder asked' }),
            await call(t, 'GET', '/v1/admin/name-allowances', auth),
            await call(t, 'DELETE', `/v1/admin/name-allowances/${name}`, auth),
          ];
          if (code !== null) {
            for (const res of responses) expectProblem(res, status, code);
            continue;
          }
          assert.equal(responses[0]!.statusCode, 201, who);
          assert.equal(responses[1]!.statusCode, 200, who);
          assert.equal(responses[2]!.statusCode, 204, who);
        }
      });

      it('let a refused name be created once allowed, with the grant in the audit trail', async () => {
        const base = `${letters()}-guard`;
        await popularSkill(base);
        const wanted = `${base}-official`;
        expectProblem(await create(mallory.session, wanted), 409, 'name_too_similar');
        const res = expectStatus(await grant(admin, { name: wanted, reason: '  Their company owns the name.  ' }), 201);
        const allowance = json<Allowance>(res);
        assert.equal(allowance.name, wanted);
        assert.equal(allowance.reason, 'Their company owns the name.');
        assert.ok(allowance.granted_by);
        const listed = json<{ items: Allowance[]; total: number; page: number; page_size: number }>(
          expectStatus(await call(t, 'GET', '/v1/admin/name-allowances', admin), 200),
        );
        assert.ok(listed.items.some((item) => item.name === wanted));
        assert.ok(listed.total >= 1);
        const audit = await t.runtime.database.db.selectFrom('admin_audit').selectAll().where('target_id', '=', wanted).execute();
        assert.deepEqual(
          audit.map((row) => [row.action, row.target_type, row.reason]),
          [['name.allow', 'name', 'Their company owns the name.']],
        );
        expectStatus(await create(mallory.session, wanted), 201);
      });

      it('let a reserved name be created once allowed, and not after the allowance is withdrawn', async () => {
        expectProblem(await create(mallory.session, 'support'), 409, 'name_reserved');
        expectStatus(await grant(admin, { name: 'Support', reason: 'the help-desk skill' }), 201);
        expectStatus(await call(t, 'DELETE', '/v1/admin/name-allowances/support', admin), 204);
        expectProblem(await create(mallory.session, 'support'), 409, 'name_reserved');
        expectStatus(await grant(admin, { name: 'support', reason: 'the help-desk skill, again' }), 201);
        expectStatus(await create(mallory.session, 'support'), 201);
      });

      it('refuse a grant without a reason or with a bad name, and a withdrawal of nothing, changing nothing', async () => {
        const name = `${letters()}-noreason`;
        for (const body of [
          { name },
          { name, reason: '' },
          { name, reason: '   ' },
          { name, reason: 'x'.repeat(2001) },
          { name: 'Not A Name!', reason: 'why' },
          { reason: 'why' },
        ]) {
          expectProblem(await grant(admin, body), 400, 'validation_failed');
        }
        const listed = json<{ items: Allowance[] }>(
          expectStatus(await call(t, 'GET', '/v1/admin/name-allowances?page_size=100', admin), 200),
        );
        assert.ok(!listed.items.some((item) => item.name === name));
        expectProblem(await call(t, 'DELETE', `/v1/admin/name-allowances/${name}`, admin), 404, 'name_allowance_not_found');
      });
    });
  });
}
