import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NESTING_MAX } from '@skill-registry/rules/limits';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  authHeaders,
  call,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  uniqueName,
  type Auth,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * Documents nested past NESTING_MAX are refused before they are parsed or stored, wherever the registry takes one:
 * JSON bodies, an upload's `metadata` and `tags`, SKILL.md front matter. Nested thousands of levels deep they used to
 * overflow the stack when stored or sent (500); nested exactly NESTING_MAX levels they are taken as before.
 */

/** `{"a":{"a":…1…}}`: `levels` objects inside one another. */
const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** `[[…]]`: `levels` arrays inside one another. */
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** `{a: {a: …1…}}` in YAML's flow style: `levels` mappings inside one another. */
const flowMappings = (levels: number) => `${'{a: '.repeat(levels)}1${'}'.repeat(levels)}`;
/** SKILL.md whose front matter nests `levels` levels: its own mapping, then `metadata` in flow style. */
const deepSkillMd = (levels: number) => skillMd('deep-skill', 'Deeply nested front matter.', `metadata: ${flowMappings(levels - 1)}\n`);

function upload(t: TestApp, auth: Auth, skill: string, fields: Record<string, string>, archive: Buffer) {
  const body = multipart(fields, { content: archive });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

function rawJson(t: TestApp, method: 'POST' | 'PATCH', url: string, auth: Auth, text: string) {
  return t.request({ method, url, headers: { ...authHeaders(auth), 'content-type': 'application/json' }, payload: text });
}

function fieldsOf(body: Record<string, unknown>): string[] {
  return ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);
}

