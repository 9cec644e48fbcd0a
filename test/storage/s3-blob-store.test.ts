import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { utimes, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import {
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { ConfigError, loadConfig } from '../../src/config.js';
import { BlobNotFoundError, BlobTooLargeError } from '../../src/storage/blob-store.js';
import { openBlobStore } from '../../src/storage/index.js';
import { S3BlobStore, type S3BlobStoreOptions } from '../../src/storage/s3-blob-store.js';
import { createS3Client } from '../../src/storage/s3-client.js';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { skillMd, zip } from '../helpers/archives.js';
import { startS3Server, type S3Server } from '../helpers/s3.js';
import { blobStoreContract, type BlobStoreFixture } from './contract.js';
import { bodyOf, generatedBody, hashStream, interruptedBody, patternBytes, readAll, sha256Of } from './streams.js';

const MiB = 1024 * 1024;

let server: S3Server;
let prefixes = 0;

before(async () => {
  server = await startS3Server();
});

after(async () => {
  await server.close();
});

interface S3Fixture extends BlobStoreFixture {
  store: S3BlobStore;
  prefix: string;
  client: S3Client;
}

/** A store over its own fresh prefix of the shared test bucket (every key it writes lives under it). */
function makeStore(options: Partial<S3BlobStoreOptions> = {}): S3Fixture {
  prefixes += 1;
  const prefix = `t${process.pid}-${prefixes}/blobs-root`;
  const client = createS3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.env.AWS_ACCESS_KEY_ID!, secretAccessKey: server.env.AWS_SECRET_ACCESS_KEY! },
  });
  const store = new S3BlobStore({ client, bucket: server.bucket, prefix, ...options });
  const keys = (under: string) => server.listKeys(`${prefix}/${under}`);
  return {
    store,
    prefix,
    client,
    dispose() {
      client.destroy();
      return Promise.resolve();
    },
    async listTemporary() {
      const pending = (await server.pendingUploads()).filter((u) => u.key.startsWith(`${prefix}/`)).map((u) => `multipart:${u.key}`);
      return [...(await keys('tmp/')), ...pending].sort();
    },
    async listBlobs() {
      return (await keys('blobs/')).map((key) => key.slice(`${prefix}/blobs/`.length)).sort();
    },
    async age(sha256, ms) {
      // s3rver dates an object by its file's mtime.
      const when = new Date(Date.now() - ms);
      await utimes(server.objectFile(`${prefix}/blobs/${sha256}`), when, when);
    },
  };
}

blobStoreContract('S3 (s3rver)', () => Promise.resolve(makeStore()));

