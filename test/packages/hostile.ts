/**
 * Hostile archives that real extractors (unzip, GNU tar, Python's zipfile and tarfile) read differently from
 * a naive reader: structural tricks in zips (end records, gaps, prefixes, zip64) and in tar.gz (pax global
 * headers, pax keys, long names, numeric fields, trailing data, gzip members). Each carries the refusal the
 * registry gives. Shared by the unit tests, the HTTP refusal rows and the differential test.
 */
import { deflateRawSync, gzipSync } from 'node:zlib';
import { crc32 } from '@skill-registry/skill-package/crc32';
import { skillMd } from './helpers.js';
import { gz, header, padded, tar } from './tar-builder.js';
import { buildZip, localEntry, unicodePathExtra, unixMode, type RawEntry } from './zip-builder.js';

const SKILL = skillMd();

export interface Hostile {
  name: string;
  build: () => Buffer;
  /** 422 invalid_archive unless this says 415 (not a zip or tar.gz at all). */
  status?: 415;
  /** The entry the refusal names, when it names one. */
  entry?: string;
  detail: RegExp;
}

/** Offset of the end record in bytes buildZip wrote (no comment). */
function eocdAt(zip: Buffer): number {
  return zip.length - 22;
}

function centralOffset(zip: Buffer): number {
  return zip.readUInt32LE(eocdAt(zip) + 16);
}

function setCount(zip: Buffer, count: number): Buffer {
  const out = Buffer.from(zip);
  out.writeUInt16LE(count, eocdAt(out) + 8);
  out.writeUInt16LE(count, eocdAt(out) + 10);
  return out;
}

/** Inserts `bytes` at `at`, moving every offset at or after it (central record offsets, the CD offset). */
function insertAt(zip: Buffer, at: number, bytes: Buffer): Buffer {
  const cd = centralOffset(zip);
  const eocd = eocdAt(zip);
  const out = Buffer.concat([zip.subarray(0, at), bytes, zip.subarray(at)]);
  const shift = bytes.length;
  let p = cd + (cd >= at ? shift : 0);
  const cdEnd = eocd + shift;
  while (p < cdEnd && out.readUInt32LE(p) === 0x02014b50) {
    const offset = out.readUInt32LE(p + 42);
    if (offset >= at) out.writeUInt32LE(offset + shift, p + 42);
    p += 46 + out.readUInt16LE(p + 28) + out.readUInt16LE(p + 30) + out.readUInt16LE(p + 32);
  }
  if (cd >= at) out.writeUInt32LE(cd + shift, out.length - 22 + 16);
  return out;
}

/** Four entries: SKILL.md, a symlink to /etc/passwd, and two `..` paths. */
function understatedEntries(): RawEntry[] {
  return [
    { name: 'SKILL.md', data: SKILL },
    { name: 'passwd', data: '/etc/passwd', method: 0, externalAttributes: unixMode(0o120777) },
    { name: '../escaped.txt', data: 'outside the folder\n' },
    { name: 'docs/../../escaped2.txt', data: 'outside too\n' },
  ];
}

