import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { detectFormat, inspectPackage, openPackageEntry } from '@skill-registry/skill-package/inspect';
import { PackageError } from '@skill-registry/skill-package/types';
import type { RandomAccessSource } from '../../src/storage/blob-store.js';
import { assertRefused, bufferSource, collect, skillMd, tarGz, yazlZip } from './helpers.js';
import { buildZip } from './zip-builder.js';

const SKILL = skillMd();

describe('format detection', () => {
  it('recognises zip and gzip by magic bytes, not by name', async () => {
    assert.equal(await detectFormat(bufferSource(await yazlZip([{ name: 'a', data: 'a' }]))), 'zip');
    assert.equal(await detectFormat(bufferSource(await tarGz([{ name: 'a', data: 'a' }]))), 'tar.gz');
  });

  const unsupported: [string, Buffer][] = [
    ['a PNG', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)])],
    ['plain text', Buffer.from('---\nname: x\ndescription: y\n---\n')],
    ['an empty upload', Buffer.alloc(0)],
    ['a single byte', Buffer.from('P')],
    ['a zip central directory signature at the start', Buffer.from('PK\u0001\u0002rest')],
    ['a gzip of text (not a tar)', gzipSync(Buffer.from('hello world, this is not a tar archive at all. '.repeat(30)))],
    ['a gzip shorter than one tar block', gzipSync(Buffer.from('tiny'))],
    ['an empty gzip', gzipSync(Buffer.alloc(0))],
    ['a gzip of a zip', gzipSync(buildZip([{ name: 'a.txt', data: 'a' }]))],
  ];
  for (const [what, bytes] of unsupported) {
    it(`answers 415 for ${what}`, async () => {
      await assertRefused(inspectPackage(bufferSource(bytes)), 415, 'unsupported_media_type');
    });
  }
});