for (const backend of apiBackends()) {
  describe(`nesting depth [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let skill: SkillBody;
    let archive: Buffer;

    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
      skill = await createSkill(t, alice.session, { description: 'Before.' });
      archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
    });
    after(() => ifSet(t)?.close());

    async function versionsOf(): Promise<string[]> {
      const res = expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}/versions`, alice.session), 200);
      return json<{ items: { version: string }[] }>(res).items.map((v) => v.version);
    }

    it('refuses metadata nested 10,000 levels deep with 400 json_too_deep, and stores nothing', async () => {
      const before = await versionsOf();
      for (const metadata of [objects(10_000), arrays(10_000)]) {
        const res = await upload(t, alice.session, skill.id, { version: '1.0.0', metadata }, archive);
        const body = expectProblem(res, 400, 'json_too_deep');
        assert.deepEqual(fieldsOf(body), ['metadata']);
        assert.match(body.detail as string, new RegExp(`more than ${NESTING_MAX} levels deep; send a flatter document`));
      }
      assert.deepEqual(await versionsOf(), before);
    });

    it('refuses metadata one level past the limit, and stores and serves it at the limit', async () => {
      expectProblem(
        await upload(t, alice.session, skill.id, { version: '1.0.1', metadata: objects(NESTING_MAX + 1) }, archive),
        400,
        'json_too_deep',
      );
      expectStatus(await upload(t, alice.session, skill.id, { version: '1.0.1', metadata: objects(NESTING_MAX) }, archive), 201);
      const version = json<{ metadata: unknown }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}/versions/1.0.1`, alice.session), 200),
      );
      assert.deepEqual(version.metadata, JSON.parse(objects(NESTING_MAX)));
    });

    it('counts brackets inside strings as text, not as nesting', async () => {
      const metadata = JSON.stringify({ note: '['.repeat(1000), quoted: `"${'{'.repeat(1000)}\\` });
      expectStatus(await upload(t, alice.session, skill.id, { version: '1.0.2', metadata }, archive), 201);
    });

    it('refuses a JSON body nested past the limit with 400 json_too_deep before the route reads it, and changes nothing', async () => {
      for (const text of [`{"description":"After.","tags":${arrays(10_000)}}`, `{"description":"After.","tags":${arrays(NESTING_MAX)}}`]) {
        const body = expectProblem(await rawJson(t, 'PATCH', `/v1/skills/${skill.id}`, alice.session, text), 400, 'json_too_deep');
        assert.deepEqual(fieldsOf(body), ['body']);
        assert.match(body.detail as string, /^The JSON body nests objects and arrays more than 64 levels deep/);
      }
      // At the limit the body is parsed and reaches the route's schema, which wants strings in `tags`.
      const atLimit = await rawJson(
        t,
        'PATCH',
        `/v1/skills/${skill.id}`,
        alice.session,
        `{"description":"After.","tags":${arrays(NESTING_MAX - 1)}}`,
      );
      assert.deepEqual(fieldsOf(expectProblem(atLimit, 400, 'validation_failed')), ['tags[0]']);
      const now = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}`, alice.session), 200));
      assert.equal(now.description, 'Before.');
      // Anonymous feedback on a skill takes JSON too; the depth is checked before anything else reads the body.
      expectProblem(await rawJson(t, 'POST', '/v1/feedback', null, `{"comment":${arrays(NESTING_MAX + 1)}}`), 400, 'json_too_deep');
    });

    it('refuses a `tags` form field nested past the limit when a skill is created with its package, and creates nothing', async () => {
      const slug = uniqueName('deep-tags-');
      const fields = { name: 'Deep tags', slug, version: '1.0.0' };
      const body = multipart({ ...fields, tags: arrays(10_000) }, { content: archive });
      const res = await t.request({
        method: 'POST',
        url: '/v1/skills/with-package',
        headers: { ...authHeaders(alice.session), ...body.headers },
        payload: body.payload,
      });
      assert.deepEqual(fieldsOf(expectProblem(res, 400, 'json_too_deep')), ['tags']);
      expectProblem(await call(t, 'GET', `/v1/skills/${slug}`, alice.session), 404, 'skill_not_found');
    });

    it('refuses a package whose front matter nests past the limit as an invalid SKILL.md, and stores nothing', async () => {
      const before = await versionsOf();
      for (const levels of [10_000, NESTING_MAX + 1]) {
        const deep = await zip([{ path: 'SKILL.md', content: deepSkillMd(levels) }]);
        const body = expectProblem(await upload(t, alice.session, skill.id, { version: '2.0.0' }, deep), 422, 'invalid_skill_md');
        assert.equal(
          body.detail,
          `The front matter of SKILL.md nests mappings and lists more than ${NESTING_MAX} levels deep (aliases count as what they name); flatten it: SKILL.md needs a few levels at most.`,
        );
        assert.deepEqual(body.errors, [
          { field: 'skill_md', message: `front matter must nest at most ${NESTING_MAX} levels of mappings and lists`, entry: 'SKILL.md' },
        ]);
      }
      assert.deepEqual(await versionsOf(), before);
    });

    it('refuses front matter made deep by aliases, or by an alias naming its own list', async () => {
      const shallow = flowMappings(NESTING_MAX - 2);
      for (const extra of [`base: &base ${shallow}\nmetadata: [[[*base]]]\n`, 'metadata: &loop [*loop]\n']) {
        const deep = await zip([{ path: 'SKILL.md', content: skillMd('alias-skill', 'Aliases.', extra) }]);
        const body = expectProblem(await upload(t, alice.session, skill.id, { version: '2.0.0' }, deep), 422, 'invalid_skill_md');
        assert.match(body.detail as string, /more than 64 levels deep \(aliases count as what they name\)/);
      }
    });

    it('accepts front matter nested exactly to the limit', async () => {
      const atLimit = await zip([{ path: 'SKILL.md', content: deepSkillMd(NESTING_MAX) }]);
      const res = expectStatus(await upload(t, alice.session, skill.id, { version: '2.0.0' }, atLimit), 201);
      assert.equal(json<{ version: string }>(res).version, '2.0.0');
      const stored = json<{ skill_md: { metadata: unknown } }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}/versions/2.0.0`, alice.session), 200),
      );
      assert.deepEqual(stored.skill_md.metadata, JSON.parse(objects(NESTING_MAX - 1)));
    });
  });
}
