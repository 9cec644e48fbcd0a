import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { downloadCounter } from '../../src/domain/versions/download-counter.js';
import { blobFiles, startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, tarGz, zip } from '../helpers/archives.js';
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
import { eventually } from '../helpers/process.js';

interface VersionBody {
  version: string;
  changelog: string | null;
  metadata: Record<string, unknown> | null;
  size: number;
  sha256: string;
  archive_format: string;
  file_count: number;
  downloads: number;
  skill_md: Record<string, unknown> | null;
  warnings: { code: string; message: string }[];
  created_at: string;
}

function sha256(buffer: Buffer): string {
  return createHash('sha256').update(buffer).digest('hex');
}

function upload(
  t: TestApp,
  auth: Auth,
  skill: string,
  version: string,
  archive: Buffer,
  extra: Record<string, string> = {},
  fileFirst = false,
) {
  const body = multipart({ version, ...extra }, { content: archive }, fileFirst);
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

for (const backend of apiBackends()) {
  describe(`versions and packages [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let admin: { cookie: string };
    let pkg: Buffer;
    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
      bob = await registerUser(t);
      admin = await adminSession(t);
      pkg = await zip(
        [
          { path: 'SKILL.md', content: skillMd() },
          { path: 'scripts/extract.py', content: 'print("hello")\n' },
          { path: 'README.txt', content: 'read me' },
        ],
        ['scripts/'],
      );
    });
    after(() => t.close());

    async function publishedSkillWithVersion(version = '1.0.0', archive = pkg): Promise<SkillBody> {
      const skill = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, skill.slug, version, archive), 201);
      await setStatus(t, admin, skill.slug, 'published');
      return skill;
    }

    describe('upload', () => {
      it('stores a zip version with its record, file index and SKILL.md, and updates the skill', async () => {
        const skill = await createSkill(t, alice.session);
        const res = await upload(t, alice.session, skill.slug, '1.0.0', pkg, { changelog: 'First release', metadata: '{"min_agent":"2"}' });
        const version = json<VersionBody>(expectStatus(res, 201));
        assert.equal(version.version, '1.0.0');
        assert.equal(version.changelog, 'First release');
        assert.deepEqual(version.metadata, { min_agent: '2' });
        assert.equal(version.size, pkg.length);
        assert.equal(version.sha256, sha256(pkg));
        assert.equal(version.archive_format, 'zip');
        assert.equal(version.file_count, 3);
        assert.equal(version.downloads, 0);
        assert.equal(version.skill_md?.name, 'pdf-tools');
        assert.deepEqual(version.warnings, []);
        const after = json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session));
        assert.equal(after.latest_version, '1.0.0');
        assert.equal(after.description, 'Extract text from PDF files.', 'SKILL.md fills an empty description');
        assert.ok(after.updated_at > skill.updated_at);
        const files = json<{ items: { path: string; size: number; executable: boolean }[]; file_count: number; total_size: number }>(
          expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/files`, alice.session), 200),
        );
        assert.deepEqual(files.items, [
          { path: 'README.txt', size: 7, executable: false },
          { path: 'SKILL.md', size: Buffer.byteLength(skillMd()), executable: false },
          { path: 'scripts/extract.py', size: 15, executable: false },
        ]);
        assert.equal(files.file_count, 3);
        assert.equal(files.total_size, 7 + Buffer.byteLength(skillMd()) + 15);
      });

      it('stores a tar.gz version, with the file part sent before the fields', async () => {
        const archive = await tarGz(
          [
            { path: 'pdf/SKILL.md', content: skillMd() },
            { path: 'pdf/run.sh', content: 'echo hi\n' },
          ],
          ['pdf/'],
        );
        const skill = await createSkill(t, alice.session, { description: 'kept' });
        const version = json<VersionBody>(expectStatus(await upload(t, alice.session, skill.slug, '0.1.0', archive, {}, true), 201));
        assert.equal(version.archive_format, 'tar.gz');
        assert.equal(version.file_count, 2);
        assert.equal(version.skill_md?.description, 'Extract text from PDF files.');
        const after = json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session));
        assert.equal(after.description, 'kept', 'an existing description is not replaced');
      });

      it('lists a package without SKILL.md with a warning', async () => {
        const skill = await createSkill(t, alice.session);
        const archive = await zip([{ path: 'notes.txt', content: 'x' }]);
        const version = json<VersionBody>(expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', archive), 201));
        assert.equal(version.skill_md, null);
        assert.ok(version.warnings.some((w) => w.code === 'skill_md_missing'));
      });

      it('keeps versions immutable: the same version twice is 409 version_exists', async () => {
        const skill = await createSkill(t, alice.session);
        expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', pkg), 201);
        const other = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'changed') }]);
        expectProblem(await upload(t, alice.session, skill.slug, '1.0.0', other), 409, 'version_exists');
      });

      it('lets exactly one of two concurrent uploads of the same version win', async () => {
        const skill = await createSkill(t, alice.session);
        const a = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'one') }]);
        const b = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'two') }]);
        const results = await Promise.all([
          upload(t, alice.session, skill.slug, '2.0.0', a),
          upload(t, alice.session, skill.slug, '2.0.0', b),
        ]);
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 409]);
        const list = json<{ items: VersionBody[] }>(await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, alice.session));
        assert.equal(list.items.length, 1);
        const loser = results.find((r) => r.statusCode === 409)!;
        expectProblem(loser, 409, 'version_exists');
        const stored = new Set(blobFiles(t).map((f) => path.basename(f)));
        assert.ok(stored.has(list.items[0]!.sha256));
        // The loser's blob is left to orphan collection, which takes it once nothing references it.
        const loserSha = sha256(list.items[0]!.sha256 === sha256(a) ? b : a);
        await t.runtime.services.versions.collectOrphans(0);
        const collected = new Set(blobFiles(t).map((f) => path.basename(f)));
        assert.ok(!collected.has(loserSha), 'the losing upload leaves no blob behind once collected');
        assert.ok(collected.has(list.items[0]!.sha256));
      });

      const refused: [string, () => ReturnType<typeof multipart> | Promise<ReturnType<typeof multipart>>, number, string][] = [
        ['a missing version', () => multipart({}, { content: pkg }), 400, 'validation_failed'],
        ['a version with a leading v', () => multipart({ version: 'v1.0.0' }, { content: pkg }), 400, 'invalid_version'],
        ['a loose version', () => multipart({ version: '1.0' }, { content: pkg }), 400, 'invalid_version'],
        ['metadata that is not JSON', () => multipart({ version: '1.0.0', metadata: '{nope' }, { content: pkg }), 400, 'validation_failed'],
        ['metadata that is an array', () => multipart({ version: '1.0.0', metadata: '[1,2]' }, { content: pkg }), 400, 'validation_failed'],
        ['an unknown field', () => multipart({ version: '1.0.0', colour: 'red' }, { content: pkg }), 400, 'validation_failed'],
        ['a missing file', () => multipart({ version: '1.0.0' }), 400, 'validation_failed'],
        ['a file in the wrong part', () => multipart({ version: '1.0.0' }, { name: 'archive', content: pkg }), 400, 'validation_failed'],
        [
          'bytes that are no archive',
          () => multipart({ version: '1.0.0' }, { content: Buffer.from('just some text, not a zip') }),
          415,
          'unsupported_media_type',
        ],
        [
          'an archive with an unsafe path',
          async () => multipart({ version: '1.0.0' }, { content: await tarGz([{ path: '../evil.sh', content: 'x' }]) }),
          422,
          'invalid_archive',
        ],
        [
          'a SKILL.md without a name',
          async () =>
            multipart({ version: '1.0.0' }, { content: await zip([{ path: 'SKILL.md', content: '---\ndescription: d\n---\n' }]) }),
          422,
          'invalid_skill_md',
        ],
      ];
      for (const [what, build, status, code] of refused) {
        it(`refuses ${what} with ${status} ${code} and stores nothing`, async () => {
          const skill = await createSkill(t, alice.session);
          const before = blobFiles(t).length;
          const body = await build();
          const res = await t.request({
            method: 'POST',
            url: `/v1/skills/${skill.slug}/versions`,
            headers: { ...authHeaders(alice.session), ...body.headers },
            payload: body.payload,
          });
          const problem = expectProblem(res, status, code);
          if (status === 422) assert.ok(Array.isArray(problem.errors) && problem.errors.length > 0);
          assert.equal(blobFiles(t).length, before, 'no blob and no temporary file is left');
          const list = json<{ total: number }>(await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, alice.session));
          assert.equal(list.total, 0);
        });
      }

      it('refuses a JSON body with 415', async () => {
        const skill = await createSkill(t, alice.session);
        expectProblem(
          await call(t, 'POST', `/v1/skills/${skill.slug}/versions`, alice.session, { version: '1.0.0' }),
          415,
          'unsupported_media_type',
        );
      });

      it('refuses an upload over MAX_UPLOAD_BYTES with 413 and keeps nothing', async () => {
        const small = await startApp(backend, { MAX_UPLOAD_BYTES: '4096' });
        try {
          const owner = await registerUser(small);
          const skill = await createSkill(small, owner.session);
          const big = await zip([
            { path: 'SKILL.md', content: skillMd() },
            { path: 'blob.bin', content: randomBytes(20_000) },
          ]);
          expectProblem(await upload(small, owner.session, skill.slug, '1.0.0', big), 413, 'payload_too_large');
          assert.equal(blobFiles(small).length, 0);
        } finally {
          await small.close();
        }
      });

      it('leaves nothing behind when the client aborts mid-upload', async () => {
        const skill = await createSkill(t, alice.session);
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const address = t.app.server.address();
        assert.ok(address && typeof address === 'object');
        const body = multipart({ version: '9.9.9' }, { content: Buffer.alloc(2 * 1024 * 1024, 7) });
        const before = blobFiles(t).length;
        const req = http.request({
          host: '127.0.0.1',
          port: address.port,
          method: 'POST',
          path: `/v1/skills/${skill.slug}/versions`,
          headers: { ...authHeaders(alice.session), ...body.headers, 'content-length': String(body.payload.length) },
        });
        const refused = new Promise<void>((resolve) => req.on('error', () => resolve()));
        req.write(body.payload.subarray(0, 512 * 1024));
        // Cut off once the server is storing the upload, rather than after a guessed while.
        const storing = eventually('the upload is being stored', () => blobFiles(t).length > before, 10_000);
        storing.catch(() => undefined);
        await Promise.race([refused, storing]);
        req.destroy();
        // The server notices the abort asynchronously; give it a moment to clean up.
        for (let i = 0; i < 50 && blobFiles(t).length !== before; i += 1) await new Promise((r) => setTimeout(r, 50));
        assert.equal(blobFiles(t).length, before);
        const list = json<{ total: number }>(await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, alice.session));
        assert.equal(list.total, 0);
      });

      it('answers 401, 403 and 404 before reading the package', async () => {
        const skill = await createSkill(t, alice.session);
        expectProblem(await upload(t, null, skill.slug, '1.0.0', pkg), 401, 'unauthenticated');
        const { key } = await createKey(t, alice.session, []);
        expectProblem(await upload(t, { key }, skill.slug, '1.0.0', pkg), 403, 'insufficient_scope');
        expectProblem(await upload(t, bob.session, skill.slug, '1.0.0', pkg), 404, 'skill_not_found');
        const published = await publishedSkillWithVersion();
        expectProblem(await upload(t, bob.session, published.slug, '2.0.0', pkg), 403, 'not_owner');
      });
    });

    describe('with-package', () => {
      it('creates a draft skill and its first version together', async () => {
        const body = multipart(
          {
            name: 'Bundled Skill',
            slug: 'bundled-skill',
            version: '1.2.3',
            tags: '["pdf","Office"]',
            source_type: 'github',
            source_url: 'https://github.com/acme/bundled',
          },
          { content: pkg },
        );
        const res = await t.request({
          method: 'POST',
          url: '/v1/skills/with-package',
          headers: { ...authHeaders(alice.session), ...body.headers },
          payload: body.payload,
        });
        const created = json<{ skill: SkillBody; version: VersionBody }>(expectStatus(res, 201));
        assert.equal(created.skill.status, 'draft');
        assert.equal(created.skill.latest_version, '1.2.3');
        assert.deepEqual(created.skill.tags, ['pdf', 'office']);
        assert.equal(created.skill.description, 'Extract text from PDF files.');
        assert.equal(created.version.version, '1.2.3');
      });

      it('creates nothing when the package is refused or a field is wrong', async () => {
        const cases: [Record<string, string>, Buffer, number, string][] = [
          [
            { name: 'Atomic One', slug: 'atomic-one', version: '1.0.0' },
            await tarGz([{ path: '/etc/passwd', content: 'x' }]),
            422,
            'invalid_archive',
          ],
          [{ name: 'Atomic Two', slug: 'atomic-two', version: 'one' }, pkg, 400, 'invalid_version'],
          [{ name: 'Atomic Three', slug: 'atomic-three', version: '1.0.0', tags: 'pdf,office' }, pkg, 400, 'validation_failed'],
          [
            { name: 'Atomic Four', slug: 'atomic-four', version: '1.0.0', source_type: 'github', source_url: 'http://x' },
            pkg,
            400,
            'invalid_source',
          ],
        ];
        for (const [fields, archive, status, code] of cases) {
          const before = blobFiles(t).length;
          const body = multipart(fields, { content: archive });
          const res = await t.request({
            method: 'POST',
            url: '/v1/skills/with-package',
            headers: { ...authHeaders(alice.session), ...body.headers },
            payload: body.payload,
          });
          expectProblem(res, status, code);
          expectProblem(await call(t, 'GET', `/v1/skills/${fields.slug}`, admin), 404, 'skill_not_found');
          assert.equal(blobFiles(t).length, before);
        }
      });

      it('answers 409 slug_taken for a taken slug', async () => {
        const existing = await createSkill(t, alice.session);
        const body = multipart({ name: 'Dup', slug: existing.slug, version: '1.0.0' }, { content: pkg });
        const res = await t.request({
          method: 'POST',
          url: '/v1/skills/with-package',
          headers: { ...authHeaders(alice.session), ...body.headers },
          payload: body.payload,
        });
        expectProblem(res, 409, 'slug_taken');
      });
    });

    describe('reads', () => {
      it('lists versions newest semver first, with latest ignoring pre-releases', async () => {
        const skill = await createSkill(t, alice.session);
        for (const v of ['1.0.0', '1.10.0', '1.2.0', '2.0.0-rc.1']) {
          const archive = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', `v${v}`) }]);
          expectStatus(await upload(t, alice.session, skill.slug, v, archive), 201);
        }
        const list = json<{ items: VersionBody[]; total: number; page: number; page_size: number }>(
          expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, alice.session), 200),
        );
        assert.deepEqual(
          list.items.map((v) => v.version),
          ['2.0.0-rc.1', '1.10.0', '1.2.0', '1.0.0'],
        );
        assert.equal(list.total, 4);
        const after = json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`, alice.session));
        assert.equal(after.latest_version, '1.10.0');
        assert.equal(json<VersionBody>(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/latest`, alice.session)).version, '1.10.0');
        const paged = json<{ items: VersionBody[] }>(
          await call(t, 'GET', `/v1/skills/${skill.slug}/versions?page=2&page_size=3`, alice.session),
        );
        assert.deepEqual(
          paged.items.map((v) => v.version),
          ['1.0.0'],
        );
      });

      it('downloads the exact bytes with the content headers', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        const res = expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/download`), 200);
        assert.ok(res.rawPayload.equals(pkg));
        assert.equal(res.headers['content-type'], 'application/zip');
        assert.equal(Number(res.headers['content-length']), pkg.length);
        assert.equal(res.headers['content-disposition'], `attachment; filename="${skill.slug}-1.0.0.zip"`);
        assert.equal(res.headers.etag, `"${sha256(pkg)}"`);
        assert.equal(res.headers['repr-digest'], `sha-256=:${createHash('sha256').update(pkg).digest('base64')}:`);
        assert.equal(res.headers['accept-ranges'], 'bytes');
        const latest = expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/latest/download`), 200);
        assert.ok(latest.rawPayload.equals(pkg));
      });

      it('round-trips a tar.gz', async () => {
        const archive = await tarGz([{ path: 'SKILL.md', content: skillMd() }]);
        const skill = await publishedSkillWithVersion('3.0.0', archive);
        const res = expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/3.0.0/download`), 200);
        assert.ok(res.rawPayload.equals(archive));
        assert.equal(res.headers['content-type'], 'application/gzip');
        assert.match(String(res.headers['content-disposition']), /\.tar\.gz"$/);
      });

      it('honours HEAD, If-None-Match and Range', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        const url = `/v1/skills/${skill.slug}/versions/1.0.0/download`;
        const head = expectStatus(await call(t, 'HEAD', url), 200);
        assert.equal(head.rawPayload.length, 0);
        assert.equal(Number(head.headers['content-length']), pkg.length);
        const etag = `"${sha256(pkg)}"`;
        const notModified = expectStatus(await call(t, 'GET', url, null, undefined, { 'if-none-match': etag }), 304);
        assert.equal(notModified.rawPayload.length, 0);
        expectStatus(await call(t, 'GET', url, null, undefined, { 'if-none-match': '"other"' }), 200);
        const partial = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=10-19' }), 206);
        assert.ok(partial.rawPayload.equals(pkg.subarray(10, 20)));
        assert.equal(partial.headers['content-range'], `bytes 10-19/${pkg.length}`);
        assert.equal(Number(partial.headers['content-length']), 10);
        const suffix = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=-5' }), 206);
        assert.ok(suffix.rawPayload.equals(pkg.subarray(pkg.length - 5)));
        const open = expectStatus(await call(t, 'GET', url, null, undefined, { range: `bytes=${pkg.length - 3}-` }), 206);
        assert.ok(open.rawPayload.equals(pkg.subarray(pkg.length - 3)));
        const unsatisfiable = await call(t, 'GET', url, null, undefined, { range: `bytes=${pkg.length}-` });
        expectProblem(unsatisfiable, 416, 'range_not_satisfiable');
        assert.equal(unsatisfiable.headers['content-range'], `bytes */${pkg.length}`);
        const several = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=0-1,5-6' }), 200);
        assert.ok(several.rawPayload.equals(pkg));
        const staleIfRange = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=0-1', 'if-range': '"old"' }), 200);
        assert.ok(staleIfRange.rawPayload.equals(pkg));
      });

      it('answers 404 version_not_found for an unknown version and for latest without versions', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/9.9.9/download`), 404, 'version_not_found');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/9.9.9`), 404, 'version_not_found');
        // A skill published before publishing needed a version: only the database can make one now.
        const empty = await createSkill(t, alice.session);
        await t.runtime.database.db.updateTable('skills').set({ status: 'published' }).where('id', '=', empty.id).execute();
        t.runtime.services.skills.forgetCached();
        expectProblem(await call(t, 'GET', `/v1/skills/${empty.slug}/versions/latest/download`), 404, 'version_not_found');
      });

      it('serves one file with a text type, and 404 for any path not in the index', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        const base = `/v1/skills/${skill.slug}/versions/1.0.0/files`;
        const md = expectStatus(await call(t, 'GET', `${base}/SKILL.md`), 200);
        assert.equal(md.body, skillMd());
        assert.match(String(md.headers['content-type']), /^text\/markdown/);
        assert.equal(md.headers['x-content-type-options'], 'nosniff');
        const py = expectStatus(await call(t, 'GET', `${base}/scripts/extract.py`), 200);
        assert.equal(py.body, 'print("hello")\n');
        assert.match(String(py.headers['content-type']), /^text\//);
        // Encoded so the request reaches the server as written (a client would normalise plain dot segments).
        for (const bad of [
          'missing.txt',
          'scripts%2F..%2FSKILL.md',
          '.%2FSKILL.md',
          'scripts%2Fextract.py%00',
          'skill.md',
          '..%2f..%2fetc%2fpasswd',
          'scripts/',
          'scripts',
        ]) {
          expectProblem(await call(t, 'GET', `${base}/${bad}`), 404, 'file_not_found');
        }
      });

      describe('visibility of downloads and files', () => {
        const callers = ['anonymous', 'owner session', 'owner key', 'other user', 'admin session', "admin's key"] as const;
        const expected: Record<
          'draft' | 'published' | 'deprecated',
          Record<(typeof callers)[number], { download: number; files: number }>
        > = {
          published: {
            anonymous: { download: 200, files: 200 },
            'owner session': { download: 200, files: 200 },
            'owner key': { download: 200, files: 200 },
            'other user': { download: 200, files: 200 },
            'admin session': { download: 200, files: 200 },
            "admin's key": { download: 200, files: 200 },
          },
          draft: {
            anonymous: { download: 404, files: 404 },
            'owner session': { download: 403, files: 200 },
            'owner key': { download: 403, files: 200 },
            'other user': { download: 404, files: 404 },
            'admin session': { download: 200, files: 200 },
            "admin's key": { download: 404, files: 404 },
          },
          deprecated: {
            anonymous: { download: 404, files: 404 },
            'owner session': { download: 403, files: 200 },
            'owner key': { download: 403, files: 200 },
            'other user': { download: 404, files: 404 },
            'admin session': { download: 200, files: 200 },
            "admin's key": { download: 404, files: 404 },
          },
        };
        for (const state of ['published', 'draft', 'deprecated'] as const) {
          for (const who of callers) {
            it(`${state} skill × ${who} → download ${expected[state][who].download}, files ${expected[state][who].files}`, async () => {
              const skill = await createSkill(t, alice.session);
              expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', pkg), 201);
              if (state !== 'draft') await setStatus(t, admin, skill.slug, 'published');
              if (state === 'deprecated') await setStatus(t, admin, skill.slug, 'deprecated');
              const auth: Auth =
                who === 'anonymous'
                  ? null
                  : who === 'owner session'
                    ? alice.session
                    : who === 'owner key'
                      ? { key: (await createKey(t, alice.session, [])).key }
                      : who === 'other user'
                        ? bob.session
                        : who === 'admin session'
                          ? admin
                          : { key: (await createKey(t, admin, ['skill:upload'])).key };
              const want = expected[state][who];
              const download = await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/download`, auth);
              if (want.download === 200) assert.ok(expectStatus(download, 200).rawPayload.equals(pkg));
              else expectProblem(download, want.download, want.download === 403 ? 'not_published' : 'skill_not_found');
              const files = await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/files`, auth);
              if (want.files === 200) expectStatus(files, 200);
              else expectProblem(files, 404, 'skill_not_found');
              const file = await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/files/SKILL.md`, auth);
              assert.equal(file.statusCode, want.files);
            });
          }
        }
      });
      it('answers downloads from what is stored now: a status change or a new latest version shows at once', async () => {
        const skill = await createSkill(t, alice.session);
        expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', pkg), 201);
        await setStatus(t, admin, skill.slug, 'published');
        const latest = `/v1/skills/${skill.slug}/versions/latest/download`;
        assert.ok(expectStatus(await call(t, 'GET', latest), 200).rawPayload.equals(pkg));
        await setStatus(t, admin, skill.slug, 'deprecated');
        expectProblem(await call(t, 'GET', latest), 404, 'skill_not_found');
        await setStatus(t, admin, skill.slug, 'published');
        expectStatus(await call(t, 'GET', latest), 200);
        const next = await zip([
          { path: 'SKILL.md', content: skillMd() },
          { path: 'NEW.md', content: 'new\n' },
        ]);
        expectStatus(await upload(t, alice.session, skill.slug, '1.1.0', next), 201);
        assert.ok(expectStatus(await call(t, 'GET', latest), 200).rawPayload.equals(next));
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.2.0/download`), 404, 'version_not_found');
        expectStatus(await upload(t, alice.session, skill.slug, '1.2.0', pkg), 201);
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.2.0/download`), 200);
      });
    });

    describe('statistics', () => {
      it('counts full GETs only, per version and per day, and survives a restart', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        const other = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'second') }]);
        expectStatus(await upload(t, alice.session, skill.slug, '1.1.0', other), 201);
        const url = (v: string) => `/v1/skills/${skill.slug}/versions/${v}/download`;
        for (let i = 0; i < 3; i += 1) expectStatus(await call(t, 'GET', url('1.0.0')), 200);
        expectStatus(await call(t, 'GET', url('latest')), 200);
        expectStatus(await call(t, 'HEAD', url('1.0.0')), 200);
        expectStatus(await call(t, 'GET', url('1.0.0'), null, undefined, { 'if-none-match': `"${sha256(pkg)}"` }), 304);
        expectStatus(await call(t, 'GET', url('1.0.0'), null, undefined, { range: 'bytes=0-9' }), 206);

        const stats = json<{
          skill_id: string;
          total_downloads: number;
          versions: { version: string; downloads: number }[];
          daily: { date: string; downloads: number }[];
        }>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/stats?days=7`), 200));
        assert.equal(stats.skill_id, skill.id);
        assert.equal(stats.total_downloads, 4);
        assert.deepEqual(stats.versions, [
          { version: '1.1.0', downloads: 1 },
          { version: '1.0.0', downloads: 3 },
        ]);
        assert.equal(stats.daily.length, 7);
        const today = new Date().toISOString().slice(0, 10);
        assert.deepEqual(stats.daily.at(-1), { date: today, downloads: 4 });
        assert.ok(stats.daily.slice(0, -1).every((d) => d.downloads === 0));
        const detail = json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`));
        assert.equal(detail.downloads, 4);
        const byDownloads = json<{ items: SkillBody[] }>(
          await call(t, 'GET', `/v1/skills?sort=downloads&q=${encodeURIComponent(skill.name)}`),
        );
        assert.equal(byDownloads.items[0]?.downloads, 4);

        // Counted but not yet written downloads are written by a clean shutdown, and a new process sees them.
        expectStatus(await call(t, 'GET', url('1.0.0')), 200);
        expectStatus(await call(t, 'GET', url('1.1.0')), 200);
        await t.restart();
        const restarted = json<{ total_downloads: number; versions: { version: string; downloads: number }[] }>(
          expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/stats?days=1`), 200),
        );
        assert.equal(restarted.total_downloads, 6);
        assert.deepEqual(restarted.versions, [
          { version: '1.1.0', downloads: 2 },
          { version: '1.0.0', downloads: 4 },
        ]);
        assert.equal(json<SkillBody>(await call(t, 'GET', `/v1/skills/${skill.slug}`)).downloads, 6);
      });

      it('writes buffered counts when the counter is flushed, and drops counts of deleted versions', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        const row = await t.runtime.database.db
          .selectFrom('versions')
          .select('id')
          .where('skill_id', '=', skill.id)
          .executeTakeFirstOrThrow();
        // A counter of its own, with no job writing it, so nothing is written before flush() (as the node stops) says so.
        const counter = downloadCounter({ versions: t.runtime.services.repositories.versions });
        for (let i = 0; i < 3; i += 1) counter.record(row.id, skill.id);
        assert.equal(counter.pendingCount, 3);
        const before = await t.runtime.database.db
          .selectFrom('versions')
          .select('downloads')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        assert.equal(before.downloads, 0);
        await counter.flush();
        assert.equal(counter.pendingCount, 0);
        const after = await t.runtime.database.db
          .selectFrom('versions')
          .select('downloads')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        assert.equal(after.downloads, 3);
        // A version deleted before its counts were written must not block the batch it is in.
        const mixed = downloadCounter({ versions: t.runtime.services.repositories.versions });
        mixed.record('0193a1b2-0000-7000-8000-000000000000', skill.id);
        mixed.record(row.id, skill.id);
        await mixed.flush();
        assert.equal(mixed.pendingCount, 0);
        const final = await t.runtime.database.db
          .selectFrom('versions')
          .select('downloads')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        assert.equal(final.downloads, 4);
      });

      it('validates days and hides stats of skills the caller may not see', async () => {
        const skill = await publishedSkillWithVersion('1.0.0');
        for (const days of ['0', '366', 'x', '1.5'])
          expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}/stats?days=${days}`), 400, 'validation_failed');
        const draft = await createSkill(t, alice.session);
        expectProblem(await call(t, 'GET', `/v1/skills/${draft.slug}/stats`), 404, 'skill_not_found');
        expectStatus(await call(t, 'GET', `/v1/skills/${draft.slug}/stats`, alice.session), 200);
        assert.equal(json<{ daily: unknown[] }>(await call(t, 'GET', `/v1/skills/${skill.slug}/stats`)).daily.length, 30);
      });
    });

    describe('validate and delete', () => {
      it('POST /v1/packages/validate reports without storing', async () => {
        const before = blobFiles(t).length;
        const ok = multipart({}, { content: pkg });
        const good = json<{ valid: boolean; files: unknown[]; skill_md: Record<string, unknown> | null; errors: unknown[] }>(
          expectStatus(await t.request({ method: 'POST', url: '/v1/packages/validate', headers: ok.headers, payload: ok.payload }), 200),
        );
        assert.equal(good.valid, true);
        assert.equal(good.files.length, 3);
        assert.equal(good.skill_md?.name, 'pdf-tools');
        const badBody = multipart({}, { content: await tarGz([{ path: '../x', content: 'x' }]) });
        const bad = json<{ valid: boolean; errors: { field: string; entry?: string }[] }>(
          expectStatus(
            await t.request({ method: 'POST', url: '/v1/packages/validate', headers: badBody.headers, payload: badBody.payload }),
            200,
          ),
        );
        assert.equal(bad.valid, false);
        assert.ok(bad.errors.length > 0);
        assert.equal(blobFiles(t).length, before);
        const none = multipart({});
        expectProblem(
          await t.request({ method: 'POST', url: '/v1/packages/validate', headers: none.headers, payload: none.payload }),
          400,
          'validation_failed',
        );
      });

      it('collects old blobs that no version references, and only those', async () => {
        const { utimesSync } = await import('node:fs');
        const { Readable } = await import('node:stream');
        const blobs = t.runtime.services.blobs;
        const orphan = await blobs.put(Readable.from([randomBytes(4096)]));
        const fresh = await blobs.put(Readable.from([randomBytes(4096)]));
        const used = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'referenced') }]);
        const skill = await createSkill(t, alice.session);
        expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', used), 201);
        const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
        const pathOf = (sha: string) => path.join(t.config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
        utimesSync(pathOf(orphan.sha256), old, old);
        utimesSync(pathOf(sha256(used)), old, old);
        const removed = await t.runtime.services.versions.collectOrphans();
        assert.equal(removed, 1);
        assert.equal(await blobs.stat(orphan.sha256), null, 'an old orphan is removed');
        assert.ok(await blobs.stat(fresh.sha256), 'a recent blob may belong to an upload in flight and stays');
        assert.ok(await blobs.stat(sha256(used)), 'a referenced blob stays');
        await blobs.delete(fresh.sha256);
      });

      it('deleting a draft removes its versions and leaves its blobs to orphan collection', async () => {
        const shared = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'shared bytes') }]);
        const own = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'own bytes') }]);
        const keep = await createSkill(t, alice.session);
        expectStatus(await upload(t, alice.session, keep.slug, '1.0.0', shared), 201);
        const doomed = await createSkill(t, alice.session);
        expectStatus(await upload(t, alice.session, doomed.slug, '1.0.0', shared), 201);
        expectStatus(await upload(t, alice.session, doomed.slug, '1.1.0', own), 201);
        expectStatus(await call(t, 'DELETE', `/v1/skills/${doomed.slug}`, alice.session), 204);
        const stored = new Set(blobFiles(t).map((f) => path.basename(f)));
        assert.ok(stored.has(sha256(shared)), 'a blob another version uses stays');
        assert.ok(stored.has(sha256(own)), 'a blob only the deleted skill used stays until orphan collection');
        await t.runtime.services.versions.collectOrphans(0);
        const collected = new Set(blobFiles(t).map((f) => path.basename(f)));
        assert.ok(collected.has(sha256(shared)), 'collection keeps a blob another version uses');
        assert.ok(!collected.has(sha256(own)), 'collection removes a blob only the deleted skill used');
        const rows = await t.runtime.database.db.selectFrom('versions').select('id').where('skill_id', '=', doomed.id).execute();
        assert.equal(rows.length, 0);
      });
    });
  });
}
