// Scans on worker threads against scans on the calling thread: the same report for every package, the reader held
// back while a thread falls behind, refusals that end their session, and a thread that dies failing its package
// (ScanFailed) without taking the pool down.
import assert from 'node:assert/strict';
import { PassThrough, type Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { ScanFailed } from '@skill-registry/skill-package/scan/session';
import { bufferSource, type RandomAccessSource } from '@skill-registry/skill-package/source';
import { PackageError } from '@skill-registry/skill-package/types';
import { loadCorpus } from '../../bench/scan-corpus/index.js';
import { workerScans } from '../../src/scan-threads/worker-scans.js';
import { tarGz, zip } from '../helpers/archives.js';
import { manyFiles } from './many-files.js';

/** Small batches and a small allowance in flight, so every package crosses many batches and the reader waits. */
const scans = workerScans({ threads: 2, batchBytes: 4096, inFlightBytes: 16 * 1024 });
after(() => scans.close());

/** A source that gives its first `held` bytes, then waits for `release()` before giving the rest. */
function gatedSource(bytes: Buffer, held: number): { source: RandomAccessSource; firstPartRead: Promise<void>; release(): void } {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let firstPartRead = (): void => undefined;
  const first = new Promise<void>((resolve) => (firstPartRead = resolve));
  return {
    source: {
      size: bytes.length,
      read(range): Readable {
        const start = range?.start ?? 0;
        const end = range === undefined ? bytes.length : range.end + 1;
        const out = new PassThrough({ highWaterMark: 1024 });
        void (async () => {
          const until = Math.min(end, Math.max(start, held));
          if (until > start) out.write(bytes.subarray(start, until));
          if (until < end) {
            firstPartRead();
            await gate;
            out.write(bytes.subarray(until, end));
          }
          out.end();
        })();
        return out;
      },
    },
    firstPartRead: first,
    release,
  };
}

describe('scans on worker threads', () => {
  it('report what a scan on the calling thread reports, for every package of the labelled corpus', { timeout: 300_000 }, async () => {
    for (const sample of loadCorpus()) {
      const bytes = await zip(sample.files.map((f) => ({ path: f.path, content: Buffer.from(f.content) })));
      const here = await inspectPackage(bufferSource(bytes));
      const threaded = await inspectPackage(bufferSource(bytes), undefined, { scans });
      assert.deepEqual(threaded, here, sample.id);
    }
    await scans.settled();
    assert.equal(scans.open, 0);
  });

  it(
    'report the same for a tar.gz many times larger than what may be in flight, and for packages read at once',
    { timeout: 60_000 },
    async () => {
      const files = manyFiles();
      const packages = [await tarGz(files), await zip(files)];
      const here = await Promise.all(packages.map((bytes) => inspectPackage(bufferSource(bytes))));
      assert.equal(here[0]!.scan.verdict, 'malicious');
      // Four packages at once, spread over both threads.
      const threaded = await Promise.all(
        [...packages, ...packages].map((bytes) => inspectPackage(bufferSource(bytes), undefined, { scans })),
      );
      assert.deepEqual(threaded, [...here, ...here]);
      assert.equal(scans.threads.length, 2);
    },
  );

  it('end the session of a refused package, and scan the next one', { timeout: 60_000 }, async () => {
    const files = manyFiles();
    const good = await tarGz(files);
    // A wrong CRC-32 in the gzip trailer: refused once every file has been read and sent to the scanner.
    const bad = Buffer.from(good);
    bad[bad.length - 8]! ^= 0xff;
    await assert.rejects(
      inspectPackage(bufferSource(bad), undefined, { scans }),
      (error: unknown) => error instanceof PackageError && error.code === 'invalid_archive',
    );
    await scans.settled();
    assert.equal(scans.open, 0);
    assert.deepEqual(await inspectPackage(bufferSource(good), undefined, { scans }), await inspectPackage(bufferSource(good)));
  });

  it('fail a package whose thread dies with ScanFailed, and scan the next on a new thread', { timeout: 60_000 }, async () => {
    const files = manyFiles();
    const bytes = await tarGz(files);
    const expected = await inspectPackage(bufferSource(bytes));
    const gated = gatedSource(bytes, Math.floor(bytes.length / 2));
    const inspecting = inspectPackage(gated.source, undefined, { scans });
    await gated.firstPartRead;
    await Promise.all(scans.threads.map((thread) => thread.terminate()));
    gated.release();
    await assert.rejects(inspecting, (error: unknown) => error instanceof ScanFailed);
    assert.deepEqual(await inspectPackage(bufferSource(bytes), undefined, { scans }), expected);
  });
});
