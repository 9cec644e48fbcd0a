/**
 * Hostile packages over HTTP: every refusal rule of contract §6, one row each, driven through
 * POST /v1/skills/:skillId/versions (and a handful through POST /v1/skills/with-package and
 * POST /v1/packages/validate). Each row checks the status, the problem code, the offending entry, and that
 * nothing was stored: no version row, no blob, no temporary file, latest_version still null.
 *
 * The app runs with the default limits (2,000 entries, 200 MiB uncompressed, ratio 100:1), so the limit rows
 * break them cheaply: 2,001 tiny entries, a few MiB of deflated zeros, and declared sizes over 200 MiB (the
 * inspection refuses on declared sizes before inflating anything). The rows live in test/packages/refusal-rows.ts,
 * with the structural tricks of test/packages/hostile.ts (end records, gaps, pax global headers, gzip members).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { blobFiles, startApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  uniqueName,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';
import { yazlZip } from '../packages/helpers.js';
import { ROWS, SKILL, type Row } from '../packages/refusal-rows.js';

interface FieldError {
  field: string;
  message: string;
  entry?: string;
}

/** Rows also sent through POST /v1/skills/with-package. */
const WITH_PACKAGE = [
  'zip: absolute path',
  'tar.gz: symlink',
  'zip: real size exceeds the declared size (lying size)',
  'zip: compression ratio over 100:1 (5 MiB of zeros)',
  'zip: 2,001 entries (limit 2,000)',
  'SKILL.md without a name',
  'two SKILL.md candidates: root and folder',
  'PNG bytes',
  'zip: end record under-states the entry count (4 records, count 1)',
  'tar.gz: pax global header setting size=0',
];

/** Rows also sent through POST /v1/packages/validate (422 rows: validate answers 200 with valid:false). */
const VALIDATE = [
  'tar.gz: .. segment',
  'zip: duplicates differing only in case',
  'zip: encrypted entry',
  'tar.gz: hard link',
  'zip: declared uncompressed total over 200 MiB',
  'tar.gz: compression ratio over 100:1 (5 MiB of zeros)',
  'SKILL.md front matter that is not valid YAML',
  'two SKILL.md candidates: two folders (tar.gz)',
  'zip: end record under-states the entry count (4 records, count 1)',
  'tar.gz: pax global header setting path',
  'tar.gz: two gzip members',
];

// Every archive is built once and shared by both backends.
const built = new Map<string, Promise<Buffer>>();
function archiveOf(row: Row): Promise<Buffer> {
  let bytes = built.get(row.name);
  if (!bytes) {
    bytes = Promise.resolve(row.build());
    built.set(row.name, bytes);
  }
  return bytes;
}

function rowNamed(name: string): Row {
  const row = ROWS.find((r) => r.name === name);
  assert.ok(row, `no row named ${name}`);
  return row;
}

/** Status, code, and for 422s a non-empty `errors` naming the row's entries; returns the errors. */
function expectRefusal(res: LightMyRequestResponse, row: Row): FieldError[] {
  const problem = expectProblem(res, row.status, row.code);
  if (row.detail) assert.match(String(problem.detail), row.detail, `detail of ${row.name}`);
  const errors = (problem.errors ?? []) as FieldError[];
  if (row.status === 422) {
    assert.ok(Array.isArray(errors) && errors.length > 0, `errors listed: ${res.body}`);
    for (const entry of row.entries ?? []) {
      assert.ok(
        errors.some((e) => e.entry === entry),
        `an error names ${JSON.stringify(entry)}: ${JSON.stringify(errors)}`,
      );
    }
  }
  return errors;
}

