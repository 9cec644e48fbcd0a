import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DatabaseConfig } from '../../src/config.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { keepAliveClient, serveRegistry, type RawResponse, type ServedRegistry } from './harness.js';
import { ifSet } from '../helpers/hooks.js';
import { fillDisk, mountSmallDisk } from './small-disk.js';

// A real full disk: a small tmpfs mounted for the test (small-disk.ts), holding the registry's files.

/** Fills the disk to the last byte (a file per attempt, smaller each time, until nothing more fits). */
function fillCompletely(dir: string): string[] {
  const files: string[] = [];
  for (let chunk = 1 << 20; chunk >= 512; chunk >>= 1) {
    for (;;) {
      const file = path.join(dir, `filler-${files.length}`);
      try {
        writeFileSync(file, Buffer.alloc(chunk));
        files.push(file);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
        rmSync(file, { force: true });
        break;
      }
    }
  }
  return files;
}

function expectRawProblem(res: RawResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.body.toString()}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.code, code, res.body.toString());
  assert.equal(body.status, status);
  assert.equal(body.request_id, res.headers['x-request-id']);
  return body;
}

const sha256 = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

/** A zip whose size is about `bytes`: random content does not compress. */
function bigPackage(bytes: number): Promise<Buffer> {
  return zip([
    { path: 'SKILL.md', content: skillMd() },
    { path: 'data.bin', content: randomBytes(bytes) },
  ]);
}

interface Setup {
  registry: ServedRegistry;
  client: ReturnType<typeof keepAliveClient>;
  key: string;
  admin: string;
}

