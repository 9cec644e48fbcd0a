import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, utimesSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, tarGz, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createSkill,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  type Auth,
  type TestUser,
} from '../helpers/client.js';
import { eventually } from '../helpers/process.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';

/** The registry's package routes with STORAGE_URL=s3://…: uploads, downloads, files, readiness and deletion. */

function sha256(buffer: Buffer): string {
  return createHash('sha256').update(buffer).digest('hex');
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

let s3: S3Server;
before(async () => {
  s3 = await startS3Server();
});
after(async () => {
  await s3.close();
});

for (const backend of backends()) {
  describe(`packages in S3 storage [${backend.name}]`, () => {
    const prefix = `http-${backend.name}-${process.pid}`;
    let t: TestApp;
    let alice: TestUser;
    let admin: { cookie: string };
    let pkg: Buffer;

    /** Keys under this app's prefix: committed blobs and temporary objects, and multipart uploads not finished. */
    const blobKeys = () => s3.listKeys(`${prefix}/blobs/`);
    const tempKeys = () => s3.listKeys(`${prefix}/tmp/`);
    const pendingUploads = async () => (await s3.pendingUploads()).filter((u) => u.key.startsWith(`${prefix}/`));
    async function nothingTemporary(): Promise<void> {
      assert.deepEqual(await tempKeys(), []);
      assert.deepEqual(await pendingUploads(), []);
    }

    before(async () => {
      t = await startApp(backend, s3.envFor(s3.bucket, prefix));
      alice = await registerUser(t);
      admin = await adminSession(t);
      pkg = await zip(
        [
          { path: 'SKILL.md', content: skillMd() },
          { path: 'scripts/extract.py', content: 'print("hello")\n' },
          { path: 'data/table.bin', content: randomBytes(300_000) },
        ],
        ['scripts/'],
      );
    });
    after(() => t.close());

    it('stores an upload under blobs/<sha256> in the bucket, and nothing on local disk', async () => {
      assert.equal(t.config.storage.kind, 's3');
      const skill = await createSkill(t, alice.session);
      const version = json<{ sha256: string; size: number; file_count: number }>(
        expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', pkg), 201),
      );
      assert.equal(version.sha256, sha256(pkg));
      assert.equal(version.size, pkg.length);
      assert.equal(version.file_count, 3);
      assert.ok((await blobKeys()).includes(`${prefix}/blobs/${sha256(pkg)}`));
      await nothingTemporary();
      assert.equal(existsSync(path.join(t.config.dataDir, 'blobs')), false, 'no local blob directory is created');
    });

    it('downloads the exact bytes, whole and by Range, and serves HEAD', async () => {
      const skill = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', pkg), 201);
      await setStatus(t, admin, skill.slug, 'published');
      const url = `/v1/skills/${skill.slug}/versions/1.0.0/download`;
      const whole = expectStatus(await call(t, 'GET', url), 200);
      assert.ok(whole.rawPayload.equals(pkg));
      assert.equal(Number(whole.headers['content-length']), pkg.length);
      assert.equal(whole.headers.etag, `"${sha256(pkg)}"`);
      const partial = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=10-19' }), 206);
      assert.ok(partial.rawPayload.equals(pkg.subarray(10, 20)));
      assert.equal(partial.headers['content-range'], `bytes 10-19/${pkg.length}`);
      const tail = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=-7' }), 206);
      assert.ok(tail.rawPayload.equals(pkg.subarray(pkg.length - 7)));
      const middle = expectStatus(await call(t, 'GET', url, null, undefined, { range: 'bytes=100000-250000' }), 206);
      assert.ok(middle.rawPayload.equals(pkg.subarray(100_000, 250_001)));
      const head = expectStatus(await call(t, 'HEAD', url), 200);
      assert.equal(head.rawPayload.length, 0);
      assert.equal(Number(head.headers['content-length']), pkg.length);
    });

    it('lists a version’s files and serves one file from the stored zip and tar.gz', async () => {
      const skill = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, skill.slug, '1.0.0', pkg), 201);
      const archive = await tarGz(
        [
          { path: 'pkg/SKILL.md', content: skillMd() },
          { path: 'pkg/run.sh', content: 'echo hi\n' },
        ],
        ['pkg/'],
      );
      expectStatus(await upload(t, alice.session, skill.slug, '2.0.0', archive), 201);
      const files = json<{ items: { path: string; size: number }[]; file_count: number }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/files`, alice.session), 200),
      );
      assert.deepEqual(
        files.items.map((f) => f.path),
        ['SKILL.md', 'data/table.bin', 'scripts/extract.py'],
      );
      const script = expectStatus(
        await call(t, 'GET', `/v1/skills/${skill.slug}/versions/1.0.0/files/scripts/extract.py`, alice.session),
        200,
      );
      assert.equal(script.body, 'print("hello")\n');
      const md = expectStatus(await call(t, 'GET', `/v1/skills/${skill.slug}/versions/2.0.0/files/pkg/run.sh`, alice.session), 200);
      assert.equal(md.body, 'echo hi\n');
    });

    it('refuses an upload over MAX_UPLOAD_BYTES after several parts were sent, and aborts the multipart upload', async () => {
      const smallPrefix = `${prefix}-limit`;
      const limited = await startApp(backend, { ...s3.envFor(s3.bucket, smallPrefix), MAX_UPLOAD_BYTES: String(6 * 1024 * 1024) });
      try {
        const owner = await registerUser(limited);
        const skill = await createSkill(limited, owner.session);
        const big = await zip([
          { path: 'SKILL.md', content: skillMd() },
          { path: 'big.bin', content: randomBytes(8 * 1024 * 1024) },
        ]);
        expectProblem(await upload(limited, owner.session, skill.slug, '1.0.0', big), 413, 'payload_too_large');
        assert.deepEqual(await s3.listKeys(`${smallPrefix}/`), []);
        assert.deepEqual(
          (await s3.pendingUploads()).filter((u) => u.key.startsWith(`${smallPrefix}/`)),
          [],
        );
      } finally {
        await limited.close();
      }
    });

    it('refuses a bad package and validates one without storing anything', async () => {
      const skill = await createSkill(t, alice.session);
      const before = await blobKeys();
      expectProblem(
        await upload(t, alice.session, skill.slug, '1.0.0', Buffer.from('not an archive at all')),
        415,
        'unsupported_media_type',
      );
      const body = multipart({}, { content: pkg });
      const validated = json<{ valid: boolean; files: unknown[] }>(
        expectStatus(await t.request({ method: 'POST', url: '/v1/packages/validate', headers: body.headers, payload: body.payload }), 200),
      );
      assert.equal(validated.valid, true);
      assert.equal(validated.files.length, 3);
      assert.deepEqual(await blobKeys(), before);
      await nothingTemporary();
    });

    it('leaves nothing behind when the client aborts mid-upload', async () => {
      const skill = await createSkill(t, alice.session);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      assert.ok(address && typeof address === 'object');
      const body = multipart({ version: '9.9.9' }, { content: randomBytes(12 * 1024 * 1024) });
      const before = await blobKeys();
      const req = http.request({
        host: '127.0.0.1',
        port: address.port,
        method: 'POST',
        path: `/v1/skills/${skill.slug}/versions`,
        headers: { ...authHeaders(alice.session), ...body.headers, 'content-length': String(body.payload.length) },
      });
      const refused = new Promise<void>((resolve) => req.on('error', () => resolve()));
      // Past the first 5 MiB part; the client goes once a multipart upload is under way, not after a guessed while.
      req.write(body.payload.subarray(0, 7 * 1024 * 1024));
      const uploading = eventually('a multipart upload is under way', async () => (await pendingUploads()).length > 0, 10_000);
      uploading.catch(() => undefined);
      await Promise.race([refused, uploading]);
      req.destroy();
      for (let i = 0; i < 100 && ((await tempKeys()).length > 0 || (await pendingUploads()).length > 0); i += 1) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await nothingTemporary();
      assert.deepEqual(await blobKeys(), before);
    });

    it('deleting a draft leaves its blobs to orphan collection, which removes those nothing else references', async () => {
      const shared = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'shared in s3') }]);
      const own = await zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', 'own in s3') }]);
      const keep = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, keep.slug, '1.0.0', shared), 201);
      const doomed = await createSkill(t, alice.session);
      expectStatus(await upload(t, alice.session, doomed.slug, '1.0.0', shared), 201);
      expectStatus(await upload(t, alice.session, doomed.slug, '1.1.0', own), 201);
      assert.ok((await blobKeys()).includes(`${prefix}/blobs/${sha256(own)}`));
      expectStatus(await call(t, 'DELETE', `/v1/skills/${doomed.slug}`, alice.session), 204);
      const keys = await blobKeys();
      assert.ok(keys.includes(`${prefix}/blobs/${sha256(shared)}`), 'a blob another version uses stays');
      assert.ok(keys.includes(`${prefix}/blobs/${sha256(own)}`), 'a blob only the deleted draft used stays until collection');
      await t.runtime.services.versions.collectOrphans(0);
      const collected = await blobKeys();
      assert.ok(collected.includes(`${prefix}/blobs/${sha256(shared)}`), 'collection keeps a blob another version uses');
      assert.ok(!collected.includes(`${prefix}/blobs/${sha256(own)}`), 'collection removes a blob only the deleted draft used');
    });

    it('sweeps only temporary objects older than an hour at start-up: another node may be uploading', async () => {
      const old = `${prefix}/tmp/${Date.now() - 3 * 60 * 60 * 1000}-crashed`;
      const fresh = `${prefix}/tmp/${Date.now()}-in-flight-elsewhere`;
      for (const key of [old, fresh]) await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: randomBytes(64) }));
      // The bucket's LastModified is the object file's time in s3rver: make the first one two hours old.
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      utimesSync(s3.objectFile(old), twoHoursAgo, twoHoursAgo);
      await t.restart();
      assert.deepEqual(await tempKeys(), [fresh]);
      assert.equal(await t.runtime.services.blobs.sweep(0), 1);
      await nothingTemporary();
    });

    it('is ready while the bucket answers, and answers 503 once it is gone', async () => {
      const bucket = `gone-${backend.name}-${process.pid}`;
      await s3.createBucket(bucket);
      const doomed = await startApp(backend, s3.envFor(bucket, 'packages'));
      try {
        const ready = json<{ status: string; checks: Record<string, string> }>(expectStatus(await call(doomed, 'GET', '/readyz'), 200));
        assert.deepEqual(ready.checks, { database: 'ok', blobs: 'ok' });
        await s3.removeBucket(bucket);
        const problem = expectProblem(await call(doomed, 'GET', '/readyz'), 503, 'not_ready');
        assert.match(String(problem.detail), /package store/);
        expectStatus(await call(doomed, 'GET', '/healthz'), 200);
      } finally {
        await doomed.close();
      }
    });
  });
}