describe('limits', () => {
  it('refuses more entries than maxEntries (zip; directories count)', async () => {
    const zip = await yazlZip([
      { name: 'a/', directory: true },
      { name: 'a/1.txt', data: '1' },
      { name: 'a/2.txt', data: '2' },
    ]);
    assert.equal((await inspectPackage(bufferSource(zip), { maxEntries: 3 })).files.length, 2);
    await assertRefused(
      inspectPackage(bufferSource(zip), { maxEntries: 2 }),
      422,
      'invalid_archive',
      undefined,
      /more than the limit of 2/,
    );
  });

  it('refuses more entries than maxEntries (tar.gz; directories count), naming the first entry over', async () => {
    const gz = await tarGz([
      { name: 'a', type: 'directory' },
      { name: 'a/1.txt', data: '1' },
      { name: 'a/2.txt', data: '2' },
    ]);
    assert.equal((await inspectPackage(bufferSource(gz), { maxEntries: 3 })).files.length, 2);
    await assertRefused(inspectPackage(bufferSource(gz), { maxEntries: 2 }), 422, 'invalid_archive', 'a/2.txt', /more than 2 entries/);
  });

  it('refuses a zip over maxTotalBytes on declared sizes, before inflating', async () => {
    const zip = await yazlZip([
      { name: 'a.txt', data: 'a'.repeat(600) },
      { name: 'b.txt', data: 'b'.repeat(600) },
    ]);
    assert.equal((await inspectPackage(bufferSource(zip), { maxTotalBytes: 1200 })).files.length, 2);
    await assertRefused(
      inspectPackage(bufferSource(zip), { maxTotalBytes: 1000 }),
      422,
      'invalid_archive',
      'b.txt',
      /limit of 1000 uncompressed bytes/,
    );
  });

  it('refuses a zip over maxTotalBytes on real bytes when sizes lie', async () => {
    // Declared: 10 bytes each; real: 2,000. The lie is caught; with a 1,000-byte total it is the limit or the lie.
    const zip = buildZip([
      { name: 'liar.txt', data: 'z'.repeat(2000), central: { uncompressedSize: 10 }, local: { uncompressedSize: 10 } },
    ]);
    await assertRefused(inspectPackage(bufferSource(zip), { maxTotalBytes: 1000 }), 422, 'invalid_archive', 'liar.txt');
  });

  it('refuses a tar.gz over maxTotalBytes', async () => {
    const gz = await tarGz([
      { name: 'a.txt', data: 'a'.repeat(600) },
      { name: 'b.txt', data: 'b'.repeat(600) },
    ]);
    assert.equal((await inspectPackage(bufferSource(gz), { maxTotalBytes: 1200 })).files.length, 2);
    await assertRefused(inspectPackage(bufferSource(gz), { maxTotalBytes: 1000 }), 422, 'invalid_archive', 'b.txt', /limit of 1000/);
  });

  it('refuses a zip entry over maxRatio (custom limit)', async () => {
    // ~200 KB of words drawn at random from eight: compresses about 8:1.
    const words = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
    const text = Buffer.from([...randomBytes(40_000)].map((v) => words[v % 8]).join(' '));
    const zip = await yazlZip([
      { name: 'SKILL.md', data: SKILL },
      { name: 'pattern.txt', data: text },
    ]);
    assert.equal((await inspectPackage(bufferSource(zip))).files.length, 2);
    await assertRefused(
      inspectPackage(bufferSource(zip), { maxRatio: 4 }),
      422,
      'invalid_archive',
      'pattern.txt',
      /ratio .* over the limit of 4:1/,
    );
  });

  it('does not apply the ratio to small entries', async () => {
    const zip = await yazlZip([{ name: 'zeros.txt', data: Buffer.alloc(60_000) }]);
    assert.deepEqual((await inspectPackage(bufferSource(zip))).files, [{ path: 'zeros.txt', size: 60_000, executable: false }]);
  });

  it('refuses a zip bomb-like entry (5 MiB of zeros) under the default 100:1 ratio', async () => {
    const zip = await yazlZip([
      { name: 'SKILL.md', data: SKILL },
      { name: 'zeros.bin', data: Buffer.alloc(5 * 1024 * 1024) },
    ]);
    await assertRefused(inspectPackage(bufferSource(zip)), 422, 'invalid_archive', 'zeros.bin', /ratio/);
  });

  it('refuses a lying zip bomb on real bytes (declared ratio fine, real ratio not)', async () => {
    const zeros = Buffer.alloc(2 * 1024 * 1024);
    const zip = buildZip([{ name: 'bomb.bin', data: zeros, central: { uncompressedSize: 1000 }, local: { uncompressedSize: 1000 } }]);
    await assertRefused(inspectPackage(bufferSource(zip)), 422, 'invalid_archive', 'bomb.bin');
  });

  it('refuses a tar.gz bomb (5 MiB of zeros) under the default ratio', async () => {
    const gz = await tarGz([
      { name: 'SKILL.md', data: SKILL },
      { name: 'zeros.bin', data: Buffer.alloc(5 * 1024 * 1024) },
    ]);
    await assertRefused(inspectPackage(bufferSource(gz)), 422, 'invalid_archive', 'zeros.bin', /100 times its size/);
  });

  it('refuses gzipped padding after the end of the tar (decompressed-size cap)', async () => {
    const tarBytes = Buffer.concat([Buffer.alloc(1024), Buffer.alloc(3 * 1024 * 1024)]);
    const gz = gzipSync(tarBytes);
    await assertRefused(
      inspectPackage(bufferSource(gz), { maxTotalBytes: 1000, maxEntries: 10, maxRatio: 100_000 }),
      422,
      'invalid_archive',
      undefined,
      /decompresses to more than/,
    );
  });
});

