import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { databaseUrl, eventually, startRegistryProcess, type RegistryProcess } from '../helpers/process.js';
import { ifSet } from '../helpers/hooks.js';

const sha256 = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

interface LogLine {
  msg: string;
  [key: string]: unknown;
}

function logLines(registry: RegistryProcess): LogLine[] {
  return registry
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/**
 * A raw download over its own socket, read as `pace` says after each chunk: `held` stops reading after the first
 * bytes until `resume()` and then reads at full speed; a number pauses that many ms after every chunk. Resolves
 * `ended` with the head and the body once the server ends the response or closes the connection.
 *
 * Held: with a package larger than the loopback socket buffers can hold (a few MiB each way), the server cannot
 * have sent the whole response before `resume()`, so the download is certainly in flight until then.
 */
function download(port: number, path: string, pace: number | 'held') {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let firstByte: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (firstByte = resolve));
  let held = pace === 'held';
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    firstByte();
    if (held) {
      socket.pause();
    } else if (typeof pace === 'number') {
      socket.pause();
      setTimeout(() => socket.resume(), pace);
    }
  });
  const ended = new Promise<{ head: string; body: Buffer }>((resolve) =>
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      resolve({ head: all.subarray(0, split).toString('latin1'), body: all.subarray(split + 4) });
    }),
  );
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  return {
    started,
    ended,
    resume() {
      held = false;
      socket.resume();
    },
  };
}

async function publishPackage(base: string, size: number): Promise<{ slug: string; archive: Buffer }> {
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const login = async (name: string, password: string) =>
    `session_token=${/session_token=([^;]+)/.exec((await post('/v1/auth/login', { login: name, password })).headers.get('set-cookie') ?? '')?.[1]}`;
  const name = `u${randomBytes(4).toString('hex')}`;
  assert.equal(
    (await post('/v1/auth/register', { username: name, email: `${name}@example.com`, password: `pw-${name}-secret` })).status,
    201,
  );
  const cookie = await login(name, `pw-${name}-secret`);
  const slug = `big-${randomBytes(3).toString('hex')}`;
  assert.equal((await post('/v1/skills', { name: 'Big', slug }, { cookie })).status, 201);
  const archive = await zip([
    { path: 'SKILL.md', content: skillMd() },
    { path: 'data.bin', content: randomBytes(size) },
  ]);
  const form = multipart({ version: '1.0.0' }, { content: archive });
  const uploaded = await fetch(`${base}/v1/skills/${slug}/versions`, {
    method: 'POST',
    headers: { ...form.headers, cookie },
    body: form.payload,
  });
  assert.equal(uploaded.status, 201, await uploaded.text());
  const admin = await login('admin', 'admin-password-1');
  const published = await fetch(`${base}/v1/admin/skills/${slug}/status`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie: admin },
    body: JSON.stringify({ status: 'published' }),
  });
  assert.equal(published.status, 200);
  return { slug, archive };
}

for (const backend of backends()) {
  describe(`shutdown with downloads in flight [${backend.name}]`, { timeout: 120_000 }, () => {
    let store: Awaited<ReturnType<typeof backend.create>>;
    let env: Record<string, string>;
    before(async () => {
      store = await backend.create();
      env = {
        DATA_DIR: store.dataDir,
        DATABASE_URL: databaseUrl(store.database),
        LOG_LEVEL: 'info',
        RATE_LIMIT: 'off',
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: 'admin-password-1',
      };
    });
    after(() => ifSet(store)?.dispose());

    it('cuts a download longer than the grace period, naming it in the log, and still exits cleanly', async () => {
      const registry = await startRegistryProcess({ ...env, SHUTDOWN_GRACE_MS: '1500' });
      try {
        const { slug } = await publishPackage(registry.base, 24 * 1024 * 1024);
        const port = Number(new URL(registry.base).port);
        // About 64 KiB per 200 ms: the 24 MiB package would take more than a minute.
        const pending = download(port, `/v1/skills/${slug}/versions/1.0.0/download`, 200);
        await pending.started;
        const exitCode = await registry.stop();
        const { head, body } = await pending.ended;
        const requestId = /x-request-id: (\S+)/i.exec(head)?.[1];
        assert.ok(requestId, head);
        assert.ok(body.length < 24 * 1024 * 1024, 'the download was cut');

        const lines = logLines(registry);
        const stopping = lines.find((l) => l.msg === 'shutting down');
        assert.ok(stopping, registry.stdout());
        assert.equal(stopping.inFlight, 1);
        assert.equal(stopping.downloads, 1);
        const cut = lines.find((l) => l.msg === 'grace period over: cutting the requests still in flight');
        assert.ok(cut, registry.stdout());
        assert.equal(cut.graceMs, 1500);
        assert.equal(cut.inFlight, 1);
        assert.equal(cut.downloads, 1);
        const [named] = cut.cut as { id: string; method: string; route: string; bytesSent: number }[];
        assert.equal(named?.id, requestId);
        assert.equal(named.method, 'GET');
        assert.equal(named.route, '/v1/skills/:skillId/versions/:version/download');
        assert.ok(named.bytesSent >= body.length, `${named.bytesSent} bytes sent, ${body.length} received`);
        assert.ok((cut.bytesSent as number) === named.bytesSent);
        // What was buffered is written and the database closed: the shutdown itself went well.
        assert.equal(exitCode, 0, registry.stdout());
        assert.ok(!lines.some((l) => l.msg === 'still running after shutdown; exiting'), registry.stdout());
      } finally {
        if (registry.child.exitCode === null) registry.child.kill('SIGKILL');
      }
    });

    it('lets a download shorter than the grace period finish after SIGTERM, counts it, and exits 0', async () => {
      let registry = await startRegistryProcess({ ...env, SHUTDOWN_GRACE_MS: '20000' });
      try {
        const { slug, archive } = await publishPackage(registry.base, 16 * 1024 * 1024);
        const port = Number(new URL(registry.base).port);
        const pending = download(port, `/v1/skills/${slug}/versions/1.0.0/download`, 'held');
        await pending.started;
        const stopped = registry.stop();
        // The shutdown has begun with the download in flight; only then does the client read the rest.
        await eventually('the registry logs its shutdown', () => logLines(registry).some((l) => l.msg === 'shutting down'), 10_000);
        pending.resume();
        const exitCode = await stopped;
        const { head, body } = await pending.ended;
        assert.match(head, /^HTTP\/1\.1 200 /);
        assert.equal(body.length, archive.length);
        assert.equal(sha256(body), sha256(archive), 'the whole package arrived');
        assert.equal(exitCode, 0, registry.stdout());
        const lines = logLines(registry);
        assert.equal(lines.find((l) => l.msg === 'shutting down')?.downloads, 1);
        assert.ok(!lines.some((l) => l.msg.startsWith('grace period over')), registry.stdout());

        // The download finished during the shutdown, and its count was written before the process ended.
        registry = await startRegistryProcess(env);
        await eventually(
          'the version shows its download',
          async () => {
            const version = (await (await fetch(`${registry.base}/v1/skills/${slug}/versions/1.0.0`)).json()) as { downloads: number };
            return version.downloads === 1;
          },
          5_000,
        );
        assert.equal(await registry.stop(), 0);
      } finally {
        if (registry.child.exitCode === null) registry.child.kill('SIGKILL');
      }
    });
  });
}
