import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends, type Backend } from '../helpers/backends.js';
import { eventually } from '../helpers/process.js';
import { keepAliveClient, serveRegistry, type ServedRegistry } from './harness.js';
import { ifSet } from '../helpers/hooks.js';

/** A client on a raw socket: it writes what the test says, when the test says, and records what comes back. */
function rawClient(registry: ServedRegistry) {
  const socket = net.connect(registry.port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return {
    socket,
    write: (data: string | Buffer) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write(data, () => resolve()))),
    received: () => received,
    closed: () => closed,
    /** Sends a byte every `everyMs` ms (a client that is slow, not gone) until the server closes the connection. */
    trickle(everyMs: number) {
      const timer = setInterval(() => {
        if (socket.destroyed) clearInterval(timer);
        else socket.write('x');
      }, everyMs);
      socket.on('close', () => clearInterval(timer));
      return () => clearInterval(timer);
    },
    destroy: () => socket.destroy(),
  };
}

/** The start of a multipart upload of `declared` bytes: the request head and the file part's head. */
function uploadHead(url: string, declared: number, headers: Record<string, string> = {}): string {
  const boundary = 'slowboundary';
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${declared}\r\n${extra}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.zip"\r\nContent-Type: application/zip\r\n\r\n`
  );
}

async function temporaryFiles(registry: ServedRegistry): Promise<string[]> {
  return readdir(path.join(registry.config.dataDir, 'blobs', 'tmp'));
}

async function withRegistry(backend: Backend, env: Record<string, string>) {
  const store = await backend.create();
  const registry = await serveRegistry(store.database, { DATA_DIR: store.dataDir, ...env });
  return {
    registry,
    async close() {
      try {
        await registry.closeWithin(10_000);
      } finally {
        await store.dispose();
      }
    },
  };
}