describe('SKILL.md location', () => {
  it('refuses SKILL.md both at the root and in a folder (422 invalid_skill_md)', async () => {
    const zip = await yazlZip([
      { name: 'SKILL.md', data: SKILL },
      { name: 'other/SKILL.md', data: SKILL },
    ]);
    const err = await assertRefused(
      inspectPackage(bufferSource(zip)),
      422,
      'invalid_skill_md',
      'other/SKILL.md',
      /more than one SKILL\.md/,
    );
    assert.deepEqual(
      err.problems.map((p) => p.entry),
      ['SKILL.md', 'other/SKILL.md'],
    );
  });

  it('refuses two top-level folders that each have a SKILL.md', async () => {
    const gz = await tarGz([
      { name: 'a/SKILL.md', data: SKILL },
      { name: 'b/SKILL.md', data: SKILL },
    ]);
    await assertRefused(inspectPackage(bufferSource(gz)), 422, 'invalid_skill_md', 'b/SKILL.md');
  });

  it('reports archive problems before SKILL.md problems', async () => {
    const zip = buildZip([
      { name: 'SKILL.md', data: SKILL },
      { name: 'x/SKILL.md', data: SKILL },
      { name: '/abs', data: 'x' },
    ]);
    await assertRefused(inspectPackage(bufferSource(zip)), 422, 'invalid_archive', '/abs');
  });

  it('ignores SKILL.md deeper than one folder', async () => {
    const zip = await yazlZip([
      { name: 'a/b/SKILL.md', data: SKILL },
      { name: 'README.md', data: 'r' },
    ]);
    const result = await inspectPackage(bufferSource(zip));
    assert.equal(result.skillMdPath, null);
    assert.deepEqual(
      result.warnings.map((w) => w.code),
      ['skill_md_missing'],
    );
  });

  it('finds folder/SKILL.md when other files sit beside the folder', async () => {
    const zip = await yazlZip([
      { name: 'skill/SKILL.md', data: SKILL },
      { name: 'README.md', data: 'r' },
    ]);
    assert.equal((await inspectPackage(bufferSource(zip))).skillMdPath, 'skill/SKILL.md');
  });

  it('treats the name as case-sensitive, with a hint in the warning', async () => {
    const zip = await yazlZip([{ name: 'skill.md', data: SKILL }]);
    const result = await inspectPackage(bufferSource(zip));
    assert.equal(result.skillMdPath, null);
    assert.equal(result.warnings[0]?.code, 'skill_md_missing');
    assert.match(result.warnings[0].message, /skill\.md.*case-sensitive/);
  });

  it('refuses a SKILL.md over 1 MiB', async () => {
    const big = `${SKILL}\n${randomBytes(800 * 1024).toString('base64')}`;
    await assertRefused(
      inspectPackage(bufferSource(await yazlZip([{ name: 'SKILL.md', data: big }]))),
      422,
      'invalid_skill_md',
      'SKILL.md',
      /at most 1048576 bytes/,
    );
    await assertRefused(inspectPackage(bufferSource(await tarGz([{ name: 'SKILL.md', data: big }]))), 422, 'invalid_skill_md', 'SKILL.md');
  });

  it('refuses bad front matter, naming the field and the entry', async () => {
    const zip = await yazlZip([{ name: 'x/SKILL.md', data: '---\nname: x\n---\nbody\n' }]);
    const err = await assertRefused(inspectPackage(bufferSource(zip)), 422, 'invalid_skill_md', 'x/SKILL.md');
    assert.deepEqual(
      err.problems.map((p) => p.field),
      ['skill_md.description'],
    );
  });

  it('returns the SKILL.md warnings with the inspection', async () => {
    const gz = await tarGz([{ name: 'SKILL.md', data: skillMd('PDF Tools', 'd', 'version: 2\n') }]);
    const result = await inspectPackage(bufferSource(gz));
    assert.deepEqual(
      result.warnings.map((w) => w.code),
      ['skill_md_name', 'skill_md_unknown_key'],
    );
    assert.deepEqual(result.skillMd, { name: 'PDF Tools', description: 'd', version: 2 });
  });
});

