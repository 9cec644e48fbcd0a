import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/process.js';

/** The configuration docker-compose.yml mounts in front of the registry nodes. */
export const SHIPPED_CONFIG = 'deploy/nginx.conf';

/** The nginx executable on PATH or where Debian puts it (/usr/sbin, often not on a user's PATH), or null. */
export function findNginx(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Replaces what `pattern` matches, failing when it matches nothing: the shipped file must still have that shape. */
function replaceIn(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) throw new Error(`${SHIPPED_CONFIG} no longer has ${what} (${String(pattern)}); update the test's rendering`);
  return text.replace(pattern, replacement);
}

/**
 * The shipped server configuration with only its surroundings changed: the upstream servers become `upstream`, the
 * listen port `port`, and the cache lives under `dir`. It is a conf.d file (included inside `http`), so it is wrapped
 * in `events {}` and `http {}`, with nginx's logs and temporary files kept under `dir` too.
 */
export function renderConfig(source: string, options: { upstream: string; port: number; dir: string }): string {
  let conf = replaceIn(source, /\bserver registry-\d+:3000\b/g, `server ${options.upstream}`, 'the registry-N:3000 upstream servers');
  conf = replaceIn(conf, /^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${options.port};`, '"listen 80;"');
  conf = replaceIn(conf, /proxy_cache_path \/var\/cache\/nginx\/registry /, `proxy_cache_path ${options.dir}/cache `, 'the cache path');
  const local = (name: string) => path.join(options.dir, name);
  return [
    'events {}',
    'http {',
    `    access_log ${local('access.log')};`,
    `    client_body_temp_path ${local('client_body')};`,
    `    proxy_temp_path ${local('proxy_temp')};`,
    `    fastcgi_temp_path ${local('fastcgi_temp')};`,
    `    uwsgi_temp_path ${local('uwsgi_temp')};`,
    `    scgi_temp_path ${local('scgi_temp')};`,
    conf,
    '}',
    '',
  ].join('\n');
}

export interface NginxProxy {
  port: number;
  pid: number;
  dir: string;
  /** Stops nginx by its PID (SIGTERM, then SIGKILL after a while) and removes its directory. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/** Runs the real nginx in the foreground, on the shipped configuration rendered for `upstream` (host:port). */
export async function startNginx(nginx: string, upstream: string): Promise<NginxProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'skreg-nginx-'));
  // Run as root, nginx's workers drop to an unprivileged user, which must reach the cache under this directory.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const confFile = path.join(dir, 'nginx.conf');
  writeFileSync(confFile, renderConfig(readFileSync(SHIPPED_CONFIG, 'utf8'), { upstream, port, dir }));
  const errorLog = path.join(dir, 'error.log');
  const readLog = () => {
    try {
      return readFileSync(errorLog, 'utf8');
    } catch {
      return '';
    }
  };
  const args = ['-e', errorLog, '-p', dir, '-c', confFile, '-g', `daemon off; pid ${dir}/nginx.pid; error_log ${errorLog};`];

  const checked = spawnSync(nginx, ['-t', ...args], { encoding: 'utf8' });
  if (checked.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx -t refused the rendered ${SHIPPED_CONFIG}:\n${checked.stderr}${checked.stdout}${readLog()}`);
  }

  const child = spawn(nginx, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;

  const stop = async () => {
    if (running() && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const late = setTimeout(() => {
        if (running() && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
      }, STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(late);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  // Ready once it accepts connections on its port; an nginx that exits first fails with its own words.
  const started = Date.now();
  for (;;) {
    if (!running()) {
      const log = readLog();
      await stop();
      throw new Error(`nginx exited before listening:\n${stderr}${log}`);
    }
    if (await accepts(port)) break;
    if (Date.now() - started > START_TIMEOUT_MS) {
      const log = readLog();
      await stop();
      throw new Error(`nginx did not listen on ${port} within ${START_TIMEOUT_MS} ms:\n${stderr}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }

  return {
    port,
    pid: child.pid!,
    dir,
    stop,
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
