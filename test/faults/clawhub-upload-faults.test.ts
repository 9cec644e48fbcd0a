// `clawhub publish` (an upload ticket per file, the file's bytes against it, then the publish) when things fail:
// PostgreSQL refusing connections, before a request and in the middle of a publish's transaction; a disk below the
// free-space floor; a client that vanishes halfway through a file. The registry answers each clearly, keeps nothing
// half-made, and the same publish retried afterwards makes one version.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.js';
import { blobFiles, type TestApp } from '../helpers/app.js';
import { skillMd } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { call, createKey, expectStatus, json, registerUser, uniqueName } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';
import { keepAliveClient, serveRegistry, type ServedRegistry } from './harness.js';
import { POSTGRES_ONLY, POSTGRES_URL, type DatabaseProxy } from './postgres-sessions.js';
import { proxiedRegistry, type ProxiedRegistry } from './proxied-registry.js';
import { fillDisk, mountSmallDisk, type SmallDisk } from './small-disk.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface File {
  path: string;
  bytes: Buffer;
}
interface Ticketed extends File {
  ticket: string;
}

/** A skill's files as `clawhub publish` reads them from a folder. */
function folder(slug: string, notes = 'How to use it.\n'): File[] {
  return [
    { path: 'SKILL.md', bytes: Buffer.from(skillMd(slug, 'Finds quotes in long documents.')) },
    { path: 'reference/notes.md', bytes: Buffer.from(notes) },
  ];
}

/** A file large enough to be cut halfway, and more than a socket's buffers hold: 600 KB of text. */
function longFile(slug: string): File {
  return { path: 'reference/long.md', bytes: Buffer.from(`# ${slug}\n${'A line of the reference text.\n'.repeat(20_000)}`) };
}

/** The JSON publish the client sends once every file is uploaded. */
function publishBody(slug: string, version: string, files: Ticketed[]) {
  return {
    slug,
    displayName: 'Quote finder',
    version,
    changelog: 'First.',
    acceptLicenseTerms: true,
    tags: ['latest'],
    files: files.map((f) => ({
      path: f.path,
      size: f.bytes.length,
      sha256: sha256(f.bytes),
      storageId: sha256(f.bytes),
      contentType: 'text/markdown',
      uploadTicket: f.ticket,
    })),
  };
}

/** The ClawHub routes answer refusals as text (the client prints the body): a status, Retry-After, and a sentence. */
function expectRefusal(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, sentence: RegExp) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  assert.match(res.body, sentence);
}

/**
 * PostgreSQL behind a proxy that can refuse connections (postgres-sessions.ts). Without TEST_DATABASE_URL it is skipped
 * with that reason, as every PostgreSQL fault suite is; CI=true refuses to run without it.
 */
