import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.js';
import { skillMd, zip } from '../helpers/archives.js';
import { adminSession, call, createKey, createSkill, expectStatus, json, registerUser, setStatus, uniqueName } from '../helpers/client.js';
import { installPinnedClient, servedRegistry, uploadVersion, type ServedRegistry } from './pinned-client.js';

/**
 * The real `clawhub` command line (npm `clawhub` 0.23.3, on the Node 22 it needs) against a registry on 127.0.0.1:
 * search, inspect, install, update after a new version, login with a key and with the device flow, publish of a
 * folder and the same folder again ("already published"). The client and its Node are pinned by
 * test/clients/clawhub-cli/package-lock.json and installed apart from the project (node_modules/.cache/clawhub-cli),
 * so the Node package's binary never stands in for the project's own. Nothing is skipped: a client that cannot be
 * installed or run fails the test.
 */

let NODE = '';
let CLI = '';

interface Run {
  code: number | null;
  output: string;
}

/**
 * Runs the client with its Node: the registry named by CLAWHUB_REGISTRY (or found through CLAWHUB_SITE), its config
 * file in `home`, telemetry off, installs under `workdir`. `onOutput` sees the output as it arrives.
 */
function clawhub(
  args: string[],
  home: string,
  workdir: string,
  env: Record<string, string>,
  onOutput?: (soFar: string) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, '--workdir', workdir, '--no-input', ...args], {
      cwd: workdir,
      env: {
        PATH: `${path.dirname(NODE)}:${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        CLAWHUB_CONFIG_PATH: path.join(home, 'clawhub.json'),
        CLAWHUB_DISABLE_TELEMETRY: '1',
        NO_COLOR: '1',
        CI: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let output = '';
    const take = (d: Buffer) => {
      output += d.toString();
      onOutput?.(output);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    // eslint-disable-next-line no-control-regex -- the client colours its output with ANSI escapes
    child.on('close', (code) => resolve({ code, output: output.replace(/\u001b\[[0-9;]*m/g, '') }));
  });
}

/** A package in one top folder, as most are zipped: SKILL.md and a reference page. */
function packageOf(slug: string, description: string, notes: string): Promise<Buffer> {
  return zip([
    { path: `${slug}/SKILL.md`, content: skillMd(slug, description) },
    { path: `${slug}/reference/notes.md`, content: notes },
  ]);
}

describe('the `clawhub` command against the registry', { timeout: 600_000 }, () => {
  let registry: ServedRegistry | undefined;
  let t: TestApp;
  let base: string;
  let scratch: string;

  before(async () => {
    ({ node: NODE, cli: CLI } = installPinnedClient('clawhub-cli', 'clawhub', '0.23.3', 'bin/clawdhub.js'));
    registry = await servedRegistry('clawhub-cli-');
    ({ t, base, scratch } = registry);
  });
  after(() => registry?.close());

  it('searches, inspects, installs a skill and updates it to a new version', async () => {
    const owner = await registerUser(t);
    const admin = await adminSession(t);
    const word = uniqueName('okapi').replace(/[^a-z]/g, '');
    const slug = uniqueName('pdf-notes-');
    const skill = await createSkill(t, owner.session, { slug, name: 'PDF notes', description: `Takes ${word} notes from PDF files.` });
    expectStatus(
      await uploadVersion(t, owner.session, slug, '1.0.0', await packageOf(slug, 'Takes notes from PDF files.', 'first notes\n')),
      201,
    );
    await setStatus(t, admin, skill.id, 'published');

    const home = mkdtempSync(path.join(scratch, 'home-'));
    const work = mkdtempSync(path.join(scratch, 'work-'));
    const env = { CLAWHUB_REGISTRY: base };

    const found = await clawhub(['search', word], home, work, env);
    assert.equal(found.code, 0, found.output);
    assert.ok(found.output.includes(slug), `search prints the skill: ${found.output}`);

    const inspected = await clawhub(['inspect', slug], home, work, env);
    assert.equal(inspected.code, 0, inspected.output);
    assert.ok(inspected.output.includes('1.0.0'), `inspect shows the latest version: ${inspected.output}`);

    const installed = await clawhub(['install', slug], home, work, env);
    assert.equal(installed.code, 0, installed.output);
    const folder = path.join(work, 'skills', slug);
    assert.equal(readFileSync(path.join(folder, 'SKILL.md'), 'utf8'), skillMd(slug, 'Takes notes from PDF files.'));
    assert.equal(readFileSync(path.join(folder, 'reference/notes.md'), 'utf8'), 'first notes\n');
    const lock = JSON.parse(readFileSync(path.join(work, '.clawhub/lock.json'), 'utf8')) as { skills: Record<string, { version: string }> };
    assert.equal(lock.skills[slug]?.version, '1.0.0');

    // Nothing new: update leaves the folder as it is.
    const idle = await clawhub(['update', '--all'], home, work, env);
    assert.equal(idle.code, 0, idle.output);
    assert.equal(readFileSync(path.join(folder, 'reference/notes.md'), 'utf8'), 'first notes\n');

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
    const updated = await clawhub(['update', '--all'], home, work, env);
    assert.equal(updated.code, 0, updated.output);
    assert.equal(readFileSync(path.join(folder, 'reference/notes.md'), 'utf8'), 'second notes\n', updated.output);
    const relocked = JSON.parse(readFileSync(path.join(work, '.clawhub/lock.json'), 'utf8')) as {
      skills: Record<string, { version: string }>;
    };
    assert.equal(relocked.skills[slug]?.version, '1.1.0');
  });

  it('installs a scoped skill at a version by owner/slug, and names the owners of an ambiguous slug', async () => {
    const admin = await adminSession(t);
    const shared = uniqueName('shared-notes-');
    const owners = [await registerUser(t), await registerUser(t)];
    for (const [i, user] of owners.entries()) {
      const skill = await createSkill(t, user.session, { slug: shared, scope: user.username, description: `Shared notes ${i}.` });
      expectStatus(await uploadVersion(t, user.session, skill.id, '1.0.0', await packageOf(shared, 'Shared notes.', `first ${i}\n`)), 201);
      await setStatus(t, admin, skill.id, 'published');
      expectStatus(await uploadVersion(t, user.session, skill.id, '1.1.0', await packageOf(shared, 'Shared notes.', `second ${i}\n`)), 201);
    }
    const [first] = owners;
    assert.ok(first);
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const work = mkdtempSync(path.join(scratch, 'work-'));
    const env = { CLAWHUB_REGISTRY: base };

    const pinned = await clawhub(['install', `${first.username}/${shared}`, '--version', '1.0.0'], home, work, env);
    assert.equal(pinned.code, 0, pinned.output);
    const folder = path.join(work, 'skills', `@${first.username}`, shared);
    assert.equal(readFileSync(path.join(folder, 'reference/notes.md'), 'utf8'), 'first 0\n', pinned.output);

    const ambiguous = await clawhub(['inspect', shared], home, work, env);
    assert.notEqual(ambiguous.code, 0, ambiguous.output);
    for (const user of owners) assert.ok(ambiguous.output.includes(`${user.username}/${shared}`), ambiguous.output);
  });

  it('logs in with a key and publishes a folder, and the same folder again is already published', async () => {
    const owner = await registerUser(t);
    const key = await createKey(t, owner.session);
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const work = mkdtempSync(path.join(scratch, 'work-'));
    // Found through the discovery document, as an operator would point users at it.
    const env = { CLAWHUB_SITE: base };

    const login = await clawhub(['login', '--token', key.key], home, work, env);
    assert.equal(login.code, 0, login.output);
    assert.ok(login.output.includes(owner.username), `login names the account: ${login.output}`);
    const config = JSON.parse(readFileSync(path.join(home, 'clawhub.json'), 'utf8')) as { registry: string; token: string };
    assert.equal(config.token, key.key);
    assert.equal(config.registry, base);

    const slug = uniqueName('quote-finder-');
    const folder = path.join(work, slug);
    mkdirSync(path.join(folder, 'reference'), { recursive: true });
    writeFileSync(path.join(folder, 'SKILL.md'), skillMd(slug, 'Finds quotes in long documents.'));
    writeFileSync(path.join(folder, 'reference/usage.md'), 'Ask for a quote.\n');

    const published = await clawhub(['publish', folder, '--version', '1.0.0', '--changelog', 'First.'], home, work, env);
    assert.equal(published.code, 0, published.output);
    const skill = json<{ status: string; latest_version: string; owner: { handle: string } }>(
      expectStatus(await call(t, 'GET', `/v1/skills/${slug}`, owner.session), 200),
    );
    assert.equal(skill.status, 'draft', 'a new skill waits for review as a draft');
    assert.equal(skill.latest_version, '1.0.0');
    assert.equal(skill.owner.handle, owner.username);
    const files = json<{ items: { path: string }[] }>(
      expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/1.0.0/files`, owner.session), 200),
    );
    assert.deepEqual(
      files.items.map((f) => f.path),
      ['SKILL.md', 'reference/usage.md'],
    );

    const again = await clawhub(['publish', folder], home, work, env);
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /already published/i);
    const versions = json<{ items: unknown[] }>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions`, owner.session), 200));
    assert.equal(versions.items.length, 1, 'no second version was made');

    // A change makes the next patch version.
    writeFileSync(path.join(folder, 'reference/usage.md'), 'Ask for a quote, with its page.\n');
    const changed = await clawhub(['publish', folder], home, work, env);
    assert.equal(changed.code, 0, changed.output);
    const latest = json<{ latest_version: string }>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}`, owner.session), 200));
    assert.equal(latest.latest_version, '1.0.1');
  });

  it('logs in through the device flow once the code is approved in the console', async () => {
    const owner = await registerUser(t);
    const home = mkdtempSync(path.join(scratch, 'home-'));
    const work = mkdtempSync(path.join(scratch, 'work-'));
    let approved: Promise<void> | undefined;
    const login = await clawhub(['login', '--no-browser'], home, work, { CLAWHUB_SITE: base }, (soFar) => {
      const code = /\b([A-Z2-9]{4}-[A-Z2-9]{4})\b/.exec(soFar)?.[1];
      if (code === undefined || approved !== undefined) return;
      approved = (async () => {
        const res = await call(t, 'POST', '/v1/device/decision', owner.session, { user_code: code, approve: true });
        expectStatus(res, 200);
      })();
    });
    assert.ok(approved, `login printed a user code: ${login.output}`);
    await approved;
    assert.equal(login.code, 0, login.output);
    const config = JSON.parse(readFileSync(path.join(home, 'clawhub.json'), 'utf8')) as { token: string };
    const whoami = await call(t, 'GET', '/api/v1/whoami', { key: config.token });
    assert.equal(json<{ user: { handle: string } }>(expectStatus(whoami, 200)).user.handle, owner.username);
  });
});
