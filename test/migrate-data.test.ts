import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { jobsRepository } from '../src/db/repositories/jobs.js';
import { describeTables, TABLES } from '../src/transfer/tables.js';
import { startApp, type TestApp } from './helpers/app.js';
import { multipart, skillMd, tarGz, zip } from './helpers/archives.js';
import { backends, type Backend } from './helpers/backends.js';
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
  uniqueName,
  type Auth,
  type TestUser,
} from './helpers/client.js';
import { databaseUrl, runCli, type CliRun } from './helpers/process.js';
import { startS3Server, type S3Server } from './helpers/s3.js';
import { ifSet } from './helpers/hooks.js';

/**
 * skill-registry migrate-data, run as the real command: a registry on SQLite and a blob directory, filled through the
 * API, is copied to another database (PostgreSQL when TEST_DATABASE_URL is set, which CI requires; SQLite always) and
 * an S3 bucket; a registry started on the copy must answer every question the same way.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Run = CliRun;

function migrateData(args: string[], env: Record<string, string>): Promise<Run> {
  return runCli(['migrate-data', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
}

function expectExit(run: Run, code: number, what: string): Run {
  assert.equal(run.code, code, `${what}: exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  return run;
}

/** The summary line of one table: source, target, new, updated, unchanged, deleted. */
function tableLine(run: Run, table: string): number[] {
  const line = run.stdout.split('\n').find((l) => l.startsWith(`${table} `));
  assert.ok(line, `no summary line for ${table} in\n${run.stdout}`);
  return line.trim().split(/\s+/).slice(1).map(Number);
}

/** Every row of every table, canonical (timestamps as ISO text), sorted by key: what "the same data" means. */
async function dump(handle: DatabaseHandle): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const spec of TABLES) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(spec.name)}`.execute(handle.db)).rows.map((row) => {
      const canonical: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(row)) {
        canonical[column] =
          value instanceof Date
            ? value.toISOString()
            : spec.timestamps.includes(column) && typeof value === 'string'
              ? new Date(value).toISOString()
              : value;
      }
      return canonical;
    });
    const key = (row: Record<string, unknown>) => JSON.stringify(spec.key.map((k) => row[k]));
    out[spec.name] = rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return out;
}

async function withDatabase<T>(config: DatabaseConfig, work: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openDatabase(config);
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

function upload(t: TestApp, auth: Auth, skill: string, version: string, archive: Buffer) {
  const body = multipart({ version, changelog: `Changes in ${version}` }, { content: archive });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

/** What the API answers about everything in a registry, asked as the administrator (and alice for her own keys). */
async function snapshot(t: TestApp, admin: Auth, alice: Auth) {
  const skills = json<{ items: { full_name: string }[]; total: number }>(
    expectStatus(await call(t, 'GET', '/v1/skills?status=all&page_size=100&sort=latest', admin), 200),
  );
  const perSkill: Record<string, unknown> = {};
  // Skills are named by their whole name: a scoped one's slug alone names another skill, or none.
  for (const { full_name: slug } of skills.items) {
    const versions = json<{ items: { version: string }[] }>(
      expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions?page_size=100`, admin), 200),
    );
    const files: Record<string, unknown> = {};
    for (const { version } of versions.items) {
      const list = json<{ items: { path: string }[] }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/${version}/files`, admin), 200),
      );
      const first = list.items[0]!.path;
      files[version] = {
        list,
        first: expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/${version}/files/${first}`, admin), 200).body,
      };
    }
    perSkill[slug] = {
      detail: json(expectStatus(await call(t, 'GET', `/v1/skills/${slug}`, admin), 200)),
      versions,
      files,
      stats: json(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/stats?days=30`, admin), 200)),
      feedback: json(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/feedback?page_size=100`, admin), 200)),
      reports: {
        open: json(expectStatus(await call(t, 'GET', `/v1/admin/skills/${slug}/reports?page_size=100`, admin), 200)),
        resolved: json(expectStatus(await call(t, 'GET', `/v1/admin/skills/${slug}/reports?state=resolved&page_size=100`, admin), 200)),
      },
    };
  }
  const keys = json<{ items: Record<string, unknown>[] }>(expectStatus(await call(t, 'GET', '/v1/me/api-keys', alice), 200));
  return {
    skills,
    perSkill,
    users: json(expectStatus(await call(t, 'GET', '/v1/admin/users?page_size=100', admin), 200)),
    // last_used_at is written at most once a minute, in the background: not a fact to compare at an instant.
    keys: keys.items.map((item) => {
      const rest = { ...item };
      delete rest.last_used_at;
      return rest;
    }),
  };
}

