import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { assertRefused, bufferSource, skillMd, yazlZip } from './helpers.js';
import { buildZip, storedLocalEntry, unicodePathExtra, unixMode, zip64LocalExtra, type RawEntry } from './zip-builder.js';

const SKILL = skillMd();

function inspectZip(entries: RawEntry[]) {
  return inspectPackage(bufferSource(buildZip(entries)));
}

describe('zip: accepted packages', () => {
  it('lists files sorted by path with real sizes, directories not listed', async () => {
    const zip = await yazlZip([
      { name: 'scripts/', directory: true },
      { name: 'scripts/run.py', data: 'print("hi")\n' },
      { name: 'SKILL.md', data: SKILL },
      { name: 'README.md', data: 'x'.repeat(5000) },
      { name: 'assets/logo.bin', data: Buffer.alloc(300, 7), compress: false },
      { name: 'B.txt', data: '' },
    ]);
    const result = await inspectPackage(bufferSource(zip));
    assert.equal(result.format, 'zip');
    assert.deepEqual(result.files, [
      { path: 'B.txt', size: 0, executable: false },
      { path: 'README.md', size: 5000, executable: false },
      { path: 'SKILL.md', size: Buffer.byteLength(SKILL), executable: false },
      { path: 'assets/logo.bin', size: 300, executable: false },
      { path: 'scripts/run.py', size: 12, executable: false },
    ]);
    assert.equal(result.skillMdPath, 'SKILL.md');
    assert.deepEqual(result.skillMd, { name: 'pdf-tools', description: 'Extract text from PDF files.' });
    assert.deepEqual(result.warnings, []);
  });

  it('finds SKILL.md inside a single top-level folder', async () => {
    const zip = await yazlZip([
      { name: 'pdf-tools/', directory: true },
      { name: 'pdf-tools/SKILL.md', data: SKILL },
      { name: 'pdf-tools/lib/x.js', data: '1' },
    ]);
    const result = await inspectPackage(bufferSource(zip));
    assert.equal(result.skillMdPath, 'pdf-tools/SKILL.md');
    assert.equal(result.skillMd?.name, 'pdf-tools');
  });

  it('strips a leading ./ and accepts ./ as the root directory entry', async () => {
    const result = await inspectZip([
      { name: './' },
      { name: './SKILL.md', data: SKILL },
      { name: './docs/', data: '' },
      { name: './docs/a.md', data: 'a' },
    ]);
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['SKILL.md', 'docs/a.md'],
    );
    assert.equal(result.skillMdPath, 'SKILL.md');
  });

  it('accepts hand-built zips: stored, deflated, data descriptors, ASCII names without the UTF-8 flag', async () => {
    const result = await inspectZip([
      { name: 'SKILL.md', data: SKILL, flags: 0 },
      { name: 'stored.txt', data: 'stored', method: 0 },
      { name: 'dd.txt', data: 'with a data descriptor '.repeat(50), dataDescriptor: true },
      { name: 'caf\u00e9.txt', data: 'utf-8 name' },
    ]);
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['SKILL.md', 'caf\u00e9.txt', 'dd.txt', 'stored.txt'],
    );
    assert.equal(result.files.find((f) => f.path === 'dd.txt')?.size, 'with a data descriptor '.repeat(50).length);
  });

  it('accepts zip64 archives (sizes in the zip64 extra fields)', async () => {
    const zip = await yazlZip(
      [
        { name: 'SKILL.md', data: SKILL },
        { name: 'a.txt', data: 'aaaa' },
      ],
      { forceZip64Format: true },
    );
    const result = await inspectPackage(bufferSource(zip));
    assert.deepEqual(result.files, [
      { path: 'SKILL.md', size: Buffer.byteLength(SKILL), executable: false },
      { path: 'a.txt', size: 4, executable: false },
    ]);
  });

  it('accepts zip64 local headers whose sizes live in the zip64 extra field', async () => {
    const data = Buffer.from('zip64 local header '.repeat(20));
    const compressed = deflateRawSync(data).length;
    const result = await inspectZip([
      {
        name: 'z.txt',
        data,
        local: { compressedSize: 0xffffffff, uncompressedSize: 0xffffffff, extra: zip64LocalExtra(data.length, compressed) },
      },
    ]);
    assert.deepEqual(result.files, [{ path: 'z.txt', size: data.length, executable: false }]);
  });

  it('accepts the empty zip (end record only) with the skill_md_missing warning', async () => {
    const empty = Buffer.alloc(22);
    empty.writeUInt32LE(0x06054b50, 0);
    const result = await inspectPackage(bufferSource(empty));
    assert.deepEqual(result.files, []);
    assert.equal(result.skillMdPath, null);
    assert.deepEqual(
      result.warnings.map((w) => w.code),
      ['skill_md_missing'],
    );
  });

  it('accepts a Unicode Path extra field in a local header that agrees with the name', async () => {
    const raw = Buffer.from('notes.txt');
    const result = await inspectZip([{ name: raw, data: 'n', flags: 0, local: { extra: unicodePathExtra(raw, 'notes.txt') } }]);
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['notes.txt'],
    );
  });

  it('refuses a Unicode Path extra field in the central directory, even one that agrees (unzip mishandles it)', async () => {
    const raw = Buffer.from('notes.txt');
    await assertRefused(
      inspectZip([{ name: raw, data: 'n', flags: 0, central: { extra: unicodePathExtra(raw, 'notes.txt') } }]),
      422,
      'invalid_archive',
      'notes.txt',
      /Unicode Path/,
    );
  });

  it('refuses non-ASCII names made by FAT, HPFS or NTFS hosts (unzip reads them in a DOS code page)', async () => {
    for (const host of [0, 6, 11]) {
      await assertRefused(
        inspectZip([{ name: 'caf\u00e9.txt', data: 'x', versionMadeBy: (host << 8) | 20, externalAttributes: 0 }]),
        422,
        'invalid_archive',
        'caf\u00e9.txt',
        /code page/,
      );
    }
    const result = await inspectZip([
      { name: 'caf\u00e9.txt', data: 'x', versionMadeBy: (3 << 8) | 20 },
      { name: 'plain.txt', data: 'y', versionMadeBy: 20, externalAttributes: 0 },
    ]);
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['caf\u00e9.txt', 'plain.txt'],
    );
  });

  it('refuses a file entry named "." (extractors write it as a file over the folder)', async () => {
    await assertRefused(
      inspectZip([
        { name: 'SKILL.md', data: SKILL },
        { name: '.', data: '', method: 0 },
      ]),
      422,
      'invalid_archive',
      '.',
      /archive root/,
    );
  });
});