describe('ClawHub publish while PostgreSQL refuses connections', { timeout: 120_000, ...POSTGRES_ONLY }, () => {
  let t: TestApp;
  let proxy: DatabaseProxy;
  let registry: ProxiedRegistry | undefined;
  let schema = '';

  before(async () => {
    registry = await proxiedRegistry({
      // Only what the test runs: no background job takes a connection the test is watching.
      QUEUE_POLL_MS: '86400000',
    });
    ({ t, proxy, schema } = registry);
  });
  after(() => registry?.close());

  const ticket = (key: string, file: File) =>
    call(
      t,
      'POST',
      '/api/v1/skills/-/upload-url',
      { key },
      {
        path: file.path,
        size: file.bytes.length,
        sha256: sha256(file.bytes),
        contentType: 'text/markdown',
      },
    );
  const upload = (key: string, ticketId: string, bytes: Buffer) =>
    t.request({
      method: 'POST',
      url: `/api/v1/skills/-/upload/${ticketId}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/markdown' },
      payload: bytes,
    });
  const publish = (key: string, body: unknown) => call(t, 'POST', '/api/v1/skills', { key }, body);
  async function ticketAndUpload(key: string, files: File[]): Promise<Ticketed[]> {
    const done: Ticketed[] = [];
    for (const file of files) {
      const { uploadTicket } = json<{ uploadTicket: string }>(expectStatus(await ticket(key, file), 200));
      expectStatus(await upload(key, uploadTicket, file.bytes), 200);
      done.push({ ...file, ticket: uploadTicket });
    }
    return done;
  }
  const unavailable = (res: LightMyRequestResponse) => {
    expectRefusal(res, 503, /database is not answering/);
    assert.ok(res.headers['retry-after'], 'a 503 says when to try again');
  };
  /** The skill as its owner reads it through /v1, or 404 when no skill was made. */
  const skillOf = (cookie: string, slug: string) => call(t, 'GET', `/v1/skills/${slug}`, { cookie });

  it('refused at every step while the database is away: 503, clear, and the publish made once after it returns', async () => {
    const user = await registerUser(t);
    const { key } = await createKey(t, user.session);
    const slug = uniqueName('quote-finder-');
    const files = await ticketAndUpload(key, folder(slug));
    const body = publishBody(slug, '1.0.0', files);

    await proxy.refuse();
    try {
      unavailable(await ticket(key, folder(slug)[0]!));
      unavailable(await upload(key, files[0]!.ticket, files[0]!.bytes));
      unavailable(await publish(key, body));
    } finally {
      await proxy.restore();
    }
    // The first request after it returns may meet a connection cut while it was away: the client retries a 503.
    let published = await publish(key, body);
    if (published.statusCode === 503) published = await publish(key, body);
    const first = json<{ ok: boolean; versionId: string; version: string; publicationStatus: string }>(expectStatus(published, 200));
    assert.deepEqual([first.ok, first.version, first.publicationStatus], [true, '1.0.0', 'pending']);
    // The client retries a POST it heard nothing back from: the same answer, no second version.
    const again = json<{ versionId: string }>(expectStatus(await publish(key, body), 200));
    assert.equal(again.versionId, first.versionId);
    const versions = json<{ items: { version: string }[] }>(
      expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions`, user.session), 200),
    );
    assert.deepEqual(
      versions.items.map((v) => v.version),
      ['1.0.0'],
    );
  });

  it('cut off inside the publish transaction: 503, no skill, no version, no feed entry; the retry publishes once', async () => {
    const user = await registerUser(t);
    const { key } = await createKey(t, user.session);
    const slug = uniqueName('quote-finder-');
    const files = await ticketAndUpload(key, folder(slug));
    const body = publishBody(slug, '1.0.0', files);
    const blobsBefore = blobFiles(t);

    // Another session holds a lock on the skills table: the publish, its package built, inspected and stored, waits
    // for it inside the transaction that writes the skill and its version; then the database goes away under it.
    const outside = new pg.Client({ connectionString: POSTGRES_URL });
    await outside.connect();
    let cut: LightMyRequestResponse;
    try {
      await outside.query('begin');
      await outside.query(`lock table "${schema}".skills in exclusive mode`);
      const pending = publish(key, body);
      await waitForLockWait(schema, 'insert into "skills"');
      await proxy.refuse();
      cut = await pending;
      await outside.query('rollback');
    } finally {
      await outside.end();
      await proxy.restore();
    }
    unavailable(cut);

    expectStatus(await skillOf(user.session.cookie, slug), 404);
    const feed = await t.runtime.database.db.selectFrom('change_feed').select('seq').where('owner_id', '=', user.id).execute();
    assert.deepEqual(feed, [], 'no feed entry for a skill that was not made');
    // What the cut publish stored: its package, under its sha256, which no version references (orphan collection's
    // to remove an hour on) and which the retry, building the same bytes, commits onto again.
    const stored = blobFiles(t).filter((f) => !blobsBefore.includes(f));
    assert.equal(stored.length, 1, `the package, and nothing else: ${stored.join(', ')}`);
    assert.deepEqual(await readdir(path.join(t.config.dataDir, 'blobs', 'tmp')), [], 'no temporary file');

    const published = json<{ versionId: string; version: string }>(expectStatus(await publish(key, body), 200));
    assert.equal(published.version, '1.0.0');
    const version = json<{ sha256: string }>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/1.0.0`, user.session), 200));
    assert.equal(path.basename(stored[0]!), version.sha256, 'the retry wrote the same package the cut publish had stored');
    assert.deepEqual(
      blobFiles(t).filter((f) => !blobsBefore.includes(f)),
      stored,
      'no second copy',
    );
    const versions = json<{ items: unknown[] }>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions`, user.session), 200));
    assert.equal(versions.items.length, 1);
  });
});

