import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  giveVersion,
  json,
  registerUser,
  setStatus,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';

for (const backend of apiBackends()) {
  describe(`moderation [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let admin: { cookie: string };
    let adminId: string;
    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
      admin = await adminSession(t);
      adminId = json<{ user: { id: string } }>(await call(t, 'GET', '/v1/me', admin)).user.id;
    });
    after(() => t.close());

    const auditOf = (skillId: string) =>
      t.runtime.database.db
        .selectFrom('admin_audit')
        .selectAll()
        .where('target_id', '=', skillId)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute();

    describe('PATCH /v1/admin/skills/:skillId/status', () => {
      it('walks draft → published → deprecated → published, recording each change', async () => {
        const skill = await createSkill(t, alice.session);
        await giveVersion(t, alice.session, skill.slug);
        const published = json<SkillBody>(
          expectStatus(
            await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'published', reason: 'looks good' }),
            200,
          ),
        );
        assert.equal(published.status, 'published');
        assert.ok(published.published_at);
        assert.ok(published.updated_at >= skill.updated_at);
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`), 200);

        const deprecated = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${skill.id}/status`, admin, { status: 'deprecated' }), 200),
        );
        assert.equal(deprecated.status, 'deprecated');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}`), 404, 'skill_not_found');
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session), 200);
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin), 200);

        const republished = json<SkillBody>(
          expectStatus(
            await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'published', reason: 'fixed' }),
            200,
          ),
        );
        assert.equal(republished.status, 'published');
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`), 200);

        const audit = await auditOf(skill.id);
        assert.deepEqual(
          audit.map((a) => [a.action, a.from_value, a.to_value, a.reason, a.actor_id, a.target_type]),
          [
            ['skill.status', 'draft', 'published', 'looks good', adminId, 'skill'],
            ['skill.status', 'published', 'deprecated', null, adminId, 'skill'],
            ['skill.status', 'deprecated', 'published', 'fixed', adminId, 'skill'],
          ],
        );
        for (const row of audit) assert.ok(!Number.isNaN(new Date(row.created_at).getTime()));
      });

      const refused: [string, string[], string][] = [
        ['draft → deprecated', [], 'deprecated'],
        ['draft → draft', [], 'draft'],
        ['published → published', ['published'], 'published'],
        ['published → draft', ['published'], 'draft'],
        ['deprecated → deprecated', ['published', 'deprecated'], 'deprecated'],
        ['deprecated → draft', ['published', 'deprecated'], 'draft'],
      ];
      for (const [name, path, target] of refused) {
        it(`refuses ${name} with 409 invalid_transition and changes nothing`, async () => {
          const skill = await createSkill(t, alice.session);
          for (const step of path) await setStatus(t, admin, skill.slug, step);
          const before = await auditOf(skill.id);
          const problem = expectProblem(
            await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: target }),
            409,
            'invalid_transition',
          );
          const current = path.at(-1) ?? 'draft';
          const allowed = current === 'published' ? 'deprecated' : 'published';
          assert.match(String(problem.detail), new RegExp(`allowed from ${current}: ${allowed}`));
          const after = json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin));
          assert.equal(after.status, current);
          assert.equal((await auditOf(skill.id)).length, before.length);
        });
      }

      it('validates the body', async () => {
        const skill = await createSkill(t, alice.session);
        expectProblem(
          await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'archived' }),
          400,
          'validation_failed',
        );
        expectProblem(await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, {}), 400, 'validation_failed');
        expectProblem(
          await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'published', reason: 'r'.repeat(501) }),
          400,
          'validation_failed',
        );
        expectProblem(
          await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'published', extra: 1 }),
          400,
          'validation_failed',
        );
        assert.equal(json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin)).status, 'draft');
      });

      it('answers 404 for an unknown skill', async () => {
        expectProblem(
          await call(t, 'PATCH', '/v1/admin/skills/no-such-skill/status', admin, { status: 'published' }),
          404,
          'skill_not_found',
        );
      });

      it('applies exactly one of two concurrent identical transitions', async () => {
        const skill = await createSkill(t, alice.session);
        await giveVersion(t, alice.session, skill.slug);
        const results = await Promise.all([
          call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'published' }),
          call(t, 'PATCH', `/v1/admin/skills/${skill.slug}/status`, admin, { status: 'published' }),
        ]);
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409]);
        assert.equal((await auditOf(skill.id)).length, 1);
      });
    });

    describe('PATCH /v1/admin/skills/:skillId (featured)', () => {
      it('features and unfeatures, with an audit row per real change, without bumping updated_at', async () => {
        const skill = await createSkill(t, alice.session);
        const featured = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}`, admin, { featured: true, reason: 'staff pick' }), 200),
        );
        assert.equal(featured.featured, true);
        assert.equal(featured.updated_at, skill.updated_at);
        // Setting the same value again is not a change and leaves no audit row.
        expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}`, admin, { featured: true }), 200);
        const unfeatured = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${skill.id}`, admin, { featured: false }), 200),
        );
        assert.equal(unfeatured.featured, false);
        const audit = await auditOf(skill.id);
        assert.deepEqual(
          audit.map((a) => [a.action, a.from_value, a.to_value, a.reason]),
          [
            ['skill.featured', 'false', 'true', 'staff pick'],
            ['skill.featured', 'true', 'false', null],
          ],
        );
      });

      it('validates the body and the skill', async () => {
        const skill = await createSkill(t, alice.session);
        expectProblem(await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}`, admin, { featured: 'yes' }), 400, 'validation_failed');
        expectProblem(await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}`, admin, {}), 400, 'validation_failed');
        expectProblem(
          await call(t, 'PATCH', `/v1/admin/skills/${skill.slug}`, admin, { featured: true, status: 'published' }),
          400,
          'validation_failed',
        );
        expectProblem(await call(t, 'PATCH', '/v1/admin/skills/no-such-skill', admin, { featured: true }), 404, 'skill_not_found');
      });
    });

    describe('disabled operations', () => {
      for (const operation of ['publish', 'deprecate']) {
        it(`POST /v1/skills/:skillId/${operation} is 410 operation_disabled for every caller`, async () => {
          const skill = await createSkill(t, alice.session);
          const { key } = await createKey(t, alice.session);
          for (const auth of [null, alice.session, admin, { key }, { key: 'skreg_revokedorbogus' }]) {
            const problem = expectProblem(await call(t, 'POST', `/v1/skills/${skill.slug}/${operation}`, auth), 410, 'operation_disabled');
            assert.match(String(problem.detail), /PATCH \/v1\/admin\/skills\/:skillId\/status/);
          }
          expectProblem(await call(t, 'POST', `/v1/skills/no-such-skill/${operation}`), 410, 'operation_disabled');
          assert.equal(json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin)).status, 'draft');
        });
      }
    });
  });
}