describe('openPackageEntry', () => {
  const big = randomBytes(300_000);
  const files = [
    { name: 'SKILL.md', data: SKILL },
    { name: 'docs/guide.md', data: '# Guide\n' },
    { name: 'bin/blob.bin', data: big },
    { name: 'empty.txt', data: '' },
  ];

  it('streams files of a zip, stored or deflated', async () => {
    const zip = await yazlZip([...files, { name: 'stored.txt', data: 'as is', compress: false }, { name: 'docs/', directory: true }]);
    const source = bufferSource(zip);
    for (const f of [...files, { name: 'stored.txt', data: 'as is' }]) {
      const stream = await openPackageEntry(source, 'zip', f.name);
      assert.ok(stream, f.name);
      assert.deepEqual(await collect(stream), Buffer.from(f.data));
    }
    assert.equal(await openPackageEntry(source, 'zip', 'missing.txt'), null);
    assert.equal(await openPackageEntry(source, 'zip', 'docs'), null);
    assert.equal(await openPackageEntry(source, 'zip', 'docs/'), null);
    assert.equal(await openPackageEntry(source, 'zip', 'skill.md'), null);
  });

  it('streams files of a tar.gz, ./ prefixes matched by the listed path', async () => {
    const gz = await tarGz([{ name: './', type: 'directory' }, ...files.map((f) => ({ ...f, name: `./${f.name}` }))]);
    const source = bufferSource(gz);
    const listed = await inspectPackage(source);
    assert.deepEqual(
      listed.files.map((f) => f.path),
      ['SKILL.md', 'bin/blob.bin', 'docs/guide.md', 'empty.txt'],
    );
    for (const f of files) {
      const stream = await openPackageEntry(source, 'tar.gz', f.name);
      assert.ok(stream, f.name);
      assert.deepEqual(await collect(stream), Buffer.from(f.data));
    }
    assert.equal(await openPackageEntry(source, 'tar.gz', 'missing.txt'), null);
    assert.equal(await openPackageEntry(source, 'tar.gz', ''), null);
  });

  it('can be abandoned part way', async () => {
    const gz = await tarGz(files);
    const stream = await openPackageEntry(bufferSource(gz), 'tar.gz', 'bin/blob.bin');
    assert.ok(stream);
    for await (const chunk of stream) {
      assert.ok((chunk as Buffer).length > 0);
      break;
    }
    assert.ok(stream.destroyed);
    const zstream = await openPackageEntry(bufferSource(await yazlZip(files)), 'zip', 'bin/blob.bin');
    assert.ok(zstream);
    zstream.destroy();
  });
});

describe('source errors', () => {
  function failingSource(inner: RandomAccessSource, failAfter: number): { source: RandomAccessSource; error: Error } {
    const error = new Error('disk on fire');
    let reads = 0;
    return {
      error,
      source: {
        size: inner.size,
        read(range) {
          reads += 1;
          if (reads > failAfter) {
            return new Readable({
              read() {
                this.destroy(error);
              },
            });
          }
          return inner.read(range);
        },
      },
    };
  }

  it('passes storage errors through untouched instead of calling the archive invalid', async () => {
    const zip = await yazlZip([
      { name: 'SKILL.md', data: SKILL },
      { name: 'big.bin', data: randomBytes(1_500_000) },
    ]);
    const gz = await tarGz([{ name: 'SKILL.md', data: SKILL }]);
    for (const archive of [zip, gz]) {
      // Count the reads a clean inspection makes, then fail each one in turn.
      let reads = 0;
      const inner = bufferSource(archive);
      await inspectPackage({ size: inner.size, read: (range) => ((reads += 1), inner.read(range)) });
      assert.ok(reads >= 2);
      for (let failAfter = 0; failAfter < reads; failAfter++) {
        const { source, error } = failingSource(inner, failAfter);
        await assert.rejects(
          inspectPackage(source),
          (err) => err === error && !(err instanceof PackageError),
          `read ${failAfter + 1} of ${reads}`,
        );
      }
    }
  });
});