function zip64Locator(zip: Buffer, values: { entries: number; size: number; offset: number }): Buffer {
  const eocd = eocdAt(zip);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeUInt32LE(44, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeUInt32LE(values.entries, 24);
  record.writeUInt32LE(values.entries, 32);
  record.writeUInt32LE(values.size, 40);
  record.writeUInt32LE(values.offset, 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeUInt32LE(eocd, 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([zip.subarray(0, eocd), record, locator, zip.subarray(eocd)]);
}

export const HOSTILE_ZIPS: Hostile[] = [
  {
    name: 'zip: end record under-states the entry count (4 records, count 1)',
    build: () => setCount(buildZip(understatedEntries()), 1),
    entry: 'passwd',
    detail: /more records than the 1 the end record counts/,
  },
  {
    name: 'zip: end record under-states the central directory size',
    build: () => {
      const zip = setCount(buildZip(understatedEntries()), 1);
      const cd = centralOffset(zip);
      const firstRecord = 46 + zip.readUInt16LE(cd + 28) + zip.readUInt16LE(cd + 30) + zip.readUInt16LE(cd + 32);
      zip.writeUInt32LE(firstRecord, eocdAt(zip) + 12);
      return zip;
    },
    detail: /does not end where the end record starts/,
  },
  {
    name: 'zip: central directory offset shifted (bytes between it and the entries)',
    build: () => {
      const zip = buildZip([{ name: 'SKILL.md', data: SKILL }]);
      return insertAt(zip, centralOffset(zip), localEntry('hidden.sh', Buffer.from('#!/bin/sh\nrm -rf ~\n')));
    },
    entry: 'SKILL.md',
    detail: /bytes after its data belong to no entry/,
  },
  {
    name: 'zip: bytes hidden between two entries',
    build: () => {
      const zip = buildZip([
        { name: 'SKILL.md', data: SKILL, method: 0 },
        { name: 'b.txt', data: 'b', method: 0 },
      ]);
      const second = 30 + 'SKILL.md'.length + Buffer.byteLength(SKILL);
      return insertAt(zip, second, localEntry('hidden.sh', Buffer.from('echo hidden\n')));
    },
    entry: 'SKILL.md',
    detail: /bytes after its data belong to no entry/,
  },
  {
    name: 'zip: a self-extractor stub before the zip',
    build: () => insertAt(buildZip([{ name: 'SKILL.md', data: SKILL }]), 0, Buffer.from('MZ self-extractor stub\n')),
    status: 415,
    detail: /not a zip/,
  },
  {
    name: 'zip: a hidden entry before the first entry (offsets as written)',
    build: () => Buffer.concat([localEntry('hidden.sh', Buffer.from('echo hidden\n')), buildZip([{ name: 'SKILL.md', data: SKILL }])]),
    detail: /does not end where the end record starts/,
  },
  {
    name: 'zip: a hidden entry before the first entry (offsets moved)',
    build: () => insertAt(buildZip([{ name: 'SKILL.md', data: SKILL }]), 0, localEntry('hidden.sh', Buffer.from('echo hidden\n'))),
    entry: 'SKILL.md',
    detail: /bytes before its local header belong to no entry \(a prefix/,
  },
  {
    name: 'zip: bytes after the end record comment',
    build: () => Buffer.concat([buildZip([{ name: 'SKILL.md', data: SKILL }]), Buffer.from('trailing bytes')]),
    detail: /comment .* does not end exactly at the end of the file/,
  },
  {
    name: 'zip: a second end record in the comment',
    build: () => {
      const zip = buildZip([{ name: 'SKILL.md', data: SKILL }]);
      const last = Buffer.from(zip.subarray(eocdAt(zip)));
      const first = Buffer.from(last);
      first.writeUInt16LE(22, 20);
      return Buffer.concat([zip.subarray(0, eocdAt(zip)), first, last]);
    },
    detail: /end record/,
  },
  {
    name: 'zip: zip64 end record disagrees with the end record',
    build: () => {
      const zip = buildZip(understatedEntries().slice(0, 2));
      const cd = centralOffset(zip);
      const cdEnd = eocdAt(zip);
      const withZip64 = zip64Locator(setCount(zip, 1), { entries: 2, size: cdEnd - cd, offset: cd });
      return withZip64;
    },
    detail: /end record and zip64 end record disagree/,
  },
  {
    name: 'zip: zip64 locator pointing elsewhere than just before it',
    build: () => {
      const zip = buildZip([{ name: 'SKILL.md', data: SKILL }]);
      const cd = centralOffset(zip);
      const out = zip64Locator(zip, { entries: 1, size: eocdAt(zip) - cd, offset: cd });
      out.writeUInt32LE(0, out.length - 22 - 20 + 8);
      return out;
    },
    detail: /zip64 end record is not immediately before/,
  },
  {
    name: 'zip: Unicode Path extra field with a wrong CRC naming another path',
    build: () => {
      const raw = Buffer.from('notes.txt');
      const extra = unicodePathExtra(raw, '../evil.txt');
      extra.writeUInt32LE(crc32(raw) ^ 1, 5);
      return buildZip([
        { name: 'SKILL.md', data: SKILL },
        { name: raw, data: 'n', flags: 0, central: { extra }, local: { extra } },
      ]);
    },
    entry: 'notes.txt',
    detail: /Unicode Path/,
  },
  {
    name: 'zip: Unicode Path extra field in the local header only',
    build: () => {
      const raw = Buffer.from('notes.txt');
      return buildZip([
        { name: 'SKILL.md', data: SKILL },
        { name: raw, data: 'n', flags: 0, local: { extra: unicodePathExtra(raw, 'other.txt') } },
      ]);
    },
    entry: 'notes.txt',
    detail: /Unicode Path extra field names a different path .*local header/,
  },
  {
    name: 'zip: PKWARE Unix extra field (can carry a link target)',
    build: () => {
      const extra = Buffer.alloc(4 + 12 + 11);
      extra.writeUInt16LE(0x000d, 0);
      extra.writeUInt16LE(23, 2);
      extra.write('/etc/passwd', 16);
      return buildZip([
        { name: 'SKILL.md', data: SKILL },
        { name: 'a.txt', data: 'a', central: { extra }, local: { extra } },
      ]);
    },
    entry: 'a.txt',
    detail: /extra field 0x000d/,
  },
  {
    name: 'zip: local header flags differ from the central record (UTF-8 flag on an ASCII name)',
    build: () =>
      buildZip([
        { name: 'SKILL.md', data: SKILL },
        { name: 'a.txt', data: 'a', flags: 0x800, local: { flags: 0 } },
      ]),
    entry: 'a.txt',
    detail: /local header disagrees .*general purpose flags/,
  },
  {
    name: 'zip: symlink made on a FAT host (unix mode still set)',
    build: () =>
      buildZip([
        { name: 'SKILL.md', data: SKILL },
        { name: 'link', data: '/etc/passwd', method: 0, versionMadeBy: 20, externalAttributes: unixMode(0o120777) },
      ]),
    entry: 'link',
    detail: /symbolic link/,
  },
  {
    name: 'zip: data descriptor that disagrees with the central record',
    build: () => {
      const zip = buildZip([{ name: 'SKILL.md', data: SKILL, dataDescriptor: true }]);
      const at = centralOffset(zip) - 16;
      zip.writeUInt32LE(zip.readUInt32LE(at + 4) ^ 0xff, at + 4);
      return zip;
    },
    entry: 'SKILL.md',
    detail: /data descriptor disagrees/,
  },
  {
    name: 'zip: deflate data followed by hidden bytes inside the entry',
    build: () => {
      const data = Buffer.from(SKILL);
      return buildZip([{ name: 'SKILL.md', data, rawData: Buffer.concat([deflateRawSync(data), Buffer.from('hidden')]) }]);
    },
    entry: 'SKILL.md',
    detail: /deflate stream ends after/,
  },
  {
    name: 'zip: version needed to extract above 4.5',
    build: () => {
      const zip = buildZip([{ name: 'SKILL.md', data: SKILL }]);
      zip.writeUInt16LE(63, centralOffset(zip) + 6);
      return zip;
    },
    entry: 'SKILL.md',
    detail: /needs zip version 6\.3/,
  },
];

function paxTar(records: [string, string][], file = 'a.txt', data = 'hello\n'): Buffer {
  return gz(tar([{ file: 'SKILL.md', data: SKILL }, { pax: records }, { file, data }]));
}

export const HOSTILE_TARS: Hostile[] = [
  {
    name: 'tar.gz: pax global header setting path',
    build: () =>
      gz(
        tar([
          { pax: [['path', '../../outside.txt']], global: true },
          { file: 'SKILL.md', data: SKILL },
        ]),
      ),
    entry: 'pax_global_header',
    detail: /pax global header/,
  },
  {
    name: 'tar.gz: pax global header setting size=0',
    build: () => {
      // With size=0 applied, GNU tar reads the file's data as headers: a symlink and a hidden script.
      const inner = Buffer.concat([
        header({ name: 'passwd', typeflag: '2', linkname: '/etc/passwd' }),
        header({ name: '.hidden.sh', size: 12 }),
        padded(Buffer.from('echo hidden\n')),
      ]);
      return gz(
        tar([
          { pax: [['size', '0']], global: true },
          { file: 'SKILL.md', data: SKILL },
          { file: 'data.bin', data: inner },
        ]),
      );
    },
    entry: 'pax_global_header',
    detail: /pax global header/,
  },
  {
    name: 'tar.gz: pax size that is not a plain decimal',
    build: () => paxTar([['size', '6abc']]),
    entry: 'a.txt',
    detail: /size .* not a plain decimal/,
  },
  {
    name: 'tar.gz: pax size with a sign',
    build: () => paxTar([['size', '+6']]),
    entry: 'a.txt',
    detail: /not a plain decimal/,
  },
  {
    name: 'tar.gz: pax linkpath on a file',
    build: () => paxTar([['linkpath', '/etc/passwd']]),
    entry: 'a.txt',
    detail: /"linkpath", which the registry does not accept/,
  },
  {
    name: 'tar.gz: pax GNU sparse keys',
    build: () => paxTar([['GNU.sparse.realsize', '100000']]),
    entry: 'a.txt',
    detail: /GNU\.sparse\.realsize/,
  },
  {
    name: 'tar.gz: pax hdrcharset=BINARY',
    build: () => paxTar([['hdrcharset', 'BINARY']]),
    entry: 'a.txt',
    detail: /hdrcharset/,
  },
  {
    name: 'tar.gz: pax path set twice',
    build: () =>
      paxTar([
        ['path', 'one.txt'],
        ['path', 'two.txt'],
      ]),
    detail: /more than once/,
  },
  {
    name: 'tar.gz: pax record with a wrong length',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { pax: [], raw: Buffer.from('99 path=b.txt\n') },
          { file: 'a.txt', data: 'a' },
        ]),
      ),
    detail: /pax extended header is malformed/,
  },
  {
    name: 'tar.gz: pax path and GNU long name on one entry',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { longName: 'long-one.txt' },
          { pax: [['path', 'pax-one.txt']] },
          { file: 'a.txt', data: 'a' },
        ]),
      ),
    detail: /more than one extended header/,
  },
  {
    name: 'tar.gz: pax header at the end without an entry',
    build: () => gz(tar([{ file: 'SKILL.md', data: SKILL }, { pax: [['path', 'ghost.txt']] }])),
    entry: 'PaxHeaders/x',
    detail: /without the entry it belongs to/,
  },
  {
    name: 'tar.gz: GNU long link name (K)',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { longName: '/etc/passwd', flag: 'K' },
          { file: 'a.txt', data: 'a' },
        ]),
      ),
    entry: '././@LongLink',
    detail: /long link/,
  },
  {
    name: 'tar.gz: GNU long name with bytes after its NUL',
    build: () => {
      const data = Buffer.from('a.txt\0../evil.txt');
      return gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { raw: Buffer.concat([header({ name: '././@LongLink', typeflag: 'L', size: data.length }), padded(data)]) },
          { file: 'x', data: 'a' },
        ]),
      );
    },
    detail: /bytes after the name/,
  },
  {
    name: 'tar.gz: volume header (V)',
    build: () => gz(tar([{ raw: header({ name: 'VOLUME', typeflag: 'V' }) }, { file: 'SKILL.md', data: SKILL }])),
    entry: 'VOLUME',
    detail: /tape volume/,
  },
  {
    name: 'tar.gz: multi-volume continuation (M)',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { raw: Buffer.concat([header({ name: 'cont.bin', typeflag: 'M', size: 3 }), padded(Buffer.from('abc'))]) },
        ]),
      ),
    entry: 'cont.bin',
    detail: /multi-volume/,
  },
  {
    name: 'tar.gz: size in base-256',
    build: () => {
      const sizeField = Buffer.alloc(12);
      sizeField[0] = 0x80;
      sizeField[11] = 6;
      return gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { raw: Buffer.concat([header({ name: 'a.txt', sizeField }), padded(Buffer.from('hello\n'))]) },
        ]),
      );
    },
    entry: 'a.txt',
    detail: /size field is not a plain octal number/,
  },
  {
    name: 'tar.gz: garbage after the digits of the uid',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { file: 'a.txt', data: 'a', fields: { uidField: Buffer.from('0001750x') } },
        ]),
      ),
    entry: 'a.txt',
    detail: /uid field/,
  },
  {
    name: 'tar.gz: a later header with a bad checksum',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { file: 'a.txt', data: 'a', fields: { checksumDelta: 1 } },
        ]),
      ),
    entry: 'a.txt',
    detail: /checksum/,
  },
  {
    name: 'tar.gz: prefix field in a GNU-format header',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { file: 'a.txt', data: 'a', fields: { format: 'gnu', prefix: 'elsewhere' } },
        ]),
      ),
    entry: 'a.txt',
    detail: /prefix field/,
  },
  {
    name: 'tar.gz: an entry after a single zero block',
    build: () => gz(tar([{ file: 'SKILL.md', data: SKILL }, { raw: Buffer.alloc(512) }, { file: 'hidden.sh', data: 'echo hidden\n' }])),
    detail: /non-zero bytes follow the end-of-archive block/,
  },
  {
    name: 'tar.gz: data after the end-of-archive blocks',
    build: () => gz(Buffer.concat([tar([{ file: 'SKILL.md', data: SKILL }]), tar([{ file: 'hidden.sh', data: 'echo hidden\n' }])])),
    detail: /non-zero bytes follow the end-of-archive block/,
  },
  {
    name: 'tar.gz: two gzip members',
    build: () =>
      Buffer.concat([
        gzipSync(tar([{ file: 'SKILL.md', data: SKILL }], false)),
        gzipSync(tar([{ file: 'second.sh', data: 'echo second\n' }])),
      ]),
    detail: /follow the gzip member/,
  },
  {
    name: 'tar.gz: trailing garbage after the gzip member',
    build: () => Buffer.concat([gzipSync(tar([{ file: 'SKILL.md', data: SKILL }])), Buffer.from('garbage')]),
    detail: /follow the gzip member/,
  },
  {
    name: 'tar.gz: zero padding after the gzip member',
    build: () => Buffer.concat([gzipSync(tar([{ file: 'SKILL.md', data: SKILL }])), Buffer.alloc(1024)]),
    detail: /follow the gzip member/,
  },
  {
    name: 'tar.gz: gzip trailer CRC that does not match',
    build: () => {
      const out = Buffer.from(gzipSync(tar([{ file: 'SKILL.md', data: SKILL }])));
      out[out.length - 8] = (out[out.length - 8] ?? 0) ^ 1;
      return out;
    },
    detail: /trailer CRC-32/,
  },
  {
    name: 'tar.gz: gzip header with reserved flags',
    build: () => {
      const out = Buffer.from(gzipSync(tar([{ file: 'SKILL.md', data: SKILL }])));
      out[3] = 0x20;
      return out;
    },
    detail: /reserved flags/,
  },
  {
    name: 'tar.gz: duplicate paths (the later one overwrites on extraction)',
    build: () =>
      gz(
        tar([
          { file: 'SKILL.md', data: SKILL },
          { file: 'a.txt', data: 'first' },
          { file: 'a.txt', data: 'second' },
        ]),
      ),
    entry: 'a.txt',
    detail: /twice/,
  },
  {
    name: 'tar.gz: pax path naming the same file as an earlier entry',
    build: () =>
      gz(tar([{ file: 'SKILL.md', data: SKILL }, { pax: [['path', 'SKILL.md']] }, { file: 'innocent.txt', data: 'overwrites SKILL.md' }])),
    entry: 'SKILL.md',
    detail: /twice/,
  },
];

export const HOSTILE: Hostile[] = [...HOSTILE_ZIPS, ...HOSTILE_TARS];