describe('S3 blob store', () => {
  let fixture: S3Fixture;
  let store: S3BlobStore;

  beforeEach(() => {
    fixture = makeStore();
    store = fixture.store;
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  const tempKeys = () => server.listKeys(`${fixture.prefix}/tmp/`);
  const blobKeys = () => server.listKeys(`${fixture.prefix}/blobs/`);
  const pending = async () => (await server.pendingUploads()).filter((u) => u.key.startsWith(`${fixture.prefix}/`));

  it('lays keys out as <prefix>/tmp/<epoch ms>-<uuid> while staged and <prefix>/blobs/<sha256> once committed', async () => {
    const bytes = randomBytes(20_000);
    const before = Date.now();
    const staged = await store.stage(bodyOf(bytes));
    const temps = await tempKeys();
    assert.equal(temps.length, 1);
    const match = new RegExp(`^${fixture.prefix}/tmp/(\\d+)-[0-9a-f-]{36}$`).exec(temps[0]!);
    assert.ok(match, temps[0]);
    assert.ok(Number(match[1]) >= before && Number(match[1]) <= Date.now());
    assert.deepEqual(await blobKeys(), [], 'the committed key does not exist before commit');

    await staged.commit();
    assert.deepEqual(await tempKeys(), []);
    assert.deepEqual(await blobKeys(), [`${fixture.prefix}/blobs/${sha256Of(bytes)}`]);
    const head = await fixture.client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: store.keyOf(staged.sha256) }));
    assert.equal(head.ContentLength, bytes.length);
    assert.equal(head.Metadata?.sha256, staged.sha256, 'the committed object carries its sha256');
    assert.deepEqual(await readAll(staged.source.read({ start: 100, end: 199 })), bytes.subarray(100, 200));
  });

  it('writes nothing under blobs/ while a multipart upload streams in, and aborts it when the body fails', async () => {
    // Three parts of 5 MiB and more: the SDK has started a multipart upload by the time the body fails.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const cause = new Error('client went away');
    const chunk = patternBytes(MiB, 9);
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent === 12) {
          // Nothing more is pushed: the stream stays silent until released, then fails; no one awaits that.
          void gate.then(() => this.destroy(cause));
          return;
        }
        sent += 1;
        this.push(chunk);
      },
    });
    const staging = store.stage(body);
    const deadline = Date.now() + 10_000;
    while ((await pending()).length === 0) {
      assert.ok(Date.now() < deadline, 'a multipart upload was started');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(await blobKeys(), [], 'nothing is committed while the hash is unknown');
    assert.deepEqual(await tempKeys(), [], 'a multipart upload is not an object until it completes');
    release();
    await assert.rejects(staging, (error: unknown) => error === cause);
    assert.deepEqual(await pending(), [], 'the multipart upload was aborted');
    assert.deepEqual(await tempKeys(), []);
    assert.deepEqual(await blobKeys(), []);
  });

  it('aborts the multipart upload when a body grows past maxBytes after several parts', async () => {
    const generated = generatedBody(40 * MiB);
    await assert.rejects(store.stage(generated.body, { maxBytes: 12 * MiB }), BlobTooLargeError);
    assert.ok(generated.pulled <= 13 * MiB, `pulled ${generated.pulled} bytes`);
    assert.ok(generated.body.destroyed);
    assert.deepEqual(await pending(), []);
    assert.deepEqual(await tempKeys(), []);
    assert.deepEqual(await blobKeys(), []);
  });

  it('sweeps temporary objects and abandoned multipart uploads by age, never its own, never committed blobs', async () => {
    const { sha256 } = await store.put(bodyOf(Buffer.from('committed blobs are never swept')));
    // What a node that crashed leaves: a finished temporary object and a multipart upload never completed.
    const leftover = `${fixture.prefix}/tmp/${Date.now()}-crashed`;
    await fixture.client.send(new PutObjectCommand({ Bucket: server.bucket, Key: leftover, Body: randomBytes(100) }));
    const abandoned = `${fixture.prefix}/tmp/${Date.now()}-crashed-multipart`;
    const { UploadId } = await fixture.client.send(new CreateMultipartUploadCommand({ Bucket: server.bucket, Key: abandoned }));
    await fixture.client.send(
      new UploadPartCommand({ Bucket: server.bucket, Key: abandoned, UploadId, PartNumber: 1, Body: randomBytes(1000) }),
    );
    const mine = await store.stage(bodyOf(randomBytes(5000)));

    assert.equal(await store.sweep(), 0, 'the default threshold (an hour) keeps what was just written');
    assert.equal(await store.sweep(60_000), 0);
    assert.equal((await tempKeys()).length, 2);
    assert.equal(await store.sweep(0), 2);
    const left = await tempKeys();
    assert.equal(left.length, 1, 'only the staged upload of this process is left');
    assert.notEqual(left[0], leftover);
    assert.deepEqual(await pending(), []);
    await mine.commit();
    assert.deepEqual(await tempKeys(), []);
    assert.deepEqual(await store.stat(sha256), { size: 31 });
    assert.equal(await store.sweep(0), 0);
  });

  it('does not sweep its own upload while it streams in', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const bytes = patternBytes(7 * MiB, 4);
    const slow = Readable.from(
      (async function* body() {
        yield bytes.subarray(0, 6 * MiB);
        await gate;
        yield bytes.subarray(6 * MiB);
      })(),
    );
    const uploading = store.put(slow);
    const deadline = Date.now() + 10_000;
    while ((await pending()).length === 0) {
      assert.ok(Date.now() < deadline, 'a multipart upload was started');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(await store.sweep(0), 0);
    release();
    assert.deepEqual(await uploading, { sha256: sha256Of(bytes), size: bytes.length });
    assert.deepEqual(await hashStream((await store.source(sha256Of(bytes))).read()), { sha256: sha256Of(bytes), size: bytes.length });
  });

  it('copies blobs above the single-copy threshold part by part, and the key appears only when complete', async () => {
    fixture = makeStore({ multipartCopyThreshold: 6 * MiB, copyPartSize: 5 * MiB });
    store = fixture.store;
    const bytes = patternBytes(13 * MiB + 5, 21);
    const result = await store.put(bodyOf(bytes, MiB));
    assert.deepEqual(result, { sha256: sha256Of(bytes), size: bytes.length });
    assert.deepEqual(await store.stat(result.sha256), { size: bytes.length });
    assert.deepEqual(await hashStream((await store.source(result.sha256)).read()), result);
    assert.deepEqual(await pending(), []);
    assert.deepEqual(await tempKeys(), []);
  });

  /** Counts the GET requests the store's client sends from now on. */
  function countGets(): () => number {
    let gets = 0;
    fixture.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetObjectCommand') gets += 1;
        return next(args);
      },
      { step: 'initialize' },
    );
    return () => gets;
  }

  it('reads a staged blob by few GETs: small reads come from cached 1 MiB blocks, whole reads stream', async () => {
    const bytes = patternBytes(3 * MiB + 100, 17);
    const staged = await store.stage(bodyOf(bytes));
    const gets = countGets();
    // 200 scattered 4 KiB reads, as a zip scan makes them.
    const blocks = new Set<number>();
    for (let i = 0; i < 200; i += 1) {
      const start = Math.floor((i / 200) * (bytes.length - 4096));
      blocks.add(Math.floor(start / MiB)).add(Math.floor((start + 4095) / MiB));
      assert.deepEqual(await readAll(staged.source.read({ start, end: start + 4095 })), bytes.subarray(start, start + 4096));
    }
    assert.equal(gets(), blocks.size, 'one GET per 1 MiB block touched');
    assert.deepEqual(await readAll(staged.source.read()), bytes);
    assert.deepEqual(await readAll(staged.source.read({ start: 10, end: 2 * MiB })), bytes.subarray(10, 2 * MiB + 1));
    assert.equal(gets(), blocks.size + 2, 'a whole read and a long range are one GET each, not cached');
    await staged.discard();
  });

  it('inspects a staged zip of hundreds of entries with a handful of GETs', async () => {
    const files = [
      { path: 'SKILL.md', content: skillMd() },
      ...Array.from({ length: 400 }, (_, i) => ({ path: `data/${i}.bin`, content: patternBytes(6000, i + 1) })),
    ];
    const archive = await zip(files);
    const staged = await store.stage(bodyOf(archive));
    const gets = countGets();
    const inspection = await inspectPackage(staged.source);
    assert.equal(inspection.files.length, 401);
    assert.ok(gets() <= 6, `${gets()} GETs to inspect a ${archive.length}-byte zip of 401 entries`);
    await staged.discard();
  });

  it('reports a committed blob that disappeared as BlobNotFoundError on the stream', async () => {
    const { sha256, size } = await store.put(bodyOf(randomBytes(3000)));
    const source = await store.source(sha256);
    await store.delete(sha256);
    await assert.rejects(readAll(source.read()), BlobNotFoundError);
    await assert.rejects(readAll(store.known(sha256, size).read({ start: 0, end: 9 })), BlobNotFoundError);
  });

  it('refuses a stream that is shorter than the size the caller knows', async () => {
    const { sha256 } = await store.put(bodyOf(Buffer.from('0123456789')));
    await assert.rejects(readAll(store.known(sha256, 20).read()), /ended the body after 10 of 20 bytes/);
  });

  it('is not ready when the bucket does not exist, and says which bucket', async () => {
    await store.ping();
    const other = new S3BlobStore({ client: fixture.client, bucket: 'no-such-bucket', prefix: '' });
    await assert.rejects(other.ping(), /bucket "no-such-bucket" cannot be used/);
    // The start-up sweep is the first thing a node asks of the bucket: its failure must say what is wrong.
    await assert.rejects(other.sweep(), /Listing s3:\/\/no-such-bucket\/tmp\/ failed: NoSuchBucket/);
  });

  it('fails a stage into a missing bucket with the cause, destroying the body', async () => {
    const other = new S3BlobStore({ client: fixture.client, bucket: 'no-such-bucket', prefix: 'p' });
    const body = bodyOf(randomBytes(1000));
    await assert.rejects(other.put(body), /Storing an upload in s3:\/\/no-such-bucket\/p\/tmp\/.* failed: NoSuchBucket/);
    assert.ok(body.destroyed);
    await assert.rejects(other.put(interruptedBody([randomBytes(10)], new Error('cut'))), /cut/);
  });

  it('uses the bucket root when the prefix is empty', async () => {
    const bucket = `root-${process.pid}`;
    await server.createBucket(bucket);
    const rooted = new S3BlobStore({ client: fixture.client, bucket, prefix: '' });
    const { sha256 } = await rooted.put(bodyOf(Buffer.from('at the root')));
    assert.deepEqual(await server.listKeys('', bucket), [`blobs/${sha256}`]);
    const listed: string[] = [];
    for await (const blob of rooted.list()) listed.push(blob.sha256);
    assert.deepEqual(listed, [sha256]);
    await server.removeBucket(bucket);
  });

  it('keeps serving a committed blob that is re-committed at the same time (the copy is atomic)', async () => {
    const bytes = patternBytes(2 * MiB, 5);
    const { sha256 } = await store.put(bodyOf(bytes));
    const reads = Promise.all([0, 1, 2].map(() => store.source(sha256).then((s) => hashStream(s.read()))));
    await store.put(bodyOf(bytes));
    for (const result of await reads) assert.deepEqual(result, { sha256, size: bytes.length });
  });

  it('damaged bytes under a key are not mistaken for the blob by a reader that checks', async () => {
    const bytes = randomBytes(4096);
    const { sha256 } = await store.put(bodyOf(bytes));
    await writeFile(server.objectFile(store.keyOf(sha256)), randomBytes(4096));
    const read = await hashStream((await store.source(sha256)).read());
    assert.notEqual(read.sha256, sha256, 'the store serves what the bucket holds; verification is the reader’s job');
    const object = await fixture.client.send(new GetObjectCommand({ Bucket: server.bucket, Key: store.keyOf(sha256) }));
    assert.equal(object.ContentLength, 4096);
    await object.Body?.transformToByteArray();
  });
});

