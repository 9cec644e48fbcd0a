import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, expectStatus, json, uniqueName } from '../helpers/client.js';
import {
  cli,
  cliBackend,
  parsed,
  publishAsAdmin,
  readTree,
  removeDir,
  skillMdText,
  startRegistry,
  tempDir,
  uploader,
  writeTree,
  type Registry,
} from './harness.js';

interface PublishJson {
  created: boolean;
  skill: { slug: string; status: string };
  version: { version: string; sha256: string; file_count: number; size: number };
}

interface InstallJson {
  dir: string;
  installed: { skill: string; version: string; previous: string | null; action: string; path: string; files: string[] }[];
  failed: unknown[];
}

interface LockJson {
  lockfile_version: number;
  skills: Record<string, { version: string; registry: string; sha256: string; files: string[] }>;
}

const backend = cliBackend();

describe(`command line: publish and install (${backend.name})`, () => {
  let registry: Registry;
  let home: string;
  let env: Record<string, string>;
  let key: string;

  before(async () => {
    registry = await startRegistry(backend);
    home = tempDir();
    key = (await uploader(registry.t)).key;
    env = { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: key };
  });
  after(async () => {
    await registry.close();
    removeDir(home);
  });

  /** A fresh folder inside the test's home, removed with it. */
  function scratch(): string {
    return mkdtempSync(path.join(home, 'scratch-'));
  }

  /** A skill folder with files that must be packed and files that must not. */
  function skillFolder(slug: string, extra: Record<string, string> = {}): string {
    return writeTree(path.join(home, 'src', slug), {
      'SKILL.md': skillMdText(slug),
      'scripts/extract.py': 'print("hello")\n',
      'reference/forms.md': '# Forms\n',
      '.skillignore': 'drafts/\n*.log\n',
      'drafts/idea.md': 'not shipped\n',
      'debug.log': 'not shipped\n',
      '.env': 'SECRET=1\n',
      '.env.local': 'SECRET=2\n',
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      ...extra,
    });
  }
  const SHIPPED = ['SKILL.md', 'reference/forms.md', 'scripts/extract.py'];

  async function publishFolder(slug: string, version: string, extra: Record<string, string> = {}): Promise<PublishJson> {
    const result = await cli(['publish', skillFolder(slug, extra), '--version', version, '--json'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    return parsed<PublishJson>(result);
  }

  it('publishes a folder as a new draft skill, then a new version of it', async () => {
    const slug = uniqueName('pub-');
    const dir = skillFolder(slug);
    const first = await cli(['publish', dir, '--version', '1.0.0', '--changelog', 'First release', '--json'], { home, env });
    assert.equal(first.code, 0, first.stderr);
    const created = parsed<PublishJson>(first);
    assert.equal(created.created, true);
    assert.equal(created.skill.slug, slug);
    assert.equal(created.skill.status, 'draft', 'a new skill waits for an administrator');
    assert.equal(created.version.version, '1.0.0');
    assert.equal(created.version.file_count, SHIPPED.length);

    const auth = { key };
    const files = json<{ items: { path: string }[] }>(
      expectStatus(await call(registry.t, 'GET', `/v1/skills/${slug}/versions/1.0.0/files`, auth), 200),
    );
    assert.deepEqual(
      files.items.map((f) => f.path),
      SHIPPED,
      '.git, node_modules, .env, .env.* and .skillignore patterns stay out',
    );
    const v1 = json<{ changelog: string }>(expectStatus(await call(registry.t, 'GET', `/v1/skills/${slug}/versions/1.0.0`, auth), 200));
    assert.equal(v1.changelog, 'First release');

    // A second publish from inside the folder, with human output: a new version of the existing skill.
    writeFileSync(path.join(dir, 'reference/forms.md'), '# Forms\n\nUpdated.\n');
    const second = await cli(['publish', '--version', '1.1.0'], { home, env, cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`Published ${slug} 1\\.1\\.0 .*status: draft`));
    assert.match(second.stdout, /administrator publishes it/);
    const list = json<{ items: { version: string }[] }>(
      expectStatus(await call(registry.t, 'GET', `/v1/skills/${slug}/versions`, auth), 200),
    );
    assert.deepEqual(
      list.items.map((v) => v.version),
      ['1.1.0', '1.0.0'],
    );

    // The same version again: the registry's 409, its detail on stderr, exit code 5.
    const again = await cli(['publish', dir, '--version', '1.1.0'], { home, env });
    assert.equal(again.code, 5);
    assert.match(again.stderr, /^error: .*1\.1\.0.*already exists/m);
    assert.match(again.stderr, /request id: \S+/);
    assert.equal(again.stdout, '');
  });

  it('takes the slug from --slug and the version from SKILL.md metadata.version', async () => {
    const name = uniqueName('meta-');
    const slug = `${name}-renamed`;
    const dir = writeTree(path.join(home, 'src', name), {
      'SKILL.md': skillMdText(name, 'Versioned in its metadata.', 'metadata:\n  version: 2.3.4\n'),
    });
    const result = await cli(['publish', dir, '--slug', slug, '--json'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const body = parsed<PublishJson>(result);
    assert.equal(body.skill.slug, slug);
    assert.equal(body.version.version, '2.3.4');
  });

  it('dry-runs: a broken SKILL.md fails locally with its detail; a good folder is validated by the registry and nothing is stored', async () => {
    const slug = uniqueName('dry-');
    const broken = writeTree(path.join(home, 'src', `${slug}-broken`), { 'SKILL.md': `---\nname: ${slug}\n---\n\nNo description.\n` });
    const refused = await cli(['publish', broken, '--version', '1.0.0', '--dry-run'], { home, env });
    assert.equal(refused.code, 8);
    assert.match(refused.stderr, /^error: The front matter of SKILL\.md needs a non-empty description\./m);
    assert.match(refused.stderr, /skill_md\.description: description is required \(SKILL\.md\)/);
    assert.equal(refused.stdout, '');

    const refusedJson = await cli(['publish', broken, '--version', '1.0.0', '--dry-run', '--json'], { home, env });
    assert.equal(refusedJson.code, 8);
    assert.match(parsed<{ error: { detail: string } }>(refusedJson).error.detail, /non-empty description/);

    const dir = skillFolder(slug);
    const dry = await cli(['publish', dir, '--version', '1.0.0', '--dry-run', '--json'], { home, env });
    assert.equal(dry.code, 0, dry.stderr);
    const body = parsed<{
      action: string;
      sha256: string;
      files: { path: string }[];
      validation: { valid: boolean; files: { path: string }[] };
    }>(dry);
    assert.equal(body.action, 'create');
    assert.equal(body.validation.valid, true);
    assert.deepEqual(
      body.files.map((f) => f.path),
      SHIPPED,
    );
    assert.deepEqual(
      body.validation.files.map((f) => f.path),
      SHIPPED,
    );
    expectStatus(await call(registry.t, 'GET', `/v1/skills/${slug}`, { key }), 404);

    // The dry run packs the very bytes a publish uploads.
    const published = await publishFolder(slug, '1.0.0');
    assert.equal(published.version.sha256, body.sha256);
  });

  it('refuses to publish without credentials (exit 3) and with a bad version (exit 2), before uploading', async () => {
    const slug = uniqueName('nocred-');
    const dir = skillFolder(slug);
    const anonymous = await cli(['publish', dir, '--version', '1.0.0'], { home, env: { SKILL_REGISTRY_URL: registry.url } });
    assert.equal(anonymous.code, 3);
    assert.match(anonymous.stderr, /Not logged in to http:\/\/127\.0\.0\.1:\d+/);
    const badVersion = await cli(['publish', dir, '--version', 'v1'], { home, env });
    assert.equal(badVersion.code, 2);
    assert.match(badVersion.stderr, /"v1" is not a Semantic Versioning 2\.0 version/);
    expectStatus(await call(registry.t, 'GET', `/v1/skills/${slug}`, { key }), 404);
  });

  it('installs a skill into a directory: the files are the published ones, the lock file sits beside the skill folder', async () => {
    const slug = uniqueName('inst-');
    await publishFolder(slug, '1.0.0');
    await publishAsAdmin(registry.t, slug);
    const skills = path.join(scratch(), 'skills');

    const result = await cli(['install', slug, '--dir', skills, '--json'], { home, env });
    assert.equal(result.code, 0, result.stderr);
    const body = parsed<InstallJson>(result);
    assert.equal(body.dir, skills);
    assert.deepEqual(
      body.installed.map((i) => [i.skill, i.version, i.action]),
      [[slug, '1.0.0', 'installed']],
    );

    const source = readTree(path.join(home, 'src', slug));
    const installed = readTree(path.join(skills, slug));
    assert.deepEqual(Object.keys(installed), SHIPPED, 'exactly the package files, no lock file inside the skill folder');
    for (const file of SHIPPED) assert.equal(installed[file], source[file], `${file} has the published bytes`);

    const lock = JSON.parse(readFileSync(path.join(skills, 'skills-lock.json'), 'utf8')) as LockJson;
    assert.equal(lock.lockfile_version, 2);
    assert.equal(lock.skills[slug]?.version, '1.0.0');
    assert.equal(lock.skills[slug].registry, registry.url);
    assert.deepEqual(lock.skills[slug].files, SHIPPED);

    const again = await cli(['install', slug, '--dir', skills], { home, env });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /is already installed/);
  });

  it('installs SKILL@VERSION, refuses to replace another version without --force, updates and lists', async () => {
    const slug = uniqueName('ver-');
    await publishFolder(slug, '1.0.0');
    await publishFolder(slug, '2.0.0', { 'reference/forms.md': '# Forms v2\n', 'NEW.md': 'new in 2\n' });
    await publishAsAdmin(registry.t, slug);
    const skills = path.join(scratch(), 'skills');

    const old = await cli(['install', `${slug}@1.0.0`, '--dir', skills], { home, env });
    assert.equal(old.code, 0, old.stderr);
    assert.match(old.stdout, new RegExp(`Installed ${slug} 1\\.0\\.0 in `));
    assert.equal(readFileSync(path.join(skills, slug, 'reference/forms.md'), 'utf8'), '# Forms\n');

    const refused = await cli(['install', slug, '--dir', skills], { home, env });
    assert.equal(refused.code, 5);
    assert.match(refused.stderr, new RegExp(`error: ${slug} 1\\.0\\.0 is installed in .*; pass --force to replace it with 2\\.0\\.0\\.`));
    assert.equal(readFileSync(path.join(skills, slug, 'reference/forms.md'), 'utf8'), '# Forms\n', 'unchanged after the refusal');

    const listed = await cli(['list', '--dir', skills, '--json'], { home, env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      parsed<{ skills: { skill: string; version: string; state: string }[] }>(listed).skills.map((s) => [s.skill, s.version, s.state]),
      [[slug, '1.0.0', 'installed']],
    );

    const updated = await cli(['update', '--dir', skills, '--json'], { home, env });
    assert.equal(updated.code, 0, updated.stderr);
    const update = parsed<{ updated: { skill: string; previous: string; version: string; action: string }[] }>(updated);
    assert.deepEqual(
      update.updated.map((u) => [u.skill, u.previous, u.version, u.action]),
      [[slug, '1.0.0', '2.0.0', 'replaced']],
    );
    assert.equal(readFileSync(path.join(skills, slug, 'reference/forms.md'), 'utf8'), '# Forms v2\n');
    assert.ok(existsSync(path.join(skills, slug, 'NEW.md')));

    const upToDate = await cli(['update', '--dir', skills, '--json'], { home, env });
    assert.equal(upToDate.code, 0, upToDate.stderr);
    assert.deepEqual(
      parsed<{ updated: { action: string }[] }>(upToDate).updated.map((u) => u.action),
      ['unchanged'],
      'an up-to-date skill is not downloaded again',
    );
    const upToDateHuman = await cli(['update', slug, '--dir', skills], { home, env });
    assert.equal(upToDateHuman.stdout, `${slug} 2.0.0 is up to date.\n`);

    const forced = await cli(['install', `${slug}@1.0.0`, '--dir', skills, '--force'], { home, env });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, new RegExp(`Replaced ${slug} 2\\.0\\.0 with 1\\.0\\.0`));
    assert.ok(!existsSync(path.join(skills, slug, 'NEW.md')), 'a replaced folder keeps nothing of the old version');
    assert.deepEqual(
      Object.keys(readTree(skills)).filter((f) => !f.startsWith(`${slug}/`)),
      ['skills-lock.json'],
      'no temporary folders left behind',
    );

    const humanList = await cli(['list', '--dir', skills], { home, env });
    assert.match(humanList.stdout, new RegExp(`${slug}\\s+1\\.0\\.0\\s+installed`));

    const removed = await cli(['uninstall', slug, '--dir', skills, '--json'], { home, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(parsed(removed), { dir: skills, removed: [slug] });
    assert.ok(!existsSync(path.join(skills, slug)));
    assert.deepEqual((JSON.parse(readFileSync(path.join(skills, 'skills-lock.json'), 'utf8')) as LockJson).skills, {});
  });

  it('refuses a download whose bytes do not match the published sha256, and leaves the directory unchanged', async () => {
    const slug = uniqueName('tamper-');
    const published = await publishFolder(slug, '1.0.0');
    await publishAsAdmin(registry.t, slug);
    // The stored package is altered behind the registry's back: same size, one byte different.
    const sha = published.version.sha256;
    const blob = path.join(registry.t.config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
    const bytes = readFileSync(blob);
    bytes[bytes.length - 30] = (bytes[bytes.length - 30] ?? 0) ^ 0xff;
    writeFileSync(blob, bytes);

    const parent = scratch();
    const skills = path.join(parent, 'skills');
    const fresh = await cli(['install', slug, '--dir', skills], { home, env });
    assert.equal(fresh.code, 7);
    assert.match(
      fresh.stderr,
      new RegExp(`error: The package of ${slug}@1\\.0\\.0 does not match its published sha256 \\(expected ${sha}, got [0-9a-f]{64}\\)`),
    );
    assert.ok(!existsSync(skills), 'the skills directory was not even created');

    // With an existing installation, nothing in the directory changes either.
    const other = uniqueName('kept-');
    await publishFolder(other, '1.0.0');
    await publishAsAdmin(registry.t, other);
    assert.equal((await cli(['install', other, '--dir', skills], { home, env })).code, 0);
    const before = readTree(skills);
    const json = await cli(['install', slug, '--dir', skills, '--json'], { home, env });
    assert.equal(json.code, 7);
    assert.equal(parsed<{ error: { code: string } }>(json).error.code, 'integrity_mismatch');
    assert.deepEqual(readTree(skills), before);
  });

  it('installs into ./.claude/skills of a project with .claude/ by default, and ~/.claude/skills with --global', async () => {
    const slug = uniqueName('dflt-');
    await publishFolder(slug, '1.0.0');
    await publishAsAdmin(registry.t, slug);
    // Claude Code is found by its folder, in the project and in the home folder (test/cli-commands/agent-install.test.ts has the rest).
    const project = scratch();
    mkdirSync(path.join(project, '.claude'));
    const local = await cli(['install', slug], { home, env, cwd: project });
    assert.equal(local.code, 0, local.stderr);
    assert.ok(existsSync(path.join(project, '.claude', 'skills', slug, 'SKILL.md')));
    const claudeHome = mkdtempSync(path.join(home, 'claude-'));
    const global = await cli(['install', slug, '--global', '--json'], {
      home,
      env: { ...env, CLAUDE_CONFIG_DIR: claudeHome },
      cwd: project,
    });
    assert.equal(global.code, 0, global.stderr);
    assert.equal(parsed<InstallJson>(global).dir, path.join(home, '.agents', 'skills'));
    assert.ok(existsSync(path.join(claudeHome, 'skills', slug, 'SKILL.md')));
  });

  it('reports a skill or version that does not exist with exit code 4 and the registry detail', async () => {
    const skills = path.join(scratch(), 'skills');
    const missing = await cli(['install', 'no-such-skill-here', '--dir', skills], { home, env });
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /^error: .*no-such-skill-here/m);
    const slug = uniqueName('nover-');
    await publishFolder(slug, '1.0.0');
    await publishAsAdmin(registry.t, slug);
    const noVersion = await cli(['install', `${slug}@9.9.9`, '--dir', skills, '--json'], { home, env });
    assert.equal(noVersion.code, 4);
    assert.equal(parsed<{ error: { code: string; status: number } }>(noVersion).error.code, 'version_not_found');
    assert.ok(!existsSync(skills));
  });
});
