import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.js';
import { skillMd, zip } from '../helpers/archives.js';
import { adminSession, createSkill, expectStatus, json, registerUser, setStatus, uniqueName } from '../helpers/client.js';
import { installPinnedClient, servedRegistry, uploadVersion, type ServedRegistry } from './pinned-client.js';

/**
 * The real `skills` command (npm `skills` 1.7.4, on the Node 22 it needs) against a registry on 127.0.0.1:
 * `skills add <a skill's page URL>` installs a package whose files sit in a top folder, `skills update` picks up a new
 * version, and `SKILLS_API_URL=<registry> skills find` prints the skill. The client and its Node are pinned by
 * test/clients/skills-cli/package-lock.json and installed apart from the project (node_modules/.cache/skills-cli):
 * as a dependency of the project, the Node package's `node` binary would stand in for the project's own in every npm
 * script. Nothing here is skipped: a client that cannot be installed or run fails the test.
 */

let NODE = '';
let CLI = '';

interface Run {
  code: number | null;
  output: string;
}

/** Runs the client with its Node in `cwd`, HOME and the XDG folders in `home`; the output with colours stripped. */
function skills(args: string[], cwd: string, home: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, ...args], {
      cwd,
      env: {
        PATH: `${path.dirname(NODE)}:${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_STATE_HOME: path.join(home, '.local/state'),
        XDG_DATA_HOME: path.join(home, '.local/share'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        DISABLE_TELEMETRY: '1',
        DO_NOT_TRACK: '1',
        NO_COLOR: '1',
        CI: process.env.CI ?? '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    // eslint-disable-next-line no-control-regex -- the client colours its output with ANSI escapes
    child.on('close', (code) => resolve({ code, output: output.replace(/\u001b\[[0-9;]*m/g, '') }));
  });
}

/** A package in one top folder, as most are zipped: SKILL.md, a script and a reference page. */
function packageOf(slug: string, description: string, notes: string): Promise<Buffer> {
  return zip([
    { path: `${slug}/SKILL.md`, content: skillMd(slug, description) },
    { path: `${slug}/scripts/run.sh`, content: '#!/bin/sh\necho run\n', mode: 0o100755 },
    { path: `${slug}/reference/notes.md`, content: notes },
  ]);
}

interface ProjectLock {
  skills: Record<string, { sourceType: string; sourceUrl: string; wellKnownDigest: string }>;
}

describe('the `skills` command against the registry', { timeout: 600_000 }, () => {
  let registry: ServedRegistry | undefined;
  let t: TestApp;
  let base: string;
  let scratch: string;

  before(async () => {
    ({ node: NODE, cli: CLI } = installPinnedClient('skills-cli', 'skills', '1.7.4', 'bin/cli.mjs'));
    registry = await servedRegistry('skills-cli-');
    ({ t, base, scratch } = registry);
  });
  after(() => registry?.close());

  it('adds a skill from its page URL, updates it to a new version, and finds it', async () => {
    const owner = await registerUser(t);
    const admin = await adminSession(t);
    const word = uniqueName('okapi').replace(/[^a-z]/g, '');
    const slug = uniqueName('pdf-notes-');
    const skill = await createSkill(t, owner.session, { slug, description: `Takes ${word} notes from PDF files.` });
    expectStatus(
      await uploadVersion(t, owner.session, slug, '1.0.0', await packageOf(slug, 'Takes notes from PDF files.', 'first notes\n')),
      201,
    );
    await setStatus(t, admin, skill.id, 'published');

    const project = mkdtempSync(path.join(scratch, 'project-'));
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const page = `${base}/skills/${slug}`;
    const added = await skills(['add', page, '-a', 'claude-code', '-y'], project, home);
    assert.equal(added.code, 0, added.output);
    const installed = path.join(project, '.claude/skills', slug);
    assert.equal(readFileSync(path.join(installed, 'SKILL.md'), 'utf8'), skillMd(slug, 'Takes notes from PDF files.'));
    assert.equal(readFileSync(path.join(installed, 'reference/notes.md'), 'utf8'), 'first notes\n');
    const index = json<{ skills: { digest: string }[] }>(
      expectStatus(await t.request({ method: 'GET', url: `/skills/${slug}/.well-known/agent-skills/index.json` }), 200),
    );
    const lock = JSON.parse(readFileSync(path.join(project, 'skills-lock.json'), 'utf8')) as ProjectLock;
    const entry = lock.skills[slug];
    assert.ok(entry, `skills-lock.json names the skill: ${JSON.stringify(lock)}`);
    assert.equal(entry.sourceType, 'well-known');
    assert.equal(entry.wellKnownDigest, index.skills[0]?.digest);

    // Nothing changed: the update check finds nothing to do and keeps the files.
    const idle = await skills(['update', '-p', '-y'], project, home);
    assert.equal(idle.code, 0, idle.output);
    assert.equal(readFileSync(path.join(installed, 'reference/notes.md'), 'utf8'), 'first notes\n');

    expectStatus(
      await uploadVersion(
        t,
        owner.session,
        slug,
        '1.1.0',
        await packageOf(slug, 'Takes notes and quotes from PDF files.', 'second notes\n'),
      ),
      201,
    );
    const updated = await skills(['update', '-p', '-y'], project, home);
    assert.equal(updated.code, 0, updated.output);
    assert.equal(
      readFileSync(path.join(installed, 'SKILL.md'), 'utf8'),
      skillMd(slug, 'Takes notes and quotes from PDF files.'),
      updated.output,
    );
    assert.equal(readFileSync(path.join(installed, 'reference/notes.md'), 'utf8'), 'second notes\n');
    const relocked = JSON.parse(readFileSync(path.join(project, 'skills-lock.json'), 'utf8')) as ProjectLock;
    assert.notEqual(relocked.skills[slug]?.wellKnownDigest, entry.wellKnownDigest, 'the lock holds the new digest');

    const found = await skills(['find', word], project, home, { SKILLS_API_URL: base });
    assert.equal(found.code, 0, found.output);
    assert.ok(found.output.includes(`${page}@${slug}`), `find prints the page URL with the name: ${found.output}`);

    // What find printed installs too.
    const elsewhere = mkdtempSync(path.join(scratch, 'project-'));
    const again = await skills(['add', `${page}@${slug}`, '-a', 'claude-code', '-y'], elsewhere, home);
    assert.equal(again.code, 0, again.output);
    assert.ok(existsSync(path.join(elsewhere, '.claude/skills', slug, 'scripts/run.sh')));
  });

  it('adds a skill globally for two agents and updates it in both', async () => {
    const owner = await registerUser(t);
    const admin = await adminSession(t);
    const slug = uniqueName('sheet-notes-');
    const skill = await createSkill(t, owner.session, { slug, description: 'Takes notes from spreadsheets.' });
    expectStatus(
      await uploadVersion(t, owner.session, slug, '1.0.0', await packageOf(slug, 'Takes notes from spreadsheets.', 'first\n')),
      201,
    );
    await setStatus(t, admin, skill.id, 'published');

    const project = mkdtempSync(path.join(scratch, 'project-'));
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const added = await skills(['add', `${base}/skills/${slug}`, '-g', '-a', 'claude-code', 'codex', '-y'], project, home);
    assert.equal(added.code, 0, added.output);
    // Claude Code's global folder links to the shared ~/.agents/skills copy, which is Codex's global folder.
    const places = [path.join(home, '.claude/skills', slug), path.join(home, '.agents/skills', slug)];
    for (const place of places) assert.equal(readFileSync(path.join(place, 'reference/notes.md'), 'utf8'), 'first\n', place);
    assert.ok(!existsSync(path.join(project, 'skills-lock.json')), 'a global install writes no project lock file');

    expectStatus(
      await uploadVersion(t, owner.session, slug, '1.1.0', await packageOf(slug, 'Takes notes from spreadsheets.', 'second\n')),
      201,
    );
    const updated = await skills(['update', '-g', '-y'], project, home);
    assert.equal(updated.code, 0, updated.output);
    for (const place of places) assert.equal(readFileSync(path.join(place, 'reference/notes.md'), 'utf8'), 'second\n', updated.output);
  });
});