/** Raw HTTP against a served registry: the ClawHub steps, and an upload the client abandons halfway. */
function clawhubOver(registry: ServedRegistry, key: string) {
  const request = (method: string, url: string, headers: Record<string, string>, body?: Buffer | string) =>
    fetch(`${registry.base}${url}`, { method, headers: { authorization: `Bearer ${key}`, ...headers }, body }).then(async (res) => ({
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body: await res.text(),
    }));
  return {
    ticket: (file: File) =>
      request(
        'POST',
        '/api/v1/skills/-/upload-url',
        { 'content-type': 'application/json' },
        JSON.stringify({ path: file.path, size: file.bytes.length, sha256: sha256(file.bytes), contentType: 'text/markdown' }),
      ),
    upload: (ticket: string, bytes: Buffer) =>
      request('POST', `/api/v1/skills/-/upload/${ticket}`, { 'content-type': 'text/markdown' }, bytes),
    publish: (body: unknown) => request('POST', '/api/v1/skills', { 'content-type': 'application/json' }, JSON.stringify(body)),
    /**
     * Declares the whole file, sends `sent` bytes of it, waits until the registry is writing them to a temporary
     * file, and goes away without a word, as a client killed mid-upload does.
     */
    async abandon(ticket: string, size: number, sent: Buffer): Promise<void> {
      const url = new URL(registry.base);
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/api/v1/skills/-/upload/${ticket}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/markdown', 'content-length': size },
      });
      req.on('error', () => undefined);
      req.write(sent);
      await until(async () => (await temps(registry)).length > 0, 'the registry is writing the upload to a temporary file');
      req.destroy();
    },
  };
}

async function temps(registry: ServedRegistry): Promise<string[]> {
  return readdir(path.join(registry.config.dataDir, 'blobs', 'tmp')).catch(() => []);
}

function committed(registry: ServedRegistry, digest: string): boolean {
  return existsSync(path.join(registry.config.dataDir, 'blobs', digest.slice(0, 2), digest.slice(2, 4), digest));
}

/** Polls a condition of the registry's files, bounded; for what the server does once a socket has closed. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!(await check())) {
    if (performance.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An account with an upload key, over real HTTP. */
