/**
 * Executable files through the registry: an archive's 0755 script is listed `"executable": true` by the file list and
 * by validate, and the package downloaded back still makes it executable when unzip or GNU tar extracts it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeDir, tempDir } from '../cli-commands/harness.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createSkill,
  expectStatus,
  json,
  registerUser,
  setStatus,
  type TestUser,
} from '../helpers/client.js';
import { archiveWith, skillFolder, type ArchiveTool } from '../helpers/mode-archives.js';

interface FileItem {
  path: string;
  size: number;
  executable: boolean;
}

const root = tempDir('skreg-http-modes-');
after(() => removeDir(root));

const TOOLS: ArchiveTool[] = ['packer', 'python-zipfile', 'info-zip', 'gnu-tar'];
const EXPECTED = { 'SKILL.md': false, 'scripts/notes.txt': false, 'scripts/run.sh': true };

/** Each tool's archive of the same folder, built once for both backends. */
const archives = new Map<ArchiveTool, Promise<Buffer>>();
function archiveOf(tool: ArchiveTool): Promise<Buffer> {
  let bytes = archives.get(tool);
  if (!bytes) {
    bytes = archiveWith(tool, skillFolder(path.join(root, `skill-${tool}`), 'runner'));
    archives.set(tool, bytes);
  }
  return bytes;
}

for (const backend of apiBackends()) {
  describe(`executable files over HTTP [${backend.name}]`, () => {
    let t: TestApp;
    let owner: TestUser;
    let admin: { cookie: string };
    before(async () => {
      t = await startApp(backend);
      owner = await registerUser(t);
      admin = await adminSession(t);
    });
    after(() => t.close());

    for (const tool of TOOLS) {
      it(`lists the script of an archive made by ${tool} as executable, and the download keeps its mode`, async () => {
        const archive = await archiveOf(tool);
        const skill = await createSkill(t, owner.session);
        const body = multipart({ version: '1.0.0' }, { content: archive });
        expectStatus(
          await t.request({
            method: 'POST',
            url: `/v1/skills/${skill.slug}/versions`,
            headers: { ...authHeaders(owner.session), ...body.headers },
            payload: body.payload,
          }),
          201,
        );
        const list = json<{ items: FileItem[] }>(
          expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/files`, owner.session), 200),
        );
        const listed = Object.fromEntries(list.items.filter((f) => !f.path.endsWith('/')).map((f) => [f.path, f.executable]));
        assert.deepEqual(listed, EXPECTED);

        await setStatus(t, admin, skill.slug, 'published');
        const download = expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/download`), 200);
        const bytes = download.rawPayload;
        assert.ok(bytes.equals(archive), 'the stored archive is the uploaded one, byte for byte');
        const out = path.join(root, `${backend.name}-${tool}-out`);
        mkdirSync(out);
        const file = path.join(root, `${backend.name}-${tool}.${tool === 'gnu-tar' ? 'tar.gz' : 'zip'}`);
        writeFileSync(file, bytes);
        if (tool === 'gnu-tar') execFileSync('tar', ['-xzf', file, '-C', out]);
        else execFileSync('unzip', ['-q', file, '-d', out]);
        assert.equal(statSync(path.join(out, 'scripts', 'run.sh')).mode & 0o777, 0o755);
        assert.equal(statSync(path.join(out, 'scripts', 'notes.txt')).mode & 0o111, 0);
      });
    }

    it('validate lists executable files too', async () => {
      const body = multipart({}, { content: await archiveOf('gnu-tar') });
      const report = json<{ valid: boolean; files: FileItem[] }>(
        expectStatus(await t.request({ method: 'POST', url: '/v1/packages/validate', headers: body.headers, payload: body.payload }), 200),
      );
      assert.equal(report.valid, true);
      assert.deepEqual(Object.fromEntries(report.files.map((f) => [f.path, f.executable])), EXPECTED);
    });
  });
}