/** An account with an upload key, and the admin's session, over real HTTP. */
async function accounts(registry: ServedRegistry): Promise<Pick<Setup, 'key' | 'admin'>> {
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${registry.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const name = `user${randomBytes(4).toString('hex')}`;
  assert.equal(
    (await post('/v1/auth/register', { username: name, email: `${name}@example.com`, password: `pw-${name}-secret` })).status,
    201,
  );
  const login = await post('/v1/auth/login', { login: name, password: `pw-${name}-secret` });
  const cookie = /session_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(cookie);
  const keyRes = await post(
    '/v1/me/api-keys',
    { name: 'ci', scopes: ['skill:upload'] },
    { cookie: `session_token=${cookie}`, origin: registry.config.publicOrigin },
  );
  assert.equal(keyRes.status, 201, await keyRes.clone().text());
  const { key } = (await keyRes.json()) as { key: string };
  const adminLogin = await post('/v1/auth/login', { login: 'admin', password: 'admin-password-1' });
  const admin = /session_token=([^;]+)/.exec(adminLogin.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(admin);
  return { key, admin };
}

function uploadRequest(key: string, version: string, archive: Buffer) {
  const body = multipart({ version }, { content: archive });
  return { headers: { authorization: `Bearer ${key}`, ...body.headers, 'content-length': body.payload.length }, body: body.payload };
}

async function blobTemps(registry: ServedRegistry): Promise<string[]> {
  return readdir(path.join(registry.config.dataDir, 'blobs', 'tmp'));
}

for (const backend of backends()) {
  describe(`a full disk under the package store [${backend.name}]`, { timeout: 120_000 }, () => {
    let disk: ReturnType<typeof mountSmallDisk>;
    let store: Awaited<ReturnType<typeof backend.create>>;
    let s: Setup;
    before(async () => {
      disk = mountSmallDisk(8);
      store = await backend.create();
      // On SQLite the database lives on the small disk too, as it does under DATA_DIR by default.
      const database: DatabaseConfig =
        store.database.kind === 'sqlite' ? { kind: 'sqlite', file: path.join(disk.dir, 'registry.db') } : store.database;
      const registry = await serveRegistry(database, { DATA_DIR: disk.dir, STORAGE_MIN_FREE_BYTES: String(512 * 1024) });
      s = { registry, client: keepAliveClient(registry.base), ...(await accounts(registry)) };
    });
    after(async () => {
      try {
        ifSet(s)?.client.close();
        await ifSet(s)?.registry.closeWithin(10_000);
      } finally {
        ifSet(disk)?.unmount();
        await ifSet(store)?.dispose();
      }
    });

    it('answers 507 on the same connection, keeps reads, /readyz says so, and takes uploads again once there is room', async () => {
      const { client, key, admin, registry } = s;
      const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const created = await client.request('POST', '/v1/skills', {
        headers: auth,
        body: JSON.stringify({ name: 'Full Disk', slug: `full-${backend.name}` }),
      });
      assert.equal(created.status, 201, created.body.toString());
      const slug = `full-${backend.name}`;
      const first = await zip([{ path: 'SKILL.md', content: skillMd() }]);
      const stored = await client.request('POST', `/v1/skills/${slug}/versions`, uploadRequest(key, '1.0.0', first));
      assert.equal(stored.status, 201, stored.body.toString());
      const published = await client.request('PATCH', `/v1/admin/skills/${slug}/status`, {
        headers: { cookie: `session_token=${admin}`, 'content-type': 'application/json', origin: registry.config.publicOrigin },
        body: JSON.stringify({ status: 'published' }),
      });
      assert.equal(published.status, 200, published.body.toString());

      // About 700 KiB free, above the 512 KiB floor: the upload starts and runs out of room while it is written.
      const filler = fillDisk(disk.dir, 700 * 1024);
      const big = await bigPackage(900 * 1024);
      const refused = await client.request('POST', `/v1/skills/${slug}/versions`, uploadRequest(key, '1.1.0', big));
      const problem = expectRawProblem(refused, 507, 'insufficient_storage');
      assert.match(String(problem.detail), /room|space/);
      assert.deepEqual(await blobTemps(registry), [], 'the cut upload leaves no temporary file');

      // The connection that carried the refused upload answers the next request.
      const read = await client.request('GET', `/v1/skills/${slug}`);
      assert.equal(read.status, 200, read.body.toString());
      assert.equal(read.socket, refused.socket, 'the same keep-alive connection answers after the 507');
      const download = await client.request('GET', `/v1/skills/${slug}/versions/1.0.0/download`);
      assert.equal(download.status, 200);
      assert.equal(sha256(download.body), sha256(first), 'what was stored is served unchanged');
      const versions = await client.request('GET', `/v1/skills/${slug}/versions`);
      assert.deepEqual(
        versions.json<{ items: { version: string }[] }>().items.map((v) => v.version),
        ['1.0.0'],
      );

      // Below the floor: /readyz names the store, and an upload is refused before its body is read.
      const deeper = fillDisk(disk.dir, 128 * 1024, 'filler-2');
      const notReady = await client.request('GET', '/readyz');
      const readyProblem = expectRawProblem(notReady, 503, 'not_ready');
      assert.match(String(readyProblem.detail), /package store/i);
      assert.match(String(readyProblem.detail), /free/i);
      const early = await client.request('POST', `/v1/skills/${slug}/versions`, uploadRequest(key, '1.1.0', big));
      expectRawProblem(early, 507, 'insufficient_storage');
      const validate = multipart({}, { content: big });
      const earlyValidate = await client.request('POST', '/v1/packages/validate', {
        headers: { ...validate.headers, 'content-length': validate.payload.length },
        body: validate.payload,
      });
      expectRawProblem(earlyValidate, 507, 'insufficient_storage');
      const stillRead = await client.request('GET', `/v1/skills/${slug}/versions/1.0.0/download`);
      assert.equal(stillRead.status, 200);
      assert.equal(sha256(stillRead.body), sha256(first));
      assert.deepEqual(await blobTemps(registry), []);

      // Room again: ready, and the same upload is taken.
      unlinkSync(deeper);
      unlinkSync(filler);
      const ready = await client.request('GET', '/readyz');
      assert.equal(ready.status, 200, ready.body.toString());
      const again = await client.request('POST', `/v1/skills/${slug}/versions`, uploadRequest(key, '1.1.0', big));
      assert.equal(again.status, 201, again.body.toString());
      const after = await client.request('GET', `/v1/skills/${slug}/versions/1.1.0/download`);
      assert.equal(sha256(after.body), sha256(big));
    });
  });
}

describe('a full disk under the SQLite database', { timeout: 120_000 }, () => {
  let disk: ReturnType<typeof mountSmallDisk>;
  let blobs: string;
  let s: Setup;
  before(async () => {
    disk = mountSmallDisk(8);
    blobs = mkdtempSync(path.join(tmpdir(), 'skreg-blobs-'));
    // The packages live elsewhere: only the database runs out of room.
    const registry = await serveRegistry(
      { kind: 'sqlite', file: path.join(disk.dir, 'registry.db') },
      { DATA_DIR: disk.dir, STORAGE_URL: `file://${blobs}`, STORAGE_MIN_FREE_BYTES: '0', LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' },
    );
    s = { registry, client: keepAliveClient(registry.base), ...(await accounts(registry)) };
  });
  after(async () => {
    try {
      ifSet(s)?.client.close();
      await ifSet(s)?.registry.closeWithin(10_000);
    } finally {
      ifSet(disk)?.unmount();
      rmSync(blobs, { recursive: true, force: true });
    }
  });

  it('answers writes with 507, never 500, keeps serving reads, and writes again once there is room', async () => {
    const { client, key } = s;
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const create = (n: number) =>
      client.request('POST', '/v1/skills', {
        headers: auth,
        body: JSON.stringify({ name: `Skill ${n}`, slug: `skill-${n}`, description: 'x'.repeat(1000), tags: ['a', 'b', 'c'] }),
      });
    assert.equal((await create(0)).status, 201);
    const fillers = fillCompletely(disk.dir);
    let refused: RawResponse | undefined;
    const statuses: number[] = [];
    for (let n = 1; n <= 400 && refused === undefined; n++) {
      const res = await create(n);
      statuses.push(res.status);
      if (res.status !== 201) refused = res;
    }
    assert.ok(refused, `the database never ran out of room: ${statuses.length} skills created`);
    expectRawProblem(refused, 507, 'insufficient_storage');
    const read = await client.request('GET', '/v1/skills/skill-0', { headers: { authorization: `Bearer ${key}` } });
    assert.equal(read.status, 200, read.body.toString());
    assert.equal(read.socket, refused.socket);

    for (const file of fillers) unlinkSync(file);
    const again = await create(1000);
    assert.equal(again.status, 201, again.body.toString());
  });
});
