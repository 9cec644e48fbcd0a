import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { parseInstant } from '@skill-registry/cli/commands/logs';
import { parseSpec, skillsDir } from '@skill-registry/cli/commands/install';
import { scopeAndSlug } from '@skill-registry/cli/commands/publish';
import { configPath, loadConfig, saveConfig } from '@skill-registry/cli/config-store';
import { CliError } from '@skill-registry/cli/exit-codes';
import type { Io } from '@skill-registry/cli/io';
import { progressBar } from '@skill-registry/cli/progress';
import { normaliseRegistry, resolveTarget } from '@skill-registry/cli/registry';
import { removeDir, tempDir } from './harness.js';

const root = tempDir('skreg-units-');
after(() => removeDir(root));

/** An Io whose stderr records what is written and claims to be a terminal or not. */
function fakeIo(env: NodeJS.ProcessEnv, tty: boolean): Io & { written: () => string } {
  const stderr = Object.assign(new PassThrough(), { isTTY: tty });
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stdout: new PassThrough(), stderr, stdin: new PassThrough(), env, cwd: root, written: () => text };
}

describe('client command line: building blocks', () => {
  it('--since/--until read durations back from now and ISO 8601 times', () => {
    const now = Date.parse('2026-05-01T12:00:00.000Z');
    assert.equal(parseInstant('since', '1h', now), '2026-05-01T11:00:00.000Z');
    assert.equal(parseInstant('since', '30m', now), '2026-05-01T11:30:00.000Z');
    assert.equal(parseInstant('since', '7d', now), '2026-04-24T12:00:00.000Z');
    assert.equal(parseInstant('since', '90s', now), '2026-05-01T11:58:30.000Z');
    assert.equal(parseInstant('since', '2w', now), '2026-04-17T12:00:00.000Z');
    assert.equal(parseInstant('until', '2026-01-31T10:00:00+02:00', now), '2026-01-31T08:00:00.000Z');
    assert.equal(parseInstant('until', '2026-01-31', now), '2026-01-31T00:00:00.000Z');
    for (const bad of ['1y', 'yesterday', '-1h', '', '2026-13-45']) assert.throws(() => parseInstant('since', bad, now), CliError);
  });

  it('SKILL@VERSION and @SCOPE/SKILL@VERSION specs, publish --scope and --slug, and the skills directory', () => {
    assert.deepEqual(parseSpec('pdf-tools'), { skill: 'pdf-tools', version: 'latest' });
    assert.deepEqual(parseSpec('pdf-tools@1.2.0-rc.1'), { skill: 'pdf-tools', version: '1.2.0-rc.1' });
    assert.throws(() => parseSpec('pdf-tools@'), CliError);
    assert.throws(() => parseSpec('@1.0.0'), CliError);
    assert.deepEqual(parseSpec('@acme/pdf-tools'), { skill: '@acme/pdf-tools', version: 'latest' });
    assert.deepEqual(parseSpec('@acme/pdf-tools@2.0.0'), { skill: '@acme/pdf-tools', version: '2.0.0' });
    for (const bad of ['@acme', '@acme/', '@/pdf-tools', '@acme/pdf-tools@', '@acme/a/b', 'acme/pdf-tools'])
      assert.throws(() => parseSpec(bad), CliError, bad);
    assert.deepEqual(scopeAndSlug('@Acme', undefined), { scope: 'acme', slug: undefined });
    assert.deepEqual(scopeAndSlug(undefined, '@acme/pdf-tools'), { scope: 'acme', slug: 'pdf-tools' });
    assert.deepEqual(scopeAndSlug('acme', '@acme/pdf-tools'), { scope: 'acme', slug: 'pdf-tools' });
    assert.deepEqual(scopeAndSlug(undefined, 'pdf-tools'), { scope: undefined, slug: 'pdf-tools' });
    for (const [scope, slug] of [
      ['acme', '@other/pdf-tools'],
      ['not a handle', undefined],
      [undefined, '@/pdf-tools'],
      [undefined, '@acme'],
    ])
      assert.throws(() => scopeAndSlug(scope, slug), CliError, `${scope} ${slug}`);
    const io = fakeIo({ HOME: '/home/someone' }, false);
    assert.equal(skillsDir(io, {}), path.join(root, '.claude', 'skills'));
    assert.equal(skillsDir(io, { global: true }), '/home/someone/.claude/skills');
    assert.equal(skillsDir(io, { dir: 'agents/skills' }), path.join(root, 'agents/skills'));
    assert.throws(() => skillsDir(io, { dir: 'x', global: true }), CliError);
  });

  it('registry addresses are normalised, and refused when they are not http(s) or carry credentials', () => {
    assert.equal(normaliseRegistry('HTTPS://Skills.Example.com/'), 'https://skills.example.com');
    assert.equal(normaliseRegistry('http://127.0.0.1:3000/registry//?x=1#y'), 'http://127.0.0.1:3000/registry');
    for (const bad of ['skills.example.com', 'ftp://example.com', 'https://user:pw@example.com'])
      assert.throws(() => normaliseRegistry(bad), CliError);
  });

  it('the configuration file lives under XDG_CONFIG_HOME (else ~/.config), is written 0600 in a 0700 folder, and a readable one is reported', async () => {
    assert.equal(configPath({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/a' }), '/xdg/skill-registry/config.json');
    assert.equal(configPath({ XDG_CONFIG_HOME: 'relative', HOME: '/home/a' }), '/home/a/.config/skill-registry/config.json');
    assert.equal(configPath({ HOME: '/home/a' }), '/home/a/.config/skill-registry/config.json');

    const home = path.join(root, 'home');
    const env = { HOME: home };
    const file = configPath(env);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    await saveConfig(file, {
      registry: 'https://a.example',
      credentials: { 'https://a.example': { api_key: 'skreg_a', username: 'a', api_key_id: 'k1', saved_at: 'now' } },
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700, 'an existing folder is tightened');

    const io = fakeIo({ ...env, SKILL_REGISTRY_URL: 'https://b.example' }, false);
    const other = await resolveTarget(io, undefined);
    assert.deepEqual([other.registry, other.apiKey], ['https://b.example', null], 'a key is never sent to another registry');
    const stored = await resolveTarget(fakeIo(env, false), undefined);
    assert.deepEqual(
      [stored.registry, stored.apiKey, stored.apiKeySource, stored.username],
      ['https://a.example', 'skreg_a', 'config', 'a'],
    );
    const flagged = await resolveTarget(
      fakeIo({ ...env, SKILL_REGISTRY_URL: 'https://b.example', SKILL_REGISTRY_TOKEN: 'skreg_env' }, false),
      'https://a.example/',
    );
    assert.deepEqual(
      [flagged.registry, flagged.registrySource, flagged.apiKey, flagged.apiKeySource],
      ['https://a.example', '--registry', 'skreg_env', 'SKILL_REGISTRY_TOKEN'],
    );

    chmodSync(file, 0o644);
    const warned = fakeIo(env, false);
    await resolveTarget(warned, undefined);
    assert.match(warned.written(), /can be read by other users \(mode 644\); run: chmod 600/);

    writeFileSync(file, '{ not json');
    await assert.rejects(loadConfig(file), (error: unknown) => error instanceof CliError && error.message.includes('is not valid JSON'));
    assert.deepEqual(await loadConfig(path.join(root, 'missing.json')), { registry: null, credentials: {} });
    assert.ok(readFileSync(file, 'utf8').length > 0);
  });

  it('the progress bar is drawn on stderr only when it is a terminal', () => {
    const terminal = fakeIo({}, true);
    const bar = progressBar(terminal, 'Uploading x@1.0.0');
    bar.update(512, 1024);
    bar.update(1024, 1024);
    bar.finish();
    // eslint-disable-next-line no-control-regex -- the bar ends its line with the terminal's erase-line escape, ESC [K
    assert.match(terminal.written(), /\rUploading x@1\.0\.0 \[#{12}-{12}\] {2}50% 512 B\/1\.0 KiB\x1b\[K/);
    assert.match(terminal.written(), /\[#{24}\] 100% 1\.0 KiB\/1\.0 KiB/);
    assert.ok(terminal.written().endsWith('\r\x1b[K'), 'the line is cleared at the end');

    const pipe = fakeIo({}, false);
    const silent = progressBar(pipe, 'Uploading');
    silent.update(1, 2);
    silent.finish();
    assert.equal(pipe.written(), '');
  });
});
