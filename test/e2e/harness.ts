/**
 * Browser tests of the web console: a real registry listening on a real port (SQLite), driven by the
 * system's headless Chromium through playwright-core. The console must be built; when it is missing or
 * older than its sources, it is built here first (under a lock, since test files run in parallel).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { defaultConsoleDir } from '../../src/http/routes/console.js';
import { ADMIN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const stat = statSync(full);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(full) : stat.mtimeMs);
  }
  return newest;
}

function consoleIsCurrent(consoleDir: string): boolean {
  const index = path.join(consoleDir, 'index.html');
  return existsSync(index) && statSync(index).mtimeMs >= newestMtime(path.join(ROOT, 'web'));
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Builds the console (vite build) unless dist/console is newer than web/; one build at a time. The build
 * goes to a folder of its own and is then added to dist/console, index.html last, without removing the
 * previous build's files: a registry another test file started earlier keeps serving the page it read
 * at start-up, whose assets must stay in place.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  const consoleDir = defaultConsoleDir();
  if (consoleIsCurrent(consoleDir)) return;
  const lock = path.join(ROOT, 'dist', '.console-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`Waited 3 minutes for another console build to finish; remove ${lock} if no build is running.`);
      await sleep(250);
    }
  }
  try {
    if (consoleIsCurrent(consoleDir)) return;
    const staging = path.join(ROOT, 'dist', `.console-build-${process.pid}`);
    const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    const result = spawnSync(
      process.execPath,
      [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn', '--outDir', staging, '--emptyOutDir'],
      // The test runner's NODE_ENV=test would make Vite bundle React's development build; the console is tested as shipped.
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
    );
    try {
      if (result.status !== 0) throw new Error(`Building the web console failed (vite build):\n${result.stdout}\n${result.stderr}`);
      mkdirSync(consoleDir, { recursive: true });
      cpSync(staging, consoleDir, { recursive: true, filter: (source) => path.basename(source) !== 'index.html' });
      renameSync(path.join(staging, 'index.html'), path.join(consoleDir, 'index.html'));
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('no port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

export interface Registry {
  app: TestApp;
  baseUrl: string;
  api: Api;
  close(): Promise<void>;
}

/**
 * A registry on a free port of 127.0.0.1 with the bootstrap admin. PUBLIC_URL is that origin, as an
 * operator would set it, so the CSRF check sees the browser's requests as same-origin.
 */
