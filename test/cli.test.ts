import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { backends } from './helpers/backends.js';
import { CLI_ENTRY, databaseUrl, freePort, runCli, type CliRun } from './helpers/process.js';

function run(args: string[], env: Record<string, string>, input?: string): Promise<CliRun> {
  return runCli(args, { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, input });
}

async function waitFor(url: string, timeoutMs = 20_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('command line: configuration errors', () => {
  it('stops with a message that names the bad variable', async () => {
    const result = await run(['serve'], { PORT: 'eighty', REGISTRATION: 'maybe' });
    assert.equal(result.code, 78);
    assert.match(result.stderr, /PORT must be a whole number/);
    assert.match(result.stderr, /REGISTRATION must be one of open, closed/);
  });

  it('rejects an unknown command and prints usage', async () => {
    const result = await run(['frobnicate'], {});
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Unknown command "frobnicate"/);
    assert.match(result.stderr, /Usage: skill-registry/);
  });

  it('prints help', async () => {
    const result = await run(['--help'], {});
    assert.equal(result.code, 0);
    assert.match(result.stdout, /serve/);
    assert.match(result.stdout, /user create/);
  });

  it("prints its version, and each command's help, without reading the configuration", async () => {
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default as { version: string };
    // A configuration that would stop `serve`: help must not read it.
    const broken = { PORT: 'eighty' };
    const [version, versionWord, serve, user, helpUser, helpSearch, badOption] = await Promise.all([
      run(['--version'], broken),
      run(['version'], broken),
      run(['serve', '--help'], broken),
      run(['user', '--help'], broken),
      run(['help', 'user'], broken),
      run(['help', 'search'], broken),
      run(['user', 'create', 'bob', '--bogus'], {}),
    ]);
    for (const result of [version, versionWord]) {
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `skill-registry ${manifest.version} (server and client commands)\n`);
    }
    assert.equal(serve.code, 0, serve.stderr);
    assert.match(serve.stdout, /^Usage: skill-registry serve$/m);
    for (const result of [user, helpUser]) {
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Usage: skill-registry user create <username> --email <email>/m);
      assert.match(result.stdout, /--password-stdin/);
    }
    assert.equal(helpSearch.code, 0, helpSearch.stderr);
    assert.match(helpSearch.stdout, /^Usage: skill-registry search/m);
    assert.match(helpSearch.stdout, /relevance \(the default with words/);
    assert.equal(badOption.code, 2);
    assert.match(badOption.stderr, /Unknown option '--bogus'/);
    assert.match(badOption.stderr, /^Usage: skill-registry user create/m);
  });
});

describe('command line: serve after its shutdown', () => {
  it('exits (code 1, naming what is still open) when something outlives the shutdown, rather than running on', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skreg-serve-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // Loaded before the registry: a timer nobody clears, as a leaked handle would be.
    const leak = path.join(dir, 'leak.mjs');
    writeFileSync(leak, 'setInterval(() => {}, 60_000);\n');
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', pathToFileURL(leak).href, ...CLI_ENTRY, 'serve'], {
      env: { ...process.env, DATA_DIR: dir, PORT: String(port), LOG_LEVEL: 'error', RATE_LIMIT: 'off', SHUTDOWN_GRACE_MS: '2000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    assert.equal((await waitFor(`http://127.0.0.1:${port}/healthz`)).status, 200);
    const signalled = Date.now();
    child.kill('SIGTERM');
    assert.equal(await exited, 1, output);
    // The grace period (SHUTDOWN_GRACE_MS) is 2 s; the process does not exit before it, since the shutdown itself went well.
    assert.ok(Date.now() - signalled >= 1_900, `exited after ${Date.now() - signalled} ms`);
    const line = output.split('\n').find((l) => l.includes('still running after shutdown'));
    assert.ok(line, output);
    assert.ok((JSON.parse(line) as { resources: string[] }).resources.includes('Timeout'), line);
  });
});

for (const backend of backends()) {
  describe(`command line [${backend.name}]`, () => {
    let store: Awaited<ReturnType<typeof backend.create>>;
    let env: Record<string, string>;
    before(async () => {
      store = await backend.create();
      env = { DATA_DIR: store.dataDir, DATABASE_URL: databaseUrl(store.database), RATE_LIMIT: 'off' };
    });
    after(() => store.dispose());

    it('migrate applies the schema once, then reports it up to date', async () => {
      const first = await run(['migrate'], env);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /Applied: 0001_initial/);
      const second = await run(['migrate'], env);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /up to date/);
    });

    it('user create makes an account, with --admin an administrator, reading the password from stdin', async () => {
      const created = await run(
        ['user', 'create', 'cli-admin', '--email', 'cli-admin@example.com', '--password-stdin', '--admin'],
        env,
        'cli-password-1\n',
      );
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, /Created admin cli-admin/);
      const duplicate = await run(['user', 'create', 'cli-admin', '--email', 'other@example.com', '--password', 'cli-password-1'], env);
      assert.equal(duplicate.code, 1);
      assert.match(duplicate.stderr, /taken/);
      const invalid = await run(['user', 'create', 'Bad Name', '--email', 'x@example.com', '--password', 'short'], env);
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /username/);
      assert.match(invalid.stderr, /password/);
      const usage = await run(['user', 'create'], env);
      assert.equal(usage.code, 2);
    });

    function serve(port: number) {
      const child = spawn(process.execPath, [...CLI_ENTRY, 'serve'], {
        env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      return { child, exited, stderr: () => stderr };
    }

    async function signIn(base: string): Promise<string> {
      const login = await fetch(`${base}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'cli-admin', password: 'cli-password-1' }),
      });
      assert.equal(login.status, 200);
      return login.headers.get('set-cookie')!.split(';')[0]!;
    }

    it('serve answers on its port, exits cleanly on SIGTERM with its call log written, and starts again', async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const first = serve(port);
      let requestIds: string[];
      try {
        const health = await waitFor(`${base}/healthz`);
        assert.equal(health.status, 200);
        assert.equal((await fetch(`${base}/readyz`)).status, 200);
        const cookie = await signIn(base);
        const users = await fetch(`${base}/v1/admin/users`, { headers: { cookie } });
        assert.equal(users.status, 200);
        // Calls made just before the signal, one still in flight when it arrives: each is answered, and each
        // is in the call log after the restart, written by the shutdown if not before.
        const recent = await Promise.all([1, 2, 3].map(() => fetch(`${base}/v1/me`, { headers: { cookie } })));
        const inFlight = fetch(`${base}/v1/skills?q=anything`, { headers: { cookie } });
        first.child.kill('SIGTERM');
        const last = await inFlight;
        assert.equal(last.status, 200);
        requestIds = [users, ...recent, last].map((r) => r.headers.get('x-request-id')!);
        assert.equal(await first.exited, 0, first.stderr());
      } finally {
        if (first.child.exitCode === null) first.child.kill('SIGKILL');
      }

      const second = serve(port);
      try {
        await waitFor(`${base}/healthz`);
        const cookie = await signIn(base);
        for (const id of requestIds) {
          const log = await fetch(`${base}/v1/logs/${id}`, { headers: { cookie } });
          assert.equal(log.status, 200, `call ${id} is in the log after the restart`);
        }
        second.child.kill('SIGTERM');
        assert.equal(await second.exited, 0, second.stderr());
      } finally {
        if (second.child.exitCode === null) second.child.kill('SIGKILL');
      }
    });
  });
}
