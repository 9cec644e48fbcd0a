/**
 * A real registry listening on a real port, and the command line run against it as a child process with its
 * own HOME and XDG_CONFIG_HOME, so nothing of the machine's own configuration leaks in or out.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends, type Backend } from '../helpers/backends.js';
import { adminSession, createKey, registerUser, setStatus, type TestUser } from '../helpers/client.js';
import { runCli, type CliRun } from '../helpers/process.js';

/**
 * The backend the command line is run against. What the command line does does not depend on the registry's
 * database (the HTTP suites and the typed client's test cover both), and each run is a process start, so its
 * end-to-end tests use SQLite alone.
 */
export function cliBackend(): Backend {
  const sqlite = backends().find((b) => b.name === 'sqlite');
  if (!sqlite) throw new Error('the SQLite backend is always available');
  return sqlite;
}

export interface Registry {
  t: TestApp;
  url: string;
  close(): Promise<void>;
}

export async function startRegistry(backend: Backend, env: Record<string, string> = {}): Promise<Registry> {
  const t = await startApp(backend, env);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, url: `http://127.0.0.1:${port}`, close: () => t.close() };
}

/** The address of a port nothing listens on (fetch refuses well-known ports such as 1 before connecting). */
export async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export type CliResult = CliRun;

export interface CliOptions {
  /** The child's HOME (XDG_CONFIG_HOME is HOME/.config unless env says otherwise). */
  home: string;
  cwd?: string;
  env?: Record<string, string>;
  /** Written to stdin, which is then closed (stdin is never a terminal here). */
  input?: string;
}

/** Runs `skill-registry ARGS` and collects its exit code and output. */
export function cli(args: string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    XDG_CONFIG_HOME: path.join(options.home, '.config'),
    NODE_ENV: 'test',
    ...options.env,
  };
  return runCli(args, { env, cwd: options.cwd ?? options.home, input: options.input });
}

/** Parses `--json` output, failing with the whole output when it is not one JSON document. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the shape they expect; JSON.parse checks nothing, so this is the one place that cast is written
export function parsed<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

export function tempDir(prefix = 'skreg-cli-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes a folder of files (paths with `/`). */
export function writeTree(dir: string, files: Record<string, string | Buffer>): string {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, ...name.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

/** Every file under `dir` with its bytes, keyed by `/`-separated relative path. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const name of readdirSync(path.join(dir, relative)).sort()) {
      const rel = relative === '' ? name : `${relative}/${name}`;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else out[rel] = readFileSync(path.join(dir, rel)).toString('base64');
    }
  };
  walk('');
  return out;
}

export function skillMdText(name: string, description = `The ${name} skill.`, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nUse it well.\n`;
}

/** A user with an upload key, and the admin's session, for a test registry. */
export async function uploader(t: TestApp): Promise<TestUser & { key: string; keyId: string }> {
  const user = await registerUser(t);
  const { key, id } = await createKey(t, user.session, ['skill:upload']);
  return { ...user, key, keyId: id };
}

export async function publishAsAdmin(t: TestApp, slug: string): Promise<void> {
  await setStatus(t, await adminSession(t), slug, 'published');
}
