import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { blobFiles, startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import { authHeaders, createKey, createSkill, expectProblem, registerUser } from '../helpers/client.js';

const FILE_HEAD = 'Content-Disposition: form-data; name="file"; filename="p.zip"\r\nContent-Type: application/zip\r\n\r\n';

for (const backend of apiBackends()) {
  describe(`multipart uploads [${backend.name}]`, () => {
    let t: TestApp;
    let key: { key: string };
    let slug: string;
    let archive: Buffer;
    before(async () => {
      t = await startApp(backend);
      const alice = await registerUser(t);
      key = await createKey(t, alice.session);
      slug = (await createSkill(t, key)).slug;
      archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
    });
    after(() => t.close());

    describe('malformed bodies', () => {
      const temporaries = () => blobFiles(t).filter((file) => file.includes(`${path.sep}tmp${path.sep}`));

      /** Every upload route, with what it needs besides the body. */
      const routes = () => [
        { url: '/v1/packages/validate', headers: {} },
        { url: `/v1/skills/${slug}/versions`, headers: authHeaders(key) },
        { url: '/v1/skills/with-package', headers: authHeaders(key) },
      ];

      it('refuses a body without its closing boundary with 400 invalid_multipart, leaving no temporary file', async () => {
        for (const route of routes()) {
          const payload = Buffer.concat([Buffer.from(`--b0und\r\n${FILE_HEAD}`), archive]);
          const res = await t.request({
            method: 'POST',
            url: route.url,
            headers: { ...route.headers, 'content-type': 'multipart/form-data; boundary=b0und' },
            payload,
          });
          const body = expectProblem(res, 400, 'invalid_multipart');
          assert.match(String(body.detail), /closing boundary/);
          assert.deepEqual(temporaries(), [], route.url);
        }
      });

      it('refuses a body cut inside a field, and one that is not multipart at all, with 400', async () => {
        const cut = '--b0und\r\nContent-Disposition: form-data; name="version"\r\n\r\n1.0';
        for (const payload of [cut, 'hello, this is not a form']) {
          const res = await t.request({
            method: 'POST',
            url: `/v1/skills/${slug}/versions`,
            headers: { ...authHeaders(key), 'content-type': 'multipart/form-data; boundary=b0und' },
            payload,
          });
          expectProblem(res, 400, 'invalid_multipart');
        }
      });

      it('refuses multipart/form-data without a boundary parameter with 400', async () => {
        for (const route of routes()) {
          for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; charset=utf-8']) {
            const res = await t.request({
              method: 'POST',
              url: route.url,
              headers: { ...route.headers, 'content-type': contentType },
              payload: '--x\r\n',
            });
            const body = expectProblem(res, 400, 'invalid_multipart');
            assert.match(String(body.detail), /boundary/);
          }
        }
      });

      it('refuses a boundary longer than 70 characters with 400, however long', async () => {
        for (const length of [71, 300]) {
          const boundary = 'b'.repeat(length);
          const payload = Buffer.concat([Buffer.from(`--${boundary}\r\n${FILE_HEAD}`), archive, Buffer.from(`\r\n--${boundary}--\r\n`)]);
          const res = await t.request({
            method: 'POST',
            url: '/v1/packages/validate',
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
            payload,
          });
          const body = expectProblem(res, 400, 'invalid_multipart');
          assert.match(String(body.detail), /at most 70/);
        }
        // 70 is allowed.
        const boundary = 'c'.repeat(70);
        const payload = Buffer.concat([Buffer.from(`--${boundary}\r\n${FILE_HEAD}`), archive, Buffer.from(`\r\n--${boundary}--\r\n`)]);
        const res = await t.request({
          method: 'POST',
          url: '/v1/packages/validate',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload,
        });
        assert.equal(res.statusCode, 200, res.body);
      });

      it('answers an empty body, a form with only its closing boundary, and malformed part headers with 400', async () => {
        for (const payload of [
          '',
          '--b0und--\r\n',
          '--b0und\r\nthis is no header\r\n\r\nPK\r\n--b0und--\r\n',
          '--b0und\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0und--\r\n',
        ]) {
          const res = await t.request({
            method: 'POST',
            url: '/v1/packages/validate',
            headers: { 'content-type': 'multipart/form-data; boundary=b0und' },
            payload,
          });
          assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        }
        assert.deepEqual(temporaries(), []);
      });

      it('refuses multipart/mixed with 415 naming multipart/form-data', async () => {
        const form = multipart({}, { content: archive });
        for (const route of routes()) {
          const res = await t.request({
            method: 'POST',
            url: route.url,
            headers: { ...route.headers, 'content-type': form.headers['content-type']!.replace('form-data', 'mixed') },
            payload: form.payload,
          });
          const body = expectProblem(res, 415, 'unsupported_media_type');
          assert.match(String(body.detail), /multipart\/form-data/);
        }
      });
    });

    describe('upload form fields', () => {
      const post = (url: string, fields: Record<string, string>, withFile = true) => {
        const form = multipart(fields, withFile ? { content: archive } : undefined);
        return t.request({ method: 'POST', url, headers: { ...authHeaders(key), ...form.headers }, payload: form.payload });
      };

      it('reports every bad with-package field at once, as a JSON body reports them', async () => {
        const before = blobFiles(t).length;
        const form = expectProblem(
          await post('/v1/skills/with-package', { slug: 'form-errors', tags: '["pdf", 1]', source_type: 'gitlab', version: '1.0.0' }),
          400,
          'validation_failed',
        );
        const errors = form.errors as { field: string; message: string }[];
        assert.deepEqual(errors.map((e) => e.field).sort(), ['name', 'source_type', 'tags[1]']);
        assert.deepEqual(
          errors.find((e) => e.field === 'name'),
          { field: 'name', message: 'is required' },
        );
        assert.deepEqual(
          errors.find((e) => e.field === 'source_type'),
          { field: 'source_type', message: 'must be one of original, github, external' },
        );
        assert.equal(form.detail, 'The body has 3 invalid fields; see errors.');
        assert.equal(blobFiles(t).length, before, 'the staged package is discarded');

        // The same mistakes in a JSON body: the same entries for the fields both forms share.
        const json = expectProblem(
          await t.request({
            method: 'POST',
            url: '/v1/skills',
            headers: { ...authHeaders(key), 'content-type': 'application/json' },
            payload: { slug: 'form-errors', tags: ['pdf', 1] },
          }),
          400,
          'validation_failed',
        );
        assert.deepEqual(
          json.errors,
          errors.filter((e) => e.field !== 'source_type'),
        );
      });

      it('names a tags text that is no JSON, and treats empty slug, source_type and blank tags as not sent', async () => {
        const bad = expectProblem(
          await post('/v1/skills/with-package', { name: 'Tags Text', tags: 'pdf,office', version: '1.0.0' }),
          400,
          'validation_failed',
        );
        assert.deepEqual(bad.errors, [{ field: 'tags', message: 'must be a JSON array of strings, e.g. ["pdf","office"]' }]);
        assert.equal(bad.detail, 'tags must be a JSON array of strings, e.g. ["pdf","office"].');
        const res = await post('/v1/skills/with-package', {
          name: 'Empty Parts',
          slug: '',
          source_type: '',
          source_url: '',
          tags: '  ',
          version: '1.0.0',
        });
        assert.equal(res.statusCode, 201, res.body);
        const created = JSON.parse(res.body) as { skill: { slug: string; source_type: string | null; tags: string[] } };
        assert.equal(created.skill.slug, 'empty-parts');
        assert.equal(created.skill.source_type, null);
        assert.deepEqual(created.skill.tags, []);
      });

      it('refuses a version upload without its version, and a field the form does not take, per field', async () => {
        const missing = expectProblem(await post(`/v1/skills/${slug}/versions`, { changelog: 'no version' }), 400, 'validation_failed');
        assert.deepEqual(missing.errors, [{ field: 'version', message: 'is required' }]);
        assert.equal(missing.detail, 'version is required.');
        const unknown = expectProblem(await post('/v1/packages/validate', { version: '1.0.0' }), 400, 'validation_failed');
        assert.deepEqual(unknown.errors, [{ field: 'version', message: 'is not a known field' }]);
      });
    });
  });
}
