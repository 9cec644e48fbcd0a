import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { assertRefused, bufferSource, rawTar, skillMd, tarBytes, tarGz, tarHeader, type TarInput } from './helpers.js';

const SKILL = skillMd();

async function inspectTar(entries: TarInput[]) {
  return inspectPackage(bufferSource(await tarGz(entries)));
}

describe('tar.gz: accepted packages', () => {
  it('lists files sorted by path with real sizes, directories not listed', async () => {
    const result = await inspectTar([
      { name: 'scripts', type: 'directory' },
      { name: 'scripts/run.py', data: 'print("hi")\n' },
      { name: 'SKILL.md', data: SKILL },
      { name: 'README.md', data: 'x'.repeat(5000) },
      { name: 'empty.txt', data: '' },
      { name: 'old.bin', data: Buffer.alloc(700, 1), type: 'contiguous-file' },
    ]);
    assert.equal(result.format, 'tar.gz');
    assert.deepEqual(result.files, [
      { path: 'README.md', size: 5000, executable: false },
      { path: 'SKILL.md', size: Buffer.byteLength(SKILL), executable: false },
      { path: 'empty.txt', size: 0, executable: false },
      { path: 'old.bin', size: 700, executable: false },
      { path: 'scripts/run.py', size: 12, executable: false },
    ]);
    assert.equal(result.skillMdPath, 'SKILL.md');
    assert.deepEqual(result.skillMd, { name: 'pdf-tools', description: 'Extract text from PDF files.' });
    assert.deepEqual(result.warnings, []);
  });

  it('accepts what `tar -czf x.tgz -C dir .` writes: ./ entries', async () => {
    const result = await inspectTar([
      { name: './', type: 'directory' },
      { name: './SKILL.md', data: SKILL },
      { name: './lib/', type: 'directory' },
      { name: './lib/a.js', data: 'a' },
    ]);
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['SKILL.md', 'lib/a.js'],
    );
    assert.equal(result.skillMdPath, 'SKILL.md');
  });

  it('finds SKILL.md inside a single top-level folder', async () => {
    const result = await inspectTar([
      { name: 'pdf-tools/', type: 'directory' },
      { name: 'pdf-tools/SKILL.md', data: SKILL },
      { name: 'pdf-tools/x.txt', data: 'x' },
    ]);
    assert.equal(result.skillMdPath, 'pdf-tools/SKILL.md');
  });

  it('accepts long names (pax / ustar prefix) and UTF-8 names', async () => {
    const long = `${'d'.repeat(80)}/${'e'.repeat(80)}/file-with-a-rather-long-name.txt`;
    const result = await inspectTar([
      { name: long, data: 'x' },
      { name: 'caf\u00e9/\u65e5\u672c.md', data: 'y' },
    ]);
    assert.deepEqual(result.files.map((f) => f.path).sort(), [long, 'caf\u00e9/\u65e5\u672c.md'].sort());
  });

  it('accepts an empty tar with the skill_md_missing warning', async () => {
    const result = await inspectPackage(bufferSource(gzipSync(Buffer.alloc(1024))));
    assert.deepEqual(result.files, []);
    assert.deepEqual(
      result.warnings.map((w) => w.code),
      ['skill_md_missing'],
    );
  });

  it('accepts old v7 headers (no ustar magic, valid checksum)', async () => {
    const tar = rawTar([{ header: tarHeader({ name: 'a.txt', size: 3, magic: false }), data: Buffer.from('abc') }]);
    const result = await inspectPackage(bufferSource(gzipSync(tar)));
    assert.deepEqual(result.files, [{ path: 'a.txt', size: 3, executable: false }]);
  });
});

