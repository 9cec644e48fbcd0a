import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  AGENTS,
  detectAgents,
  dirScope,
  findAgent,
  globalDir,
  globalScope,
  knownDirs,
  linkModeFor,
  parseAgentOption,
  projectDir,
  projectScope,
  resolveTargets,
  type AgentEnv,
} from '@skill-registry/cli/agents';
import { CliError, EXIT } from '@skill-registry/cli/exit-codes';
import { LOCK_FILE, readLock, type InstalledSkill } from '@skill-registry/cli/lockfile';
import { fileDigests, linkIn, removeCopy, swapIn } from '@skill-registry/cli/place-files';
import { readScopeLock, updateScopeLock } from '@skill-registry/cli/scope-lock';
import { checkLocal, installedPaths } from '@skill-registry/cli/verifier';

// Plain file system helpers, so these units load no server code.
const root = mkdtempSync(path.join(tmpdir(), 'skreg-agents-'));
after(() => rmSync(root, { recursive: true, force: true }));

function writeTree(dir: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, ...name.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

let fresh = 0;
/** A project and a home folder of their own, empty. */
function place(env: NodeJS.ProcessEnv = {}): AgentEnv {
  fresh += 1;
  const base = path.join(root, `case-${fresh}`);
  const e = { cwd: path.join(base, 'project'), home: path.join(base, 'home'), env: { HOME: path.join(base, 'home'), ...env } };
  mkdirSync(e.cwd, { recursive: true });
  mkdirSync(e.home, { recursive: true });
  return e;
}

function usage(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => error instanceof CliError && error.exitCode === EXIT.usage && pattern.test(error.message));
}

/** The twenty most used agents, with the folders the `skills` client (1.7.4) installs into. */
const MOST_USED: [key: string, project: string, global: string][] = [
  ['claude-code', '.claude/skills', '~/.claude/skills'],
  ['codex', '.agents/skills', '~/.agents/skills'],
  ['cursor', '.agents/skills', '~/.cursor/skills'],
  ['github-copilot', '.agents/skills', '~/.copilot/skills'],
  ['gemini-cli', '.agents/skills', '~/.gemini/skills'],
  ['opencode', '.agents/skills', '~/.config/opencode/skills'],
  ['windsurf', '.windsurf/skills', '~/.codeium/windsurf/skills'],
  ['cline', '.agents/skills', '~/.agents/skills'],
  ['roo', '.roo/skills', '~/.roo/skills'],
  ['goose', '.goose/skills', '~/.config/goose/skills'],
  ['amp', '.agents/skills', '~/.config/agents/skills'],
  ['continue', '.continue/skills', '~/.continue/skills'],
  ['kiro-cli', '.kiro/skills', '~/.kiro/skills'],
  ['qwen-code', '.qwen/skills', '~/.qwen/skills'],
  ['junie', '.junie/skills', '~/.junie/skills'],
  ['augment', '.augment/skills', '~/.augment/skills'],
  ['trae', '.trae/skills', '~/.trae/skills'],
  ['openhands', '.openhands/skills', '~/.openhands/skills'],
  ['zed', '.agents/skills', '~/.agents/skills'],
  ['warp', '.agents/skills', '~/.agents/skills'],
];

describe('agents: the table', () => {
  it('has the twenty most used agents with the project and global folders of the skills client, and unique keys', () => {
    const e = place();
    for (const [key, project, global] of MOST_USED) {
      const agent = findAgent(key);
      assert.ok(agent, key);
      assert.ok(agent.name.length > 0);
      assert.equal(projectDir(agent, '/p'), path.join('/p', ...project.split('/')), key);
      assert.equal(globalDir(agent, e), path.join(e.home, ...global.slice(2).split('/')), key);
      assert.ok(agent.detect.length > 0, `${key} can be detected`);
    }
    assert.equal(new Set(AGENTS.map((a) => a.key)).size, AGENTS.length);
    assert.ok(AGENTS.length >= 79, 'every agent the skills client knows');
    for (const agent of AGENTS) {
      assert.match(agent.key, /^[a-z0-9-]+$/);
      assert.ok(!agent.project?.startsWith('/'), `${agent.key}: project folders are relative`);
    }
  });

  it('environment overrides: CLAUDE_CONFIG_DIR and the other agent homes, XDG_CONFIG_HOME when absolute', () => {
    const e = place({ CLAUDE_CONFIG_DIR: '/opt/claude', VIBE_HOME: '/opt/vibe', XDG_CONFIG_HOME: '/xdg' });
    assert.equal(globalDir(findAgent('claude-code')!, e), '/opt/claude/skills');
    assert.equal(globalDir(findAgent('mistral-vibe')!, e), '/opt/vibe/skills');
    assert.equal(globalDir(findAgent('goose')!, e), '/xdg/goose/skills');
    assert.equal(globalDir(findAgent('opencode')!, e), '/xdg/opencode/skills');
    assert.equal(globalDir(findAgent('amp')!, e), '/xdg/agents/skills');
    // Codex's global folder is the shared one; CODEX_HOME only says where Codex lives.
    assert.equal(
      globalDir(findAgent('codex')!, { ...e, env: { ...e.env, CODEX_HOME: '/opt/codex' } }),
      path.join(e.home, '.agents/skills'),
    );
    const relative = { ...e, env: { XDG_CONFIG_HOME: 'relative' } };
    assert.equal(globalDir(findAgent('goose')!, relative), path.join(e.home, '.config/goose/skills'));
    assert.equal(globalDir(findAgent('eve')!, e), null, 'an agent without a global folder');
    // OpenClaw: the first of its folders that exists.
    assert.equal(globalDir(findAgent('openclaw')!, e), path.join(e.home, '.openclaw/skills'));
    mkdirSync(path.join(e.home, '.clawdbot'));
    assert.equal(globalDir(findAgent('openclaw')!, e), path.join(e.home, '.clawdbot/skills'));
  });
});