const TINY = { REQUEST_TIMEOUT_MS: '2000', BODY_IDLE_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' };

for (const backend of backends()) {
  // With and without rate limits and proxy headers: the server's time limits hold alike.
  for (const [serverName, serverEnv] of [
    ['no rate limits', { RATE_LIMIT: 'off' }],
    ['rate limits behind a proxy', { RATE_LIMIT: 'on', TRUST_PROXY: 'true' }],
  ] as const) {
    describe(`slow and vanishing clients [${backend.name}, ${serverName}]`, { timeout: 60_000 }, () => {
      let r: Awaited<ReturnType<typeof withRegistry>>;
      before(async () => {
        r = await withRegistry(backend, { ...TINY, ...serverEnv });
      });
      after(() => ifSet(r)?.close());

      it('cuts a body that trickles in slower than the request time limit, and removes its temporary file', async () => {
        const client = rawClient(r.registry);
        await client.write(uploadHead('/v1/packages/validate', 10_000_000));
        await client.write(randomBytes(2048));
        // The upload is being staged: its temporary file exists while the body arrives.
        await eventually('the temporary file appears', async () => (await temporaryFiles(r.registry)).length === 1, 5_000);
        client.trickle(200);
        // The limit is 2 s; a body that keeps coming, byte by byte, is still cut then (never: before the fix).
        await eventually('the server closes the slow request', () => client.closed(), 8_000);
        await eventually('the temporary file is removed', async () => (await temporaryFiles(r.registry)).length === 0, 5_000);
      });

      it('cuts a body that stops arriving after the idle limit, and removes its temporary file', async () => {
        const client = rawClient(r.registry);
        await client.write(uploadHead('/v1/packages/validate', 10_000_000));
        await client.write(randomBytes(4096));
        await eventually('the temporary file appears', async () => (await temporaryFiles(r.registry)).length === 1, 5_000);
        await eventually('the server closes the idle request', () => client.closed(), 6_000);
        await eventually('the temporary file is removed', async () => (await temporaryFiles(r.registry)).length === 0, 5_000);
      });

      it('closes a connection whose headers never finish', async () => {
        const client = rawClient(r.registry);
        await client.write('GET /v1/skills HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        client.trickle(200);
        await eventually('the server closes the connection', () => client.closed(), 6_000);
      });

      it('removes the temporary file of a client that goes away mid-upload, and frees its upload slot', async () => {
        for (let attempt = 0; attempt < 6; attempt++) {
          const client = rawClient(r.registry);
          await client.write(uploadHead('/v1/packages/validate', 5_000_000));
          await client.write(randomBytes(8192));
          await eventually('the temporary file appears', async () => (await temporaryFiles(r.registry)).length === 1, 5_000);
          client.destroy();
          await eventually('the temporary file is removed', async () => (await temporaryFiles(r.registry)).length === 0, 5_000);
          // A package that never arrived whole is never scanned: no scan session is left open.
          const scans = r.registry.runtime.services.scanThreads;
          assert.ok(scans !== null, 'the registry scans on worker threads');
          await scans.settled();
          assert.equal(scans.open, 0);
        }
        // The first scan starts the scan thread, which under the suite's load can outlast the 2 s request limit set here.
        await r.registry.runtime.services.scanThreads?.session().finish(null);
        // Six uploads came and went, more than the four slots a client has: none of them kept its slot.
        const archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
        const body = multipart({}, { content: archive });
        const res = await fetch(`${r.registry.base}/v1/packages/validate`, { method: 'POST', headers: body.headers, body: body.payload });
        assert.equal(res.status, 200, await res.text());
      });
    });
  }

  describe(`answers sent before the body was read [${backend.name}]`, { timeout: 60_000 }, () => {
    let r: Awaited<ReturnType<typeof withRegistry>>;
    before(async () => {
      r = await withRegistry(backend, { RATE_LIMIT: 'off', MAX_UPLOAD_BYTES: '65536' });
    });
    after(() => ifSet(r)?.close());

    /** Sends `body` with the client's one keep-alive connection, then a read on the same client. */
    async function refusedThenRead(method: string, url: string, headers: Record<string, string>, body: Buffer) {
      const client = keepAliveClient(r.registry.base);
      try {
        const refused = await client.request(method, url, { headers: { ...headers, 'content-length': body.length }, body });
        const next = await client.request('GET', '/healthz');
        assert.equal(next.status, 200, 'the client is answered after the refusal');
        return { refused, next };
      } finally {
        client.close();
      }
    }

    it('keeps the connection of an upload refused for its credentials (401) answering', async () => {
      const form = multipart({ version: '1.0.0' }, { content: randomBytes(512 * 1024) });
      for (const url of ['/v1/skills/anything/versions', '/v1/skills/with-package']) {
        for (const auth of [{}, { authorization: 'Bearer skreg_not_a_real_key' }] as Record<string, string>[]) {
          const { refused, next } = await refusedThenRead('POST', url, { ...form.headers, ...auth }, form.payload);
          assert.equal(refused.status, 401, refused.body.toString());
          assert.equal(next.socket, refused.socket, 'a body under the drain limit is read on, and the connection kept');
        }
      }
    });

    it('keeps the connection of a JSON write refused before its body was read, and of an unknown route', async () => {
      const json = Buffer.from(JSON.stringify({ name: 'x'.repeat(600 * 1024) }));
      const refused = await refusedThenRead(
        'POST',
        '/v1/skills',
        { 'content-type': 'application/json', authorization: 'Bearer skreg_nope' },
        json,
      );
      assert.equal(refused.refused.status, 401);
      assert.equal(refused.next.socket, refused.refused.socket);
      const unknown = await refusedThenRead(
        'POST',
        '/v1/no-such-route',
        { 'content-type': 'application/octet-stream' },
        randomBytes(256 * 1024),
      );
      assert.equal(unknown.refused.status, 404);
      assert.equal(unknown.next.socket, unknown.refused.socket);
    });

    it('answers a package over the upload limit with 413 before the rest arrives, and closes the connection after it', async () => {
      const client = rawClient(r.registry);
      // 6 MB declared, 128 KiB sent: the limit (64 KiB) is passed, and the rest is more than is worth reading.
      await client.write(uploadHead('/v1/packages/validate', 6 * 1024 * 1024));
      await client.write(randomBytes(128 * 1024));
      await eventually('the 413 arrives', () => client.received().includes('\r\n\r\n{'), 5_000);
      const [head = ''] = client.received().split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 413 /);
      assert.match(head, /\r\nconnection: close/i);
      assert.match(client.received(), /"code":"payload_too_large"/);
      await eventually('the server closes the connection after its answer', () => client.closed(), 5_000);
      await eventually('no temporary file is left', async () => (await temporaryFiles(r.registry)).length === 0, 5_000);
    });

    it('keeps the connection of a small upload refused before its end, reading the rest', async () => {
      const client = rawClient(r.registry);
      const head = uploadHead('/v1/packages/validate', 200 * 1024);
      await client.write(head);
      await client.write(randomBytes(100 * 1024));
      await eventually('the 413 arrives', () => client.received().includes('"code":"payload_too_large"'), 5_000);
      assert.doesNotMatch(client.received(), /connection: close/i);
      // The rest of the declared body, then a second request on the same connection.
      await client.write(randomBytes(200 * 1024 - 100 * 1024 - Buffer.byteLength(head.slice(head.indexOf('\r\n\r\n') + 4))));
      await client.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await eventually('the next request is answered', () => client.received().includes('{"status":"ok"}'), 5_000);
      assert.equal(client.closed(), false);
      client.destroy();
    });
  });

  describe(`uploads in flight per client [${backend.name}]`, { timeout: 60_000 }, () => {
    let r: Awaited<ReturnType<typeof withRegistry>>;
    let keys: string[];
    let slug: string;
    before(async () => {
      r = await withRegistry(backend, { RATE_LIMIT: 'off', UPLOADS_PER_CLIENT: '2', BODY_IDLE_TIMEOUT_MS: '30000' });
      const base = r.registry.base;
      const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const name = `u${randomBytes(4).toString('hex')}`;
      assert.equal(
        (await post('/v1/auth/register', { username: name, email: `${name}@example.com`, password: `pw-${name}-secret` })).status,
        201,
      );
      const login = await post('/v1/auth/login', { login: name, password: `pw-${name}-secret` });
      const cookie = `session_token=${/session_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1]}`;
      keys = [];
      for (let i = 0; i < 2; i++) {
        const res = await post('/v1/me/api-keys', { name: `key ${i}`, scopes: ['skill:upload'] }, { cookie });
        keys.push(((await res.json()) as { key: string }).key);
      }
      slug = `slots-${backend.name}`;
      const created = await post('/v1/skills', { name: 'Slots', slug }, { authorization: `Bearer ${keys[0]}` });
      assert.equal(created.status, 201);
    });
    after(() => ifSet(r)?.close());

    it('refuses a third upload of one user (across keys) with 429 and Retry-After, and takes it once one ends', async () => {
      const held = [rawClient(r.registry), rawClient(r.registry)];
      for (const [i, client] of held.entries()) {
        await client.write(uploadHead(`/v1/skills/${slug}/versions`, 5_000_000, { Authorization: `Bearer ${keys[i]}` }));
        await client.write(randomBytes(1024));
      }
      await eventually('both uploads are being staged', async () => (await temporaryFiles(r.registry)).length === 2, 5_000);

      const client = keepAliveClient(r.registry.base);
      try {
        const archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
        const body = multipart({ version: '1.0.0' }, { content: archive });
        const send = () =>
          client.request('POST', `/v1/skills/${slug}/versions`, {
            headers: { authorization: `Bearer ${keys[1]}`, ...body.headers, 'content-length': body.payload.length },
            body: body.payload,
          });
        const refused = await send();
        assert.equal(refused.status, 429, refused.body.toString());
        assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
        assert.equal(refused.json().code, 'too_many_uploads');
        assert.ok(Number(refused.headers['retry-after']) > 0);
        // Another client (an anonymous validation from the same address) is not held up by this user's uploads.
        const other = multipart({}, { content: archive });
        const validated = await fetch(`${r.registry.base}/v1/packages/validate`, {
          method: 'POST',
          headers: other.headers,
          body: other.payload,
        });
        assert.equal(validated.status, 200);

        held[0]!.destroy();
        await eventually('the cut upload leaves', async () => (await temporaryFiles(r.registry)).length === 1, 5_000);
        const taken = await send();
        assert.equal(taken.status, 201, taken.body.toString());
        assert.equal(taken.socket, refused.socket, 'the connection that got the 429 carries on');
      } finally {
        client.close();
        for (const c of held) c.destroy();
      }
      await eventually('no temporary file is left', async () => (await temporaryFiles(r.registry)).length === 0, 5_000);
    });

    it('counts anonymous validations per address', async () => {
      const held = [rawClient(r.registry), rawClient(r.registry)];
      for (const client of held) {
        await client.write(uploadHead('/v1/packages/validate', 5_000_000));
        await client.write(randomBytes(1024));
      }
      await eventually('both validations are being staged', async () => (await temporaryFiles(r.registry)).length === 2, 5_000);
      try {
        const archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
        const body = multipart({}, { content: archive });
        const res = await fetch(`${r.registry.base}/v1/packages/validate`, { method: 'POST', headers: body.headers, body: body.payload });
        const text = await res.text();
        assert.equal(res.status, 429, text);
        assert.equal((JSON.parse(text) as { code: string }).code, 'too_many_uploads');
      } finally {
        for (const c of held) c.destroy();
      }
      await eventually('no temporary file is left', async () => (await temporaryFiles(r.registry)).length === 0, 5_000);
    });
  });
}
