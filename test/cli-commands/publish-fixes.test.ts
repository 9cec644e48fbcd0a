/**
 * The command line against a real registry, for what a newcomer's real skills need: executable scripts stay
 * executable from folder to install (never setuid, never outside the skill's folder), SKILL.md front matter that
 * needs quoting is fixed only with consent, and a refused package lists every problem.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { extractPackage } from '@skill-registry/cli/extract';
import { CliError } from '@skill-registry/cli/exit-codes';
import { multipart } from '../helpers/archives.js';
import { authHeaders, createSkill, expectStatus } from '../helpers/client.js';
import { archiveWith, skillFolder } from '../helpers/mode-archives.js';
import { buildZip, unixMode } from '../packages/zip-builder.js';
import {
  cli,
  cliBackend,
  parsed,
  publishAsAdmin,
  removeDir,
  startRegistry,
  tempDir,
  uploader,
  writeTree,
  type Registry,
} from './harness.js';

const backend = cliBackend();

function mode(file: string): number {
  return statSync(file).mode & 0o7777;
}

describe(`command line: executable files, front matter fixes, every problem (${backend.name})`, () => {
  let registry: Registry;
  let home: string;
  let env: Record<string, string>;
  let owner: Awaited<ReturnType<typeof uploader>>;

  before(async () => {
    registry = await startRegistry(backend);
    home = tempDir();
    owner = await uploader(registry.t);
    env = { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: owner.key };
  });
  after(async () => {
    await registry.close();
    removeDir(home);
  });

  function scratch(): string {
    return mkdtempSync(path.join(home, 'scratch-'));
  }

  it('publish keeps a script executable, and install writes it 0755 (others 0644) and it runs', async () => {
    const dir = skillFolder(path.join(home, 'src', 'runner'), 'runner');
    const published = await cli(['publish', dir, '--json'], { home, env });
    assert.equal(published.code, 0, published.stderr);
    await publishAsAdmin(registry.t, 'runner');

    const project = scratch();
    const installed = await cli(['install', 'runner', '--json'], { home, cwd: project, env });
    assert.equal(installed.code, 0, installed.stderr);
    const folder = parsed<{ installed: { path: string }[] }>(installed).installed[0]!.path;
    assert.equal(mode(path.join(folder, 'scripts', 'run.sh')), 0o755);
    assert.equal(mode(path.join(folder, 'scripts', 'notes.txt')), 0o644);
    assert.equal(mode(path.join(folder, 'SKILL.md')), 0o644);
    // As the skill's instructions say: ./scripts/run.sh, from the skill's folder.
    assert.equal(execFileSync('./scripts/run.sh', { cwd: folder }).toString(), 'ran ./scripts/run.sh\n');
  });

  it('install drops setuid, setgid and sticky bits: 04755 becomes 0755, 06644 and 01644 become 0644', async () => {
    const dir = skillFolder(path.join(home, 'src', 'setuid-runner'), 'setuid-runner');
    chmodSync(path.join(dir, 'scripts', 'run.sh'), 0o4755);
    chmodSync(path.join(dir, 'scripts', 'notes.txt'), 0o6644);
    writeFileSync(path.join(dir, 'sticky.txt'), 'sticky\n');
    chmodSync(path.join(dir, 'sticky.txt'), 0o1644);
    const archive = await archiveWith('gnu-tar', dir);
    const skill = await createSkill(registry.t, owner.session, { name: 'Setuid Runner', slug: 'setuid-runner' });
    const body = multipart({ version: '1.0.0' }, { content: archive });
    expectStatus(
      await registry.t.request({
        method: 'POST',
        url: `/v1/skills/${skill.slug}/versions`,
        headers: { ...authHeaders(owner.session), ...body.headers },
        payload: body.payload,
      }),
      201,
    );
    await publishAsAdmin(registry.t, skill.slug);

    const project = scratch();
    const installed = await cli(['install', skill.slug, '--json'], { home, cwd: project, env });
    assert.equal(installed.code, 0, installed.stderr);
    const folder = parsed<{ installed: { path: string }[] }>(installed).installed[0]!.path;
    assert.equal(mode(path.join(folder, 'scripts', 'run.sh')), 0o755);
    assert.equal(mode(path.join(folder, 'scripts', 'notes.txt')), 0o644);
    assert.equal(mode(path.join(folder, 'sticky.txt')), 0o644);
  });

  it('a hostile archive cannot set a mode outside the skill folder, and nothing is written', async () => {
    const work = scratch();
    const outside = path.join(work, 'outside.sh');
    writeFileSync(outside, 'echo outside\n');
    chmodSync(outside, 0o644);
    const archive = path.join(work, 'hostile.zip');
    writeFileSync(
      archive,
      buildZip([
        { name: 'SKILL.md', data: '---\nname: hostile\ndescription: x\n---\n' },
        { name: '../outside.sh', data: 'echo pwned\n', externalAttributes: unixMode(0o104755) },
        { name: 'link', data: '../outside.sh', externalAttributes: unixMode(0o120777) },
      ]),
    );
    const dest = path.join(work, 'skills', 'hostile');
    mkdirSync(path.dirname(dest));
    await assert.rejects(
      extractPackage(archive, dest),
      (error: unknown) => error instanceof CliError && error.message.includes('../outside.sh'),
    );
    assert.equal(mode(outside), 0o644);
    assert.equal(readFileSync(outside, 'utf8'), 'echo outside\n');
    assert.equal(existsSync(dest), false, 'nothing written');
  });

  describe('front matter that needs quoting', () => {
    const broken = '---\nname: quoting-needed\ndescription: Use when: updating documents\n---\n\n# Docs\n';

    it('publish --dry-run without a terminal prints the fix and how to apply it, and changes nothing (exit 8)', async () => {
      const dir = writeTree(path.join(home, 'src', 'quoting-needed'), { 'SKILL.md': broken });
      const result = await cli(['publish', dir, '--dry-run', '--version', '1.0.0'], { home, env });
      assert.equal(result.code, 8, result.stderr);
      assert.match(result.stderr, /line 3/);
      assert.match(result.stderr, /is now: description: "Use when: updating documents"/);
      assert.match(result.stderr, /--fix-front-matter/);
      assert.equal(readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), broken);
    });

    it('publish --dry-run --fix-front-matter writes the fix, and the registry accepts the package', async () => {
      const dir = writeTree(path.join(home, 'src', 'quoting-fixed'), { 'SKILL.md': broken });
      const result = await cli(['publish', dir, '--dry-run', '--fix-front-matter', '--version', '1.0.0', '--slug', 'quoting-fixed'], {
        home,
        env,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /Fixed the front matter/);
      assert.match(result.stdout, /The registry accepts the package/);
      assert.equal(
        readFileSync(path.join(dir, 'SKILL.md'), 'utf8'),
        '---\nname: quoting-needed\ndescription: "Use when: updating documents"\n---\n\n# Docs\n',
      );
    });
  });

  it('a refused package lists every problem, not only the first', async () => {
    const dir = writeTree(path.join(home, 'src', 'collisions'), {
      'SKILL.md': '---\nname: collisions\ndescription: Two pairs of names that collide.\n---\n',
      'notes.md': 'a',
      'NOTES.md': 'b',
      'guide.txt': 'c',
      'Guide.txt': 'd',
    });
    const result = await cli(['publish', dir, '--dry-run', '--version', '1.0.0'], { home, env });
    assert.equal(result.code, 8, result.stderr);
    assert.match(result.stderr, /2 problems in all/);
    assert.match(result.stderr, /\(Guide\.txt\)|\(guide\.txt\)/);
    assert.match(result.stderr, /\(NOTES\.md\)|\(notes\.md\)/);
  });
});