export async function startRegistry(env: Record<string, string> = {}): Promise<Registry> {
  await ensureConsoleBuilt();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // SQLite is enough here: these tests exercise the console, and the API suite covers both databases.
  const sqlite = backends().find((b) => b.name === 'sqlite')!;
  const app = await startApp(sqlite, { PUBLIC_URL: baseUrl, PORT: String(port), ...env });
  await app.app.listen({ host: '127.0.0.1', port });
  return { app, baseUrl, api: new Api(baseUrl), close: () => app.close() };
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium package (apt-get install -y chromium).`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Errors the page reported: uncaught exceptions and console errors such as CSP refusals. */
  errors: string[];
}

/** Sessions a test opened and has not finished: a failed test leaves them here for `closeLeftovers`. */
const open = new Set<Session>();

/**
 * A fresh browser profile (no cookies) on the registry, optionally signed in with a session cookie
 * obtained through the API, at desktop size unless told otherwise.
 */
export async function openSession(
  browser: Browser,
  registry: Registry,
  options: { cookie?: string; viewport?: { width: number; height: number } } = {},
): Promise<Session> {
  const context = await browser.newContext({
    baseURL: registry.baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 860 },
    acceptDownloads: true,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(15_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: registry.baseUrl });
  if (options.cookie) await context.addCookies([{ name: 'session_token', value: options.cookie, url: registry.baseUrl }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A refused API call (401 while signed out, a 404 lookup) is logged by Chromium as a failed resource
    // load; that is the API answering, not the console failing.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
  const session = { context, page, errors };
  open.add(session);
  return session;
}

/**
 * For afterEach: screenshots and closes what a failed test left open, so CI's output shows where the
 * page stood when it failed, and the next test starts clean.
 */
export async function closeLeftovers(testName: string): Promise<void> {
  const slug = testName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  let index = 0;
  for (const session of [...open]) {
    open.delete(session);
    index += 1;
    try {
      await screenshot(session.page, `failed-${slug}${index > 1 ? `-${index}` : ''}`);
      if (session.errors.length > 0) console.error(`page errors in "${testName}":\n${session.errors.join('\n')}`);
    } finally {
      await session.context.close();
    }
  }
}

/** Saves a full-page screenshot into test-results/screenshots/, which CI keeps with its output. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // From the top, so the sticky header sits where it belongs in a full-page picture.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Closes the session after asserting the page reported no errors (a CSP refusal would show here). */
export async function finish(session: Session, name: string): Promise<void> {
  await screenshot(session.page, name);
  open.delete(session);
  await session.context.close();
  assert.deepEqual(session.errors, [], `the page reported errors:\n${session.errors.join('\n')}`);
}

export interface SeedUser {
  id: string;
  username: string;
  password: string;
  cookie: string;
}

/** The registry's API over real HTTP, for arranging what a test needs before the browser takes over. */
export class Api {
  constructor(readonly baseUrl: string) {}

  async call(
    method: string,
    pathname: string,
    options: { cookie?: string; key?: string; json?: unknown; form?: FormData } = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.cookie) headers.cookie = `session_token=${options.cookie}`;
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    const res = await fetch(this.baseUrl + pathname, { method, headers, body });
    const isJson = (res.headers.get('content-type') ?? '').includes('json');
    const text = isJson ? await res.text() : (await res.arrayBuffer(), '');
    return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown), headers: res.headers };
  }

  async expect<T = unknown>(status: number, method: string, pathname: string, options: Parameters<Api['call']>[2] = {}): Promise<T> {
    const res = await this.call(method, pathname, options);
    assert.equal(res.status, status, `${method} ${pathname}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  }

  async login(login: string, password: string): Promise<string> {
    const res = await fetch(`${this.baseUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password }),
    });
    assert.equal(res.status, 200, `login as ${login}: ${res.status}`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('session_token='));
    assert.ok(cookie, 'no session cookie');
    return cookie.split(';')[0]!.slice('session_token='.length);
  }

  async admin(): Promise<string> {
    return this.login(ADMIN.username, ADMIN.password);
  }

  async user(username: string): Promise<SeedUser> {
    const password = `${username}-password`;
    const { id } = await this.expect<{ id: string }>(201, 'POST', '/v1/auth/register', {
      json: { username, email: `${username}@example.com`, password },
    });
    return { id, username, password, cookie: await this.login(username, password) };
  }

  async skill(cookie: string, fields: Record<string, unknown>): Promise<{ id: string; slug: string; name: string }> {
    return this.expect(201, 'POST', '/v1/skills', { cookie, json: fields });
  }

  async upload(
    cookie: string,
    slug: string,
    version: string,
    archive: Buffer,
    fields: Record<string, string> = {},
  ): Promise<{ version: string; sha256: string }> {
    const form = new FormData();
    form.append('version', version);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([archive]), `${slug}-${version}.zip`);
    return this.expect(201, 'POST', `/v1/skills/${slug}/versions`, { cookie, form });
  }

  async setStatus(adminCookie: string, slug: string, status: string): Promise<void> {
    await this.expect(200, 'PATCH', `/v1/admin/skills/${slug}/status`, { cookie: adminCookie, json: { status } });
  }

  async feature(adminCookie: string, slug: string): Promise<void> {
    await this.expect(200, 'PATCH', `/v1/admin/skills/${slug}`, { cookie: adminCookie, json: { featured: true } });
  }
}

/** Waits until `check` holds, polling; for effects that reach the page or the API a moment later. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await sleep(100);
  }
}
