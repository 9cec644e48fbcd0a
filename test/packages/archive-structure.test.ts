/**
 * Structural tricks that make extractors see other entries than a naive reader: each must be refused with a
 * 422 naming the entry at fault (or the archive, for end-record problems), and ordinary variants accepted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { assertRefused, bufferSource, skillMd, yazlZip } from './helpers.js';
import { HOSTILE_TARS, HOSTILE_ZIPS } from './hostile.js';
import { gz, header, padded, paxData, tar } from './tar-builder.js';
import { buildZip } from './zip-builder.js';

const SKILL = skillMd();

describe('zip structure: refused', () => {
  for (const h of HOSTILE_ZIPS) {
    it(`refuses ${h.name}`, async () => {
      if (h.status === 415)
        await assertRefused(inspectPackage(bufferSource(h.build())), 415, 'unsupported_media_type', undefined, h.detail);
      else await assertRefused(inspectPackage(bufferSource(h.build())), 422, 'invalid_archive', h.entry, h.detail);
    });
  }

  it('refuses a zip over the entry limit even when its end record under-states the count', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.txt`, data: 'x', method: 0 }));
    const zip = buildZip(entries, { entryCount: 1 });
    await assertRefused(inspectPackage(bufferSource(zip), { maxEntries: 10 }), 422, 'invalid_archive');
    const honest = buildZip(entries);
    await assertRefused(
      inspectPackage(bufferSource(honest), { maxEntries: 10 }),
      422,
      'invalid_archive',
      undefined,
      /30 entries, more than the limit of 10/,
    );
  });
});

describe('zip structure: accepted', () => {
  it('accepts a zip with an archive comment', async () => {
    const zip = buildZip([{ name: 'SKILL.md', data: SKILL }]);
    const comment = Buffer.from('made by hand');
    zip.writeUInt16LE(comment.length, zip.length - 2);
    const result = await inspectPackage(bufferSource(Buffer.concat([zip, comment])));
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['SKILL.md'],
    );
  });

  it('accepts data descriptors with and without their signature, and zip64 (yazl)', async () => {
    const result = await inspectPackage(
      bufferSource(
        buildZip([
          { name: 'SKILL.md', data: SKILL, dataDescriptor: true },
          { name: 'b.txt', data: 'b'.repeat(300), dataDescriptor: true },
        ]),
      ),
    );
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['SKILL.md', 'b.txt'],
    );
    const zip = buildZip([{ name: 'SKILL.md', data: SKILL, dataDescriptor: true }]);
    const cd = zip.readUInt32LE(zip.length - 22 + 16);
    // Drop the descriptor's signature: 12 bytes instead of 16.
    const unsigned = Buffer.concat([zip.subarray(0, cd - 16), zip.subarray(cd - 12)]);
    unsigned.writeUInt32LE(cd - 4, unsigned.length - 22 + 16);
    assert.deepEqual(
      (await inspectPackage(bufferSource(unsigned))).files.map((f) => f.path),
      ['SKILL.md'],
    );
    const z64 = await yazlZip(
      [
        { name: 'SKILL.md', data: SKILL },
        { name: 'a/b.txt', data: 'b' },
      ],
      { forceZip64Format: true },
    );
    assert.deepEqual(
      (await inspectPackage(bufferSource(z64))).files.map((f) => f.path),
      ['SKILL.md', 'a/b.txt'],
    );
  });
});

describe('tar.gz structure: refused', () => {
  for (const h of HOSTILE_TARS) {
    it(`refuses ${h.name}`, async () => {
      await assertRefused(inspectPackage(bufferSource(h.build())), 422, 'invalid_archive', h.entry, h.detail);
    });
  }
});

describe('tar.gz structure: accepted', () => {
  it('applies pax path and size, and GNU long names, to the entry that follows', async () => {
    const long = `${'d'.repeat(120)}/file.txt`;
    const bytes = gz(
      tar([
        { file: 'SKILL.md', data: SKILL },
        {
          pax: [
            ['path', 'renamed.txt'],
            ['mtime', '1700000000.5'],
            ['SCHILY.xattr.user.x', 'y'],
          ],
        },
        { file: 'original.txt', data: 'pax path' },
        { pax: [['size', '3']] },
        { raw: Buffer.concat([header({ name: 'sized.txt', size: 0 }), padded(Buffer.from('abc'))]) },
        { longName: long },
        { file: 'short', data: 'long name' },
      ]),
    );
    const result = await inspectPackage(bufferSource(bytes));
    assert.deepEqual(result.files, [
      { path: 'SKILL.md', size: Buffer.byteLength(SKILL), executable: false },
      { path: long, size: 9, executable: false },
      { path: 'renamed.txt', size: 8, executable: false },
      { path: 'sized.txt', size: 3, executable: false },
    ]);
  });

  it('accepts GNU and v7 headers, record padding after the end, a missing end, and a gzip file name', async () => {
    const gnu = tar([
      { file: 'SKILL.md', data: SKILL, fields: { format: 'gnu' } },
      { file: 'v7.txt', data: 'v7', fields: { format: 'v7' } },
    ]);
    const record = Buffer.concat([gnu, Buffer.alloc(10240 - (gnu.length % 10240))]);
    assert.deepEqual(
      (await inspectPackage(bufferSource(gzipSync(record)))).files.map((f) => f.path),
      ['SKILL.md', 'v7.txt'],
    );
    await assertRefused(
      inspectPackage(bufferSource(gzipSync(Buffer.concat([tar([{ file: 'SKILL.md', data: SKILL }], false), Buffer.alloc(512)])))),
      422,
      'invalid_archive',
      undefined,
      /lone zero block/,
    );
    const noEnd = tar([{ file: 'SKILL.md', data: SKILL }], false);
    assert.deepEqual(
      (await inspectPackage(bufferSource(gzipSync(noEnd)))).files.map((f) => f.path),
      ['SKILL.md'],
    );
    const named = Buffer.from(gzipSync(tar([{ file: 'SKILL.md', data: SKILL }])));
    // FNAME: "pkg.tar\0" after the fixed header.
    const withName = Buffer.concat([
      named.subarray(0, 3),
      Buffer.from([0x08]),
      named.subarray(4, 10),
      Buffer.from('pkg.tar\0'),
      named.subarray(10),
    ]);
    assert.deepEqual(
      (await inspectPackage(bufferSource(withName))).files.map((f) => f.path),
      ['SKILL.md'],
    );
    assert.ok(paxData([['a', 'b']]).length > 0);
  });
});