describe('S3 configuration', () => {
  function problemsOf(env: Record<string, string>): string[] {
    try {
      loadConfig(env);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems;
    }
    assert.fail('expected a ConfigError');
  }

  it('reads STORAGE_URL s3:// with the S3 variables and credentials', () => {
    const config = loadConfig({
      STORAGE_URL: 's3://my-bucket//registry/packages/',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    assert.deepEqual(config.storage, { kind: 's3', bucket: 'my-bucket', prefix: 'registry/packages' });
    assert.deepEqual(config.s3, {
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret', sessionToken: undefined },
    });
  });

  it('defaults to AWS itself: no endpoint, virtual-host style, AWS_REGION or us-east-1, the SDK’s credential chain', () => {
    assert.deepEqual(loadConfig({ STORAGE_URL: 's3://bucket' }).s3, {
      endpoint: null,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: null,
    });
    assert.equal(loadConfig({ AWS_REGION: 'ap-south-1' }).s3.region, 'ap-south-1');
    assert.equal(loadConfig({ S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'false' }).s3.forcePathStyle, false);
    assert.deepEqual(loadConfig({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b', AWS_SESSION_TOKEN: 'c' }).s3.credentials, {
      accessKeyId: 'a',
      secretAccessKey: 'b',
      sessionToken: 'c',
    });
  });

  const invalid: [string, Record<string, string>, RegExp][] = [
    ['S3_ENDPOINT', { S3_ENDPOINT: 'minio:9000' }, /absolute http or https URL/],
    ['S3_ENDPOINT', { S3_ENDPOINT: 'ftp://minio:9000' }, /absolute http or https URL/],
    ['S3_ENDPOINT', { S3_ENDPOINT: 'http://user:pw@minio:9000' }, /must not carry credentials/],
    ['S3_REGION', { S3_REGION: 'eu central' }, /region name/],
    ['AWS_REGION', { AWS_REGION: 'bad/region' }, /region name/],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: 'sometimes' }, /true or false/],
    ['AWS_SECRET_ACCESS_KEY', { AWS_ACCESS_KEY_ID: 'id' }, /required when AWS_ACCESS_KEY_ID is set/],
    ['AWS_ACCESS_KEY_ID', { AWS_SECRET_ACCESS_KEY: 'secret' }, /required when AWS_SECRET_ACCESS_KEY is set/],
    ['STORAGE_URL', { STORAGE_URL: 's3://' }, /s3:\/\/bucket\/prefix/],
    ['STORAGE_URL', { STORAGE_URL: 's3://Not_A Bucket/x' }, /not a valid bucket name/],
    ['STORAGE_URL', { STORAGE_URL: 's3://ab/x' }, /not a valid bucket name/],
  ];
  for (const [variable, env, message] of invalid) {
    it(`names ${variable} when ${JSON.stringify(env)} is invalid`, () => {
      const problems = problemsOf(env);
      assert.equal(problems.length, 1, problems.join('; '));
      assert.match(problems[0]!, new RegExp(`^${variable} `));
      assert.match(problems[0]!, message);
    });
  }

  it('opens the S3 store the configuration names, and it answers', async () => {
    const config = loadConfig(server.env);
    const store = await openBlobStore(config.storage, config.s3);
    assert.ok(store instanceof S3BlobStore);
    await store.ping();
    const { sha256 } = await store.put(bodyOf(Buffer.from('configured')));
    assert.ok((await server.listKeys(`${server.prefix}/blobs/`)).includes(`${server.prefix}/blobs/${sha256}`));
    await store.delete(sha256);
    store.client.destroy();
  });
});
