import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import type { TestApp } from '../helpers/app.js';
import { skillMd, zip } from '../helpers/archives.js';
import { createKey, createSkill, expectStatus, registerUser, setStatus, uniqueName, type TestUser } from '../helpers/client.js';
import { installPinnedClient, servedRegistry, type ServedRegistry, uploadVersion } from './pinned-client.js';

/** What the tests of the `clawhub` client managing skills share: the pinned client, a served registry, signed-in users. */

export interface Run {
  code: number | null;
  output: string;
}

export interface Harness {
  registry: ServedRegistry;
  t: TestApp;
  base: string;
  admin: { cookie: string };
  /** Runs the client against the registry, its config file (and so its login) in `home`. */
  clawhub(args: string[], home: string, workdir: string): Promise<Run>;
  /** A user signed in with `clawhub login --token` in a home folder of its own, and a work folder. */
  signedIn(): Promise<{ user: TestUser; home: string; work: string }>;
  /** A published skill of `user` with version 1.0.0 (SKILL.md and reference/notes.md). */
  published(user: TestUser, prefix: string): Promise<string>;
}

export async function clawhubHarness(scratchPrefix: string, admin: (t: TestApp) => Promise<{ cookie: string }>): Promise<Harness> {
  const { node, cli } = installPinnedClient('clawhub-cli', 'clawhub', '0.23.3', 'bin/clawdhub.js');
  const registry = await servedRegistry(scratchPrefix);
  const { t, base, scratch } = registry;
  const adminAuth = await admin(t);

  function clawhub(args: string[], home: string, workdir: string): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(node, [cli, '--workdir', workdir, '--no-input', ...args], {
        cwd: workdir,
        env: {
          PATH: `${path.dirname(node)}:${process.env.PATH ?? ''}`,
          HOME: home,
          XDG_CONFIG_HOME: path.join(home, '.config'),
          CLAWHUB_CONFIG_PATH: path.join(home, 'clawhub.json'),
          CLAWHUB_DISABLE_TELEMETRY: '1',
          CLAWHUB_REGISTRY: base,
          NO_COLOR: '1',
          CI: '1',
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

  return {
    registry,
    t,
    base,
    admin: adminAuth,
    clawhub,
    async signedIn() {
      const user = await registerUser(t);
      const key = await createKey(t, user.session);
      const home = mkdtempSync(path.join(scratch, 'home-'));
      const work = mkdtempSync(path.join(scratch, 'work-'));
      const login = await clawhub(['login', '--token', key.key], home, work);
      assert.equal(login.code, 0, login.output);
      return { user, home, work };
    },
    async published(user: TestUser, prefix: string) {
      const slug = uniqueName(prefix);
      const skill = await createSkill(t, user.session, { slug, name: `Skill ${slug}`, description: `Takes ${prefix} notes.` });
      const archive = await zip([
        { path: `${slug}/SKILL.md`, content: skillMd(slug, 'Takes notes.') },
        { path: `${slug}/reference/notes.md`, content: 'notes\n' },
      ]);
      expectStatus(await uploadVersion(t, user.session, slug, '1.0.0', archive), 201);
      await setStatus(t, adminAuth, skill.id, 'published');
      return slug;
    },
  };
}

/** The names of a ZIP's entries. */
export function entriesOf(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zipfile) => {
      if (error) {
        reject(error);
        return;
      }
      const names: string[] = [];
      zipfile.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zipfile.readEntry();
      });
      zipfile.on('end', () => resolve(names));
      zipfile.readEntry();
    });
  });
}

/** The last line the client printed: its error line when a command fails. */
export function lastLine(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.at(-1) ?? '';
}
