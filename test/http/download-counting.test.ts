import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { inFlightOf } from '../../src/http/in-flight.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createKey,
  createSkill,
  expectStatus,
  json,
  registerUser,
  setStatus,
  type TestUser,
} from '../helpers/client.js';
import { eventually } from '../helpers/process.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';

/**
 * Downloads are counted once for every body sent in full, and never for one cut short, whatever the client does
 * once it holds the last byte: curl and raw sockets that close at once (with FIN or RST), keep-alive clients, and
 * ranged requests (counted when they resume to the end or cover the whole package). Against the file store and S3,
 * on each database, over a real socket.
 */

const run = promisify(execFile);

let s3: S3Server;
before(async () => {
  s3 = await startS3Server();
});
after(async () => {
  await s3.close();
});

interface Reading {
  status: number;
  length: number;
  received: number;
}

/**
 * A bare HTTP/1.1 client: sends one GET, reads the headers and then exactly `readBytes` of the body (all of it by
 * default), and closes the socket at once — gracefully (FIN) or by reset (RST).
 */
function rawGet(port: number, path: string, options: { readBytes?: number; reset?: boolean; range?: string } = {}): Promise<Reading> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = Buffer.alloc(0);
    let headers: { status: number; length: number } | null = null;
    let received = 0;
    const finish = () => {
      if (options.reset === true) socket.resetAndDestroy();
      else socket.destroy();
      resolve({ status: headers?.status ?? 0, length: headers?.length ?? 0, received });
    };
    socket.on('error', reject);
    socket.on('connect', () => {
      const range = options.range === undefined ? '' : `Range: ${options.range}\r\n`;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n${range}\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      if (headers === null) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const text = head.subarray(0, end).toString('latin1');
        const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1]);
        headers = { status, length };
        chunk = head.subarray(end + 4);
      }
      received += chunk.length;
      if (received >= (options.readBytes ?? headers.length)) finish();
    });
  });
}

/** A keep-alive client's GETs, one after another over one connection. */
async function keepAliveGets(port: number, path: string, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  const sizes: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      sizes.push(
        await new Promise<number>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path, agent }, (res) => {
              sockets.add(res.socket);
              let size = 0;
              res.on('data', (chunk: Buffer) => (size += chunk.length));
              res.on('end', () => resolve(size));
              res.on('error', reject);
            })
            .on('error', reject);
        }),
      );
    }
  } finally {
    agent.destroy();
  }
  assert.equal(sockets.size, 1, 'every GET went over one kept-alive connection');
  return sizes;
}

const STORES = [
  { name: 'file store', env: (): Record<string, string> => ({}) },
  { name: 'S3', env: (prefix: string): Record<string, string> => s3.envFor(s3.bucket, prefix) },
];