describe('agents: detection and targets', () => {
  it('nothing found: only the shared .agents/skills folder, as a fallback that is said', () => {
    const e = place();
    assert.deepEqual(detectAgents('project', e), []);
    const project = resolveTargets(projectScope(e), null, e);
    assert.deepEqual(project, { targets: [{ dir: path.join(e.cwd, '.agents/skills'), agents: [] }], detected: [], fallback: true });
    const global = resolveTargets(globalScope(e), null, e);
    assert.deepEqual(global.targets, [{ dir: path.join(e.home, '.agents/skills'), agents: [] }]);
    assert.equal(linkModeFor(project.targets, {}), 'copy');
  });

  it("a project's .claude/ finds Claude Code; the home folder's ~/.codex and ~/.cursor find Codex and Cursor", () => {
    const e = place();
    mkdirSync(path.join(e.cwd, '.claude'));
    mkdirSync(path.join(e.home, '.codex'));
    mkdirSync(path.join(e.home, '.cursor'));
    assert.deepEqual(
      detectAgents('project', e).map((a) => a.key),
      ['claude-code', 'codex', 'cursor'],
    );
    // Globally, a project's folders say nothing.
    assert.deepEqual(
      detectAgents('global', e).map((a) => a.key),
      ['codex', 'cursor'],
    );
    const project = resolveTargets(projectScope(e), null, e);
    assert.equal(project.fallback, false);
    assert.deepEqual(project.detected, ['claude-code', 'codex', 'cursor']);
    assert.deepEqual(project.targets, [
      { dir: path.join(e.cwd, '.agents/skills'), agents: ['codex', 'cursor'] },
      { dir: path.join(e.cwd, '.claude/skills'), agents: ['claude-code'] },
    ]);
    assert.equal(linkModeFor(project.targets, {}), 'symlink', 'several folders: links to one copy');
    assert.equal(linkModeFor(project.targets, { copy: true }), 'copy');
    assert.equal(linkModeFor(project.targets.slice(0, 1), { symlink: true }), 'symlink');
    usage(() => linkModeFor(project.targets, { copy: true, symlink: true }), /either --copy or --symlink/);

    const global = resolveTargets(globalScope(e), null, e);
    assert.deepEqual(global.targets, [
      { dir: path.join(e.home, '.agents/skills'), agents: ['codex'] },
      { dir: path.join(e.home, '.cursor/skills'), agents: ['cursor'] },
    ]);
  });

  it('CLAUDE_CONFIG_DIR is where Claude Code is found and installed globally', () => {
    const e = place();
    const claude = path.join(e.home, 'elsewhere');
    mkdirSync(claude);
    const moved = { ...e, env: { ...e.env, CLAUDE_CONFIG_DIR: claude } };
    assert.deepEqual(
      detectAgents('global', moved).map((a) => a.key),
      ['claude-code'],
    );
    assert.deepEqual(
      resolveTargets(globalScope(moved), null, moved).targets.map((t) => t.dir),
      [path.join(e.home, '.agents/skills'), path.join(claude, 'skills')],
    );
    assert.deepEqual(detectAgents('global', e), [], 'without the variable, ~/.claude is looked for');
  });

  it('--agent chooses exactly those folders (repeated, comma lists, all); unknown agents are refused', () => {
    const e = place();
    mkdirSync(path.join(e.cwd, '.claude'));
    assert.deepEqual(parseAgentOption(['claude-code,Cursor', 'windsurf', 'cursor']), ['claude-code', 'cursor', 'windsurf']);
    assert.equal(parseAgentOption(undefined), null);
    assert.equal(parseAgentOption(['all']), 'all');
    usage(() => parseAgentOption(['all,codex']), /stands alone/);
    usage(() => parseAgentOption(['claude']), /Unknown agent claude\. Known agents: claude-code, codex/);
    usage(() => parseAgentOption([',']), /needs an agent key/);

    const chosen = resolveTargets(projectScope(e), ['windsurf'], e);
    assert.deepEqual(chosen, {
      targets: [{ dir: path.join(e.cwd, '.windsurf/skills'), agents: ['windsurf'] }],
      detected: [],
      fallback: false,
    });
    assert.equal(linkModeFor(chosen.targets, {}), 'copy');
    const shared = resolveTargets(projectScope(e), ['codex', 'cursor', 'claude-code'], e);
    assert.deepEqual(shared.targets, [
      { dir: path.join(e.cwd, '.agents/skills'), agents: ['codex', 'cursor'] },
      { dir: path.join(e.cwd, '.claude/skills'), agents: ['claude-code'] },
    ]);
    const all = resolveTargets(projectScope(e), 'all', e);
    assert.equal(all.targets[0]?.dir, path.join(e.cwd, '.agents/skills'));
    assert.ok(all.targets[0].agents.includes('github-copilot'));
    assert.equal(new Set(all.targets.map((t) => t.dir)).size, all.targets.length, 'one target per folder');
    assert.ok(all.targets.length > 40);
    const allGlobal = resolveTargets(globalScope(e), 'all', e);
    assert.ok(!allGlobal.targets.some((t) => t.agents.includes('eve')), 'agents without a global folder are left out of all');
    usage(() => resolveTargets(globalScope(e), ['eve'], e), /Eve \(eve\) has no global skills folder/);
    usage(() => resolveTargets(dirScope('/x'), ['codex'], e), /--dir names one folder/);
    assert.deepEqual(resolveTargets(dirScope('/x'), null, e).targets, [{ dir: '/x', agents: [] }]);
    assert.ok(knownDirs(projectScope(e), e).has(path.join(e.cwd, '.claude/skills')));
    assert.ok(knownDirs(globalScope(e), e).has(path.join(e.home, '.codeium/windsurf/skills')));
  });
});

