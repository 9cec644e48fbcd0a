/**
 * Package blobs are content-addressed and shared: two uploads of the same bytes, to any skills, commit onto one
 * blob. Nothing deletes a blob while something may still need it: deleting a draft or failing an upload leaves its
 * blob to orphan collection, which removes only blobs no version references and nothing has committed for an hour.
 * Across nodes sharing a database and a bucket, the blob's lock in the database decides between a collection's delete
 * and an upload's version row: never a version without its package.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { jobsRepository } from '../../src/db/repositories/jobs.js';
import { ORPHAN_AGE_MS } from '../../src/domain/versions/blob-collection.js';
import { jobRunner } from '../../src/jobs/runner.js';
import { createRuntime } from '../../src/server.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { manualClock } from '../helpers/clock.js';
import {
  adminSession,
  authHeaders,
  call,
  createSkill,
  expectProblem,
  expectStatus,
  registerUser,
  type Auth,
  type TestUser,
} from '../helpers/client.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';

const HOUR = 60 * 60 * 1000;

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function upload(t: TestApp, auth: Auth, skill: string, version: string, archive: Buffer) {
  const body = multipart({ version }, { content: archive });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

function uploadWithSkill(t: TestApp, auth: Auth, slug: string, version: string, archive: Buffer) {
  const body = multipart({ name: `Skill ${slug}`, slug, version }, { content: archive });
  return t.request({
    method: 'POST',
    url: '/v1/skills/with-package',
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

/** A package no other test uploads: its blob is this test's alone. */
function uniquePackage(): Promise<Buffer> {
  return zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', `bytes ${randomUUID()}`) }]);
}

/**
 * Holds the next call of `target[method]` before it runs, until released; later calls pass straight through.
 * `arrived` settles once the call is held.
 */
function holdNextCall<T extends object>(target: T, method: keyof T) {
  const original = target[method] as unknown as (...args: unknown[]) => Promise<unknown>;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  (target as Record<keyof T, unknown>)[method] = async (...args: unknown[]) => {
    (target as Record<keyof T, unknown>)[method] = original;
    arrive();
    await released;
    return original.apply(target, args);
  };
  return {
    /** Settles when the call is held; rejects if `pending` (the request that should make it) ends first. */
    reached(pending: Promise<LightMyRequestResponse>): Promise<void> {
      return Promise.race([
        arrived,
        pending.then((res) => {
          throw new Error(`The request ended (${res.statusCode} ${res.body}) before it reached ${String(method)}.`);
        }),
      ]);
    },
    release,
  };
}

/**
 * Holds the next DeleteObject of `key` that `store` sends, after whatever it looked at before (orphan collection's
 * look at the object's date), until released. `arrived` settles once the delete is held.
 */
function holdNextDelete(store: S3BlobStore, key: string) {
  const client = store.client;
  const send = client.send.bind(client) as (command: unknown, options?: unknown) => Promise<unknown>;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = true;
  (client as { send: unknown }).send = async (command: unknown, options?: unknown) => {
    if (holding && command instanceof DeleteObjectCommand && command.input.Key === key) {
      holding = false;
      arrive();
      await released;
    }
    return send(command, options);
  };
  return { arrived, release };
}

/**
 * Waits (a bounded poll of PostgreSQL) until a session named `applicationName` waits for an advisory lock: 'waiting';
 * or until `work` settles first: 'finished'.
 */
async function untilWaitingForLock(url: string, applicationName: string, work: Promise<unknown>): Promise<'waiting' | 'finished'> {
  // Set by the callbacks below, while the loop polls.
  let finished = false as boolean;
  void work.then(
    () => (finished = true),
    () => (finished = true),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
      if (finished) return 'finished';
      const { rows } = await client.query<{ n: string }>(
        "select count(*) as n from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock' and wait_event = 'advisory'",
        [applicationName],
      );
      if (Number(rows[0]!.n) > 0) return 'waiting';
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('Nothing waited for a blob lock within 15 s.');
  } finally {
    await client.end();
  }
}

let s3: S3Server;
before(async () => {
  s3 = await startS3Server();
});
after(async () => {
  await s3.close();
});