describe('zip: refused names', () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['absolute paths', '/etc/passwd', /absolute/],
    ['.. segments', 'a/../../evil.sh', /"\.\." segment/],
    ['.. at the start', '../evil.sh', /"\.\." segment/],
    ['backslashes', 'a\\b.txt', /backslash/],
    ['drive letters', 'C:/x.txt', /drive letter/],
    ['empty segments', 'a//b.txt', /empty segment/],
    ['. segments', 'a/./b.txt', /"\." segment/],
    ['NUL characters', 'a\u0000b.txt', /control character/],
    ['control characters', 'a\u001bb.txt', /control character/],
  ];
  for (const [what, name, pattern] of cases) {
    it(`refuses ${what}`, async () => {
      const label = typeof name === 'string' ? name : name.toString('utf8');
      await assertRefused(
        inspectZip([
          { name: 'SKILL.md', data: SKILL },
          { name, data: 'x' },
        ]),
        422,
        'invalid_archive',
        label,
        pattern,
      );
    });
  }

  it('refuses non-ASCII names without the UTF-8 flag (CP437)', async () => {
    const raw = Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]); // "caf\x82.txt", é in CP437
    const err = await assertRefused(inspectZip([{ name: raw, data: 'x', flags: 0 }]), 422, 'invalid_archive', undefined, /not UTF-8/);
    assert.equal(err.problems[0]?.entry, raw.toString('utf8'));
  });

  it('refuses names flagged UTF-8 that are not valid UTF-8', async () => {
    const raw = Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x6d, 0x64]);
    const err = await assertRefused(inspectZip([{ name: raw, data: 'x' }]), 422, 'invalid_archive', undefined, /not valid UTF-8/);
    assert.equal(err.problems[0]?.entry, raw.toString('utf8'));
  });

  it('refuses a Unicode Path extra field that names another path', async () => {
    const raw = Buffer.from('innocent.txt');
    await assertRefused(
      inspectZip([{ name: raw, data: 'x', flags: 0, central: { extra: unicodePathExtra(raw, '../evil.txt') } }]),
      422,
      'invalid_archive',
      'innocent.txt',
      /Unicode Path/,
    );
  });

  it('refuses duplicate paths', async () => {
    await assertRefused(
      inspectZip([
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
      inspectZip([
        { name: 'README.md', data: '1' },
        { name: 'readme.md', data: '2' },
      ]),
      422,
      'invalid_archive',
      'readme.md',
      /collides/,
    );
  });

  it('refuses paths that differ only in Unicode normalisation', async () => {
    await assertRefused(
      inspectZip([
        { name: 'caf\u00e9.md', data: '1' },
        { name: 'cafe\u0301.md', data: '2' },
      ]),
      422,
      'invalid_archive',
      'cafe\u0301.md',
      /collides/,
    );
  });

  it('refuses names that case-insensitive file systems write to one file (ß and SS, zero-width marks, trailing dots)', async () => {
    await assertRefused(
      inspectZip([
        { name: 'STRASSE.md', data: '1' },
        { name: 'stra\u00dfe.md', data: '2' },
      ]),
      422,
      'invalid_archive',
      'stra\u00dfe.md',
      /collides/,
    );
    await assertRefused(
      inspectZip([
        { name: 'SKILL.md', data: '1' },
        { name: 'SKILL\u200c.md', data: '2' },
      ]),
      422,
      'invalid_archive',
      'SKILL\u200c.md',
      /collides/,
    );
    await assertRefused(
      inspectZip([
        { name: 'run.sh', data: '1' },
        { name: 'run.sh.', data: '2' },
      ]),
      422,
      'invalid_archive',
      'run.sh.',
      /collides/,
    );
  });

  it('refuses a duplicate after stripping ./', async () => {
    await assertRefused(
      inspectZip([
        { name: 'a.txt', data: '1' },
        { name: './a.txt', data: '2' },
      ]),
      422,
      'invalid_archive',
      './a.txt',
    );
  });

  it('refuses a file and a directory with the same path (file first)', async () => {
    await assertRefused(
      inspectZip([
        { name: 'a', data: '1' },
        { name: 'a/b', data: '2' },
      ]),
      422,
      'invalid_archive',
      'a/b',
      /under "a", which is a file/,
    );
  });

  it('refuses a file and a directory with the same path (directory first)', async () => {
    await assertRefused(
      inspectZip([
        { name: 'a/b', data: '1' },
        { name: 'A', data: '2' },
      ]),
      422,
      'invalid_archive',
      'A',
      /also a directory/,
    );
  });

  it('refuses a directory entry with the path of a file', async () => {
    await assertRefused(inspectZip([{ name: 'a', data: '1' }, { name: 'a/' }]), 422, 'invalid_archive', 'a/');
  });
});

