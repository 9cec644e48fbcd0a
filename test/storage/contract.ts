import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { BlobNotFoundError, type BlobStore, BlobTooLargeError } from '../../src/storage/blob-store.js';
import { bodyOf, generatedBody, hashStream, interruptedBody, patternBytes, readAll, sha256Of } from './streams.js';

/** One fresh, empty store for one test, and what removes it afterwards. */
export interface BlobStoreFixture {
  store: BlobStore;
  dispose(): Promise<void>;
  /**
   * Optional: the temporary objects the store holds right now (files in a tmp directory, multipart uploads…), so
   * the suite can check that nothing is left behind. Without it the suite relies on `sweep(0)` returning 0.
   */
  listTemporary?(): Promise<string[]>;
  /** Optional: the sha256 of every committed blob as stored, so the suite can check deduplication. */
  listBlobs?(): Promise<string[]>;
  /** Makes a committed blob look as if it was last written `ms` ago (as time would, without waiting for it). */
  age(sha256: string, ms: number): Promise<void>;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * The behaviour every BlobStore must have, as describe/it blocks: call it once per implementation with a factory
 * that makes a fresh, empty store for each test.
 */
export function blobStoreContract(name: string, make: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;

    beforeEach(async () => {
      fixture = await make();
      store = fixture.store;
    });

    afterEach(async () => {
      await fixture.dispose();
    });

    /** Nothing temporary is left: no temporary object listed, and nothing for a sweep to remove. */
    async function assertNothingTemporary(): Promise<void> {
      if (fixture.listTemporary) assert.deepEqual(await fixture.listTemporary(), []);
      assert.equal(await store.sweep(0), 0);
    }

    async function readRange(sha256: string, start: number, end: number): Promise<Buffer> {
      const source = await store.source(sha256);
      return readAll(source.read({ start, end }));
    }

    describe('list and known', () => {
      it('lists every committed blob once, with a plausible write time, and no staged one', async () => {
        const started = Date.now();
        const a = await store.put(bodyOf(randomBytes(1000)));
        const b = await store.put(bodyOf(randomBytes(2000)));
        const staged = await store.stage(bodyOf(randomBytes(3000)));
        const listed: { sha256: string; writtenAt: number }[] = [];
        for await (const blob of store.list()) listed.push(blob);
        assert.deepEqual(listed.map((l) => l.sha256).sort(), [a.sha256, b.sha256].sort());
        for (const blob of listed) assert.ok(blob.writtenAt >= started - 5000 && blob.writtenAt <= Date.now() + 5000);
        await staged.discard();
        await store.delete(a.sha256);
        const after: string[] = [];
        for await (const blob of store.list()) after.push(blob.sha256);
        assert.deepEqual(after, [b.sha256]);
      });

      it('reads a blob of known size without asking the store first', async () => {
        const bytes = randomBytes(5000);
        const { sha256 } = await store.put(bodyOf(bytes));
        const source = store.known(sha256, bytes.length);
        assert.equal(source.size, bytes.length);
        assert.deepEqual(await readAll(source.read()), bytes);
        assert.deepEqual(await readAll(source.read({ start: 10, end: 19 })), bytes.subarray(10, 20));
        const missing = store.known('0'.repeat(64), 10);
        await assert.rejects(readAll(missing.read()));
      });
    });

    describe('put, stat and read', () => {
      it('stores bytes under their sha256 and reports their size', async () => {
        const bytes = randomBytes(100 * KiB + 7);
        const result = await store.put(bodyOf(bytes));
        assert.deepEqual(result, { sha256: sha256Of(bytes), size: bytes.length });
        assert.deepEqual(await store.stat(result.sha256), { size: bytes.length });
        const source = await store.source(result.sha256);
        assert.equal(source.size, bytes.length);
        assert.deepEqual(await readAll(source.read()), bytes);
        await assertNothingTemporary();
      });

      it('reads exact byte ranges: first, last, middle, single, whole', async () => {
        // Larger than a read stream's 64 KiB chunks, so ranges cross chunk boundaries.
        const bytes = patternBytes(300 * KiB + 13, 3);
        const { sha256 } = await store.put(bodyOf(bytes, 50 * KiB));
        const last = bytes.length - 1;
        assert.deepEqual(await readRange(sha256, 0, 0), bytes.subarray(0, 1));
        assert.deepEqual(await readRange(sha256, last, last), bytes.subarray(last));
        assert.deepEqual(await readRange(sha256, 65_530, 200_000), bytes.subarray(65_530, 200_001));
        assert.deepEqual(await readRange(sha256, 12_345, 12_345), bytes.subarray(12_345, 12_346));
        assert.deepEqual(await readRange(sha256, 0, last), bytes);
        assert.deepEqual(await readRange(sha256, 1, last), bytes.subarray(1));
      });

      it('serves several reads from one source, also concurrently', async () => {
        const bytes = patternBytes(150 * KiB, 5);
        const { sha256 } = await store.put(bodyOf(bytes));
        const source = await store.source(sha256);
        const [a, b, c] = await Promise.all([
          readAll(source.read({ start: 10, end: 99 })),
          readAll(source.read()),
          readAll(source.read({ start: 100 * KiB, end: 150 * KiB - 1 })),
        ]);
        assert.deepEqual(a, bytes.subarray(10, 100));
        assert.deepEqual(b, bytes);
        assert.deepEqual(c, bytes.subarray(100 * KiB));
      });

      it('refuses ranges outside the blob with a RangeError', async () => {
        const { sha256, size } = await store.put(bodyOf(Buffer.from('0123456789')));
        const source = await store.source(sha256);
        for (const range of [
          { start: 0, end: size },
          { start: 5, end: 4 },
          { start: -1, end: 3 },
          { start: 1.5, end: 3 },
          { start: size, end: size },
        ]) {
          assert.throws(() => source.read(range), RangeError, JSON.stringify(range));
        }
      });

      it('stores an empty blob', async () => {
        const result = await store.put(bodyOf(Buffer.alloc(0)));
        assert.deepEqual(result, { sha256: EMPTY_SHA256, size: 0 });
        assert.deepEqual(await store.stat(EMPTY_SHA256), { size: 0 });
        const source = await store.source(EMPTY_SHA256);
        assert.equal(source.size, 0);
        assert.equal((await readAll(source.read())).length, 0);
      });

      it('accepts string and Uint8Array chunks as bytes', async () => {
        const body = Readable.from(['h', new Uint8Array([105]), Buffer.from('!')]);
        const result = await store.put(body);
        assert.deepEqual(result, { sha256: sha256Of(Buffer.from('hi!')), size: 3 });
      });

      it('stores a large blob streamed from a generator with the right hash', async () => {
        const generated = generatedBody(20 * MiB);
        const result = await store.put(generated.body);
        assert.equal(generated.pulled, 20 * MiB);
        assert.deepEqual(result, { sha256: generated.digest(), size: 20 * MiB });
        assert.deepEqual(await store.stat(result.sha256), { size: 20 * MiB });
        const source = await store.source(result.sha256);
        assert.deepEqual(await hashStream(source.read()), result);
        const tail = await readAll(source.read({ start: 20 * MiB - 10, end: 20 * MiB - 1 }));
        assert.equal(tail.length, 10);
        await assertNothingTemporary();
      });
    });

    describe('content addressing', () => {
      it('stores identical content once', async () => {
        const bytes = randomBytes(40 * KiB);
        const first = await store.put(bodyOf(bytes));
        const second = await store.put(bodyOf(bytes, 1000));
        assert.deepEqual(second, first);
        if (fixture.listBlobs) assert.deepEqual(await fixture.listBlobs(), [first.sha256]);
        assert.deepEqual(await readAll((await store.source(first.sha256)).read()), bytes);
        await assertNothingTemporary();
      });

      it('commits two stagings of the same content, one after the other and at once', async () => {
        const bytes = randomBytes(10 * KiB);
        const a = await store.stage(bodyOf(bytes));
        const b = await store.stage(bodyOf(bytes));
        assert.equal(a.sha256, b.sha256);
        await a.commit();
        await b.commit();
        const concurrent = await Promise.all([1, 2, 3, 4, 5].map(() => store.put(bodyOf(bytes))));
        for (const result of concurrent) assert.deepEqual(result, { sha256: a.sha256, size: bytes.length });
        if (fixture.listBlobs) assert.deepEqual(await fixture.listBlobs(), [a.sha256]);
        assert.deepEqual(await readAll((await store.source(a.sha256)).read()), bytes);
        await assertNothingTemporary();
      });

      it('keeps different content apart', async () => {
        const one = Buffer.from('one');
        const two = Buffer.from('two');
        const a = await store.put(bodyOf(one));
        const b = await store.put(bodyOf(two));
        assert.notEqual(a.sha256, b.sha256);
        assert.equal(a.sha256, sha256Of(one));
        assert.equal(b.sha256, sha256Of(two));
        if (fixture.listBlobs) assert.deepEqual((await fixture.listBlobs()).sort(), [a.sha256, b.sha256].sort());
        assert.deepEqual(await readAll((await store.source(a.sha256)).read()), one);
        assert.deepEqual(await readAll((await store.source(b.sha256)).read()), two);
      });
    });

    describe('staging', () => {
      it('lets the staged bytes be inspected before they are committed', async () => {
        const bytes = patternBytes(90 * KiB, 11);
        const staged = await store.stage(bodyOf(bytes));
        assert.equal(staged.sha256, sha256Of(bytes));
        assert.equal(staged.size, bytes.length);
        assert.equal(staged.source.size, bytes.length);
        assert.deepEqual(await readAll(staged.source.read()), bytes);
        assert.deepEqual(await readAll(staged.source.read({ start: 5, end: 70_000 })), bytes.subarray(5, 70_001));
        assert.throws(() => staged.source.read({ start: 0, end: bytes.length }), RangeError);
        assert.equal(await store.stat(staged.sha256), null, 'not visible before commit');
        await assert.rejects(store.source(staged.sha256), BlobNotFoundError);

        await staged.commit();
        assert.deepEqual(await store.stat(staged.sha256), { size: bytes.length });
        assert.deepEqual(await readAll((await store.source(staged.sha256)).read()), bytes);
        await assertNothingTemporary();
      });

      it('discarding leaves nothing behind', async () => {
        const bytes = randomBytes(30 * KiB);
        const staged = await store.stage(bodyOf(bytes));
        await staged.discard();
        assert.equal(await store.stat(staged.sha256), null);
        await assertNothingTemporary();
        await staged.discard();
        await assert.rejects(staged.commit(), /discarded/);
        assert.equal(await store.stat(staged.sha256), null);
      });

      it('commit twice is fine, and discard after commit keeps the blob', async () => {
        const bytes = randomBytes(1000);
        const staged = await store.stage(bodyOf(bytes));
        await staged.commit();
        await staged.commit();
        await staged.discard();
        assert.deepEqual(await store.stat(staged.sha256), { size: 1000 });
        assert.deepEqual(await readAll((await store.source(staged.sha256)).read()), bytes);
        await assertNothingTemporary();
      });

      it('settles concurrent commits of one staged blob', async () => {
        const staged = await store.stage(bodyOf(randomBytes(5000)));
        await Promise.all([staged.commit(), staged.commit(), staged.commit()]);
        assert.deepEqual(await store.stat(staged.sha256), { size: 5000 });
        await assertNothingTemporary();
      });

      it('discarding a blob staged twice leaves the committed copy alone', async () => {
        const bytes = randomBytes(2000);
        const kept = await store.put(bodyOf(bytes));
        const staged = await store.stage(bodyOf(bytes));
        await staged.discard();
        assert.deepEqual(await store.stat(kept.sha256), { size: 2000 });
        assert.deepEqual(await readAll((await store.source(kept.sha256)).read()), bytes);
      });
    });

    describe('size limit', () => {
      it('accepts a body of exactly maxBytes', async () => {
        const bytes = randomBytes(64 * KiB);
        const result = await store.put(bodyOf(bytes), { maxBytes: bytes.length });
        assert.equal(result.size, bytes.length);
      });

      it('refuses one byte more with BlobTooLargeError and leaves nothing behind', async () => {
        const bytes = randomBytes(64 * KiB + 1);
        await assert.rejects(store.stage(bodyOf(bytes), { maxBytes: 64 * KiB }), (error: unknown) => {
          assert.ok(error instanceof BlobTooLargeError);
          assert.equal(error.limit, 64 * KiB);
          return true;
        });
        await assert.rejects(store.put(bodyOf(bytes), { maxBytes: 64 * KiB }), BlobTooLargeError);
        assert.equal(await store.stat(sha256Of(bytes)), null);
        await assertNothingTemporary();
      });

      it('refuses early, without reading the rest of a huge body', async () => {
        const generated = generatedBody(100 * MiB);
        await assert.rejects(store.put(generated.body, { maxBytes: 1 * MiB }), BlobTooLargeError);
        assert.ok(generated.pulled < 4 * MiB, `pulled ${generated.pulled} bytes of a 100 MiB body`);
        assert.ok(generated.finished, 'the body was closed');
        assert.ok(generated.body.destroyed, 'the body was destroyed');
        await assertNothingTemporary();
      });

      it('with maxBytes 0 accepts only an empty body', async () => {
        assert.equal((await store.put(bodyOf(Buffer.alloc(0)), { maxBytes: 0 })).size, 0);
        await assert.rejects(store.put(bodyOf(Buffer.from('x')), { maxBytes: 0 }), BlobTooLargeError);
        await assertNothingTemporary();
      });
    });

    describe('interrupted bodies', () => {
      it('rejects with the body’s own error and leaves nothing behind', async () => {
        const chunks = [randomBytes(32 * KiB), randomBytes(32 * KiB), randomBytes(32 * KiB)];
        const cause = new Error('connection reset by peer');
        await assert.rejects(store.stage(interruptedBody(chunks, cause)), (error: unknown) => error === cause);
        await assert.rejects(store.put(interruptedBody(chunks, cause)), (error: unknown) => error === cause);
        assert.equal(await store.stat(sha256Of(Buffer.concat(chunks))), null);
        await assertNothingTemporary();
      });

      it('rejects when the body is destroyed without an error (an aborted request)', async () => {
        const body = interruptedBody([randomBytes(10 * KiB), randomBytes(10 * KiB)]);
        await assert.rejects(store.put(body), Error);
        await assertNothingTemporary();
      });

      it('rejects when an HTTP request body is cut off by the client', async () => {
        let settle: (outcome: unknown) => void = () => undefined;
        const outcome = new Promise<unknown>((resolve) => {
          settle = resolve;
        });
        let reading: () => void = () => undefined;
        const putStarted = new Promise<void>((resolve) => {
          reading = resolve;
        });
        const server = createServer((request) => {
          store.put(request).then(settle, settle);
          reading();
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const { port } = server.address() as AddressInfo;
          const socket = connect(port, '127.0.0.1');
          await new Promise<void>((resolve) => socket.once('connect', resolve));
          socket.write(`PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: ${MiB}\r\n\r\n`);
          socket.write(randomBytes(100 * KiB));
          // Cut off once the store is reading the body, not after a guessed while.
          await putStarted;
          socket.destroy();
          const result = await outcome;
          assert.ok(result instanceof Error, `put settled with ${String(result)}`);
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
        await assertNothingTemporary();
      });

      it('rejects when the body fails before its first byte', async () => {
        const cause = new Error('gone');
        await assert.rejects(store.put(interruptedBody([], cause)), (error: unknown) => error === cause);
        await assertNothingTemporary();
      });
    });

    describe('delete', () => {
      it('removes a blob; deleting again, or what never was, is fine', async () => {
        const { sha256 } = await store.put(bodyOf(Buffer.from('to be deleted')));
        const other = await store.put(bodyOf(Buffer.from('to be kept')));
        await store.delete(sha256);
        assert.equal(await store.stat(sha256), null);
        await assert.rejects(store.source(sha256), BlobNotFoundError);
        await store.delete(sha256);
        await store.delete('0'.repeat(64));
        assert.deepEqual(await store.stat(other.sha256), { size: 10 });
        if (fixture.listBlobs) assert.deepEqual(await fixture.listBlobs(), [other.sha256]);
      });

      it('can store the same content again after deleting it', async () => {
        const bytes = Buffer.from('phoenix');
        const { sha256 } = await store.put(bodyOf(bytes));
        await store.delete(sha256);
        await store.put(bodyOf(bytes));
        assert.deepEqual(await readAll((await store.source(sha256)).read()), bytes);
      });
    });

    describe('ages: what orphan collection goes by', () => {
      const HOUR = 60 * 60 * 1000;
      const writtenAt = async (sha256: string) => {
        for await (const blob of store.list()) if (blob.sha256 === sha256) return blob.writtenAt;
        return null;
      };

      it('deleteIfOlder removes a blob last written before the cutoff, and only such a blob', async () => {
        const old = await store.put(bodyOf(Buffer.from('written two hours ago')));
        const fresh = await store.put(bodyOf(Buffer.from('written just now')));
        await fixture.age(old.sha256, 2 * HOUR);
        const cutoff = Date.now() - HOUR;
        assert.equal(await store.deleteIfOlder(fresh.sha256, cutoff), false);
        assert.deepEqual(await store.stat(fresh.sha256), { size: 16 });
        assert.equal(await store.deleteIfOlder(old.sha256, cutoff), true);
        assert.equal(await store.stat(old.sha256), null);
        assert.equal(await store.deleteIfOlder(old.sha256, cutoff), false, 'a blob that is not there');
        await assert.rejects(async () => store.deleteIfOlder('../x', cutoff), TypeError);
      });

      it('counts content committed again as written now, so it is no longer old', async () => {
        const bytes = Buffer.from('uploaded again after two hours');
        const { sha256 } = await store.put(bodyOf(bytes));
        await fixture.age(sha256, 2 * HOUR);
        assert.ok((await writtenAt(sha256))! <= Date.now() - HOUR, 'aged');
        await store.put(bodyOf(bytes));
        assert.ok((await writtenAt(sha256))! > Date.now() - HOUR, "the listed time is the second commit's");
        assert.equal(await store.deleteIfOlder(sha256, Date.now() - HOUR), false);
        assert.deepEqual(await readAll((await store.source(sha256)).read()), bytes);
      });

      it('lets a commit and a collection of one blob that start together settle either way, never losing a committed blob', async () => {
        const bytes = Buffer.from('committed while being collected');
        const { sha256 } = await store.put(bodyOf(bytes));
        await fixture.age(sha256, 2 * HOUR);
        const staged = await store.stage(bodyOf(bytes));
        const [, removed] = await Promise.all([staged.commit(), store.deleteIfOlder(sha256, Date.now() - HOUR)]);
        // Whichever ran first, the commit's bytes are there afterwards: it either refreshed the old copy (which the
        // collection then kept) or wrote a new one after the collection removed the old.
        assert.equal(typeof removed, 'boolean');
        assert.deepEqual(await readAll((await store.source(sha256)).read()), bytes);
      });
    });

    describe('missing blobs and bad names', () => {
      it('answers null from stat and BlobNotFoundError from source for a missing blob', async () => {
        const missing = sha256Of(Buffer.from('never stored'));
        assert.equal(await store.stat(missing), null);
        await assert.rejects(store.source(missing), (error: unknown) => {
          assert.ok(error instanceof BlobNotFoundError);
          assert.equal(error.sha256, missing);
          return true;
        });
      });

      const invalid = [
        '../etc/passwd',
        '../../../../../../../../etc/passwd',
        'A'.repeat(64),
        sha256Of(Buffer.from('x')).toUpperCase(),
        'abc123',
        '',
        'a'.repeat(63),
        'a'.repeat(65),
        `${'a'.repeat(62)}/x`,
        `${'a'.repeat(63)}g`,
        ` ${'a'.repeat(63)}`,
        `${'a'.repeat(64)}\n`,
      ];

      it('throws a TypeError for anything but 64 lowercase hex digits', async () => {
        for (const sha256 of invalid) {
          const label = JSON.stringify(sha256);
          await assert.rejects(async () => store.stat(sha256), TypeError, `stat ${label}`);
          await assert.rejects(async () => store.source(sha256), TypeError, `source ${label}`);
          await assert.rejects(async () => store.delete(sha256), TypeError, `delete ${label}`);
        }
      });
    });

    describe('sweep and ping', () => {
      it('sweeps nothing on a store without interrupted uploads, and keeps committed blobs', async () => {
        const { sha256 } = await store.put(bodyOf(Buffer.from('kept')));
        await assert.rejects(store.put(interruptedBody([Buffer.from('lost')], new Error('cut'))));
        assert.equal(await store.sweep(), 0);
        assert.equal(await store.sweep(0), 0);
        assert.deepEqual(await store.stat(sha256), { size: 4 });
      });

      it('is ready', async () => {
        await store.ping();
      });
    });
  });
}