function entry(files: Record<string, string>, places: InstalledSkill['places']): InstalledSkill {
  return {
    full_name: 'demo',
    skill_id: 'id-1',
    version: '1.0.0',
    registry: 'http://127.0.0.1:1',
    sha256: 'a'.repeat(64),
    size: 10,
    archive_format: 'zip',
    files: Object.keys(files).sort(),
    places,
    installed_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('agents: copies, links and the lock file', () => {
  it('a link is relative and points at the shared copy; verify sees a changed byte, an added file, a link pointing elsewhere', async () => {
    const e = place();
    const scope = projectScope(e);
    const files = { 'SKILL.md': '---\nname: demo\n---\n', 'scripts/run.sh': 'echo hi\n' };
    const staging = writeTree(path.join(e.cwd, '.agents/skills/.demo.installing'), files);
    const shared = path.join(e.cwd, '.agents/skills/demo');
    await swapIn(staging, shared);
    const claude = path.join(e.cwd, '.claude/skills/demo');
    mkdirSync(path.dirname(claude), { recursive: true });
    await linkIn(shared, claude);
    assert.ok(lstatSync(claude).isSymbolicLink());
    assert.equal(readlinkSync(claude), path.join('..', '..', '.agents', 'skills', 'demo'));
    assert.equal(readFileSync(path.join(claude, 'SKILL.md'), 'utf8'), files['SKILL.md']);

    const installed = {
      ...entry(files, [
        { agents: [], path: '.agents/skills/demo', mode: 'copy' },
        { agents: ['claude-code'], path: '.claude/skills/demo', mode: 'symlink' },
      ]),
      file_sha256: await fileDigests(shared, Object.keys(files)),
    };
    assert.deepEqual(await checkLocal(scope, 'demo', installed), { differences: [], notes: [] });

    writeFileSync(path.join(shared, 'SKILL.md'), '---\nname: demO\n---\n');
    writeFileSync(path.join(shared, 'extra.md'), 'added\n');
    const other = writeTree(path.join(e.cwd, 'other'), { 'SKILL.md': 'x' });
    await linkIn(other, claude);
    const { differences } = await checkLocal(scope, 'demo', installed);
    assert.deepEqual(
      differences.map((d) => [d.kind, d.path]),
      [
        ['file-changed', path.join(shared, 'SKILL.md')],
        ['file-added', path.join(shared, 'extra.md')],
        ['link-elsewhere', claude],
      ],
    );
    // An entry without per-file digests is checked for presence only, and says so.
    const old = { ...installed, file_sha256: undefined, places: installed.places.slice(0, 1) };
    const presence = await checkLocal(scope, 'demo', old);
    assert.deepEqual(
      presence.differences.map((d) => d.kind),
      ['file-added'],
    );
    assert.match(presence.notes[0]!, /no per-file sha256 recorded/);
  });

  it('removing a copy removes only the listed files, keeps what was added, and never follows a link out of the folder', async () => {
    const e = place();
    const outside = writeTree(path.join(e.cwd, 'outside'), { 'keep.txt': 'mine\n' });
    const folder = writeTree(path.join(e.cwd, 'skills', 'demo'), { 'SKILL.md': 'x', 'notes/own.md': 'added by hand\n' });
    // The skill's `scripts` folder replaced by a link to a folder outside.
    symlinkSync(outside, path.join(folder, 'scripts'));
    const result = await removeCopy(folder, ['SKILL.md', 'scripts/keep.txt']);
    assert.equal(result.removed, false);
    assert.ok(existsSync(path.join(outside, 'keep.txt')), 'nothing removed through the link');
    assert.ok(!existsSync(path.join(folder, 'SKILL.md')));
    assert.ok(existsSync(path.join(folder, 'notes/own.md')), 'a file added by hand is kept');
    assert.ok(result.kept.some((k) => k.includes('not followed')));
    assert.ok(result.kept.some((k) => k.includes('did not install, so it was kept')));

    const clean = writeTree(path.join(e.cwd, 'skills', 'clean'), { 'SKILL.md': 'x', 'a/b/c.md': 'y' });
    assert.deepEqual(await removeCopy(clean, ['SKILL.md', 'a/b/c.md']), { removed: true, kept: [] });
    assert.ok(!existsSync(clean));
  });

  it('a version 1 lock file is read with its places, and the one earlier versions wrote in .claude/skills is moved into .agents/skills', async () => {
    const e = place();
    const v1 = {
      lockfile_version: 1,
      skills: {
        demo: {
          version: '1.0.0',
          registry: 'http://r',
          sha256: 'b'.repeat(64),
          size: 1,
          archive_format: 'zip',
          files: ['SKILL.md'],
          installed_at: 'now',
        },
      },
    };
    const dir = path.join(e.cwd, 'custom');
    writeTree(dir, { [LOCK_FILE]: JSON.stringify(v1) });
    const read = await readLock(dir);
    assert.equal(read.lockfile_version, 2);
    assert.deepEqual(read.skills.demo?.places, [{ agents: [], path: 'demo', mode: 'copy' }]);
    assert.deepEqual((await readScopeLock(dirScope(dir))).skills.demo?.places, [{ agents: [], path: 'demo', mode: 'copy' }]);

    const legacy = path.join(e.cwd, '.claude/skills');
    writeTree(legacy, { [LOCK_FILE]: JSON.stringify(v1), 'demo/SKILL.md': 'x' });
    const scope = projectScope(e);
    const merged = await readScopeLock(scope);
    assert.deepEqual(merged.skills.demo?.places, [{ agents: ['claude-code'], path: '.claude/skills/demo', mode: 'copy' }]);
    assert.ok(!existsSync(path.join(scope.shared, LOCK_FILE)), 'reading writes nothing');
    await updateScopeLock(scope, () => Promise.resolve());
    assert.ok(!existsSync(path.join(legacy, LOCK_FILE)), 'the old lock file is gone once its entries moved');
    const moved = JSON.parse(readFileSync(path.join(scope.shared, LOCK_FILE), 'utf8')) as {
      lockfile_version: number;
      skills: Record<string, InstalledSkill>;
    };
    assert.equal(moved.lockfile_version, 2);
    assert.deepEqual(moved.skills.demo?.places, [{ agents: ['claude-code'], path: '.claude/skills/demo', mode: 'copy' }]);
    writeFileSync(path.join(scope.shared, LOCK_FILE), JSON.stringify({ lockfile_version: 3, skills: {} }));
    await assert.rejects(readLock(scope.shared), /newer skill-registry/);
  });

  it("the registry's file list is compared as installed: a single top-level folder holding SKILL.md is the skill", () => {
    assert.deepEqual(installedPaths(['demo/SKILL.md', 'demo/a.md']), ['SKILL.md', 'a.md']);
    assert.deepEqual(installedPaths(['SKILL.md', 'demo/a.md']), ['SKILL.md', 'demo/a.md']);
    assert.deepEqual(installedPaths(['docs/a.md', 'x/SKILL.md']), ['docs/a.md', 'x/SKILL.md']);
  });
});