describe('zip: refused entries', () => {
  it('refuses encrypted entries', async () => {
    await assertRefused(inspectZip([{ name: 'secret.txt', data: 'x', flags: 0x801 }]), 422, 'invalid_archive', 'secret.txt', /encrypted/);
  });

  for (const method of [12, 14, 9, 93]) {
    it(`refuses compression method ${method}`, async () => {
      await assertRefused(
        inspectZip([{ name: 'data.bin', data: 'x', method, rawData: Buffer.from('garbage') }]),
        422,
        'invalid_archive',
        'data.bin',
        new RegExp(`method ${method}`),
      );
    });
  }

  it('refuses symlinks (unix mode S_IFLNK)', async () => {
    await assertRefused(
      inspectZip([{ name: 'link', data: '/etc/passwd', method: 0, externalAttributes: unixMode(0o120777) }]),
      422,
      'invalid_archive',
      'link',
      /symbolic link/,
    );
  });

  it('refuses symlinks made on OS X (host 19)', async () => {
    await assertRefused(
      inspectZip([{ name: 'link', data: '/etc', method: 0, versionMadeBy: (19 << 8) | 20, externalAttributes: unixMode(0o120755) }]),
      422,
      'invalid_archive',
      'link',
      /symbolic link/,
    );
  });

  for (const [what, mode] of [
    ['FIFOs', 0o010644],
    ['character devices', 0o020644],
    ['block devices', 0o060644],
    ['sockets', 0o140644],
  ] as const) {
    it(`refuses ${what}`, async () => {
      await assertRefused(
        inspectZip([{ name: 'dev', data: '', externalAttributes: unixMode(mode) }]),
        422,
        'invalid_archive',
        'dev',
        /special file/,
      );
    });
  }

  for (const host of [0, 1, 2, 5, 6, 10, 11, 13, 14, 16, 18, 19, 30]) {
    it(`refuses a symlink mode in the attributes whatever the made-by host says (host ${host})`, async () => {
      await assertRefused(
        inspectZip([
          { name: 'a.txt', data: '/etc/passwd', method: 0, versionMadeBy: (host << 8) | 20, externalAttributes: unixMode(0o120777) },
        ]),
        422,
        'invalid_archive',
        'a.txt',
        /symbolic link/,
      );
    });
  }

  it('refuses the MS-DOS volume-label attribute and the directory attribute on a file name', async () => {
    await assertRefused(
      inspectZip([{ name: 'label', data: '', versionMadeBy: 20, externalAttributes: 0x08 }]),
      422,
      'invalid_archive',
      'label',
      /volume label/,
    );
    await assertRefused(
      inspectZip([{ name: 'dir', data: '', versionMadeBy: 20, externalAttributes: 0x10 }]),
      422,
      'invalid_archive',
      'dir',
      /directory/,
    );
  });

  it('refuses directory attributes on a name without a trailing slash', async () => {
    await assertRefused(
      inspectZip([{ name: 'dir', data: '', externalAttributes: unixMode(0o040755) }]),
      422,
      'invalid_archive',
      'dir',
      /directory/,
    );
  });

  it('refuses directory entries with content', async () => {
    await assertRefused(
      inspectZip([{ name: 'dir/', data: 'hidden', method: 0 }]),
      422,
      'invalid_archive',
      'dir/',
      /directory entry with content/,
    );
  });
});

