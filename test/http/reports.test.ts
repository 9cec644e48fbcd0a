import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Static } from 'typebox';
import type { Report, ReportFiled, ReportQueue, ReportsResolved } from '@skill-registry/api-schemas/reports';
import { createRuntime, type Runtime } from '../../src/server.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  type Auth,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';

type Filed = Static<typeof ReportFiled>;
type Queue = Static<typeof ReportQueue>;
interface Reports {
  items: Static<typeof Report>[];
  total: number;
}
type Resolved = Static<typeof ReportsResolved>;

/** A word no other skill holds, so a search for it finds exactly the skills named with it. */
const word = () => `r${randomBytes(8).toString('hex').replace(/\d/g, 'x')}`;

/** A published skill of `owner` with one version, named with a word of its own. */
async function publishedSkill(t: TestApp, owner: TestUser, admin: { cookie: string }): Promise<SkillBody & { word: string }> {
  const name = word();
  const created = await createSkill(t, owner.session, { name: `Reported ${name}`, slug: `${name}-skill` });
  const body = multipart({ version: '1.0.0' }, { content: await zip([{ path: 'SKILL.md', content: skillMd() }]) });
  expectStatus(
    await t.request({
      method: 'POST',
      url: `/v1/skills/${created.slug}/versions`,
      headers: { ...authHeaders(owner.session), ...body.headers },
      payload: body.payload,
    }),
    201,
  );
  return { ...(await setStatus(t, admin, created.slug, 'published')), word: name };
}

function report(t: TestApp, auth: Auth, skill: string, body: Record<string, unknown> = { reason: 'spam' }) {
  return call(t, 'POST', `/v1/skills/${skill}/reports`, auth, body);
}

async function queue(t: TestApp, admin: Auth, query = ''): Promise<Queue> {
  return json<Queue>(expectStatus(await call(t, 'GET', `/v1/admin/reports${query}`, admin), 200));
}

async function auditOf(t: TestApp, skillId: string) {
  return t.runtime.database.db
    .selectFrom('admin_audit')
    .select(['action', 'actor_id', 'from_value', 'to_value', 'reason'])
    .where('target_id', '=', skillId)
    .where('action', 'in', ['skill.reports', 'skill.hidden', 'skill.status'])
    .orderBy('created_at')
    .orderBy('action')
    .execute();
}

