import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createFsBlobStore, type FsBlobStore, TEMP_DIR_NAME, TEMP_SUFFIX } from '../../src/storage/fs-blob-store.js';
import { eventually } from '../helpers/process.js';
import { blobStoreContract, type BlobStoreFixture } from './contract.js';
import { bodyOf, readAll, sha256Of } from './streams.js';

const UUID_TEMP_NAME = new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\${TEMP_SUFFIX}$`);

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
}

/** The committed blobs of a store, found by walking its two fan-out levels (tmp/ excluded). */
async function listCommitted(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const first of await listFiles(dir)) {
    if (first === TEMP_DIR_NAME) continue;
    for (const second of await listFiles(path.join(dir, first))) {
      for (const name of await listFiles(path.join(dir, first, second))) found.push(name);
    }
  }
  return found.sort();
}

interface FsFixture extends BlobStoreFixture {
  store: FsBlobStore;
  root: string;
}

async function makeFsFixture(): Promise<FsFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'skreg-blobs-'));
  // A directory that does not exist yet: the factory creates it.
  const store = await createFsBlobStore(path.join(root, 'data', 'blobs'));
  return {
    store,
    root,
    dispose: () => rm(root, { recursive: true, force: true }),
    listTemporary: () => listFiles(store.tempDir),
    listBlobs: () => listCommitted(store.dir),
    async age(sha256, ms) {
      const when = new Date(Date.now() - ms);
      await utimes(store.pathOf(sha256), when, when);
    },
  };
}

blobStoreContract('file system', makeFsFixture);

describe('file-system blob store', () => {
  let fixture: FsFixture;
  let store: FsBlobStore;

  beforeEach(async () => {
    fixture = await makeFsFixture();
    store = fixture.store;
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  /** Writes a temporary file by hand, as an upload cut short by a crash leaves one, `ageMs` old. */
  async function leftover(name: string, ageMs: number): Promise<string> {
    const file = path.join(store.tempDir, name);
    await writeFile(file, randomBytes(100));
    const when = new Date(Date.now() - ageMs);
    await utimes(file, when, when);
    return file;
  }

  it('creates its directory and tmp/ directory', async () => {
    assert.equal(store.dir, path.join(fixture.root, 'data', 'blobs'));
    assert.equal(store.tempDir, path.join(store.dir, 'tmp'));
    assert.ok((await stat(store.tempDir)).isDirectory());
  });

  it('lays committed blobs out as <sha[0..2]>/<sha[2..4]>/<sha256>', async () => {
    const bytes = randomBytes(4096);
    const { sha256 } = await store.put(bodyOf(bytes));
    const expected = path.join(store.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
    assert.equal(store.pathOf(sha256), expected);
    assert.deepEqual(await readFile(expected), bytes);
    assert.deepEqual(await listFiles(store.dir), [sha256.slice(0, 2), TEMP_DIR_NAME].sort());
    assert.deepEqual(await listFiles(store.tempDir), []);
  });

  it('stages into one uuid-named temporary file, and commit leaves none', async () => {
    const bytes = randomBytes(20_000);
    const staged = await store.stage(bodyOf(bytes));
    const temps = await listFiles(store.tempDir);
    assert.equal(temps.length, 1);
    assert.match(temps[0] ?? '', UUID_TEMP_NAME);
    assert.deepEqual(await readFile(path.join(store.tempDir, temps[0] ?? '')), bytes);
    assert.deepEqual(await listCommitted(store.dir), []);

    await staged.commit();
    assert.deepEqual(await listFiles(store.tempDir), []);
    assert.deepEqual(await listCommitted(store.dir), [sha256Of(bytes)]);
    // The staged source still reads the same bytes, now from their committed place.
    assert.deepEqual(await readAll(staged.source.read({ start: 100, end: 199 })), bytes.subarray(100, 200));
  });

  it('stages a body in order whatever the size of its pieces: 64 KiB, or a few bytes at a time', async () => {
    for (const [size, piece] of [
      [1024 * 1024 + 5000, 64 * 1024],
      [100_000, 10],
    ] as const) {
      const bytes = randomBytes(size);
      const staged = await store.stage(bodyOf(bytes, piece));
      assert.equal(staged.sha256, sha256Of(bytes));
      assert.equal(staged.size, bytes.length);
      assert.deepEqual(await readAll(staged.source.read()), bytes);
      await staged.discard();
    }
  });

  it('keeps the file already stored when the same content is committed again', async () => {
    const bytes = randomBytes(8192);
    const { sha256 } = await store.put(bodyOf(bytes));
    const before = await stat(store.pathOf(sha256));
    await store.put(bodyOf(bytes));
    const after = await stat(store.pathOf(sha256));
    assert.equal(after.ino, before.ino);
    assert.deepEqual(await listFiles(store.tempDir), []);
  });

  it('replaces a damaged file (wrong size) under a sha256 on commit', async () => {
    const bytes = randomBytes(3000);
    const { sha256 } = await store.put(bodyOf(bytes));
    await writeFile(store.pathOf(sha256), bytes.subarray(0, 1000));
    await store.put(bodyOf(bytes));
    assert.deepEqual(await readFile(store.pathOf(sha256)), bytes);
  });

  it('sweeps temporary files older than the threshold, and everything with 0', async () => {
    await leftover(`${randomUUID()}${TEMP_SUFFIX}`, 2 * 60 * 60 * 1000);
    await leftover(`${randomUUID()}${TEMP_SUFFIX}`, 45 * 60 * 1000);
    const fresh = await leftover(`${randomUUID()}${TEMP_SUFFIX}`, 0);
    const { sha256 } = await store.put(bodyOf(Buffer.from('committed blobs are never swept')));

    assert.equal(await store.sweep(), 1, 'default threshold: one hour');
    assert.equal((await listFiles(store.tempDir)).length, 2);
    assert.equal(await store.sweep(30 * 60 * 1000), 1);
    assert.deepEqual(await listFiles(store.tempDir), [path.basename(fresh)]);
    assert.equal(await store.sweep(0), 1);
    assert.deepEqual(await listFiles(store.tempDir), []);
    assert.equal(await store.sweep(0), 0);
    assert.ok(await store.stat(sha256));
  });

  it('never shows a crash leftover as a blob', async () => {
    const bytes = randomBytes(100);
    await leftover(`${randomUUID()}${TEMP_SUFFIX}`, 0);
    assert.equal(await store.stat(sha256Of(bytes)), null);
    assert.deepEqual(await listCommitted(store.dir), []);
  });

  it('does not sweep its own uploads in flight or staged', async () => {
    const bytes = randomBytes(30_000);
    const staged = await store.stage(bodyOf(bytes));

    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = Readable.from(
      (async function* body() {
        yield bytes.subarray(0, 10_000);
        await gate;
        yield bytes.subarray(10_000);
      })(),
    );
    const uploading = store.put(slow);
    await eventually('the upload has its temporary file', async () => (await listFiles(store.tempDir)).length >= 2, 10_000);

    assert.equal(await store.sweep(0), 0);
    release();
    assert.deepEqual(await uploading, { sha256: sha256Of(bytes), size: bytes.length });
    await staged.commit();
    assert.deepEqual(await listFiles(store.tempDir), []);
    assert.deepEqual(await readFile(store.pathOf(staged.sha256)), bytes);
  });

  it('leaves other entries of tmp/ alone when they are not files', async () => {
    await mkdir(path.join(store.tempDir, 'a-directory'));
    assert.equal(await store.sweep(0), 0);
    assert.deepEqual(await listFiles(store.tempDir), ['a-directory']);
  });

  it('recreates tmp/ when it has gone', async () => {
    await rm(store.tempDir, { recursive: true });
    assert.equal(await store.sweep(0), 0);
    const { sha256 } = await store.put(bodyOf(Buffer.from('again')));
    assert.deepEqual(await store.stat(sha256), { size: 5 });
  });

  it('fails to stage, destroying the body, when tmp/ cannot be created', async () => {
    await rm(store.tempDir, { recursive: true });
    await writeFile(store.tempDir, 'not a directory');
    const body = bodyOf(randomBytes(1000));
    await assert.rejects(store.put(body), Error);
    assert.ok(body.destroyed);
  });

  it('refuses a maxBytes that is not a non-negative number', async () => {
    for (const maxBytes of [-1, Number.NaN]) {
      const body = bodyOf(Buffer.from('x'));
      await assert.rejects(store.stage(body, { maxBytes }), TypeError);
      assert.ok(body.destroyed);
    }
    await assert.rejects(store.sweep(-5), TypeError);
  });

  it('validates sha256 before building a path', () => {
    assert.throws(() => store.pathOf('../../etc/passwd'), TypeError);
    assert.throws(() => store.pathOf('F'.repeat(64)), TypeError);
  });

  it('is not ready when its directory is gone or is not a directory', async () => {
    await store.ping();
    await rm(store.dir, { recursive: true });
    await assert.rejects(store.ping());
    await writeFile(store.dir, 'a file');
    await assert.rejects(store.ping(), /not a directory/);
  });
});