describe('zip: lying sizes and headers', () => {
  const content = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(200));

  it('refuses an entry that inflates past its declared size', async () => {
    await assertRefused(
      inspectZip([{ name: 'liar.txt', data: content, central: { uncompressedSize: 100 }, local: { uncompressedSize: 100 } }]),
      422,
      'invalid_archive',
      'liar.txt',
      /more than the 100 bytes/,
    );
  });

  it('refuses an entry that holds fewer bytes than declared', async () => {
    await assertRefused(
      inspectZip([
        {
          name: 'short.txt',
          data: content,
          central: { uncompressedSize: content.length + 10 },
          local: { uncompressedSize: content.length + 10 },
        },
      ]),
      422,
      'invalid_archive',
      'short.txt',
      /holds \d+ bytes but declares/,
    );
  });

  it('refuses a stored entry whose sizes differ', async () => {
    await assertRefused(
      inspectZip([{ name: 'stored.txt', data: 'abcdef', method: 0, central: { uncompressedSize: 3 }, local: { uncompressedSize: 3 } }]),
      422,
      'invalid_archive',
      'stored.txt',
      /stored uncompressed/,
    );
  });

  it('refuses data that does not match its CRC-32', async () => {
    await assertRefused(
      inspectZip([{ name: 'crc.txt', data: 'abc', central: { crc: 1234 }, local: { crc: 1234 } }]),
      422,
      'invalid_archive',
      'crc.txt',
      /CRC-32/,
    );
  });

  it('refuses corrupt deflate data', async () => {
    await assertRefused(
      inspectZip([{ name: 'bad.txt', data: 'abc', method: 8, rawData: Buffer.from([0xff, 0xff, 0xff, 0xff]) }]),
      422,
      'invalid_archive',
      'bad.txt',
      /corrupt/,
    );
  });

  it('refuses a local header whose name differs from the central directory', async () => {
    await assertRefused(
      inspectZip([{ name: 'safe.txt', data: 'x', local: { name: '../x.txt' } }]),
      422,
      'invalid_archive',
      'safe.txt',
      /local header disagrees .*file name/,
    );
  });

  it('refuses a local header whose compression method differs', async () => {
    await assertRefused(
      inspectZip([{ name: 'm.txt', data: 'xyz', method: 0, local: { method: 8 } }]),
      422,
      'invalid_archive',
      'm.txt',
      /local header disagrees .*compression method/,
    );
  });

  it('refuses a local header whose sizes or CRC differ', async () => {
    await assertRefused(
      inspectZip([{ name: 's.txt', data: content, local: { uncompressedSize: 5, crc: 7 } }]),
      422,
      'invalid_archive',
      's.txt',
      /local header disagrees .*CRC-32.*uncompressed size/,
    );
  });

  it('refuses a zip64 local header whose sizes differ or are missing', async () => {
    const data = Buffer.from('zip64 local header '.repeat(20));
    const compressed = deflateRawSync(data).length;
    await assertRefused(
      inspectZip([
        {
          name: 'z.txt',
          data,
          local: { compressedSize: 0xffffffff, uncompressedSize: 0xffffffff, extra: zip64LocalExtra(data.length + 1, compressed) },
        },
      ]),
      422,
      'invalid_archive',
      'z.txt',
      /uncompressed size/,
    );
    await assertRefused(
      inspectZip([{ name: 'z.txt', data, local: { compressedSize: 0xffffffff, uncompressedSize: 0xffffffff } }]),
      422,
      'invalid_archive',
      'z.txt',
      /zip64 sizes/,
    );
  });

  it('refuses a local header whose encryption flag differs', async () => {
    await assertRefused(
      inspectZip([{ name: 'e.txt', data: 'x', local: { flags: 0x801 } }]),
      422,
      'invalid_archive',
      'e.txt',
      /encryption flag/,
    );
  });

  it('refuses entries whose data overlap (overlapping-entry bombs)', async () => {
    await assertRefused(
      inspectZip([
        { name: 'a.txt', data: 'aaaa' },
        { name: 'b.txt', data: 'aaaa', shareLocalHeaderWith: 0 },
      ]),
      422,
      'invalid_archive',
      'b.txt',
      /local header disagrees|overlaps/,
    );
  });

  it('refuses an entry whose local header lies inside the data of another entry', async () => {
    const hidden = storedLocalEntry('b.txt', Buffer.from('bbbb'));
    await assertRefused(
      inspectZip([
        { name: 'a.txt', data: hidden, method: 0 },
        { name: 'b.txt', data: 'bbbb', method: 0, localHeaderAt: 30 + 'a.txt'.length },
      ]),
      422,
      'invalid_archive',
      'b.txt',
      /overlaps the entry "a.txt"/,
    );
  });

  it('refuses a truncated zip', async () => {
    const zip = await yazlZip([
      { name: 'SKILL.md', data: SKILL },
      { name: 'big.txt', data: content },
    ]);
    await assertRefused(inspectPackage(bufferSource(zip.subarray(0, zip.length - 30))), 422, 'invalid_archive');
    await assertRefused(inspectPackage(bufferSource(zip.subarray(0, 100))), 422, 'invalid_archive');
  });

  it('refuses a central directory cut short', async () => {
    await assertRefused(
      inspectPackage(
        bufferSource(
          buildZip(
            [
              { name: 'a.txt', data: 'a' },
              { name: 'b.txt', data: 'b' },
            ],
            { truncateCentral: true },
          ),
        ),
      ),
      422,
      'invalid_archive',
    );
  });

  it('refuses an end record that promises more entries than there are (naming no entry)', async () => {
    const err = await assertRefused(
      inspectPackage(bufferSource(buildZip([{ name: 'a.txt', data: 'a' }], { entryCount: 3 }))),
      422,
      'invalid_archive',
    );
    assert.equal(err.problems[0]?.entry, undefined);
  });

  it('refuses a central record pointing at no local header', async () => {
    await assertRefused(
      inspectZip([
        { name: 'a.txt', data: 'aaaaaaaaaa', method: 0 },
        { name: 'b.txt', data: 'b', method: 0, localHeaderAt: 3 },
      ]),
      422,
      'invalid_archive',
      'b.txt',
      /overlaps|no local header/,
    );
  });

  it('refuses a deflated entry whose compressed size is cut short', async () => {
    const deflated = deflateRawSync(content);
    await assertRefused(
      inspectZip([{ name: 'cut.txt', data: content, rawData: deflated.subarray(0, 20) }]),
      422,
      'invalid_archive',
      'cut.txt',
    );
  });
});
