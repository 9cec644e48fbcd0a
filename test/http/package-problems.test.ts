/**
 * What a refused package's answer tells its uploader: every problem inspection found, entry by entry (validate, upload
 * and with-package alike), and for front matter that is not YAML, the corrected line and front matter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import { authHeaders, createSkill, expectProblem, expectStatus, json, registerUser, uniqueName, type TestUser } from '../helpers/client.js';
import { yazlZip } from '../packages/helpers.js';
import { buildZip } from '../packages/zip-builder.js';

interface FieldError {
  field: string;
  message: string;
  entry?: string;
  fix?: { line: number; original: string; corrected: string; front_matter: string; changes: unknown[] };
}

for (const backend of apiBackends()) {
  describe(`refused packages list every problem [${backend.name}]`, () => {
    let t: TestApp;
    let owner: TestUser;
    before(async () => {
      t = await startApp(backend);
      owner = await registerUser(t);
    });
    after(() => t.close());

    function post(url: string, fields: Record<string, string>, archive: Buffer, auth = true) {
      const body = multipart(fields, { content: archive });
      return t.request({
        method: 'POST',
        url,
        headers: { ...(auth ? authHeaders(owner.session) : {}), ...body.headers },
        payload: body.payload,
      });
    }

    const escaping = buildZip([
      { name: '../escape.txt', data: 'x' },
      { name: 'scripts/run.sh', data: 'echo hi\n' },
    ]);
    const expected = [
      ['file', '../escape.txt'],
      ['skill_md', undefined],
    ];

    it('an upload names the escaping path and the missing SKILL.md', async () => {
      const skill = await createSkill(t, owner.session);
      const problem = expectProblem(
        await post(`/v1/skills/${skill.slug}/versions`, { version: '1.0.0' }, escaping),
        422,
        'invalid_archive',
      );
      const errors = problem.errors as FieldError[];
      assert.deepEqual(
        errors.map((e) => [e.field, e.entry]),
        expected,
      );
      assert.match(String(problem.detail), /2 problems in all/);
    });

    it('with-package names them both too', async () => {
      const slug = uniqueName('all-');
      const problem = expectProblem(
        await post('/v1/skills/with-package', { name: slug, slug, version: '1.0.0' }, escaping),
        422,
        'invalid_archive',
      );
      assert.deepEqual(
        (problem.errors as FieldError[]).map((e) => [e.field, e.entry]),
        expected,
      );
    });

    it('validate lists them as the upload does', async () => {
      const report = json<{ valid: boolean; errors: FieldError[] }>(
        expectStatus(await post('/v1/packages/validate', {}, escaping, false), 200),
      );
      assert.equal(report.valid, false);
      assert.deepEqual(
        report.errors.map((e) => [e.field, e.entry]),
        expected,
      );
    });

    describe('front matter that is not YAML', () => {
      const broken = '---\nname: doc-tools\ndescription: Use when: updating documents\n---\n\n# Docs\n';
      const corrected = 'description: "Use when: updating documents"';

      it('an upload refusal names the line and carries the fix', async () => {
        const skill = await createSkill(t, owner.session);
        const archive = await yazlZip([{ name: 'SKILL.md', data: broken }]);
        const problem = expectProblem(
          await post(`/v1/skills/${skill.slug}/versions`, { version: '1.0.0' }, archive),
          422,
          'invalid_skill_md',
        );
        assert.match(String(problem.detail), /line 3/);
        assert.ok(String(problem.detail).includes(corrected), String(problem.detail));
        const error = (problem.errors as FieldError[])[0];
        assert.ok(error);
        assert.equal(error.entry, 'SKILL.md');
        assert.deepEqual(error.fix, {
          line: 3,
          original: 'description: Use when: updating documents',
          corrected,
          changes: [{ line: 3, original: 'description: Use when: updating documents', corrected }],
          front_matter: `name: doc-tools\n${corrected}\n`,
        });
      });

      it('validate carries the same fix, for a SKILL.md inside a folder', async () => {
        const archive = await yazlZip([{ name: 'doc-tools/SKILL.md', data: broken }]);
        const report = json<{ valid: boolean; errors: FieldError[] }>(
          expectStatus(await post('/v1/packages/validate', {}, archive, false), 200),
        );
        assert.equal(report.valid, false);
        const error = report.errors[0];
        assert.ok(error);
        assert.equal(error.entry, 'doc-tools/SKILL.md');
        assert.equal(error.fix?.corrected, corrected);
      });

      it('offers no fix for front matter it cannot repair safely', async () => {
        const archive = await yazlZip([{ name: 'SKILL.md', data: '---\nname: x\ndescription: ok\nname: y\n---\n' }]);
        const report = json<{ valid: boolean; errors: FieldError[] }>(
          expectStatus(await post('/v1/packages/validate', {}, archive, false), 200),
        );
        assert.equal(report.valid, false);
        assert.equal(report.errors[0]?.fix, undefined);
      });
    });
  });
}