describe('tar.gz: refused entries', () => {
  const special: [TarInput, RegExp][] = [
    [{ name: 'link', type: 'symlink', linkname: '/etc/passwd' }, /symbolic link/],
    [{ name: 'hard', type: 'link', linkname: 'SKILL.md' }, /hard link/],
    [{ name: 'tty', type: 'character-device' }, /device/],
    [{ name: 'disk', type: 'block-device' }, /device/],
    [{ name: 'pipe', type: 'fifo' }, /FIFO/],
  ];
  for (const [entry, pattern] of special) {
    it(`refuses ${entry.type} entries`, async () => {
      await assertRefused(inspectTar([{ name: 'SKILL.md', data: SKILL }, entry]), 422, 'invalid_archive', entry.name, pattern);
    });
  }

  it('refuses unknown entry types (GNU sparse)', async () => {
    const tar = rawTar([{ header: tarHeader({ name: 'sparse.bin', typeflag: 'S' }) }]);
    await assertRefused(inspectPackage(bufferSource(gzipSync(tar))), 422, 'invalid_archive', 'sparse.bin', /unsupported tar entry type/);
  });

  const names: [string, RegExp][] = [
    ['/etc/passwd', /absolute/],
    ['../evil.sh', /"\.\." segment/],
    ['a/../../evil.sh', /"\.\." segment/],
    ['a\\b.txt', /backslash/],
    ['C:/evil.txt', /drive letter/],
    ['a//b.txt', /empty segment/],
    ['a\u0001b', /control character/],
  ];
  for (const [name, pattern] of names) {
    it(`refuses the name ${JSON.stringify(name)}`, async () => {
      await assertRefused(inspectTar([{ name, data: 'x' }]), 422, 'invalid_archive', name, pattern);
    });
  }

  it('refuses names that are not valid UTF-8', async () => {
    const raw = Buffer.from([0x61, 0xff, 0x2e, 0x74, 0x78, 0x74]);
    const tar = rawTar([{ header: tarHeader({ name: raw, size: 1 }), data: Buffer.from('x') }]);
    const err = await assertRefused(inspectPackage(bufferSource(gzipSync(tar))), 422, 'invalid_archive', undefined, /not valid UTF-8/);
    assert.equal(err.problems[0]?.entry, 'a\uFFFD.txt');
  });

  it('refuses duplicate paths', async () => {
    await assertRefused(
      inspectTar([
        { name: 'a.txt', data: '1' },
        { name: 'a.txt', data: '2' },
      ]),
      422,
      'invalid_archive',
      'a.txt',
      /twice/,
    );
  });

  it('refuses paths that differ only in letter case', async () => {
    await assertRefused(
      inspectTar([
        { name: 'Docs/A.md', data: '1' },
        { name: 'docs/a.md', data: '2' },
      ]),
      422,
      'invalid_archive',
      'docs/a.md',
      /collides/,
    );
  });

  it('refuses a file and a directory with the same path', async () => {
    await assertRefused(
      inspectTar([
        { name: 'a', data: '1' },
        { name: 'a/b', data: '2' },
      ]),
      422,
      'invalid_archive',
      'a/b',
      /which is a file/,
    );
    await assertRefused(
      inspectTar([
        { name: 'a', type: 'directory' },
        { name: 'a', data: '2' },
      ]),
      422,
      'invalid_archive',
      'a',
      /also a directory/,
    );
  });

  it('refuses directory entries with content', async () => {
    const tar = rawTar([{ header: tarHeader({ name: 'dir/', typeflag: '5', size: 5 }), data: Buffer.from('hello') }]);
    await assertRefused(inspectPackage(bufferSource(gzipSync(tar))), 422, 'invalid_archive', 'dir/', /directory entry with content/);
  });

  it('refuses a tar whose data is cut short (declared size larger than the data)', async () => {
    const full = rawTar([{ header: tarHeader({ name: 'big.txt', size: 4000 }), data: Buffer.alloc(4000, 0x61) }]);
    await assertRefused(
      inspectPackage(bufferSource(gzipSync(full.subarray(0, 2048)))),
      422,
      'invalid_archive',
      'big.txt',
      /corrupt or truncated/,
    );
  });

  it('refuses a truncated gzip stream', async () => {
    const gz = await tarGz([
      { name: 'SKILL.md', data: SKILL },
      { name: 'x.bin', data: Buffer.alloc(50_000, 3) },
    ]);
    await assertRefused(inspectPackage(bufferSource(gz.subarray(0, gz.length - 8))), 422, 'invalid_archive', undefined, /gzip|tar/);
  });

  it('refuses a corrupt gzip stream', async () => {
    const gz = await tarGz([{ name: 'SKILL.md', data: SKILL }]);
    const bad = Buffer.from(gz);
    for (let i = 20; i < bad.length - 8; i++) bad[i] = (bad[i] ?? 0) ^ 0x5a;
    await assertRefused(inspectPackage(bufferSource(bad)), 422, 'invalid_archive');
  });

  it('refuses a later header with a bad checksum', async () => {
    const tar = await tarBytes([
      { name: 'a.txt', data: 'a' },
      { name: 'b.txt', data: 'b' },
    ]);
    tar[1024 + 10] = 0x7a; // second header's name, checksum not updated
    await assertRefused(inspectPackage(bufferSource(gzipSync(tar))), 422, 'invalid_archive', undefined, /corrupt/);
  });

  it('refuses a gzip whose first block announces ustar but fails its checksum (a broken tar, 422)', async () => {
    const header = tarHeader({ name: 'a.txt' });
    header[0] = 0x62;
    await assertRefused(inspectPackage(bufferSource(gzipSync(Buffer.concat([header, Buffer.alloc(1024)])))), 422, 'invalid_archive');
  });
});