for (const backend of backends()) {
  for (const storage of ['file', 's3'] as const) {
    describe(`a shared blob under a draft deletion [${backend.name}, ${storage}]`, () => {
      let t: TestApp;
      let alice: TestUser;
      let admin: { cookie: string };
      const prefix = `blob-collection-${randomUUID()}`;
      /** Makes a committed blob look `ms` old, as time would: the file's mtime, or (s3rver) the object file's. */
      async function age(sha: string, ms: number): Promise<void> {
        const when = new Date(Date.now() - ms);
        const file =
          storage === 's3'
            ? s3.objectFile(`${prefix}/blobs/${sha}`)
            : path.join(t.config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
        await utimes(file, when, when);
      }
      before(async () => {
        t = await startApp(backend, storage === 's3' ? s3.envFor(s3.bucket, prefix) : {});
        alice = await registerUser(t);
        admin = await adminSession(t);
      });
      after(() => t.close());

      const paths = [
        {
          name: 'an upload to an existing skill',
          method: 'insert' as const,
          start: (slug: string, bytes: Buffer) => upload(t, alice.session, slug, '1.0.0', bytes),
        },
        {
          name: 'an upload that creates its skill',
          method: 'insertWithSkill' as const,
          start: (slug: string, bytes: Buffer) => uploadWithSkill(t, alice.session, slug, '1.0.0', bytes),
        },
      ];
      for (const route of paths) {
        it(
          `keeps ${route.name} its package when a draft with the same bytes is deleted between its blob commit and its version row`,
          { timeout: 60_000 },
          async () => {
            const shared = await uniquePackage();
            const draft = await createSkill(t, alice.session);
            expectStatus(await upload(t, alice.session, draft.slug, '1.0.0', shared), 201);
            const slug = route.method === 'insert' ? (await createSkill(t, alice.session)).slug : `with-${randomUUID().slice(0, 8)}`;

            const held = holdNextCall(t.runtime.services.repositories.versions, route.method);
            const pending = route.start(slug, shared);
            // The second upload has committed its blob (onto the draft's) and waits to write its version row.
            await held.reached(pending);
            expectStatus(await call(t, 'DELETE', `/v1/skills/${draft.slug}`, alice.session), 204);
            held.release();
            expectStatus(await pending, 201);

            const res = expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/1.0.0/download`, admin), 200);
            assert.equal(sha256(res.rawPayload), sha256(shared), 'the version downloads its own bytes');
            // Collection does not take it either: it is referenced now.
            await t.runtime.services.versions.collectOrphans(0);
            assert.ok(await t.runtime.services.blobs.stat(sha256(shared)));
          },
        );
      }

      for (const route of paths) {
        it(
          `refuses ${route.name} with 503 upload_interrupted, writing nothing, when its committed blob is gone before its version row is written`,
          { timeout: 60_000 },
          async () => {
            const bytes = await uniquePackage();
            const slug = route.method === 'insert' ? (await createSkill(t, alice.session)).slug : `with-${randomUUID().slice(0, 8)}`;
            const held = holdNextCall(t.runtime.services.repositories.versions, route.method);
            const pending = route.start(slug, bytes);
            await held.reached(pending);
            // What another node's orphan collection does to an old copy of the same bytes, in a shared bucket.
            await t.runtime.services.blobs.delete(sha256(bytes));
            held.release();
            const res = await pending;
            expectProblem(res, 503, 'upload_interrupted');
            assert.equal(res.headers['retry-after'], '1');
            const db = t.runtime.database.db;
            assert.equal(
              (await db.selectFrom('versions').select('id').where('sha256', '=', sha256(bytes)).execute()).length,
              0,
              'no version without its package',
            );
            assert.equal(
              (await db.selectFrom('skills').select('id').where('slug', '=', slug).execute()).length,
              route.method === 'insert' ? 1 : 0,
              'no skill created',
            );

            expectStatus(await route.start(slug, bytes), 201);
            const download = expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/1.0.0/download`, admin), 200);
            assert.equal(sha256(download.rawPayload), sha256(bytes));
          },
        );
      }

      it(
        'answers 404 to an upload into a draft deleted before its version row is written, and writes nothing',
        { timeout: 60_000 },
        async () => {
          const draft = await createSkill(t, alice.session);
          const held = holdNextCall(t.runtime.services.repositories.versions, 'insert');
          const pending = upload(t, alice.session, draft.slug, '1.0.0', await uniquePackage());
          await held.reached(pending);
          expectStatus(await call(t, 'DELETE', `/v1/skills/${draft.slug}`, alice.session), 204);
          held.release();
          expectProblem(await pending, 404, 'skill_not_found');
          const rows = await t.runtime.database.db.selectFrom('versions').select('id').where('skill_id', '=', draft.id).execute();
          assert.equal(rows.length, 0);
        },
      );

      it(
        "leaves a deleted draft's blob and a failed upload's blob to collection, which removes them only past the grace period",
        { timeout: 60_000 },
        async () => {
          const services = t.runtime.services;
          const own = await uniquePackage();
          const draft = await createSkill(t, alice.session);
          expectStatus(await upload(t, alice.session, draft.slug, '1.0.0', own), 201);
          expectStatus(await call(t, 'DELETE', `/v1/skills/${draft.slug}`, alice.session), 204);

          // Two uploads of one version: the first is held before its version row, so the second gets past the
          // version check, commits and wins; the first then fails after its commit.
          const skill = await createSkill(t, alice.session);
          const [lost, won] = [await uniquePackage(), await uniquePackage()];
          const held = holdNextCall(services.repositories.versions, 'insert');
          const first = upload(t, alice.session, skill.slug, '1.0.0', lost);
          await held.reached(first);
          expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', won), 201);
          held.release();
          expectProblem(await first, 409, 'version_exists');

          for (const bytes of [own, lost]) assert.ok(await services.blobs.stat(sha256(bytes)), 'left for collection');
          assert.equal(await services.versions.collectOrphans(), 0, 'both are younger than the grace period');
          for (const bytes of [own, lost]) await age(sha256(bytes), ORPHAN_AGE_MS + 60_000);
          assert.equal(await services.versions.collectOrphans(), 2);
          for (const bytes of [own, lost]) assert.equal(await services.blobs.stat(sha256(bytes)), null);
          assert.ok(await services.blobs.stat(sha256(won)));
        },
      );
    });
  }

  if (backend.name === 'postgres') {
    describe(`two nodes sharing a database and a bucket: orphan collection on one, an upload of the same bytes on the other [${backend.name}, s3]`, () => {
      let a: TestApp;
      let b: TestApp;
      let alice: TestUser;
      let admin: { cookie: string };
      const prefix = `blob-collection-nodes-${randomUUID()}`;
      const keyOf = (sha: string) => `${prefix}/blobs/${sha}`;
      async function age(sha: string, ms: number): Promise<void> {
        const when = new Date(Date.now() - ms);
        await utimes(s3.objectFile(keyOf(sha)), when, when);
      }
      let appUrl: string;
      let applicationName: string;
      before(async () => {
        a = await startApp(backend, s3.envFor(s3.bucket, prefix));
        // Node B: a second registry on A's database schema, bucket and prefix.
        const runtime = await createRuntime(a.config);
        b = {
          app: runtime.app,
          runtime,
          config: a.config,
          request: (options) => runtime.app.inject(options),
          restart: () => Promise.reject(new Error('not used')),
          close: () => runtime.close(),
        };
        await Promise.all([a.runtime.jobs.idle(), b.runtime.jobs.idle()]);
        assert.equal(a.config.database.kind, 'postgres');
        appUrl = a.config.database.url;
        applicationName = new URL(appUrl).searchParams.get('application_name') ?? '';
        assert.ok(applicationName, 'the test database URL names its sessions');
        alice = await registerUser(a);
        admin = await adminSession(a);
      });
      after(async () => {
        await b.close();
        await a.close();
      });

      /** A version's package is stored and downloads with its own bytes, from either node. */
      async function assertDownloads(slug: string, bytes: Buffer): Promise<void> {
        assert.ok(await a.runtime.services.blobs.stat(sha256(bytes)), "the version's package is stored");
        for (const node of [a, b]) {
          const res = expectStatus(await call(node, 'GET', `/v1/skills/${slug}/versions/1.0.0/download`, admin), 200);
          assert.equal(sha256(res.rawPayload), sha256(bytes), 'the version downloads its own bytes');
        }
      }

      /** An orphan past its grace period holding `bytes`, in the shared bucket. */
      async function oldOrphan(bytes: Buffer): Promise<void> {
        const draft = await createSkill(a, alice.session);
        expectStatus(await upload(a, alice.session, draft.slug, '1.0.0', bytes), 201);
        expectStatus(await call(a, 'DELETE', `/v1/skills/${draft.slug}`, alice.session), 204);
        await age(sha256(bytes), 2 * HOUR);
      }

      const paths = [
        {
          name: 'an upload to an existing skill',
          creates: false,
          start: (node: TestApp, slug: string, bytes: Buffer) => upload(node, alice.session, slug, '1.0.0', bytes),
        },
        {
          name: 'an upload that creates its skill',
          creates: true,
          start: (node: TestApp, slug: string, bytes: Buffer) => uploadWithSkill(node, alice.session, slug, '1.0.0', bytes),
        },
      ];
      for (const route of paths) {
        const newSlug = async () => (route.creates ? `with-${randomUUID().slice(0, 8)}` : (await createSkill(a, alice.session)).slug);

        it(
          `refuses ${route.name} on B, retryably and writing nothing, when A's collection deletes the old copy of its bytes after B committed them`,
          { timeout: 60_000 },
          async () => {
            const bytes = await uniquePackage();
            await oldOrphan(bytes);
            const slug = await newSlug();

            // A looks at the orphan's date (old) and is held just before its delete.
            assert.ok(a.runtime.services.blobs instanceof S3BlobStore);
            const held = holdNextDelete(a.runtime.services.blobs, keyOf(sha256(bytes)));
            const collecting = a.runtime.services.versions.collectOrphans();
            await Promise.race([held.arrived, collecting.then((n) => assert.fail(`the collection ended (${n} removed) before deleting`))]);
            // B commits the same bytes (its copy refreshes the object's date) and goes on to write its version row.
            const pending = route.start(b, slug, bytes);
            const bWaited = await untilWaitingForLock(appUrl, applicationName, pending);
            held.release();
            assert.equal(await collecting, 1, 'A deleted the orphan it had looked at');

            const res = await pending;
            const rows = await a.runtime.database.db.selectFrom('versions').select('id').where('sha256', '=', sha256(bytes)).execute();
            // Never a version without its package: either it is stored, or there is no version.
            if (res.statusCode === 201) await assertDownloads(slug, bytes);
            else assert.equal(rows.length, 0, 'no version without its package');
            assert.equal(bWaited, 'waiting', 'B waited for the blob A was deleting');
            // Under the lock B finds its blob gone: the upload is refused, retryably, and writes nothing.
            expectProblem(res, 503, 'upload_interrupted');
            assert.ok(Number(res.headers['retry-after']) > 0, 'the refusal says when to try again');
            if (route.creates) {
              const skills = await a.runtime.database.db.selectFrom('skills').select('id').where('slug', '=', slug).execute();
              assert.equal(skills.length, 0, 'no skill without its version');
            }

            // The same upload, sent again, stores the bytes anew.
            expectStatus(await route.start(b, slug, bytes), 201);
            await assertDownloads(slug, bytes);
          },
        );

        it(
          `keeps the blob of ${route.name} on B when B writes its version first and A's collection waits for it`,
          { timeout: 60_000 },
          async () => {
            const bytes = await uniquePackage();
            await oldOrphan(bytes);
            const slug = await newSlug();

            // B has committed the same bytes and, holding the blob's lock, checks that they are there.
            const held = holdNextCall(b.runtime.services.blobs, 'stat');
            const pending = route.start(b, slug, bytes);
            await held.reached(pending);
            // A collects with no grace period: B's fresh commit does not save the blob, only B's version can.
            const collecting = a.runtime.services.versions.collectOrphans(0);
            assert.equal(await untilWaitingForLock(appUrl, applicationName, collecting), 'waiting', 'A waits for the blob B is recording');
            held.release();
            expectStatus(await pending, 201);
            await collecting;
            await assertDownloads(slug, bytes);
          },
        );
      }
    });
  }

  describe(`orphan collection [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
    });
    after(() => t.close());

    const pathOf = (sha: string) => path.join(t.config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
    async function age(sha: string, ms: number): Promise<void> {
      const when = new Date(Date.now() - ms);
      await utimes(pathOf(sha), when, when);
    }
    const put = (bytes: Buffer) => t.runtime.services.blobs.put(Readable.from([bytes]));

    it('collects an orphan past the grace period, and keeps a younger one and one committed again since', async () => {
      const blobs = t.runtime.services.blobs;
      const old = await put(randomBytes(2048));
      const young = await put(randomBytes(2048));
      const againBytes = randomBytes(2048);
      const again = await put(againBytes);
      await age(old.sha256, ORPHAN_AGE_MS + 60_000);
      await age(young.sha256, ORPHAN_AGE_MS - 60_000);
      await age(again.sha256, 2 * HOUR);
      // An upload of the same bytes commits onto the old blob: from now on it is as young as that upload.
      await put(againBytes);

      assert.equal(await t.runtime.services.versions.collectOrphans(), 1);
      assert.equal(await blobs.stat(old.sha256), null, 'the old orphan is gone');
      assert.ok(await blobs.stat(young.sha256), 'a younger blob may be an upload in flight');
      assert.ok(await blobs.stat(again.sha256), 'a blob committed again may be an upload in flight');
    });

    it('keeps a blob committed again after the collection found it unreferenced and before it deletes', async () => {
      const bytes = randomBytes(2048);
      const blob = await put(bytes);
      await age(blob.sha256, 2 * HOUR);
      const versions = t.runtime.services.repositories.versions;
      const unreferenced = versions.unreferenced.bind(versions);
      versions.unreferenced = async (candidates) => {
        const found = await unreferenced(candidates);
        // Another upload of the same bytes commits now; its version row would come next.
        if (found.includes(blob.sha256)) await put(bytes);
        return found;
      };
      try {
        await t.runtime.services.versions.collectOrphans();
      } finally {
        versions.unreferenced = unreferenced;
      }
      assert.ok(await t.runtime.services.blobs.stat(blob.sha256), 'the blob of the upload in flight stays');
    });

    it('is safe to run on several nodes at once: each orphan is removed once, nothing referenced goes', async () => {
      const orphans = await Promise.all([put(randomBytes(1024)), put(randomBytes(1024)), put(randomBytes(1024))]);
      for (const orphan of orphans) await age(orphan.sha256, 2 * HOUR);
      const used = await uniquePackage();
      const skill = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', used), 201);
      await age(sha256(used), 2 * HOUR);
      const versions = t.runtime.services.versions;
      const removed = await Promise.all([versions.collectOrphans(), versions.collectOrphans(), versions.collectOrphans()]);
      assert.equal(
        removed.reduce((a, b) => a + b, 0),
        orphans.length,
      );
      for (const orphan of orphans) assert.equal(await t.runtime.services.blobs.stat(orphan.sha256), null);
      assert.ok(await t.runtime.services.blobs.stat(sha256(used)));
    });

    it('runs at start and then hourly, on one of two nodes at a time, and stopping waits for the run under way', async () => {
      const orphan = await put(randomBytes(1024));
      await age(orphan.sha256, 2 * HOUR);
      // Past the lease the app's own runner took at start-up for the same job.
      const clock = manualClock(Date.now() + 2 * HOUR);
      let runs = 0;
      let hold: Promise<void> = Promise.resolve();
      let arrive = () => {};
      const removed: number[] = [];
      // Two nodes' runners on one database, with the job as the server defines it.
      const store = jobsRepository(t.runtime.database.db);
      const nodes = [jobRunner({ store, clock }), jobRunner({ store, clock })];
      for (const jobs of nodes) {
        jobs.define({
          name: 'blob-collection',
          everyMs: HOUR,
          atStart: true,
          exclusive: { leaseMs: HOUR },
          async run() {
            runs += 1;
            arrive();
            await hold;
            const n = await t.runtime.services.versions.collectOrphans();
            if (n > 0) removed.push(n);
          },
        });
      }
      for (const jobs of nodes) {
        jobs.start();
        await jobs.idle();
      }
      assert.equal(runs, 1, 'a run at start, on one node');
      assert.deepEqual(removed, [1]);

      let letGo!: () => void;
      hold = new Promise((resolve) => (letGo = resolve));
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      clock.advance(HOUR);
      await arrived;
      const stopped = Promise.all(nodes.map((jobs) => jobs.stop()));
      let done = false;
      void stopped.then(() => (done = true));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(done, false, 'stopping waits for the run under way');
      letGo();
      await stopped;
      assert.equal(runs, 2, 'a run an hour later, on one node');
      clock.advance(3 * HOUR);
      await Promise.all(nodes.map((jobs) => jobs.idle()));
      assert.equal(runs, 2, 'no run after stop');
      assert.deepEqual(removed, [1], 'a run that removes nothing reports nothing');
    });
  });
}
