import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import { call, createKey, createSkill, expectStatus, json, registerUser, type SkillBody, type TestUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';
import { eventually } from '../helpers/process.js';
import { keepAliveClient } from '../faults/harness.js';

/**
 * A request body must bring BODY_MIN_RATE_BYTES in every BODY_MIN_RATE_WINDOW_MS. A body trickling in slower is cut
 * with 408 `body_too_slow` and its connection closed, freeing its upload slot, long before the idle or request limits
 * would (a trickle is never idle); a body arriving steadily above the rate is taken. Driven over real sockets, with a
 * window short enough to watch.
 */

const WINDOW_MS = 200;
const MIN_BYTES = 1024;

/** A client on a raw socket: it writes what the test says, when the test says, and records what comes back. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return {
    write: (data: string | Buffer) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write(data, () => resolve()))),
    received: () => received,
    closed: () => closed,
    /** Sends `chunk` every `everyMs` ms until `chunks` are sent or the server closes the connection. */
    drip(chunks: Buffer[], everyMs: number): Promise<void> {
      return new Promise((resolve) => {
        const next = () => {
          const chunk = chunks.shift();
          if (chunk === undefined || socket.destroyed) {
            clearInterval(timer);
            resolve();
          } else socket.write(chunk);
        };
        const timer = setInterval(next, everyMs);
        socket.on('close', () => {
          clearInterval(timer);
          resolve();
        });
      });
    },
    destroy: () => socket.destroy(),
  };
}

/** The status line, headers and body of the one answer a raw client received. */
function answerOf(received: string): { status: number; head: string; body: Record<string, unknown> } {
  const [head = '', ...rest] = received.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
  const text = rest.join('\r\n\r\n');
  // A body of a known length; a chunked one would start with its size.
  return { status, head, body: JSON.parse(text) as Record<string, unknown> };
}