for (const backend of apiBackends()) {
  describe(`reports [${backend.name}]`, () => {
    let t: TestApp;
    let owner: TestUser;
    let alice: TestUser;
    let bob: TestUser;
    let carol: TestUser;
    let admin: { cookie: string };

    before(async () => {
      t = await startApp(backend);
      owner = await registerUser(t);
      alice = await registerUser(t);
      bob = await registerUser(t);
      carol = await registerUser(t);
      admin = await adminSession(t);
    });
    after(() => t.close());

    describe('POST /v1/skills/:skillId/reports', () => {
      it('files a report by session or by API key, with details trimmed', async () => {
        const skill = await publishedSkill(t, owner, admin);
        const filed = json<Filed>(
          expectStatus(await report(t, alice.session, skill.slug, { reason: 'malware', details: '  Runs curl | sh.  ' }), 201),
        );
        assert.equal(filed.skill_id, skill.id);
        assert.equal(filed.reason, 'malware');
        assert.equal(filed.details, 'Runs curl | sh.');
        assert.equal(filed.state, 'open');
        assert.ok(!Number.isNaN(Date.parse(filed.created_at)));

        const key = await createKey(t, bob.session, []);
        const byKey = json<Filed>(expectStatus(await report(t, { key: key.key }, skill.id, { reason: 'broken' }), 201));
        assert.equal(byKey.details, null);
        const listed = json<Reports>(expectStatus(await call(t, 'GET', `/v1/admin/skills/${skill.slug}/reports`, admin), 200));
        assert.deepEqual(
          listed.items.map((r) => [r.reporter.username, r.reason, r.details]).sort(),
          [
            [alice.username, 'malware', 'Runs curl | sh.'],
            [bob.username, 'broken', null],
          ].sort(),
        );
      });

      it('refuses a second open report of the same skill by the same user with 409 already_reported', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, skill.slug), 201);
        const second = expectProblem(await report(t, alice.session, skill.slug, { reason: 'security' }), 409, 'already_reported');
        assert.match(String(second.detail), /already have an open report/);
        // The same user through a key is the same reporter.
        const key = await createKey(t, alice.session, []);
        expectProblem(await report(t, { key: key.key }, skill.slug), 409, 'already_reported');
        // Two at once: exactly one is filed.
        const raced = await Promise.all([report(t, bob.session, skill.slug), report(t, bob.session, skill.slug)]);
        assert.deepEqual(raced.map((r) => r.statusCode).sort(), [201, 409]);
        const listed = json<Reports>(expectStatus(await call(t, 'GET', `/v1/admin/skills/${skill.slug}/reports`, admin), 200));
        assert.equal(listed.total, 2);
      });

      it('lets a user report again once their report was resolved', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, skill.slug), 201);
        expectStatus(await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'dismissed' }), 200);
        expectStatus(await report(t, alice.session, skill.slug, { reason: 'copyright', details: 'Copied from my project.' }), 201);
      });

      it("refuses the owner's own skill with 403 own_skill", async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectProblem(await report(t, owner.session, skill.slug), 403, 'own_skill');
        const key = await createKey(t, owner.session, ['skill:upload']);
        expectProblem(await report(t, { key: key.key }, skill.slug), 403, 'own_skill');
      });

      it('answers 404 for a skill the caller cannot see or that does not exist', async () => {
        const draft = await createSkill(t, owner.session);
        expectProblem(await report(t, alice.session, draft.slug), 404, 'skill_not_found');
        const deprecated = await publishedSkill(t, owner, admin);
        await setStatus(t, admin, deprecated.slug, 'deprecated');
        expectProblem(await report(t, alice.session, deprecated.slug), 404, 'skill_not_found');
        expectProblem(await report(t, alice.session, 'no-such-skill'), 404, 'skill_not_found');
      });

      it('validates the reason and the details', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectProblem(await report(t, alice.session, skill.slug, {}), 400, 'validation_failed');
        expectProblem(await report(t, alice.session, skill.slug, { reason: 'boring' }), 400, 'validation_failed');
        expectProblem(await report(t, alice.session, skill.slug, { reason: 'spam', extra: 1 }), 400, 'validation_failed');
        const noDetails = expectProblem(await report(t, alice.session, skill.slug, { reason: 'other' }), 400, 'validation_failed');
        assert.deepEqual(
          (noDetails.errors as { field: string }[]).map((e) => e.field),
          ['details'],
        );
        expectProblem(await report(t, alice.session, skill.slug, { reason: 'other', details: '   ' }), 400, 'validation_failed');
        const long = expectProblem(
          await report(t, alice.session, skill.slug, { reason: 'spam', details: 'é'.repeat(2001) }),
          400,
          'validation_failed',
        );
        assert.match(String(long.detail), /at most 2000 characters/);
        // Exactly at the limit, counted in characters, is accepted; nothing was filed before.
        expectStatus(await report(t, alice.session, skill.slug, { reason: 'other', details: '😀'.repeat(2000) }), 201);
      });

      it('needs a signed-in caller', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectProblem(await report(t, null, skill.slug), 401, 'unauthenticated');
      });
    });

    describe('GET /v1/admin/reports', () => {
      it('groups open reports by skill: distinct reporters, reasons, first and last report, status', async () => {
        const first = await publishedSkill(t, owner, admin);
        const second = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, first.slug, { reason: 'spam' }), 201);
        expectStatus(await report(t, bob.session, first.slug, { reason: 'spam' }), 201);
        expectStatus(await report(t, carol.session, first.slug, { reason: 'malware' }), 201);
        expectStatus(await report(t, alice.session, second.slug, { reason: 'broken' }), 201);

        const all = await queue(t, admin, '?page_size=100');
        const one = all.items.find((item) => item.skill.id === first.id)!;
        const two = all.items.find((item) => item.skill.id === second.id)!;
        assert.equal(one.reporters, 3);
        assert.equal(one.reports, 3);
        assert.deepEqual(one.reasons, [
          { reason: 'spam', count: 2 },
          { reason: 'malware', count: 1 },
        ]);
        assert.deepEqual(one.skill, {
          id: first.id,
          slug: first.slug,
          name: first.name,
          status: 'published',
          hidden: false,
          owner: { id: owner.id, username: owner.username },
        });
        assert.ok(one.first_reported_at <= one.last_reported_at);
        assert.equal(two.reporters, 1);
        // More reporters come first.
        assert.ok(all.items.indexOf(one) < all.items.indexOf(two));
        assert.equal(all.total, all.items.length);
      });

      it('pages, and filters by state', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, skill.slug, { reason: 'inappropriate' }), 201);
        const before = await queue(t, admin, '?state=resolved&page_size=100');
        assert.ok(!before.items.some((item) => item.skill.id === skill.id));

        const page = await queue(t, admin, '?page=1&page_size=1');
        assert.equal(page.items.length, 1);
        assert.equal(page.page_size, 1);
        assert.ok(page.total >= 2);
        const next = await queue(t, admin, '?page=2&page_size=1');
        assert.notEqual(next.items[0]!.skill.id, page.items[0]!.skill.id);

        expectStatus(await call(t, 'POST', `/v1/admin/skills/${skill.id}/reports/resolve`, admin, { resolution: 'dismissed' }), 200);
        assert.ok(!(await queue(t, admin, '?page_size=100')).items.some((item) => item.skill.id === skill.id));
        const resolved = (await queue(t, admin, '?state=resolved&page_size=100')).items.find((item) => item.skill.id === skill.id);
        assert.deepEqual(resolved?.reasons, [{ reason: 'inappropriate', count: 1 }]);
        expectProblem(await call(t, 'GET', '/v1/admin/reports?state=closed', admin), 400, 'validation_failed');
      });
    });

    describe('POST /v1/admin/skills/:skillId/reports/resolve', () => {
      it('dismisses every open report, records who and why, and audits it', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, skill.slug), 201);
        expectStatus(await report(t, bob.session, skill.slug, { reason: 'broken' }), 201);
        const res = await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, {
          resolution: 'dismissed',
          note: '  Works as described.  ',
        });
        assert.deepEqual(json<Resolved>(expectStatus(res, 200)), {
          skill_id: skill.id,
          resolution: 'dismissed',
          resolved: 2,
          status: 'published',
        });
        const resolved = json<Reports>(
          expectStatus(await call(t, 'GET', `/v1/admin/skills/${skill.slug}/reports?state=resolved`, admin), 200),
        );
        assert.equal(resolved.total, 2);
        for (const item of resolved.items) {
          assert.equal(item.state, 'resolved');
          assert.equal(item.resolution, 'dismissed');
          assert.equal(item.resolution_note, 'Works as described.');
          assert.equal(item.resolved_by?.username, 'admin');
          assert.ok(item.resolved_at !== null && !Number.isNaN(Date.parse(item.resolved_at)));
        }
        const open = json<Reports>(expectStatus(await call(t, 'GET', `/v1/admin/skills/${skill.slug}/reports`, admin), 200));
        assert.equal(open.total, 0);
        const audit = await auditOf(t, skill.id);
        assert.deepEqual(
          audit.filter((row) => row.action === 'skill.reports').map((row) => [row.from_value, row.to_value, row.reason]),
          [['open', 'dismissed', 'Works as described.']],
        );
        // Nothing was hidden with the threshold off, so nothing was shown again.
        assert.ok(!audit.some((row) => row.action === 'skill.hidden'));
        // Nothing left to resolve.
        expectProblem(
          await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'dismissed' }),
          409,
          'no_open_reports',
        );
      });

      it('applies a status transition with an actioned resolution, in one step', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, skill.slug, { reason: 'malware' }), 201);
        expectProblem(
          await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'dismissed', status: 'deprecated' }),
          400,
          'validation_failed',
        );
        expectProblem(
          await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'actioned', status: 'draft' }),
          409,
          'invalid_transition',
        );
        // Refusals resolved nothing.
        assert.equal(json<Reports>(expectStatus(await call(t, 'GET', `/v1/admin/skills/${skill.slug}/reports`, admin), 200)).total, 1);

        const res = await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, {
          resolution: 'actioned',
          status: 'deprecated',
          note: 'Confirmed.',
        });
        assert.equal(json<Resolved>(expectStatus(res, 200)).status, 'deprecated');
        const detail = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin), 200));
        assert.equal(detail.status, 'deprecated');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}`), 404, 'skill_not_found');
        const audit = await auditOf(t, skill.id);
        assert.deepEqual(
          audit
            .filter((row) => row.reason === 'Confirmed.')
            .map((row) => [row.action, row.from_value, row.to_value])
            .sort(),
          [
            ['skill.reports', 'open', 'actioned'],
            ['skill.status', 'published', 'deprecated'],
          ],
        );
      });

      it('resolves without a status change too, and answers 404 for an unknown skill', async () => {
        const skill = await publishedSkill(t, owner, admin);
        expectStatus(await report(t, alice.session, skill.slug), 201);
        const res = await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'actioned' });
        assert.equal(json<Resolved>(expectStatus(res, 200)).status, 'published');
        expectProblem(
          await call(t, 'POST', '/v1/admin/skills/no-such-skill/reports/resolve', admin, { resolution: 'actioned' }),
          404,
          'skill_not_found',
        );
        expectProblem(
          await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'ignored' }),
          400,
          'validation_failed',
        );
      });
    });

    it('with the threshold off (the default), no number of reports hides a skill', async () => {
      assert.equal(t.config.reportsHideThreshold, 0);
      const skill = await publishedSkill(t, owner, admin);
      for (const user of [alice, bob, carol]) expectStatus(await report(t, user.session, skill.slug), 201);
      const found = json<{ items: SkillBody[] }>(expectStatus(await call(t, 'GET', `/v1/skills?q=${skill.word}`), 200));
      assert.deepEqual(
        found.items.map((s) => s.slug),
        [skill.slug],
      );
      assert.equal(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`), 200)).hidden, false);
      expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/download`), 200);
      assert.equal((await queue(t, admin, '?page_size=100')).items.find((item) => item.skill.id === skill.id)?.skill.hidden, false);
    });
  });

  describe(`skills hidden by reports [${backend.name}]`, () => {
    let t: TestApp;
    /** A second node on the same database, told of nothing: it follows the change log when asked to. */
    let other: Runtime;
    let owner: TestUser;
    let alice: TestUser;
    let bob: TestUser;
    let admin: { cookie: string };

    before(async () => {
      t = await startApp(backend, { REPORTS_HIDE_THRESHOLD: '2' });
      other = await createRuntime({ ...t.config, searchSyncIntervalMs: 86_400_000 });
      owner = await registerUser(t);
      alice = await registerUser(t);
      bob = await registerUser(t);
      admin = await adminSession(t);
    });
    after(async () => {
      await other.close();
      await t.close();
    });

    async function slugs(node: TestApp | Runtime, url: string, auth: Auth = null): Promise<string[]> {
      const res = await node.app.inject({ method: 'GET', url, headers: authHeaders(auth) });
      return json<{ items: SkillBody[] }>(expectStatus(res, 200)).items.map((s) => s.slug);
    }

    /** What the public, another user, the owner and an administrator are shown of the skill. */
    async function expectShown(skill: SkillBody & { word: string }, shown: boolean): Promise<void> {
      const publicly = shown ? [skill.slug] : [];
      assert.deepEqual(await slugs(t, `/v1/skills?q=${skill.word}`), publicly, 'search');
      assert.deepEqual(await slugs(t, `/v1/skills?q=${skill.word}`, bob.session), publicly, "another user's search");
      assert.equal((await slugs(t, '/v1/skills?page_size=100&sort=latest')).includes(skill.slug), shown, 'list');
      for (const auth of [null, bob.session]) {
        const detail = await call(t, 'GET', `/v1/skills/${skill.slug}`, auth);
        const download = await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/download`, auth);
        const versions = await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, auth);
        if (shown) {
          assert.equal(json<SkillBody>(expectStatus(detail, 200)).hidden, false);
          assert.equal(expectStatus(download, 200).headers['cache-control'], 'public, max-age=300');
          expectStatus(versions, 200);
        } else {
          expectProblem(detail, 404, 'skill_not_found');
          expectProblem(download, 404, 'skill_not_found');
          expectProblem(versions, 404, 'skill_not_found');
        }
      }
      // The owner and administrators see it either way, marked when hidden.
      assert.deepEqual(await slugs(t, `/v1/me/skills?q=${skill.word}`, owner.session), [skill.slug], "owner's list");
      assert.deepEqual(await slugs(t, `/v1/skills?q=${skill.word}&status=published`, admin), [skill.slug], "admin's list");
      assert.deepEqual(await slugs(t, `/v1/skills?q=${skill.word}&status=all`, admin), [skill.slug], "admin's list of all");
      for (const auth of [owner.session, admin]) {
        assert.equal(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, auth), 200)).hidden, !shown);
        const download = expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/download`, auth), 200);
        assert.equal(download.headers['cache-control'], shown ? 'public, max-age=300' : 'private, no-store');
      }
    }

    it('hides a skill once enough distinct users report it, everywhere and on every node, until dismissed', async () => {
      assert.equal(t.config.reportsHideThreshold, 2);
      const skill = await publishedSkill(t, owner, admin);
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugs(other, `/v1/skills?q=${skill.word}`), [skill.slug]);

      expectStatus(await report(t, alice.session, skill.slug), 201);
      await expectShown(skill, true);
      // The second reporter hides it; their report is filed like any other.
      expectStatus(await report(t, bob.session, skill.slug, { reason: 'malware' }), 201);
      await expectShown(skill, false);
      expectProblem(await call(t, 'POST', '/v1/feedback', null, { skill_id: skill.slug, rating: 1 }), 404, 'skill_not_found');
      // A third user cannot report what they no longer see.
      const carol = await registerUser(t);
      expectProblem(await report(t, carol.session, skill.slug), 404, 'skill_not_found');

      // The other node learns it from the change log.
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugs(other, `/v1/skills?q=${skill.word}`), []);
      assert.equal((await other.app.inject({ method: 'GET', url: `/v1/skills/${skill.slug}` })).statusCode, 404);

      const queued = (await queue(t, admin, '?page_size=100')).items.find((item) => item.skill.id === skill.id);
      assert.ok(queued);
      assert.equal(queued.skill.hidden, true);
      assert.equal(queued.reporters, 2);
      const hiddenAudit = (await auditOf(t, skill.id)).filter((row) => row.action === 'skill.hidden');
      assert.deepEqual(
        hiddenAudit.map((row) => [row.actor_id, row.from_value, row.to_value]),
        [[null, 'false', 'true']],
      );

      expectStatus(await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, { resolution: 'dismissed' }), 200);
      await expectShown(skill, true);
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugs(other, `/v1/skills?q=${skill.word}`), [skill.slug]);
      assert.deepEqual(
        (await auditOf(t, skill.id)).filter((row) => row.action === 'skill.hidden').map((row) => [row.from_value, row.to_value]),
        [
          ['false', 'true'],
          ['true', 'false'],
        ],
      );

      // Reports after a resolution count afresh: one is not enough again.
      expectStatus(await report(t, alice.session, skill.slug), 201);
      await expectShown(skill, true);
    });

    it('hides a skill reported by enough users at the same moment, once', async () => {
      for (let round = 0; round < 3; round += 1) {
        const skill = await publishedSkill(t, owner, admin);
        const [one, two] = await Promise.all([report(t, alice.session, skill.slug), report(t, bob.session, skill.slug)]);
        expectStatus(one, 201);
        expectStatus(two, 201);
        assert.equal(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin), 200)).hidden, true);
        assert.equal((await auditOf(t, skill.id)).filter((row) => row.action === 'skill.hidden').length, 1);
      }
    });

    it('counts distinct reporters, not reports', async () => {
      const skill = await publishedSkill(t, owner, admin);
      const key = await createKey(t, alice.session, []);
      expectStatus(await report(t, alice.session, skill.slug), 201);
      expectProblem(await report(t, { key: key.key }, skill.slug), 409, 'already_reported');
      await expectShown(skill, true);
    });

    it('keeps an actioned skill from the public when the resolution deprecates it', async () => {
      const skill = await publishedSkill(t, owner, admin);
      expectStatus(await report(t, alice.session, skill.slug, { reason: 'malware' }), 201);
      expectStatus(await report(t, bob.session, skill.slug, { reason: 'malware' }), 201);
      await expectShown(skill, false);
      const res = await call(t, 'POST', `/v1/admin/skills/${skill.slug}/reports/resolve`, admin, {
        resolution: 'actioned',
        status: 'deprecated',
      });
      expectStatus(res, 200);
      const detail = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, admin), 200));
      assert.equal(detail.status, 'deprecated');
      assert.equal(detail.hidden, false);
      expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}`), 404, 'skill_not_found');
      assert.deepEqual(await slugs(t, `/v1/skills?q=${skill.word}`), []);
      // Republishing later is an ordinary moderation step: the skill is public again.
      await setStatus(t, admin, skill.slug, 'published');
      assert.deepEqual(await slugs(t, `/v1/skills?q=${skill.word}`), [skill.slug]);
    });
  });

  describe(`rate limit on reports [${backend.name}]`, () => {
    let t: TestApp;
    let owner: TestUser;
    let admin: { cookie: string };

    before(async () => {
      t = await startApp(backend, { RATE_LIMIT: 'on', RATE_LIMIT_REPORTS: '2' });
      owner = await registerUser(t);
      admin = await adminSession(t);
    });
    after(() => t.close());

    it('counts reports per user, refusals included, and answers 429 past the limit', async () => {
      const skills = [];
      for (let i = 0; i < 3; i += 1) skills.push(await publishedSkill(t, owner, admin));
      const alice = await registerUser(t);
      const bob = await registerUser(t);
      const first = expectStatus(await report(t, alice.session, skills[0]!.slug), 201);
      assert.equal(first.headers['ratelimit-limit'], '2');
      assert.equal(first.headers['ratelimit-remaining'], '1');
      expectProblem(await report(t, alice.session, skills[0]!.slug), 409, 'already_reported');
      const limited = expectProblem(await report(t, alice.session, skills[1]!.slug), 429, 'rate_limited');
      assert.match(String(limited.detail), /2 reports of skills per user per minute/);
      // Another user, from the same address, has a bucket of their own.
      expectStatus(await report(t, bob.session, skills[1]!.slug), 201);
      // Other writes by the limited user are not counted in this bucket.
      expectStatus(
        await call(t, 'PATCH', `/v1/skills/${(await createSkill(t, alice.session)).slug}`, alice.session, { description: 'x' }),
        200,
      );
    });
  });
}