for (const backend of apiBackends()) {
  describe(`package refusals over HTTP [${backend.name}]`, () => {
    let t: TestApp;
    let owner: TestUser;
    let admin: { cookie: string };
    before(async () => {
      t = await startApp(backend);
      owner = await registerUser(t);
      admin = await adminSession(t);
    });
    after(() => t.close());

    function upload(skill: string, archive: Buffer) {
      const body = multipart({ version: '1.0.0' }, { content: archive });
      return t.request({
        method: 'POST',
        url: `/v1/skills/${skill}/versions`,
        headers: { ...authHeaders(owner.session), ...body.headers },
        payload: body.payload,
      });
    }

    async function assertNothingStored(skill: SkillBody, blobsBefore: string[]): Promise<void> {
      assert.deepEqual(blobFiles(t), blobsBefore, 'no new blob and no temporary file');
      const list = json<{ total: number; items: unknown[] }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions`, owner.session), 200),
      );
      assert.equal(list.total, 0);
      assert.deepEqual(list.items, []);
      const rows = await t.runtime.database.db.selectFrom('versions').select('id').where('skill_id', '=', skill.id).execute();
      assert.equal(rows.length, 0, 'no version row');
      const after = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}`, owner.session), 200));
      assert.equal(after.latest_version, null);
      const stored = await t.runtime.database.db
        .selectFrom('skills')
        .select('latest_version')
        .where('id', '=', skill.id)
        .executeTakeFirstOrThrow();
      assert.equal(stored.latest_version, null);
    }

    describe('POST /v1/skills/:skillId/versions', () => {
      for (const row of ROWS) {
        it(`refuses ${row.name} with ${row.status} ${row.code} and stores nothing`, async () => {
          const archive = await archiveOf(row);
          const skill = await createSkill(t, owner.session);
          assert.equal(skill.status, 'draft');
          const blobsBefore = blobFiles(t);
          expectRefusal(await upload(skill.slug, archive), row);
          await assertNothingStored(skill, blobsBefore);
        });
      }

      it('still accepts a good package afterwards (the refusals left the store usable)', async () => {
        const skill = await createSkill(t, owner.session);
        const good = await yazlZip([
          { name: 'SKILL.md', data: SKILL },
          { name: 'run.sh', data: 'echo hi\n' },
        ]);
        const blobsBefore = blobFiles(t);
        const version = json<{ sha256: string }>(expectStatus(await upload(skill.slug, good), 201));
        // The walker looks where the store writes: the accepted package shows up as exactly one new blob.
        const added = blobFiles(t).filter((f) => !blobsBefore.includes(f));
        assert.deepEqual(
          added.map((f) => path.basename(f)),
          [version.sha256],
        );
        const rows = await t.runtime.database.db.selectFrom('versions').select('id').where('skill_id', '=', skill.id).execute();
        assert.equal(rows.length, 1);
      });
    });

    describe('POST /v1/skills/with-package', () => {
      for (const name of WITH_PACKAGE) {
        const row = rowNamed(name);
        it(`refuses ${row.name} with ${row.status} ${row.code} and creates no skill`, async () => {
          const archive = await archiveOf(row);
          const slug = uniqueName('atomic-');
          const blobsBefore = blobFiles(t);
          const body = multipart({ name: `Atomic ${slug}`, slug, version: '1.0.0' }, { content: archive });
          const res = await t.request({
            method: 'POST',
            url: '/v1/skills/with-package',
            headers: { ...authHeaders(owner.session), ...body.headers },
            payload: body.payload,
          });
          expectRefusal(res, row);
          expectProblem(await call(t, 'GET', `/v1/skills/${slug}`, admin), 404, 'skill_not_found');
          const skills = await t.runtime.database.db.selectFrom('skills').select('id').where('slug', '=', slug).execute();
          assert.equal(skills.length, 0, 'no skill row');
          assert.deepEqual(blobFiles(t), blobsBefore, 'no new blob and no temporary file');
        });
      }
    });

    describe('POST /v1/packages/validate', () => {
      for (const name of VALIDATE) {
        const row = rowNamed(name);
        it(`reports ${row.name} as valid:false with the upload's errors, storing nothing`, async () => {
          const archive = await archiveOf(row);
          const skill = await createSkill(t, owner.session);
          const blobsBefore = blobFiles(t);
          const refused = expectRefusal(await upload(skill.slug, archive), row);
          const body = multipart({}, { content: archive });
          const res = expectStatus(
            await t.request({ method: 'POST', url: '/v1/packages/validate', headers: body.headers, payload: body.payload }),
            200,
          );
          const report = json<{ valid: boolean; errors: FieldError[]; warnings: unknown[]; files: unknown[]; skill_md: unknown }>(res);
          assert.equal(report.valid, false);
          assert.ok(report.errors.length > 0);
          assert.deepEqual(report.errors, refused, 'validate reports the same errors as the upload');
          for (const entry of row.entries ?? [])
            assert.ok(
              report.errors.some((e) => e.entry === entry),
              `validate names ${JSON.stringify(entry)}`,
            );
          assert.deepEqual(report.files, []);
          assert.equal(report.skill_md, null);
          await assertNothingStored(skill, blobsBefore);
        });
      }
    });
  });
}