function requestHead(method: string, url: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`;
}

/** One-byte chunks of `body`. */
const bytesOf = (body: Buffer) => [...body].map((b) => Buffer.from([b]));

/** `body` cut into chunks of `size` bytes. */
function chunksOf(body: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) out.push(body.subarray(at, at + size));
  return out;
}

for (const backend of apiBackends()) {
  describe(`minimum body rate [${backend.name}]`, { timeout: 60_000 }, () => {
    let t: TestApp;
    let port: number;
    let alice: TestUser;
    let key: string;
    let skill: SkillBody;
    let packageBytes: Buffer;

    before(async () => {
      t = await startApp(backend, {
        BODY_MIN_RATE_BYTES: String(MIN_BYTES),
        BODY_MIN_RATE_WINDOW_MS: String(WINDOW_MS),
        // One upload at a time: an upload cut for its rate must give its slot back for the next one to be taken.
        UPLOADS_PER_CLIENT: '1',
      });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
      alice = await registerUser(t);
      key = (await createKey(t, alice.session)).key;
      skill = await createSkill(t, alice.session, { description: 'Before.' });
      // 64 KiB that does not compress, so the body is that large on the wire.
      packageBytes = await zip([
        { path: 'SKILL.md', content: skillMd() },
        { path: 'data.bin', content: randomBytes(64 * 1024) },
      ]);
    });
    after(() => ifSet(t)?.close());

    const temporaryFiles = async () => readdir(path.join(t.config.dataDir, 'blobs', 'tmp')).catch(() => []);

    async function versions(): Promise<string[]> {
      const res = expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}/versions`, alice.session), 200);
      return json<{ items: { version: string }[] }>(res).items.map((v) => v.version);
    }

    function uploadRequest(version: string) {
      const form = multipart({ version }, { content: packageBytes });
      const head = requestHead('POST', `/v1/skills/${skill.id}/versions`, {
        authorization: `Bearer ${key}`,
        ...form.headers,
        'content-length': form.payload.length,
      });
      return { head, body: form.payload };
    }

    /** Requests answered 408 on the version upload route, as /metrics counts them. */
    async function cutUploads(): Promise<number> {
      const text = expectStatus(await call(t, 'GET', '/metrics'), 200).body;
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_requests_total{') && l.includes('route="/v1/skills/:skillId/versions"') && l.includes('status_code="408"'),
        );
      return line === undefined ? 0 : Number(line.split(' ').pop());
    }

    it('cuts an upload trickling a byte every 100 ms with 408 body_too_slow, closes its connection and keeps nothing', async () => {
      const { head, body } = uploadRequest('1.0.0');
      const client = rawClient(port);
      await client.write(head);
      // The form's head and the start of the package: the upload is staged as it arrives.
      await client.write(body.subarray(0, 2048));
      await eventually('the temporary file appears', async () => (await temporaryFiles()).length === 1, 5_000);
      const started = Date.now();
      const dripping = client.drip(bytesOf(body.subarray(2048)), 100);
      await eventually('the server closes the connection', () => client.closed(), 10_000);
      const elapsed = Date.now() - started;
      await dripping;
      // Cut by the rate within a few windows: the idle limit (30 s) never comes, the request limit (5 min) is far.
      assert.ok(elapsed < 15 * WINDOW_MS, `cut after ${elapsed} ms`);
      const answer = answerOf(client.received());
      assert.equal(answer.status, 408, client.received());
      assert.match(answer.head, /\r\ncontent-type: application\/problem\+json/i);
      assert.match(answer.head, /\r\nconnection: close/i);
      assert.equal(answer.body.code, 'body_too_slow');
      assert.match(answer.body.detail as string, new RegExp(`fewer than ${MIN_BYTES} bytes in ${WINDOW_MS / 1000} s`));
      await eventually('the temporary file is removed', async () => (await temporaryFiles()).length === 0, 5_000);
      assert.deepEqual(await versions(), []);
      assert.equal(await cutUploads(), 1);
    });

    it('takes an upload arriving steadily above the rate, with the slot the cut upload gave back', async () => {
      const { head, body } = uploadRequest('1.0.0');
      const client = rawClient(port);
      await client.write(head);
      // 4 KiB every 20 ms: forty times the minimum, over some fifteen windows.
      await client.drip(chunksOf(body, 4096), 20);
      await eventually('the answer arrives', () => client.received().includes('\r\n\r\n{'), 10_000);
      await eventually('the whole answer arrives', () => client.received().endsWith('}'), 5_000);
      const answer = answerOf(client.received());
      assert.equal(answer.status, 201, client.received());
      assert.equal(answer.body.version, '1.0.0');
      client.destroy();
      assert.deepEqual(await versions(), ['1.0.0']);
      assert.equal(await cutUploads(), 1);
    });

    it('cuts a JSON body trickling in, and changes nothing', async () => {
      const text = Buffer.from(JSON.stringify({ description: 'After.' }).padEnd(400, ' '));
      const client = rawClient(port);
      await client.write(
        requestHead('PATCH', `/v1/skills/${skill.id}`, {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': text.length,
        }),
      );
      const dripping = client.drip(bytesOf(text), 100);
      await eventually('the server closes the connection', () => client.closed(), 10_000);
      await dripping;
      const answer = answerOf(client.received());
      assert.equal(answer.status, 408, client.received());
      assert.equal(answer.body.code, 'body_too_slow');
      const now = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}`, alice.session), 200));
      assert.equal(now.description, 'Before.');
    });

    it('lets go of each body once it has arrived: requests on one kept-alive connection leave nothing behind', async () => {
      const sockets: net.Socket[] = [];
      const onConnection = (socket: net.Socket) => sockets.push(socket);
      t.app.server.on('connection', onConnection);
      const client = keepAliveClient(`http://127.0.0.1:${port}`);
      try {
        const listeners: number[] = [];
        for (let i = 0; i < 15; i++) {
          const res = await client.request('PATCH', `/v1/skills/${skill.id}`, {
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ description: 'Before.' }),
          });
          assert.equal(res.status, 200, res.body.toString());
          assert.equal(sockets.length, 1, 'one connection');
          listeners.push(sockets[0]!.listenerCount('close'));
        }
        assert.equal(new Set(listeners).size, 1, `close listeners on the connection: ${listeners.join(', ')}`);
      } finally {
        client.close();
        t.app.server.off('connection', onConnection);
      }
    });

    it('closes the connection of a refused request whose unread body then trickles in', async () => {
      const { head, body } = uploadRequest('2.0.0');
      const client = rawClient(port);
      // No credentials: answered 401 before the body is read; the body, under the drain limit, would be read on.
      await client.write(head.replace(/authorization: [^\r]*\r\n/, ''));
      await eventually('the 401 arrives', () => client.received().includes('\r\n\r\n{'), 5_000);
      assert.match(client.received(), /^HTTP\/1\.1 401 /);
      const dripping = client.drip(bytesOf(body), 100);
      await eventually('the server closes the connection', () => client.closed(), 10_000);
      await dripping;
    });
  });
}
