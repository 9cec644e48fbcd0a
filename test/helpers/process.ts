import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { DatabaseConfig } from '../../src/config.js';

/**
 * Runs the registry's command line as installed: `skill-registry` is dist/cli/main.js, with the workspace packages
 * from their dist/ (scripts/test.mjs builds what changed before any test runs). A child started this way loads in a
 * fraction of the time a TypeScript loader takes, which the command-line tests pay at every command. Absolute, so
 * the child may run in any working directory.
 */
export const CLI_ENTRY = [fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))];

/** The DATABASE_URL an operator would give to reach the test's database (and, on PostgreSQL, its own schema). */
export function databaseUrl(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return `sqlite:${database.file}`;
  const url = new URL(database.url);
  // libpq's `options` parameter scopes the process to the test's own schema, as an operator could do.
  if (database.schema) url.searchParams.set('options', `-c search_path=${database.schema},public`);
  return url.toString();
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `skill-registry ARGS` as a child process and collects its exit code and output. `env` is
 * the child's whole environment (callers spread `process.env` in when they want it); stdin gets `input`, then closes.
 */
export function runCli(
  args: string[],
  options: { env: Record<string, string | undefined>; cwd?: string; input?: string },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ENTRY, ...args], { env: options.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RegistryProcess {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Everything the process wrote to stdout so far (its log, when LOG_LEVEL is not `silent`). */
  stdout(): string;
  /**
   * SIGTERM, then the exit code once it has shut down. A process still running `STOP_TIMEOUT_MS` later is killed
   * and the promise rejects with its output: a shutdown that hangs fails the test instead of hanging the suite.
   */
  stop(): Promise<number | null>;
}

/** The shutdown grace the test processes run with, unless a test sets SHUTDOWN_GRACE_MS itself. */
const TEST_SHUTDOWN_GRACE_MS = 10_000;

/** Past the grace period and the few seconds after it, the registry is not going to exit by itself. */
const STOP_TIMEOUT_MS = 20_000;

/**
 * Every registry process still running. A child keeps its parent's event loop alive, so one left behind (by a
 * start-up that failed half-way, say) would keep the test file from ever ending; they go down with the parent.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `skill-registry serve` in a child process on a free port and waits until it answers /healthz. */
export async function startRegistryProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<RegistryProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI_ENTRY, 'serve'], {
    env: {
      ...process.env,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      SHUTDOWN_GRACE_MS: String(TEST_SHUTDOWN_GRACE_MS),
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the registry exited with ${child.exitCode} before answering:\n${stderr}`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the registry did not answer within ${timeoutMs} ms:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_TIMEOUT_MS)));
      const outcome = await Promise.race([exited, late]);
      clearTimeout(timer);
      if (outcome !== 'late') return outcome;
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the registry did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM and was killed:\n${stderr}\n${stdout}`);
    },
  };
}

/** Polls `check` until it returns true or `timeoutMs` passes; returns how long it took, or throws with `what`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
