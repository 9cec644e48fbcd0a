import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Feedback } from '../../src/domain/feedback/feedback.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
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
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';

type FeedbackBody = Feedback;

interface FeedbackListBody {
  items: FeedbackBody[];
  page: number;
  page_size: number;
  total: number;
  summary: { count: number; average_rating: number | null };
}

for (const backend of apiBackends()) {
  describe(`feedback [${backend.name}]`, () => {
    let t: TestApp;
    let owner: TestUser;
    let reader: TestUser;
    let admin: { cookie: string };
    let skill: SkillBody;

    async function publishedSkill(): Promise<SkillBody> {
      const created = await createSkill(t, owner.session);
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
      await setStatus(t, admin, created.slug, 'published');
      return created;
    }

    before(async () => {
      t = await startApp(backend);
      owner = await registerUser(t);
      reader = await registerUser(t);
      admin = await adminSession(t);
      skill = await publishedSkill();
    });
    after(() => t.close());

    describe('POST /v1/feedback', () => {
      it('accepts anonymous feedback with no author', async () => {
        const res = await call(t, 'POST', '/v1/feedback', null, { skill_id: skill.slug, rating: 4, comment: '  Works well.  ' });
        const body = json<FeedbackBody>(expectStatus(res, 201));
        assert.match(body.id, /^[0-9a-f-]{36}$/);
        assert.equal(body.skill_id, skill.id);
        assert.equal(body.rating, 4);
        assert.equal(body.comment, 'Works well.');
        assert.equal(body.version, null);
        assert.equal(body.author, null);
        assert.ok(!Number.isNaN(Date.parse(body.created_at)));
      });

      it('records a signed-in caller (session or key) as the author', async () => {
        const bySession = json<FeedbackBody>(
          expectStatus(await call(t, 'POST', '/v1/feedback', reader.session, { skill_id: skill.id, rating: 5 }), 201),
        );
        assert.deepEqual(bySession.author, { id: reader.id, username: reader.username });
        const { key } = await createKey(t, reader.session, []);
        const byKey = json<FeedbackBody>(
          expectStatus(await call(t, 'POST', '/v1/feedback', { key }, { skill_id: skill.id, comment: 'via key' }), 201),
        );
        assert.deepEqual(byKey.author, { id: reader.id, username: reader.username });
        assert.equal(byKey.rating, null);
      });

      it('accepts a version that exists and refuses one that does not', async () => {
        const ok = json<FeedbackBody>(
          expectStatus(await call(t, 'POST', '/v1/feedback', null, { skill_id: skill.slug, rating: 3, version: '1.0.0' }), 201),
        );
        assert.equal(ok.version, '1.0.0');
        expectProblem(
          await call(t, 'POST', '/v1/feedback', null, { skill_id: skill.slug, rating: 3, version: '9.9.9' }),
          404,
          'version_not_found',
        );
      });

      const invalid: [string, Record<string, unknown>, string][] = [
        ['neither rating nor comment', {}, 'rating'],
        ['a blank comment and no rating', { comment: '   ' }, 'rating'],
        ['a rating of 0', { rating: 0 }, 'rating'],
        ['a rating of 6', { rating: 6 }, 'rating'],
        ['a fractional rating', { rating: 4.5 }, 'rating'],
        ['a rating as text', { rating: '5' }, 'rating'],
        ['a comment over 5,000 characters', { comment: 'x'.repeat(5001) }, 'comment'],
        ['an unknown field', { rating: 5, stars: 5 }, 'stars'],
      ];
      for (const [what, extra, field] of invalid) {
        it(`refuses ${what} with 400 validation_failed`, async () => {
          const problem = expectProblem(
            await call(t, 'POST', '/v1/feedback', null, { skill_id: skill.slug, ...extra }),
            400,
            'validation_failed',
          );
          assert.ok(
            (problem.errors as { field: string }[]).some((e) => e.field === field),
            JSON.stringify(problem.errors),
          );
        });
      }

      it('accepts a comment of exactly 5,000 characters (counted as characters)', async () => {
        expectStatus(await call(t, 'POST', '/v1/feedback', null, { skill_id: skill.slug, comment: 'é'.repeat(5000) }), 201);
      });

      it('refuses a missing skill_id with 400', async () => {
        expectProblem(await call(t, 'POST', '/v1/feedback', null, { rating: 5 }), 400, 'validation_failed');
      });

      it('accepts only published skills: drafts, deprecated and unknown skills are 404', async () => {
        const draft = await createSkill(t, owner.session);
        expectProblem(await call(t, 'POST', '/v1/feedback', owner.session, { skill_id: draft.slug, rating: 5 }), 404, 'skill_not_found');
        const deprecated = await publishedSkill();
        await setStatus(t, admin, deprecated.slug, 'deprecated');
        expectProblem(await call(t, 'POST', '/v1/feedback', admin, { skill_id: deprecated.slug, rating: 5 }), 404, 'skill_not_found');
        expectProblem(await call(t, 'POST', '/v1/feedback', null, { skill_id: 'no-such-skill', rating: 5 }), 404, 'skill_not_found');
      });
    });

    describe('GET /v1/skills/:skillId/feedback', () => {
      let target: SkillBody;
      before(async () => {
        target = await publishedSkill();
        const other = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'second') }]);
        const body = multipart({ version: '1.1.0' }, { content: other });
        expectStatus(
          await t.request({
            method: 'POST',
            url: `/v1/skills/${target.slug}/versions`,
            headers: { ...authHeaders(owner.session), ...body.headers },
            payload: body.payload,
          }),
          201,
        );
        const entries: Record<string, unknown>[] = [
          { rating: 5 },
          { rating: 4, version: '1.0.0' },
          { rating: 2, version: '1.1.0' },
          { comment: 'no rating' },
          { rating: 4, version: '1.1.0' },
        ];
        // The clock moves 2 ms between entries, so each has a later created_at.
        await withStoppedClock(async (advance) => {
          for (const entry of entries) {
            expectStatus(await call(t, 'POST', '/v1/feedback', reader.session, { skill_id: target.slug, ...entry }), 201);
            advance(2);
          }
        });
      });

      it('lists newest first with the summary, for the owner', async () => {
        const list = json<FeedbackListBody>(expectStatus(await call(t, 'GET', `/v1/skills/${target.slug}/feedback`, owner.session), 200));
        assert.equal(list.total, 5);
        assert.equal(list.page, 1);
        assert.equal(list.page_size, 20);
        assert.deepEqual(
          list.items.map((f) => f.rating),
          [4, null, 2, 4, 5],
        );
        assert.deepEqual(list.summary, { count: 5, average_rating: 3.75 });
        assert.equal(list.items[0]!.author?.username, reader.username);
      });

      it('filters by version and rating, with the summary of the filtered set', async () => {
        const byVersion = json<FeedbackListBody>(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?version=1.1.0`, owner.session));
        assert.equal(byVersion.total, 2);
        assert.deepEqual(byVersion.summary, { count: 2, average_rating: 3 });
        const byRating = json<FeedbackListBody>(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?rating=4`, owner.session));
        assert.equal(byRating.total, 2);
        assert.ok(byRating.items.every((f) => f.rating === 4));
        const none = json<FeedbackListBody>(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?rating=1`, owner.session));
        assert.deepEqual(none.summary, { count: 0, average_rating: null });
        assert.deepEqual(none.items, []);
      });

      it('pages', async () => {
        const first = json<FeedbackListBody>(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?page=1&page_size=2`, owner.session));
        const third = json<FeedbackListBody>(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?page=3&page_size=2`, owner.session));
        assert.equal(first.items.length, 2);
        assert.equal(third.items.length, 1);
        assert.equal(third.total, 5);
        expectProblem(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?page=0`, owner.session), 400, 'validation_failed');
        expectProblem(await call(t, 'GET', `/v1/skills/${target.slug}/feedback?rating=7`, owner.session), 400, 'validation_failed');
      });

      it('is open to the owner by session or key and to an admin session only', async () => {
        const { key } = await createKey(t, owner.session, []);
        expectStatus(await call(t, 'GET', `/v1/skills/${target.id}/feedback`, { key }), 200);
        expectStatus(await call(t, 'GET', `/v1/skills/${target.slug}/feedback`, admin), 200);
        expectProblem(await call(t, 'GET', `/v1/skills/${target.slug}/feedback`), 401, 'unauthenticated');
        expectProblem(await call(t, 'GET', `/v1/skills/${target.slug}/feedback`, reader.session), 403, 'not_owner');
        const adminKey = await createKey(t, admin, []);
        expectProblem(await call(t, 'GET', `/v1/skills/${target.slug}/feedback`, { key: adminKey.key }), 403, 'not_owner');
        const draft = await createSkill(t, owner.session);
        expectStatus(await call(t, 'GET', `/v1/skills/${draft.slug}/feedback`, owner.session), 200);
        expectProblem(await call(t, 'GET', `/v1/skills/${draft.slug}/feedback`, reader.session), 404, 'skill_not_found');
        expectProblem(await call(t, 'GET', '/v1/skills/no-such-skill/feedback', owner.session), 404, 'skill_not_found');
      });
    });
  });
}