async function uploader(registry: ServedRegistry): Promise<string> {
  const name = `user${randomBytes(4).toString('hex')}`;
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${registry.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  assert.equal(
    (await post('/v1/auth/register', { username: name, email: `${name}@example.com`, password: `pw-${name}-secret` })).status,
    201,
  );
  const login = await post('/v1/auth/login', { login: name, password: `pw-${name}-secret` });
  const cookie = /session_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  assert.ok(cookie);
  const created = await post(
    '/v1/me/api-keys',
    { name: 'clawhub', scopes: ['skill:upload'] },
    { cookie: `session_token=${cookie}`, origin: registry.config.publicOrigin },
  );
  assert.equal(created.status, 201, await created.clone().text());
  return ((await created.json()) as { key: string }).key;
}

for (const backend of backends()) {
  describe(`ClawHub uploads on a small disk, and clients that vanish [${backend.name}]`, { timeout: 120_000 }, () => {
    let disk: SmallDisk;
    let store: Awaited<ReturnType<typeof backend.create>>;
    let registry: ServedRegistry;
    before(async () => {
      disk = mountSmallDisk(8);
      store = await backend.create();
      // On SQLite the database lives on the small disk too, as it does under DATA_DIR by default.
      const database: DatabaseConfig =
        store.database.kind === 'sqlite' ? { kind: 'sqlite', file: path.join(disk.dir, 'registry.db') } : store.database;
      registry = await serveRegistry(database, { DATA_DIR: disk.dir, STORAGE_MIN_FREE_BYTES: String(512 * 1024) });
    });
    after(async () => {
      try {
        await ifSet(registry)?.closeWithin(10_000);
      } finally {
        ifSet(disk)?.unmount();
        await ifSet(store)?.dispose();
      }
    });

    it('below the free-space floor: the upload and the publish are refused with 507, and taken once there is room', async () => {
      const key = await uploader(registry);
      const client = clawhubOver(registry, key);
      const slug = uniqueName('full-disk-');
      const files = [...folder(slug), longFile(slug)];
      const tickets: Ticketed[] = [];
      for (const file of files) {
        const res = await client.ticket(file);
        assert.equal(res.statusCode, 200, res.body);
        tickets.push({ ...file, ticket: (JSON.parse(res.body) as { uploadTicket: string }).uploadTicket });
      }
      const [first, second, long] = tickets as [Ticketed, Ticketed, Ticketed];
      assert.equal((await client.upload(first.ticket, first.bytes)).statusCode, 200);

      const filler = fillDisk(disk.dir, 128 * 1024);
      const connection = keepAliveClient(registry.base);
      try {
        const refused = await client.upload(second.ticket, second.bytes);
        expectRefusal(refused, 507, /package store has .* free, below the .* the registry keeps/);
        assert.match(refused.body, /Nothing was changed; try again later/);
        expectRefusal(await client.publish(publishBody(slug, '1.0.0', tickets)), 507, /below the .* the registry keeps/);
        // A long file refused before its bytes are read: the connection that carried it answers the next request.
        const auth = { authorization: `Bearer ${key}` };
        const cut = await connection.request('POST', `/api/v1/skills/-/upload/${long.ticket}`, {
          headers: { ...auth, 'content-type': 'text/markdown', 'content-length': long.bytes.length },
          body: long.bytes,
        });
        assert.equal(cut.status, 507, cut.body.toString());
        const next = await connection.request('GET', '/api/v1/whoami', { headers: auth });
        assert.equal(next.status, 200, next.body.toString());
        assert.equal(next.socket, cut.socket, 'the same keep-alive connection answers after the 507');
        for (const file of [second, long]) assert.ok(!committed(registry, sha256(file.bytes)), `${file.path} was not stored`);
        assert.deepEqual(await temps(registry), []);
      } finally {
        connection.close();
        unlinkSync(filler);
      }

      // Room again: the same tickets take the files, and the publish goes through.
      for (const file of [second, long]) assert.equal((await client.upload(file.ticket, file.bytes)).statusCode, 200);
      const published = await client.publish(publishBody(slug, '1.0.0', tickets));
      assert.equal(published.statusCode, 200, published.body);
      assert.equal((JSON.parse(published.body) as { version: string }).version, '1.0.0');
    });

    it('a client that vanishes mid-upload: no temporary file, nothing stored, and the ticket takes the file again', async () => {
      const client = clawhubOver(registry, await uploader(registry));
      const slug = uniqueName('vanish-');
      const files = [...folder(slug), longFile(slug)];
      const tickets: Ticketed[] = [];
      for (const file of files) {
        const res = await client.ticket(file);
        assert.equal(res.statusCode, 200, res.body);
        tickets.push({ ...file, ticket: (JSON.parse(res.body) as { uploadTicket: string }).uploadTicket });
      }
      for (const file of tickets.slice(0, 2)) assert.equal((await client.upload(file.ticket, file.bytes)).statusCode, 200);
      const cut = tickets[2]!;

      await client.abandon(cut.ticket, cut.bytes.length, cut.bytes.subarray(0, 256 * 1024));
      await until(async () => (await temps(registry)).length === 0, 'the temporary file of the abandoned upload is removed');
      assert.ok(!committed(registry, sha256(cut.bytes)), 'nothing of the cut file was stored');

      // The ticket was never marked uploaded: the publish says which file is missing.
      const early = await client.publish(publishBody(slug, '1.0.0', tickets));
      expectRefusal(early, 400, /"reference\/long\.md" was never uploaded/);

      // The same ticket, still live, takes the whole file; the publish then makes the version.
      const again = await client.upload(cut.ticket, cut.bytes);
      assert.equal(again.statusCode, 200, again.body);
      assert.ok(committed(registry, sha256(cut.bytes)));
      const published = await client.publish(publishBody(slug, '1.0.0', tickets));
      assert.equal(published.statusCode, 200, published.body);
    });
  });
}

/** Waits until a session of the registry waits for a lock while running `statement` (on a connection of its own). */
async function waitForLockWait(schema: string, statement: string): Promise<void> {
  const watcher = new pg.Client({ connectionString: POSTGRES_URL });
  await watcher.connect();
  try {
    const deadline = performance.now() + 20_000;
    while (performance.now() < deadline) {
      const { rows } = await watcher.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity
          where application_name = $1 and wait_event_type = 'Lock' and position($2 in query) > 0`,
        [`skreg-test-${schema}`, statement],
      );
      if (Number(rows[0]!.n) > 0) return;
      // A poll of the database's own state, bounded: the publish reaches the lock once its package is checked.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail(`the registry never waited on the lock (${statement})`);
  } finally {
    await watcher.end();
  }
}
