import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Version } from '@skill-registry/api-schemas/versions';
import {
  ARCHIVE_EXTENSIONS,
  ARCHIVE_FILE_SUFFIXES,
  ARCHIVE_FORMATS,
  ARCHIVE_MEDIA_TYPES,
  detectArchiveFormat,
  FORMAT_SNIFF_BYTES,
  isArchiveFormat,
} from '@skill-registry/skill-package/format';
import { detectFormat } from '@skill-registry/skill-package/inspect';
import { PackageError } from '@skill-registry/skill-package/types';
import { skillMd, tarGz, zip as zipOf } from '../helpers/archives.js';
import { bufferSource } from './helpers.js';

describe('archive formats', () => {
  it('recognises each format by its first bytes, whatever follows', async () => {
    const zip = await zipOf([{ path: 'SKILL.md', content: skillMd() }]);
    const targz = await tarGz([{ path: 'SKILL.md', content: skillMd() }]);
    const emptyZip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
    assert.equal(detectArchiveFormat(zip), 'zip');
    assert.equal(detectArchiveFormat(emptyZip), 'zip');
    assert.equal(detectArchiveFormat(targz), 'tar.gz');
    // Only the leading bytes are needed.
    assert.equal(detectArchiveFormat(zip.subarray(0, FORMAT_SNIFF_BYTES)), 'zip');
    assert.equal(detectArchiveFormat(targz.subarray(0, FORMAT_SNIFF_BYTES)), 'tar.gz');
    assert.equal(detectArchiveFormat(new Uint8Array(targz.subarray(0, 3))), 'tar.gz');
  });

  it('answers null for anything else, short heads included', () => {
    const refused: [string, Uint8Array][] = [
      ['nothing', new Uint8Array()],
      ['a cut zip signature', Buffer.from('PK\x03')],
      ['a central directory header', Buffer.from('PK\x01\x02')],
      ['a spanned zip marker', Buffer.from('PK\x07\x08')],
      ['gzip without deflate', Buffer.from([0x1f, 0x8b, 0x00, 0x00])],
      ['two bytes of gzip', Buffer.from([0x1f, 0x8b])],
      ['a plain tar', Buffer.from('SKILL.md\0\0\0\0')],
      ['text', Buffer.from('hello')],
    ];
    for (const [name, head] of refused) assert.equal(detectArchiveFormat(head), null, name);
  });

  it('is the detector inspection uses: the same answer, and a 415 where it has none', async () => {
    for (const bytes of [
      await zipOf([{ path: 'SKILL.md', content: skillMd() }]),
      await tarGz([{ path: 'SKILL.md', content: skillMd() }]),
    ]) {
      assert.equal(await detectFormat(bufferSource(bytes)), detectArchiveFormat(bytes));
    }
    const bzip2 = Buffer.from('BZh91AY&SY');
    await assert.rejects(detectFormat(bufferSource(bzip2)), (error: unknown) => error instanceof PackageError && error.status === 415);
    await assert.rejects(
      detectFormat(bufferSource(gzipSync(Buffer.from('x')).subarray(0, 2))),
      (error: unknown) => error instanceof PackageError && error.status === 415,
    );
  });

  it('names a media type, an extension and file-picker suffixes for every format, and the API lists the same formats', () => {
    assert.deepEqual(ARCHIVE_FORMATS, ['zip', 'tar.gz']);
    for (const format of ARCHIVE_FORMATS) {
      assert.ok(isArchiveFormat(format));
      assert.match(ARCHIVE_MEDIA_TYPES[format], /^application\//);
      assert.ok(ARCHIVE_FILE_SUFFIXES[format].includes(`.${ARCHIVE_EXTENSIONS[format]}`));
    }
    assert.equal(isArchiveFormat('tgz'), false);
    assert.deepEqual(Version.properties.archive_format.enum, [...ARCHIVE_FORMATS]);
  });
});