for (const backend of apiBackends()) {
  for (const store of STORES) {
    describe(`download counting [${backend.name}, ${store.name}]`, () => {
      let t: TestApp;
      let alice: TestUser;
      let port: number;
      let small: Buffer;

      /** The download count as the stats, the skill and its version list show it, once every response has ended. */
      async function counted(slug: string): Promise<number> {
        const tracker = inFlightOf(t.app);
        assert.ok(tracker);
        await eventually('every response has ended', () => tracker.list().length === 0, 10_000);
        const stats = json<{ total_downloads: number; versions: { downloads: number }[] }>(
          expectStatus(await call(t, 'GET', `/v1/skills/${slug}/stats?days=1`), 200),
        );
        const skill = json<{ downloads: number }>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}`), 200));
        const versions = json<{ items: { downloads: number }[] }>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions`), 200));
        assert.equal(skill.downloads, stats.total_downloads, 'the skill shows the same total as its stats');
        assert.equal(versions.items[0]?.downloads, stats.total_downloads, 'the version list shows the same count');
        return stats.total_downloads;
      }

      async function published(archive: Buffer): Promise<string> {
        const admin = await adminSession(t);
        const skill = await createSkill(t, alice.session);
        const body = multipart({ version: '1.0.0' }, { content: archive });
        expectStatus(
          await t.request({
            method: 'POST',
            url: `/v1/skills/${skill.slug}/versions`,
            headers: { ...authHeaders(alice.session), ...body.headers },
            payload: body.payload,
          }),
          201,
        );
        await setStatus(t, admin, skill.slug, 'published');
        return skill.slug;
      }

      before(async () => {
        t = await startApp(backend, store.env(`count-${backend.name}-${process.pid}`));
        alice = await registerUser(t);
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const address = t.app.server.address();
        assert.ok(address !== null && typeof address === 'object');
        port = address.port;
        small = await zip([
          { path: 'SKILL.md', content: skillMd() },
          { path: 'assets/data.bin', content: randomBytes(200_000) },
        ]);
      });
      after(() => t.close());

      it('counts every download curl completes, though curl closes as soon as it has the last byte', async () => {
        const slug = await published(small);
        for (let i = 0; i < 25; i += 1) {
          const { stdout } = await run(
            'curl',
            [
              '-s',
              '-o',
              '/dev/null',
              '-w',
              '%{http_code} %{size_download}',
              `http://127.0.0.1:${port}/v1/skills/${slug}/versions/latest/download`,
            ],
            {
              timeout: 30_000,
            },
          );
          assert.equal(stdout, `200 ${small.length}`);
        }
        assert.equal(await counted(slug), 25);
      });

      it('counts a raw socket that reads the declared length and closes at once, by FIN or by reset', async () => {
        const slug = await published(small);
        for (let i = 0; i < 20; i += 1) {
          const reading = await rawGet(port, `/v1/skills/${slug}/versions/1.0.0/download`, { reset: i % 2 === 1 });
          assert.deepEqual(reading, { status: 200, length: small.length, received: small.length });
        }
        assert.equal(await counted(slug), 20);
      });

      it('counts each download of a keep-alive client once', async () => {
        const slug = await published(small);
        const sizes = await keepAliveGets(port, `/v1/skills/${slug}/versions/latest/download`, 8);
        assert.deepEqual(sizes, Array(8).fill(small.length));
        assert.equal(await counted(slug), 8);
      });

      it('counts a range that resumes to the end or covers the whole package, and no other', async () => {
        const slug = await published(small);
        const url = `http://127.0.0.1:${port}/v1/skills/${slug}/versions/latest/download`;
        const curl = async (...args: string[]) =>
          (await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', ...args, url], { timeout: 30_000 })).stdout;
        // Not counted: a suffix (how tools read a zip's directory), a closed piece, a piece that ends at the last byte
        // without being a resume, and HEAD.
        assert.equal(await curl('-r', '-22'), '206 22');
        assert.equal(await curl('-r', '0-1023'), '206 1024');
        assert.equal(await curl('-r', `1000-${small.length - 1}`), `206 ${small.length - 1000}`);
        assert.equal(await curl('-I'), '200 0');
        assert.equal(await counted(slug), 0);
        // Counted: a resume (`bytes=N-`, as curl -C sends), and a range of the whole package.
        assert.equal(await curl('-C', '5000'), `206 ${small.length - 5000}`);
        assert.equal(await curl('-r', '0-'), `206 ${small.length}`);
        assert.equal(await curl('-r', `0-${small.length - 1}`), `206 ${small.length}`);
        assert.equal(await counted(slug), 3);
      });

      it('logs every call a key makes to a package or a file with curl, which closes at once', async () => {
        const slug = await published(small);
        const { key } = await createKey(t, alice.session, []);
        const ids: string[] = [];
        for (const path of ['versions/1.0.0/download', 'versions/1.0.0/files/assets/data.bin', 'versions/1.0.0/files/SKILL.md']) {
          for (let i = 0; i < 5; i += 1) {
            const { stdout } = await run(
              'curl',
              [
                '-s',
                '-o',
                '/dev/null',
                '-D',
                '-',
                '-H',
                `authorization: Bearer ${key}`,
                `http://127.0.0.1:${port}/v1/skills/${slug}/${path}`,
              ],
              { timeout: 30_000 },
            );
            assert.match(stdout, /^HTTP\/1\.1 200/);
            const id = /\r\nx-request-id: *(\S+)/i.exec(stdout)?.[1];
            assert.ok(id !== undefined);
            ids.push(id);
          }
        }
        assert.equal(await counted(slug), 5);
        for (const id of ids) expectStatus(await call(t, 'GET', `/v1/logs/${id}`, { key }), 200);
      });

      it('does not count a body the client cut short', async () => {
        // Far larger than what the kernel's socket buffers hold, so the server cannot have handed over the whole body.
        const big = await zip([
          { path: 'SKILL.md', content: skillMd() },
          { path: 'assets/large.bin', content: randomBytes(24 * 1024 * 1024) },
        ]);
        const slug = await published(big);
        for (const reset of [false, true]) {
          const reading = await rawGet(port, `/v1/skills/${slug}/versions/1.0.0/download`, { readBytes: 64 * 1024, reset });
          assert.equal(reading.status, 200);
          assert.ok(reading.received < big.length);
        }
        assert.equal(await counted(slug), 0);
        // The same package read to its end is counted.
        const whole = await rawGet(port, `/v1/skills/${slug}/versions/1.0.0/download`);
        assert.equal(whole.received, big.length);
        assert.equal(await counted(slug), 1);
      });
    });
  }
}
