/**
 * The built command line installing skills for agents, against a real registry: the agents found in a project and a
 * home folder, --agent, --copy and links, --global with a home folder of the test's own, update, uninstall and list in
 * every place, and verify against the lock file and the registry.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { multipart, zip } from '../helpers/archives.js';
import { authHeaders, createSkill, expectStatus, json, uniqueName } from '../helpers/client.js';
import {
  cli,
  cliBackend,
  parsed,
  publishAsAdmin,
  removeDir,
  skillMdText,
  startRegistry,
  tempDir,
  uploader,
  type Registry,
} from './harness.js';

interface Place {
  agents: string[];
  path: string;
  mode: 'copy' | 'symlink';
}

interface LockJson {
  lockfile_version: number;
  skills: Record<string, { version: string; sha256: string; files: string[]; file_sha256: Record<string, string>; places: Place[] }>;
}

interface InstallJson {
  dir: string;
  mode: string;
  targets: { dir: string; agents: string[] }[];
  installed: { skill: string; version: string; action: string; path: string; places: Place[] }[];
}

interface VerifyJson {
  ok: boolean;
  skills: { skill: string; differences: { kind: string; path: string | null; detail: string }[]; notes: string[] }[];
}

const backend = cliBackend();

function files(slug: string, version: string): Record<string, string> {
  return {
    'SKILL.md': skillMdText(slug),
    'scripts/run.sh': `echo ${slug} ${version}\n`,
    'reference/notes.md': `# Notes for ${version}\n`,
  };
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

describe(`command line: installing for agents (${backend.name})`, () => {
  let registry: Registry;
  let root: string;
  let env: Record<string, string>;
  let owner: Awaited<ReturnType<typeof uploader>>;
  const published = new Map<string, string>();

  async function publish(slug: string, versions: string[]): Promise<void> {
    await createSkill(registry.t, { key: owner.key }, { slug, name: slug });
    for (const version of versions) {
      const content = await zip(Object.entries(files(slug, version)).map(([p, c]) => ({ path: p, content: c })));
      const body = multipart({ version }, { content });
      const res = await registry.t.request({
        method: 'POST',
        url: `/v1/skills/${slug}/versions`,
        headers: { ...authHeaders({ key: owner.key }), ...body.headers },
        payload: body.payload,
      });
      published.set(`${slug}@${version}`, json<{ sha256: string }>(expectStatus(res, 201)).sha256);
    }
    await publishAsAdmin(registry.t, slug);
  }

  before(async () => {
    registry = await startRegistry(backend);
    root = tempDir('skreg-agents-e2e-');
    owner = await uploader(registry.t);
    env = { SKILL_REGISTRY_URL: registry.url };
  });
  after(async () => {
    await registry.close();
    removeDir(root);
  });

  /** A project and a home folder of their own, with the agents' folders given. */
  function machine(project: string[] = [], home: string[] = []): { project: string; home: string } {
    const base = mkdtempSync(path.join(root, 'machine-'));
    const out = { project: path.join(base, 'project'), home: path.join(base, 'home') };
    for (const dir of [out.project, ...project.map((p) => path.join(out.project, p))]) mkdirSync(dir, { recursive: true });
    for (const dir of [out.home, ...home.map((p) => path.join(out.home, p))]) mkdirSync(dir, { recursive: true });
    return out;
  }

  function lockOf(dir: string): LockJson {
    return JSON.parse(readFileSync(path.join(dir, 'skills-lock.json'), 'utf8')) as LockJson;
  }

  it('a project: the agents found get their folders, linked to one copy in .agents/skills; list, verify, update and uninstall cover every place', async () => {
    const slug = uniqueName('alpha-');
    await publish(slug, ['1.0.0', '1.1.0']);
    const m = machine(['.claude', '.windsurf'], ['.codex']);
    const run = (args: string[]) => cli(args, { home: m.home, cwd: m.project, env });
    const shared = path.join(m.project, '.agents', 'skills');

    const installed = await run(['install', `${slug}@1.0.0`, '--json']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stderr, /^Agents found: Claude Code, Codex, Windsurf\.$/m);
    const body = parsed<InstallJson>(installed);
    assert.equal(body.dir, shared);
    assert.equal(body.mode, 'symlink');
    assert.deepEqual(body.targets, [
      { dir: shared, agents: ['codex'] },
      { dir: path.join(m.project, '.claude', 'skills'), agents: ['claude-code'] },
      { dir: path.join(m.project, '.windsurf', 'skills'), agents: ['windsurf'] },
    ]);
    assert.equal(body.installed[0]?.path, path.join(shared, slug));
    for (const agentDir of ['.claude', '.windsurf']) {
      const link = path.join(m.project, agentDir, 'skills', slug);
      assert.ok(lstatSync(link).isSymbolicLink(), `${agentDir} holds a link`);
      assert.equal(readlinkSync(link), path.join('..', '..', '.agents', 'skills', slug));
      assert.equal(readFileSync(path.join(link, 'scripts', 'run.sh'), 'utf8'), `echo ${slug} 1.0.0\n`);
    }
    assert.ok(lstatSync(path.join(shared, slug)).isDirectory());

    const lock = lockOf(shared);
    assert.equal(lock.lockfile_version, 2);
    const entry = lock.skills[slug]!;
    assert.equal(entry.sha256, published.get(`${slug}@1.0.0`));
    assert.deepEqual(entry.files, ['SKILL.md', 'reference/notes.md', 'scripts/run.sh']);
    assert.deepEqual(
      entry.file_sha256,
      Object.fromEntries(
        Object.entries(files(slug, '1.0.0'))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([p, c]) => [p, sha256(c)]),
      ),
    );
    assert.deepEqual(entry.places, [
      { agents: ['codex'], path: `.agents/skills/${slug}`, mode: 'copy' },
      { agents: ['claude-code'], path: `.claude/skills/${slug}`, mode: 'symlink' },
      { agents: ['windsurf'], path: `.windsurf/skills/${slug}`, mode: 'symlink' },
    ]);

    const listed = parsed<{ skills: { skill: string; state: string; places: (Place & { state: string })[] }[] }>(
      await run(['list', '--json']),
    );
    assert.deepEqual(
      listed.skills.map((s) => [s.skill, s.state, s.places.map((p) => [p.mode, p.state])]),
      [
        [
          slug,
          'installed',
          [
            ['copy', 'installed'],
            ['symlink', 'installed'],
            ['symlink', 'installed'],
          ],
        ],
      ],
    );
    const human = await run(['list']);
    assert.match(human.stdout, new RegExp(`^${slug}\\s+\\.claude/skills/${slug}\\s+symlink\\s+claude-code\\s+installed$`, 'm'));

    const clean = await run(['verify']);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, new RegExp(`^${slug} 1\\.0\\.0: ok \\(3 places, 3 files\\)$`, 'm'));
    assert.match(clean.stdout, /^Everything matches: 1 skill, against the lock file and the registry\.$/m);

    // One byte of one file, changed through an agent's link.
    const script = path.join(m.project, '.claude', 'skills', slug, 'scripts', 'run.sh');
    const original = readFileSync(script);
    const changed = Buffer.from(original);
    changed[0] = (changed[0] ?? 0) ^ 0x01;
    writeFileSync(script, changed);
    const tampered = await run(['verify']);
    assert.equal(tampered.code, 11, tampered.stdout + tampered.stderr);
    assert.match(
      tampered.stdout,
      new RegExp(
        `^  file-changed\\s+\\.agents/skills/${slug}/scripts/run\\.sh: its sha256 is [0-9a-f]{12}…, the lock file says [0-9a-f]{12}…$`,
        'm',
      ),
    );
    assert.match(tampered.stdout, /^1 difference in 1 of 1 skill\.$/m);
    const offline = parsed<VerifyJson>(await run(['verify', slug, '--offline', '--json']));
    assert.equal(offline.ok, false);
    assert.deepEqual(
      offline.skills[0]?.differences.map((d) => d.kind),
      ['file-changed'],
    );
    writeFileSync(script, original);

    // A file added, then one removed.
    writeFileSync(path.join(shared, slug, 'extra.md'), 'added\n');
    const added = parsed<VerifyJson>(await run(['verify', '--offline', '--json']));
    assert.deepEqual(
      added.skills[0]?.differences.map((d) => [d.kind, d.path]),
      [['file-added', path.join(shared, slug, 'extra.md')]],
    );
    rmSync(path.join(shared, slug, 'extra.md'));
    rmSync(path.join(shared, slug, 'reference', 'notes.md'));
    const removed = await run(['verify', '--offline']);
    assert.equal(removed.code, 11);
    assert.match(removed.stdout, new RegExp(`^  file-missing\\s+\\.agents/skills/${slug}/reference/notes\\.md: is missing$`, 'm'));
    // A link pointing elsewhere.
    rmSync(path.join(m.project, '.windsurf', 'skills', slug));
    mkdirSync(path.join(m.project, 'elsewhere'));
    symlinkSync(path.join(m.project, 'elsewhere'), path.join(m.project, '.windsurf', 'skills', slug));
    const elsewhere = parsed<VerifyJson>(await run(['verify', '--offline', '--json']));
    assert.deepEqual(
      elsewhere.skills[0]?.differences.map((d) => d.kind),
      ['file-missing', 'link-elsewhere'],
    );

    // update: every place gets 1.1.0, the links stay links (and the one pointing elsewhere points home again).
    const updated = await run(['update', '--json']);
    assert.equal(updated.code, 0, updated.stderr);
    assert.deepEqual(
      parsed<{ updated: { previous: string; version: string; places: Place[] }[] }>(updated).updated.map((u) => [
        u.previous,
        u.version,
        u.places.map((p) => p.mode),
      ]),
      [['1.0.0', '1.1.0', ['copy', 'symlink', 'symlink']]],
    );
    for (const agentDir of ['.agents', '.claude', '.windsurf'])
      assert.equal(readFileSync(path.join(m.project, agentDir, 'skills', slug, 'scripts', 'run.sh'), 'utf8'), `echo ${slug} 1.1.0\n`);
    assert.equal(readlinkSync(path.join(m.project, '.windsurf', 'skills', slug)), path.join('..', '..', '.agents', 'skills', slug));
    assert.equal((await run(['verify'])).code, 0);

    const gone = await run(['uninstall', slug, '--json']);
    assert.equal(gone.code, 0, gone.stderr);
    assert.deepEqual(parsed(gone), { dir: shared, removed: [slug] });
    for (const agentDir of ['.agents', '.claude', '.windsurf'])
      assert.ok(!existsSync(path.join(m.project, agentDir, 'skills', slug)), agentDir);
    assert.ok(existsSync(path.join(m.project, 'elsewhere')), 'nothing removed through a link');
    assert.deepEqual(lockOf(shared).skills, {});
  });

  it('--agent, --copy, a project where no agent is found, --global with a home folder of its own and CLAUDE_CONFIG_DIR', async () => {
    const slug = uniqueName('beta-');
    await publish(slug, ['1.0.0']);

    // Nothing found: the shared folder alone, said on stderr.
    const bare = machine();
    const fallback = await cli(['install', slug], { home: bare.home, cwd: bare.project, env });
    assert.equal(fallback.code, 0, fallback.stderr);
    assert.match(fallback.stderr, /^No agent found in this project or your home folder: installing into \.agents\/skills,/m);
    assert.match(
      fallback.stdout,
      new RegExp(`^Installed ${slug} 1\\.0\\.0 in \\.agents/skills/${slug} \\(3 files; scan: clean\\)\\.$`, 'm'),
    );
    assert.ok(lstatSync(path.join(bare.project, '.agents', 'skills', slug)).isDirectory());
    // The same version for one more agent: the shared copy stays, Roo gets a link to it.
    const more = await cli(['install', slug, '--agent', 'roo', '--symlink'], { home: bare.home, cwd: bare.project, env });
    assert.equal(more.code, 0, more.stderr);
    assert.ok(lstatSync(path.join(bare.project, '.roo', 'skills', slug)).isSymbolicLink());
    assert.equal((await cli(['verify', '--offline'], { home: bare.home, cwd: bare.project, env })).code, 0);

    // --agent a,b --copy: a full copy in each, nothing in .agents/skills.
    const chosen = machine();
    const copies = await cli(['install', slug, '--agent', 'claude-code,cursor', '-a', 'junie', '--copy', '--json'], {
      home: chosen.home,
      cwd: chosen.project,
      env,
    });
    assert.equal(copies.code, 0, copies.stderr);
    assert.deepEqual(
      parsed<InstallJson>(copies).installed[0]?.places.map((p) => [path.relative(chosen.project, p.path), p.mode, p.agents.join(',')]),
      [
        [`.agents/skills/${slug}`, 'copy', 'cursor'],
        [`.claude/skills/${slug}`, 'copy', 'claude-code'],
        [`.junie/skills/${slug}`, 'copy', 'junie'],
      ],
    );
    for (const dir of ['.agents', '.claude', '.junie']) assert.ok(lstatSync(path.join(chosen.project, dir, 'skills', slug)).isDirectory());
    const unknown = await cli(['install', slug, '--agent', 'clippy'], { home: chosen.home, cwd: chosen.project, env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown agent clippy\. Known agents: claude-code, codex, cursor/);

    // --global: the home folder's agents, and CLAUDE_CONFIG_DIR moving Claude Code's.
    const user = machine([], ['.cursor', 'claude-config']);
    const claudeHome = path.join(user.home, 'claude-config');
    const globalEnv = { ...env, CLAUDE_CONFIG_DIR: claudeHome };
    const global = await cli(['install', slug, '-g', '--json'], { home: user.home, cwd: user.project, env: globalEnv });
    assert.equal(global.code, 0, global.stderr);
    const globalBody = parsed<InstallJson>(global);
    assert.equal(globalBody.dir, path.join(user.home, '.agents', 'skills'));
    assert.deepEqual(
      globalBody.installed[0]?.places.map((p) => [p.path, p.mode]),
      [
        [path.join(user.home, '.agents', 'skills', slug), 'copy'],
        [path.join(claudeHome, 'skills', slug), 'symlink'],
        [path.join(user.home, '.cursor', 'skills', slug), 'symlink'],
      ],
    );
    assert.equal(readFileSync(path.join(claudeHome, 'skills', slug, 'SKILL.md'), 'utf8'), skillMdText(slug));
    assert.ok(!existsSync(path.join(user.project, '.agents')), 'nothing in the project');
    const globalList = parsed<{ skills: { skill: string; state: string }[] }>(
      await cli(['list', '--global', '--json'], { home: user.home, cwd: user.project, env: globalEnv }),
    );
    assert.deepEqual(
      globalList.skills.map((s) => [s.skill, s.state]),
      [[slug, 'installed']],
    );
    assert.equal((await cli(['verify', '-g'], { home: user.home, cwd: user.project, env: globalEnv })).code, 0);
    const removed = await cli(['uninstall', slug, '-g'], { home: user.home, cwd: user.project, env: globalEnv });
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!existsSync(path.join(claudeHome, 'skills', slug)));
    assert.ok(!existsSync(path.join(user.home, '.agents', 'skills', slug)));
    assert.ok(existsSync(path.join(claudeHome, 'skills')), 'the agent folder itself stays');
  });

  it('verify against the registry: a version uploaded again with another sha256, then quarantined; an old lock file is upgraded', async () => {
    const slug = uniqueName('gamma-');
    await publish(slug, ['1.0.0']);
    const m = machine(['.claude']);
    const run = (args: string[]) => cli(args, { home: m.home, cwd: m.project, env });
    // As an earlier version installed it: .claude/skills alone, with a version 1 lock file there.
    const legacy = path.join(m.project, '.claude', 'skills');
    assert.equal((await run(['install', slug, '--dir', legacy])).code, 0);
    const v2 = lockOf(legacy);
    const { places: _places, file_sha256: _digests, ...old } = v2.skills[slug]!;
    writeFileSync(path.join(legacy, 'skills-lock.json'), JSON.stringify({ lockfile_version: 1, skills: { [slug]: old } }));
    const upgraded = await run(['verify', '--json']);
    assert.equal(upgraded.code, 0, upgraded.stdout);
    assert.match(parsed<VerifyJson>(upgraded).skills[0]!.notes[0]!, /no per-file sha256 recorded/);
    const listed = parsed<{ dir: string; skills: { skill: string; places: Place[] }[] }>(await run(['list', '--json']));
    assert.deepEqual(
      listed.skills.map((s) => [s.skill, s.places.map((p) => [p.path, p.agents.join(','), p.mode])]),
      [[slug, [[path.join(legacy, slug), 'claude-code', 'copy']]]],
    );

    const db = registry.t.runtime.database.db;
    const row = await db
      .selectFrom('versions')
      .innerJoin('skills', 'skills.id', 'versions.skill_id')
      .select(['versions.id as id', 'skills.id as skillId'])
      .where('skills.slug', '=', slug)
      .executeTakeFirstOrThrow();
    const other = sha256('another package');
    await db.updateTable('versions').set({ sha256: other }).where('id', '=', row.id).execute();
    registry.t.runtime.services.skills.changed(row.skillId);
    const reuploaded = await run(['verify']);
    assert.equal(reuploaded.code, 11, reuploaded.stdout + reuploaded.stderr);
    assert.match(
      reuploaded.stdout,
      new RegExp(
        `^  package-changed\\s+registry: the registry's package of ${slug} 1\\.0\\.0 has sha256 ${other.slice(0, 12)}…, the installed one [0-9a-f]{12}…`,
        'm',
      ),
    );
    assert.equal((await run(['verify', '--offline'])).code, 0, 'the lock file and the files still agree');

    await db.updateTable('version_scans').set({ verdict: 'malicious' }).where('version_id', '=', row.id).execute();
    registry.t.runtime.services.skills.changed(row.skillId);
    const quarantined = parsed<VerifyJson>(await run(['verify', '--json']));
    assert.ok(quarantined.skills[0]?.differences.some((d) => d.kind === 'quarantined'));

    // The old lock file moved into .agents/skills on the first change; uninstall removes the .claude/skills copy.
    const gone = await run(['uninstall', slug]);
    assert.equal(gone.code, 0, gone.stderr);
    assert.ok(!existsSync(path.join(legacy, slug)));
    assert.ok(!existsSync(path.join(legacy, 'skills-lock.json')));
    assert.deepEqual(lockOf(path.join(m.project, '.agents', 'skills')).skills, {});
  });
});
