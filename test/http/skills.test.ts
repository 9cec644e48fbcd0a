import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { withStoppedClock } from '../helpers/clock.js';
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
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';

for (const backend of apiBackends()) {
  describe(`skills [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let admin: { cookie: string };
    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
      bob = await registerUser(t);
      admin = await adminSession(t);
    });
    after(() => t.close());

    describe('POST /v1/skills', () => {
      it('creates a draft owned by the caller, with every field normalised', async () => {
        const slug = uniqueName('pdf-');
        const res = await call(t, 'POST', '/v1/skills', alice.session, {
          name: '  PDF Tools  ',
          slug,
          description: ' Extract text and tables from PDF files. ',
          category: 'documents',
          tags: ['PDF', ' office ', 'pdf'],
          source_type: 'github',
          source_url: 'https://github.com/acme/pdf-tools',
        });
        expectStatus(res, 201);
        assert.equal(res.headers.location, `/v1/skills/${slug}`);
        const skill = json<SkillBody>(res);
        assert.match(skill.id, /^[0-9a-f-]{36}$/);
        assert.equal(skill.slug, slug);
        assert.equal(skill.name, 'PDF Tools');
        assert.equal(skill.description, 'Extract text and tables from PDF files.');
        assert.equal(skill.category, 'documents');
        assert.deepEqual(skill.tags, ['pdf', 'office']);
        assert.equal(skill.status, 'draft');
        assert.equal(skill.featured, false);
        assert.equal(skill.source_type, 'github');
        assert.equal(skill.source_url, 'https://github.com/acme/pdf-tools');
        assert.deepEqual(skill.owner, { kind: 'user', id: alice.id, handle: alice.username, username: alice.username });
        assert.deepEqual([skill.scope, skill.full_name, skill.private], [null, skill.slug, false]);
        assert.equal(skill.latest_version, null);
        assert.equal(skill.downloads, 0);
        assert.equal(skill.published_at, null);
        assert.equal(skill.created_at, skill.updated_at);
        assert.ok(!Number.isNaN(Date.parse(skill.created_at)));
      });

      it('accepts a minimal body and derives the slug from the name', async () => {
        const skill = json<SkillBody>(
          expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Minimal Ünïque Skill 42' }), 201),
        );
        assert.equal(skill.slug, 'minimal-unique-skill-42');
        assert.equal(skill.description, '');
        assert.equal(skill.category, null);
        assert.deepEqual(skill.tags, []);
        assert.equal(skill.source_type, null);
        assert.equal(skill.source_url, null);
      });

      it('works with an API key holding skill:upload', async () => {
        const { key } = await createKey(t, alice.session, ['skill:upload']);
        const skill = json<SkillBody>(expectStatus(await call(t, 'POST', '/v1/skills', { key }, { name: uniqueName('Keyed ') }), 201));
        assert.equal(skill.owner.id, alice.id);
      });

      it('refuses a taken slug with 409 slug_taken', async () => {
        const first = await createSkill(t, alice.session);
        expectProblem(await call(t, 'POST', '/v1/skills', bob.session, { name: 'Other', slug: first.slug }), 409, 'slug_taken');
      });

      it('refuses a name whose derived slug is taken', async () => {
        await call(t, 'POST', '/v1/skills', alice.session, { name: 'Same Name Twice' });
        expectProblem(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Same Name Twice' }), 409, 'slug_taken');
      });

      const invalid: [string, Record<string, unknown>, number, string, string][] = [
        ['a missing name', { slug: 'no-name' }, 400, 'validation_failed', 'name'],
        ['a blank name', { name: '   ', slug: 'blank-name' }, 400, 'validation_failed', 'name'],
        ['a name over 100 characters', { name: 'n'.repeat(101), slug: 'long-name' }, 400, 'validation_failed', 'name'],
        ['a non-string name', { name: 42, slug: 'num-name' }, 400, 'validation_failed', 'name'],
        ['an upper-case slug', { name: 'X', slug: 'Bad-Slug' }, 400, 'invalid_slug', 'slug'],
        ['a slug with underscores', { name: 'X', slug: 'bad_slug' }, 400, 'invalid_slug', 'slug'],
        ['a slug over 64 characters', { name: 'X', slug: 'a'.repeat(65) }, 400, 'validation_failed', 'slug'],
        ['a slug shaped like an id', { name: 'X', slug: '0193a1b2-0000-7000-8000-000000000000' }, 400, 'invalid_slug', 'slug'],
        ['a name with nothing to derive a slug from', { name: '!!!' }, 400, 'invalid_slug', 'slug'],
        [
          'a description over 1024 characters',
          { name: 'X', slug: 'long-desc', description: 'd'.repeat(1025) },
          400,
          'validation_failed',
          'description',
        ],
        ['a category over 64 characters', { name: 'X', slug: 'long-cat', category: 'c'.repeat(65) }, 400, 'validation_failed', 'category'],
        ['an invalid tag', { name: 'X', slug: 'bad-tag', tags: ['ok', 'not ok'] }, 400, 'validation_failed', 'tags[1]'],
        [
          '21 tags',
          { name: 'X', slug: 'many-tags', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
          400,
          'validation_failed',
          'tags',
        ],
        ['tags as a string', { name: 'X', slug: 'str-tags', tags: 'a,b' }, 400, 'validation_failed', 'tags'],
        ['an unknown source_type', { name: 'X', slug: 'bad-src', source_type: 'gitlab' }, 400, 'validation_failed', 'source_type'],
        [
          'a github source on another host',
          { name: 'X', slug: 'src-host', source_type: 'github', source_url: 'https://gitlab.com/a/b' },
          400,
          'invalid_source',
          'source_url',
        ],
        [
          'an external source that is not http(s)',
          { name: 'X', slug: 'src-ftp', source_type: 'external', source_url: 'ftp://x.example/y' },
          400,
          'invalid_source',
          'source_url',
        ],
        [
          'an original source with a URL',
          { name: 'X', slug: 'src-orig', source_type: 'original', source_url: 'https://x.example' },
          400,
          'invalid_source',
          'source_url',
        ],
        [
          'a URL without a source_type',
          { name: 'X', slug: 'src-none', source_url: 'https://github.com/a/b' },
          400,
          'invalid_source',
          'source_url',
        ],
        ['an unknown field', { name: 'X', slug: 'unknown-field', featured: true }, 400, 'validation_failed', 'featured'],
        ['a status in the body', { name: 'X', slug: 'status-field', status: 'published' }, 400, 'validation_failed', 'status'],
      ];
      for (const [what, body, status, code, field] of invalid) {
        it(`refuses ${what} with ${status} ${code}`, async () => {
          const problem = expectProblem(await call(t, 'POST', '/v1/skills', alice.session, body), status, code);
          const fields = (problem.errors as { field: string }[] | undefined)?.map((e) => e.field) ?? [];
          assert.ok(fields.includes(field), `errors should name ${field}: ${JSON.stringify(problem.errors)}`);
        });
      }

      it('stores nothing when a request is refused', async () => {
        await call(t, 'POST', '/v1/skills', alice.session, {
          name: 'Refused',
          slug: 'refused-skill',
          source_type: 'github',
          source_url: 'http://github.com/a/b',
        });
        expectProblem(await call(t, 'GET', '/v1/skills/refused-skill', alice.session), 404, 'skill_not_found');
      });
    });

    describe('GET /v1/skills/:skillId', () => {
      it('finds a published skill by slug and by id, for anyone', async () => {
        const skill = await createSkill(t, alice.session, { description: 'visible' });
        await setStatus(t, admin, skill.slug, 'published');
        for (const ref of [skill.slug, skill.id, skill.id.toUpperCase()]) {
          const got = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${ref}`), 200));
          assert.equal(got.id, skill.id);
          assert.equal(got.status, 'published');
        }
      });

      it('shows a draft to its owner and an admin session only', async () => {
        const skill = await createSkill(t, alice.session);
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session), 200);
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}`, admin), 200);
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}`), 404, 'skill_not_found');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}`, bob.session), 404, 'skill_not_found');
      });

      it('answers 404 for an unknown slug or id', async () => {
        expectProblem(await call(t, 'GET', '/v1/skills/no-such-skill'), 404, 'skill_not_found');
        expectProblem(await call(t, 'GET', '/v1/skills/0193a1b2-0000-7000-8000-000000000000'), 404, 'skill_not_found');
      });
    });

    describe('ETags on public reads', () => {
      it('answers 304 to a matching If-None-Match on the list and the detail, and a new ETag after a change', async () => {
        const skill = await createSkill(t, alice.session, { description: 'etag check' });
        await setStatus(t, admin, skill.slug, 'published');
        for (const url of ['/v1/skills?q=etag%20check', `/v1/skills/${skill.slug}`]) {
          const first = expectStatus(await call(t, 'GET', url), 200);
          const etag = String(first.headers.etag);
          assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
          const again = expectStatus(await call(t, 'GET', url, null, undefined, { 'if-none-match': etag }), 304);
          assert.equal(again.body, '');
          assert.equal(again.headers.etag, etag);
          expectStatus(await call(t, 'GET', url, null, undefined, { 'if-none-match': '"something-else"' }), 200);
          // A change on this node is visible at once, with a new ETag.
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { description: `etag check ${url.length}` }), 200);
          const changed = expectStatus(await call(t, 'GET', url, null, undefined, { 'if-none-match': etag }), 200);
          assert.notEqual(changed.headers.etag, etag);
        }
      });
    });

    describe('PATCH /v1/skills/:skillId', () => {
      let skill: SkillBody;
      before(async () => {
        skill = await createSkill(t, alice.session, {
          description: 'before',
          category: 'old',
          tags: ['one'],
          source_type: 'external',
          source_url: 'https://example.com/a',
        });
      });

      it('updates the given fields only, and bumps updated_at', async () => {
        // Five milliseconds after the skill was made, without waiting for them.
        const res = await withStoppedClock(
          () => call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Renamed', tags: ['Two', 'three'] }),
          Date.now() + 5,
        );
        const updated = json<SkillBody>(expectStatus(res, 200));
        assert.equal(updated.name, 'Renamed');
        assert.deepEqual(updated.tags, ['two', 'three']);
        assert.equal(updated.description, 'before');
        assert.equal(updated.category, 'old');
        assert.equal(updated.slug, skill.slug);
        assert.ok(updated.updated_at > skill.updated_at, 'updated_at moves forward');
        assert.equal(updated.created_at, skill.created_at);
      });

      it('clears description and category with null', async () => {
        const updated = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.id}`, alice.session, { description: null, category: null }), 200),
        );
        assert.equal(updated.description, '');
        assert.equal(updated.category, null);
      });

      it('checks a one-sided source change against the stored other side', async () => {
        expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { source_url: 'https://example.com/b' }), 200);
        expectProblem(
          await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { source_type: 'original' }),
          400,
          'invalid_source',
        );
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { source_type: 'github' }), 400, 'invalid_source');
        const got = json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session));
        assert.equal(got.source_type, 'external', 'a refused change leaves the stored source alone');
        assert.equal(got.source_url, 'https://example.com/b');
      });

      it('switches the source type and URL together', async () => {
        const updated = json<SkillBody>(
          expectStatus(
            await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, {
              source_type: 'github',
              source_url: 'https://github.com/acme/x/tree/main',
            }),
            200,
          ),
        );
        assert.equal(updated.source_type, 'github');
        assert.equal(updated.source_url, 'https://github.com/acme/x/tree/main');
      });

      it('clears the declared source when both fields are null', async () => {
        const updated = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { source_type: null, source_url: null }), 200),
        );
        assert.equal(updated.source_type, null);
        assert.equal(updated.source_url, null);
      });

      it('accepts the current slug but refuses a different one', async () => {
        expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { slug: skill.slug }), 200);
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { slug: 'another-slug' }), 400, 'slug_immutable');
      });

      it('refuses featured and status, which belong to the admin endpoints', async () => {
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { featured: true }), 400, 'validation_failed');
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { status: 'published' }), 400, 'validation_failed');
      });

      it('validates each field as create does', async () => {
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: '' }), 400, 'validation_failed');
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { tags: ['BAD TAG'] }), 400, 'validation_failed');
        expectProblem(
          await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { description: 'x'.repeat(1025) }),
          400,
          'validation_failed',
        );
      });

      it('lets an admin session edit any skill', async () => {
        const updated = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, admin, { category: 'moderated' }), 200),
        );
        assert.equal(updated.category, 'moderated');
        assert.equal(updated.owner.id, alice.id, 'ownership does not move');
      });

      it('hides a draft from other users (404) and refuses them a published skill (403)', async () => {
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, bob.session, { name: 'Hijack' }), 404, 'skill_not_found');
        const published = await createSkill(t, alice.session);
        await setStatus(t, admin, published.slug, 'published');
        expectProblem(await call(t, 'PATCH', `/v1/skills/${published.slug}`, bob.session, { name: 'Hijack' }), 403, 'not_owner');
      });

      it('answers 404 for an unknown skill', async () => {
        expectProblem(await call(t, 'PATCH', '/v1/skills/no-such-skill', alice.session, { name: 'x' }), 404, 'skill_not_found');
      });
    });

    describe('DELETE /v1/skills/:skillId', () => {
      it('deletes a draft', async () => {
        const skill = await createSkill(t, alice.session, { tags: ['gone'] });
        const res = expectStatus(await call(t, 'DELETE', `/v1/skills/${skill.slug}`, alice.session), 204);
        assert.equal(res.body, '');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session), 404, 'skill_not_found');
        const tags = await t.runtime.database.db.selectFrom('skill_tags').selectAll().where('skill_id', '=', skill.id).execute();
        assert.equal(tags.length, 0);
        // The slug is free again.
        expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Again', slug: skill.slug }), 201);
      });

      it("lets an admin session delete anyone's draft", async () => {
        const skill = await createSkill(t, bob.session);
        expectStatus(await call(t, 'DELETE', `/v1/skills/${skill.id}`, admin), 204);
      });

      it('refuses published and deprecated skills with 409 not_draft', async () => {
        const skill = await createSkill(t, alice.session);
        await setStatus(t, admin, skill.slug, 'published');
        expectProblem(await call(t, 'DELETE', `/v1/skills/${skill.slug}`, alice.session), 409, 'not_draft');
        await setStatus(t, admin, skill.slug, 'deprecated');
        expectProblem(await call(t, 'DELETE', `/v1/skills/${skill.slug}`, alice.session), 409, 'not_draft');
        expectProblem(await call(t, 'DELETE', `/v1/skills/${skill.slug}`, admin), 409, 'not_draft');
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session), 200);
      });

      it('answers 404 for an unknown or hidden skill', async () => {
        expectProblem(await call(t, 'DELETE', '/v1/skills/no-such-skill', alice.session), 404, 'skill_not_found');
        const skill = await createSkill(t, alice.session);
        expectProblem(await call(t, 'DELETE', `/v1/skills/${skill.slug}`, bob.session), 404, 'skill_not_found');
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session), 200);
      });
    });
  });
}