const available = backends();
const sqliteBackend = available.find((b) => b.name === 'sqlite')!;

describe('migrate-data', () => {
  let s3: S3Server;
  let source: TestApp;
  let sourceDb: DatabaseConfig;
  let sourceFile: string;
  let blobDir: string;
  let alice: TestUser;
  let aliceKey: { key: string; id: string };
  let admin: { cookie: string };
  /** Request ids of calls alice made: each must be in her call log on the copy. */
  const aliceCalls: string[] = [];
  const archives = new Map<string, Buffer>();
  let expected: Awaited<ReturnType<typeof snapshot>>;
  let expectedLogs: { items: { request_id: string }[]; total: number };
  let logsRequestId: string;

  const s3Env = () => {
    const env = { ...s3.env };
    delete env.STORAGE_URL;
    return env;
  };

  before(async () => {
    if (!available.some((b) => b.name === 'postgres')) {
      console.log('migrate-data: TEST_DATABASE_URL is not set, so only the SQLite target is covered (CI always covers PostgreSQL).');
    }
    s3 = await startS3Server();
    source = await startApp(sqliteBackend);
    assert.equal(source.config.database.kind, 'sqlite');
    sourceDb = source.config.database;
    sourceFile = sourceDb.file;
    blobDir = path.join(source.config.dataDir, 'blobs');
    admin = await adminSession(source);
    alice = await registerUser(source);
    const bob = await registerUser(source);
    const carol = await registerUser(source);
    aliceKey = await createKey(source, alice.session);
    const asAlice = { key: aliceKey.key };
    const record = (res: { headers: Record<string, unknown> }) => aliceCalls.push(String(res.headers['x-request-id']));

    // Skills in every state: published (featured, tagged, two versions), deprecated, draft with and without versions.
    const published = await createSkill(source, alice.session, {
      name: 'PDF Tools',
      tags: ['pdf', 'office'],
      category: 'documents',
      source_type: 'github',
      source_url: 'https://github.com/acme/pdf-tools',
    });
    const deprecated = await createSkill(source, asAlice, { name: 'Old Thing' });
    const draft = await createSkill(source, alice.session, { name: 'Work in Progress', tags: ['wip'] });
    const empty = await createSkill(source, { key: aliceKey.key }, { name: 'Empty Draft' });
    await createSkill(source, bob.session, { name: 'Bob Skill' });

    archives.set(
      `${published.slug}@1.0.0`,
      await zip([
        { path: 'SKILL.md', content: skillMd() },
        { path: 'run.py', content: 'print(1)\n' },
      ]),
    );
    archives.set(
      `${published.slug}@1.1.0`,
      await tarGz(
        [
          { path: 'pkg/SKILL.md', content: skillMd() },
          { path: 'pkg/data.bin', content: randomBytes(200_000) },
        ],
        ['pkg/'],
      ),
    );
    archives.set(`${deprecated.slug}@0.1.0`, await zip([{ path: 'SKILL.md', content: skillMd('old-thing', 'Deprecated now.') }]));
    // The same bytes as the first package: one blob for two versions.
    archives.set(`${draft.slug}@0.0.1`, archives.get(`${published.slug}@1.0.0`)!);
    for (const [ref, archive] of archives) {
      const [slug, version] = ref.split('@') as [string, string];
      const res = await upload(source, asAlice, slug, version, archive);
      expectStatus(res, 201);
      record(res);
    }
    await setStatus(source, admin, published.slug, 'published');
    await setStatus(source, admin, deprecated.slug, 'published');
    await setStatus(source, admin, deprecated.slug, 'deprecated');
    expectStatus(await call(source, 'PATCH', `/v1/admin/skills/${published.slug}`, admin, { featured: true }), 200);
    expectStatus(await call(source, 'PATCH', `/v1/admin/users/${carol.id}`, admin, { disabled: true }), 200);
    // A rescan job, with the versions it lists.
    expectStatus(await call(source, 'POST', '/v1/admin/scans', admin), 202);
    record(
      expectStatus(await call(source, 'PATCH', `/v1/skills/${published.slug}`, asAlice, { description: 'Extract text and tables.' }), 200),
    );
    record(expectStatus(await call(source, 'GET', `/v1/skills/${empty.slug}`, alice.session), 200));
    record(await call(source, 'GET', '/v1/skills/no-such-skill', asAlice));

    // Downloads on two versions (anonymous, and alice's own), and feedback with and without an author.
    for (let i = 0; i < 3; i += 1) expectStatus(await call(source, 'GET', `/v1/skills/${published.slug}/versions/1.0.0/download`), 200);
    record(expectStatus(await call(source, 'GET', `/v1/skills/${published.slug}/versions/1.1.0/download`, asAlice), 200));
    expectStatus(await call(source, 'POST', '/v1/feedback', null, { skill_id: published.slug, rating: 5, comment: 'Great.' }), 201);
    expectStatus(await call(source, 'POST', '/v1/feedback', bob.session, { skill_id: published.slug, rating: 3, version: '1.0.0' }), 201);
    // Reports: one open, and one resolved by the administrator.
    expectStatus(
      await call(source, 'POST', `/v1/skills/${published.slug}/reports`, bob.session, { reason: 'broken', details: 'Fails.' }),
      201,
    );
    expectStatus(
      await call(source, 'POST', `/v1/skills/${deprecated.slug}/reports`, admin, { reason: 'other', details: 'Outdated.' }),
      201,
    );
    expectStatus(
      await call(source, 'POST', `/v1/admin/skills/${deprecated.slug}/reports/resolve`, admin, { resolution: 'dismissed' }),
      200,
    );

    // An organisation with a member, an open invitation and a private skill; a skill renamed (its old name kept) and one
    // offered to another owner; a name an administrator allowed.
    const org = json<{ handle: string }>(
      expectStatus(await call(source, 'POST', '/v1/orgs', alice.session, { handle: uniqueName('org-') }), 201),
    );
    const invited = json<{ id: string }>(
      expectStatus(
        await call(source, 'POST', `/v1/orgs/${org.handle}/invitations`, alice.session, { username: bob.username, role: 'publisher' }),
        201,
      ),
    );
    expectStatus(await call(source, 'POST', `/v1/me/invitations/${invited.id}/accept`, bob.session), 200);
    expectStatus(
      await call(source, 'POST', `/v1/orgs/${org.handle}/invitations`, alice.session, { username: carol.username, role: 'admin' }),
      201,
    );
    const privateSkill = await createSkill(source, alice.session, { name: 'Org Secret', scope: org.handle, private: true });
    expectStatus(
      await call(source, 'POST', `/v1/skills/${privateSkill.id}/rename`, alice.session, { slug: uniqueName('org-secret-') }),
      200,
    );
    expectStatus(await call(source, 'POST', `/v1/skills/${draft.id}/transfer`, alice.session, { to: org.handle }), 201);
    expectStatus(
      await call(source, 'POST', '/v1/admin/name-allowances', admin, { name: uniqueName('allowed-'), reason: 'The owner asked.' }),
      201,
    );

    // Download counts are buffered for up to a second; what the API shows must include them.
    await source.runtime.services.downloads.flush();
    expected = await snapshot(source, admin, alice.session);
    const logs = expectStatus(await call(source, 'GET', '/v1/logs?page_size=100', asAlice), 200);
    expectedLogs = json(logs);
    logsRequestId = String(logs.headers['x-request-id']);
    // A queued job waiting for its turn (a delivery to come) moves with the data.
    const now = Date.now();
    await jobsRepository(source.runtime.database.db).enqueue({
      id: 'queued-1',
      kind: 'delivery',
      payload: '{"to":"x"}',
      runAt: now + 3_600_000,
      now,
    });
    // A webhook with a delivery and its one attempt (written as the registry writes them; no receiver is needed).
    const at = new Date(now).toISOString();
    const sourceRows = source.runtime.database.db;
    await sourceRows
      .insertInto('webhooks')
      .values({
        id: 'webhook-1',
        user_id: alice.id,
        org_id: null,
        all_skills: 0,
        url: 'https://hooks.example.com/skills',
        secret: 'whsec_copied',
        events: '[]',
        active: 1,
        failures: 1,
        disabled_reason: null,
        disabled_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await sourceRows
      .insertInto('webhook_deliveries')
      .values({
        id: 'delivery-1',
        webhook_id: 'webhook-1',
        event_id: '1',
        event_type: 'skill.created',
        payload: '{"id":"1"}',
        state: 'failed',
        attempts: 1,
        redelivery_of: null,
        created_at: at,
        finished_at: at,
      })
      .execute();
    await sourceRows
      .insertInto('webhook_attempts')
      .values({
        delivery_id: 'delivery-1',
        attempt: 1,
        status_code: 500,
        duration_ms: 12,
        error: null,
        response_body: 'broken',
        attempted_at: at,
      })
      .execute();
    // A notification of the webhook's owner, read (what the registry writes when it disables a webhook).
    await sourceRows
      .insertInto('notifications')
      .values({
        id: 'notification-1',
        user_id: alice.id,
        kind: 'webhook.disabled',
        title: 'Webhook disabled: https://hooks.example.com/skills',
        body: 'Your webhook was disabled by the registry.',
        link: '/webhooks?id=webhook-1',
        subject_id: 'webhook-1',
        data: '{"webhook_id":"webhook-1"}',
        created_at: at,
        read_at: at,
      })
      .execute();
    // A device login waiting for approval, an upload ticket and a version's fingerprint (the ClawHub protocol).
    await sourceRows
      .insertInto('clawhub_device_codes')
      .values({
        device_code_hash: 'a'.repeat(64),
        user_code: 'ABCD-EFGH',
        label: 'CLI device login',
        status: 'approved',
        user_id: alice.id,
        api_key_id: null,
        created_at: at,
        expires_at: at,
        polled_at: at,
      })
      .execute();
    await sourceRows
      .insertInto('clawhub_upload_tickets')
      .values({
        id: 'ticket-1',
        user_id: alice.id,
        path: 'SKILL.md',
        size: 3,
        sha256: 'b'.repeat(64),
        content_type: 'text/markdown',
        uploaded_at: at,
        created_at: at,
        expires_at: at,
      })
      .execute();
    const someVersion = await sourceRows.selectFrom('versions').select('id').orderBy('id').executeTakeFirstOrThrow();
    await sourceRows
      .insertInto('clawhub_version_digests')
      .values({ version_id: someVersion.id, fingerprint: 'c'.repeat(64), files: '[{"path":"SKILL.md","size":3,"sha256":"d"}]' })
      .execute();
    // Counts and call logs are written on shutdown; the files stay until the end.
    await source.runtime.close();

    await withDatabase(sourceDb, async (handle) => {
      const tables = await dump(handle);
      for (const spec of TABLES) assert.ok(tables[spec.name]!.length > 0, `the source has rows in ${spec.name}, so its copy is tested`);
    });
  });

  after(async () => {
    await ifSet(source)?.close();
    await ifSet(s3)?.close();
  });

  it('knows every table the migrations create, with their columns', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skreg-tables-'));
    try {
      await withDatabase({ kind: 'sqlite', file: path.join(dir, 'fresh.db') }, async (handle) => {
        await handle.migrate();
        const tables = await describeTables(handle);
        assert.deepEqual([...tables.keys()].sort(), TABLES.map((t) => t.name).sort());
        for (const spec of TABLES) {
          for (const column of [...spec.key, ...spec.timestamps])
            assert.ok(tables.get(spec.name)!.includes(column), `${spec.name}.${column}`);
        }
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad arguments with usage (2) or a named problem (78)', async () => {
    expectExit(await migrateData([], s3Env()), 2, 'no arguments');
    expectExit(await migrateData(['--from', 'x.db'], s3Env()), 2, '--from alone');
    const missing = expectExit(
      await migrateData(['--from', '/no/such/registry.db', '--to', 'postgres://localhost/x'], s3Env()),
      78,
      'missing source',
    );
    assert.match(missing.stderr, /--from names the SQLite file \/no\/such\/registry\.db, which does not exist/);
    const same = expectExit(await migrateData(['--blobs-from', blobDir, '--blobs-to', `file://${blobDir}`], s3Env()), 78, 'same store');
    assert.match(same.stderr, /name the same store/);
    const bad = expectExit(await migrateData(['--blobs-from', blobDir, '--blobs-to', 'gs://bucket'], s3Env()), 78, 'bad URL');
    assert.match(bad.stderr, /--blobs-to must start with file:\/\/ or s3:\/\//);
  });

  for (const backend of available) {
    describe(`to ${backend.name} and S3`, () => {
      const prefix = `migrated-${backend.name}-${process.pid}`;
      let prepared: Awaited<ReturnType<Backend['create']>>;
      let target: TestApp | undefined;
      let args: string[];

      before(async () => {
        prepared = await backend.create();
        args = [
          '--from',
          sourceFile,
          '--to',
          databaseUrl(prepared.database),
          '--blobs-from',
          blobDir,
          '--blobs-to',
          `s3://${s3.bucket}/${prefix}`,
        ];
      });

      after(async () => {
        if (target) await target.close();
        else await prepared.dispose();
      });

      it('copies every row and every blob, verified, and the copy holds the same data', async () => {
        const run = expectExit(await migrateData(args, s3Env()), 0, 'first run');
        for (const spec of TABLES) {
          const [sourceRows, targetRows, inserted, updated, unchanged] = tableLine(run, spec.name);
          assert.ok(sourceRows! > 0);
          assert.deepEqual([targetRows, inserted, updated, unchanged], [sourceRows, sourceRows, 0, 0], spec.name);
        }
        const blobNames = (await s3.listKeys(`${prefix}/blobs/`)).map((k) => k.slice(`${prefix}/blobs/`.length));
        const distinct = new Set([...archives.values()].map(sha256));
        assert.deepEqual(blobNames, [...distinct].sort());
        assert.match(
          run.stdout,
          new RegExp(
            `blobs: ${distinct.size} in the source: ${distinct.size} copied, 0 already there, 0 repaired; ${distinct.size} read back`,
          ),
        );
        assert.match(run.stdout, /versions: 4 packages looked up in the target store, all present/);
        assert.match(run.stderr, /migrating the target schema/);
        assert.match(run.stderr, /users\s+\d+ rows: \d+ new/);
        const [sourceTables, targetTables] = await Promise.all([withDatabase(sourceDb, dump), withDatabase(prepared.database, dump)]);
        assert.deepEqual(targetTables, sourceTables);
      });

      it('is a no-op when run again', async () => {
        const run = expectExit(await migrateData(args, s3Env()), 0, 'second run');
        for (const spec of TABLES) {
          const [sourceRows, targetRows, inserted, updated, unchanged, deleted] = tableLine(run, spec.name);
          assert.deepEqual([targetRows, inserted, updated, unchanged, deleted], [sourceRows, 0, 0, sourceRows, 0], spec.name);
        }
        const distinct = new Set([...archives.values()].map(sha256)).size;
        assert.match(
          run.stdout,
          new RegExp(`blobs: ${distinct} in the source: 0 copied, ${distinct} already there, 0 repaired; ${distinct} read back`),
        );
      });

      it('serves the same skills, versions, files, downloads, feedback, users and logs from the copy', async () => {
        const startedAt = new Date().toISOString();
        target = await startApp({ name: backend.name, create: () => Promise.resolve(prepared) }, s3.envFor(s3.bucket, prefix));
        assert.equal(target.config.storage.kind, 's3');
        // The session and the API key made on the source work on the copy: credentials came along.
        const copied = await snapshot(target, admin, alice.session);
        assert.deepEqual(copied, expected);
        const logs = json<{ items: { request_id: string; created_at: string }[]; total: number }>(
          expectStatus(await call(target, 'GET', '/v1/logs?page_size=100', { key: aliceKey.key }), 200),
        );
        assert.ok(
          logs.items.some((l) => l.request_id === logsRequestId),
          'the last call made on the source is in the log',
        );
        // Her log as the source showed it, plus that last call; calls made on the copy since are newer.
        const copiedLog = logs.items.filter((l) => l.created_at < startedAt && l.request_id !== logsRequestId);
        assert.deepEqual(copiedLog, expectedLogs.items);
        for (const id of aliceCalls) expectStatus(await call(target, 'GET', `/v1/logs/${id}`, { key: aliceKey.key }), 200);
        // Every package downloads with its exact bytes, whole and by range.
        for (const [ref, archive] of archives) {
          const [slug, version] = ref.split('@') as [string, string];
          const res = expectStatus(await call(target, 'GET', `/v1/skills/${slug}/versions/${version}/download`, admin), 200);
          assert.equal(sha256(res.rawPayload), sha256(archive), ref);
          const part = expectStatus(
            await call(target, 'GET', `/v1/skills/${slug}/versions/${version}/download`, admin, undefined, { range: 'bytes=5-14' }),
            206,
          );
          assert.ok(part.rawPayload.equals(archive.subarray(5, 15)));
        }
        // New rows get fresh keys after the copied ones (the PostgreSQL identity sequence was moved).
        const created = await createSkill(target, alice.session, { name: 'Made After The Move' });
        assert.equal(
          json(expectStatus(await call(target, 'GET', `/v1/skills/${created.slug}`, alice.session), 200)).name,
          'Made After The Move',
        );
        expectStatus(await call(target, 'GET', '/readyz'), 200);
        await target.runtime.close();
      });

      it('refuses to mix registries: the copy, once used, holds rows the source does not', async () => {
        const run = expectExit(await migrateData(args.slice(0, 4), s3Env()), 1, 'after the copy was used');
        assert.match(run.stderr, /The target already holds data that is not in the source/);
        assert.match(run.stderr, /skills: 1 row\(s\) not in the source/);
        assert.match(run.stderr, /--delete-extra/);
        assert.equal(run.stdout, '');
      });

      it('with --delete-extra, makes the target equal to the source again', async () => {
        const run = expectExit(await migrateData([...args.slice(0, 4), '--delete-extra'], s3Env()), 0, '--delete-extra');
        assert.ok(tableLine(run, 'skills')[5]! >= 1, 'the skill made on the copy was deleted');
        const [sourceTables, targetTables] = await Promise.all([withDatabase(sourceDb, dump), withDatabase(prepared.database, dump)]);
        assert.deepEqual(targetTables, sourceTables);
      });
    });
  }

  describe('blob verification', () => {
    it('notices a blob damaged in the target, copies it again and says so', async () => {
      const prefix = `repair-${process.pid}`;
      const blobArgs = ['--blobs-from', blobDir, '--blobs-to', `s3://${s3.bucket}/${prefix}`];
      expectExit(await migrateData(blobArgs, s3Env()), 0, 'first copy');
      const victim = sha256(archives.values().next().value!);
      const file = s3.objectFile(`${prefix}/blobs/${victim}`);
      const original = await readFile(file);
      writeFileSync(file, randomBytes(original.length));
      const run = expectExit(await migrateData(blobArgs, s3Env()), 0, 'repairing run');
      assert.match(run.stdout, /1 repaired/);
      assert.ok((await readFile(file)).equals(original), 'the damaged object holds the right bytes again');
    });

    it('refuses a blob whose bytes in the source do not match its name, and copies the rest', async () => {
      const victim = sha256(archives.get([...archives.keys()].find((k) => k.endsWith('@1.1.0'))!)!);
      const file = path.join(blobDir, victim.slice(0, 2), victim.slice(2, 4), victim);
      const original = await readFile(file);
      writeFileSync(file, Buffer.concat([original.subarray(0, 100), Buffer.from('tampered'), original.subarray(108)]));
      try {
        const prefix = `tampered-${process.pid}`;
        const run = expectExit(
          await migrateData(['--blobs-from', blobDir, '--blobs-to', `s3://${s3.bucket}/${prefix}`], s3Env()),
          1,
          'tampered source',
        );
        assert.match(run.stderr, new RegExp(`${victim}: damaged in the source`));
        const stored = (await s3.listKeys(`${prefix}/`)).map((k) => k.slice(prefix.length + 1));
        assert.ok(!stored.some((k) => k.includes(victim)), 'the damaged blob was not stored');
        assert.equal(stored.filter((k) => k.startsWith('blobs/')).length, new Set([...archives.values()].map(sha256)).size - 1);
        assert.ok(!stored.some((k) => k.startsWith('tmp/')), 'nothing temporary is left');
      } finally {
        writeFileSync(file, original);
      }
    });
  });
});
