import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resident set size of a process in bytes, read from /proc (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

export interface Registry {
  url: string;
  child: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Options for Node in every registry a benchmark starts: those `npm start` and the container image run it with, or
 * `BENCH_REGISTRY_NODE_ARGS` (separated by spaces; empty for Node's defaults).
 */
export const REGISTRY_NODE_ARGS = (process.env.BENCH_REGISTRY_NODE_ARGS ?? '--max-semi-space-size=1')
  .split(' ')
  .filter((arg) => arg !== '');

/**
 * Starts the built registry (dist/) in its own process, on a fresh data directory unless `options.dataDir` names
 * one (a directory the benchmark has already filled); from another copy of the build when `options.cwd` names one.
 */
export async function startRegistry(
  env: Record<string, string> = {},
  nodeArgs: string[] = REGISTRY_NODE_ARGS,
  options: { dataDir?: string; startTimeoutMs?: number; cwd?: string } = {},
): Promise<Registry> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'skreg-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, 'dist/cli/main.js', 'serve'], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT: 'off',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'bench-admin-password',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, options.startTimeoutMs);
  return { url, child, dataDir, stop: () => stopChild(child) };
}

export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Samples a process's resident set size every few milliseconds until stopped; returns the peak seen. */
export function sampleRss(pid: number, everyMs = 5): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process has gone
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssOf(pid));
      } catch {
        // the process has gone
      }
      return peak;
    },
  };
}

export interface Ceiling {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a ceiling server (a script in bench/lib taking its arguments and then a port) in its own process, and
 * waits until it listens.
 */
export async function startCeiling(script: string, args: string[]): Promise<Ceiling> {
  const port = await freePort();
  const child = fork(path.join(import.meta.dirname, script), [...args, String(port)], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`ceiling ${script} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, stop: () => stopChild(child) };
}
