/**
 * A deterministic corpus of zips and tar.gz files, valid and malformed, for the differential test: a seeded
 * generator builds ordinary archives and then mutates headers, counts, offsets, names, attributes, pax
 * records and gzip members.
 */
import { gzipSync } from 'node:zlib';
import { skillMd } from './helpers.js';
import { header, padded, tar, type HeaderFields, type TarPart } from './tar-builder.js';
import { buildZip, localEntry, unicodePathExtra, unixMode, type RawEntry } from './zip-builder.js';

/** mulberry32: small, fast, and the same sequence everywhere for one seed. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export interface Sample {
  name: string;
  format: 'zip' | 'tar.gz';
  bytes: Buffer;
}

const NAMES = [
  'README.md',
  'docs/guide.md',
  'scripts/run.sh',
  'a/b/c.txt',
  'caf\u00e9.txt',
  'data.bin',
  'lib/x.js',
  'Docs/Guide.md',
  './notes.txt',
  'x/SKILL.md',
  'LICENSE',
  'deep/er/still/file.py',
  '\u65e5\u672c/\u8a9e.md',
  'sp ace.txt',
  'readme.md',
];
const EVIL_NAMES = ['../evil.txt', '/abs.txt', 'a/../../b.txt', 'a\\b.txt', 'C:/x.txt', 'a//b', 'dir/', '.', './', 'x\u0000y', ''];

function content(rng: Rng): Buffer {
  const kind = rng.int(4);
  const length = rng.pick([0, 1, 17, 200, 1500, 6000]);
  if (kind === 0) return Buffer.alloc(length, 0x61 + rng.int(26));
  if (kind === 1) return Buffer.from(Array.from({ length }, () => rng.int(256)));
  return Buffer.from(
    Array.from({ length: Math.ceil(length / 6) }, () => rng.pick(['alpha ', 'beta ', 'gamma\n', 'delta ']))
      .join('')
      .slice(0, length),
  );
}

function entryNames(rng: Rng, evil: number): string[] {
  const count = 1 + rng.int(5);
  const names = new Set<string>(['SKILL.md']);
  while (names.size < count + 1) names.add(rng.chance(evil) ? rng.pick(EVIL_NAMES) : rng.pick(NAMES));
  return [...names];
}

// ---------------------------------------------------------------- zip

function eocd(zip: Buffer): number {
  return zip.length - 22;
}

function centralRecords(zip: Buffer): number[] {
  const out: number[] = [];
  let p = zip.readUInt32LE(eocd(zip) + 16);
  while (p + 46 <= zip.length && zip.readUInt32LE(p) === 0x02014b50) {
    out.push(p);
    p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return out;
}

function baseZip(rng: Rng, evil: number): { entries: RawEntry[]; bytes: Buffer } {
  const skill = skillMd();
  const entries: RawEntry[] = entryNames(rng, evil).map((name) => {
    const data = name === 'SKILL.md' ? Buffer.from(skill) : content(rng);
    const isDir = name.endsWith('/') || name === '.';
    const entry: RawEntry = { name, data: isDir ? '' : data, method: isDir || data.length === 0 || rng.chance(0.3) ? 0 : 8 };
    if (rng.chance(0.25)) entry.dataDescriptor = true;
    if (rng.chance(0.1)) entry.flags = 0;
    if (rng.chance(0.15)) entry.versionMadeBy = (rng.pick([0, 3, 10, 11, 19]) << 8) | 20;
    if (rng.chance(0.15)) entry.externalAttributes = rng.pick([0, unixMode(0o100644), unixMode(0o100755), unixMode(0o040755), 0x20, 0x10]);
    if (rng.chance(0.05)) entry.externalAttributes = unixMode(rng.pick([0o120777, 0o010644, 0o020644, 0o140644]));
    if (rng.chance(0.05)) {
      const raw = Buffer.from(name);
      entry.central = { extra: unicodePathExtra(raw, rng.chance(0.5) ? name : rng.pick(EVIL_NAMES)) };
    }
    return entry;
  });
  return { entries, bytes: buildZip(entries) };
}

type ZipMutation = (zip: Buffer, rng: Rng) => Buffer;

const ZIP_MUTATIONS: [string, ZipMutation][] = [
  [
    'count',
    (zip, rng) => {
      const out = Buffer.from(zip);
      const n = Math.max(0, out.readUInt16LE(eocd(out) + 10) + rng.pick([-3, -1, 1, 2]));
      out.writeUInt16LE(n, eocd(out) + 8);
      if (rng.chance(0.8)) out.writeUInt16LE(n, eocd(out) + 10);
      return out;
    },
  ],
  [
    'cd-size',
    (zip, rng) => {
      const out = Buffer.from(zip);
      out.writeUInt32LE(Math.max(0, out.readUInt32LE(eocd(out) + 12) + rng.pick([-46, -1, 1, 30])), eocd(out) + 12);
      return out;
    },
  ],
  [
    'cd-offset',
    (zip, rng) => {
      const out = Buffer.from(zip);
      out.writeUInt32LE(Math.max(0, out.readUInt32LE(eocd(out) + 16) + rng.pick([-30, -1, 1, 16])), eocd(out) + 16);
      return out;
    },
  ],
  [
    'prefix',
    (zip, rng) =>
      Buffer.concat([rng.chance(0.5) ? localEntry('hidden.sh', Buffer.from('echo x\n')) : Buffer.from('PK\u0003\u0004junk'), zip]),
  ],
  [
    'hidden-before-cd',
    (zip) => {
      const cd = zip.readUInt32LE(eocd(zip) + 16);
      const hidden = localEntry('hidden.sh', Buffer.from('echo hidden\n'));
      const out = Buffer.concat([zip.subarray(0, cd), hidden, zip.subarray(cd)]);
      out.writeUInt32LE(cd + hidden.length, out.length - 22 + 16);
      return out;
    },
  ],
  ['trailing', (zip, rng) => Buffer.concat([zip, rng.chance(0.5) ? Buffer.from('trailing') : zip.subarray(eocd(zip))])],
  [
    'comment',
    (zip, rng) => {
      const comment = rng.chance(0.5) ? Buffer.from('a comment') : Buffer.concat([Buffer.from('x'), zip.subarray(eocd(zip))]);
      const out = Buffer.concat([zip, comment]);
      out.writeUInt16LE(comment.length, eocd(zip) + 20);
      return out;
    },
  ],
  [
    'central-field',
    (zip, rng) => {
      const out = Buffer.from(zip);
      const records = centralRecords(out);
      if (records.length === 0) return out;
      const at = rng.pick(records) + rng.pick([4, 5, 6, 8, 9, 10, 16, 20, 24, 34, 36, 38, 40, 41, 42]);
      out[at] = rng.chance(0.5) ? rng.int(256) : (out[at] ?? 0) ^ (1 << rng.int(8));
      return out;
    },
  ],
  [
    'local-field',
    (zip, rng) => {
      const out = Buffer.from(zip);
      const records = centralRecords(out);
      if (records.length === 0) return out;
      const at = out.readUInt32LE(rng.pick(records) + 42) + rng.pick([4, 6, 7, 8, 14, 18, 22, 26, 28, 30]);
      if (at < out.length) out[at] = (out[at] ?? 0) ^ (1 << rng.int(8));
      return out;
    },
  ],
  [
    'attributes',
    (zip, rng) => {
      const out = Buffer.from(zip);
      const records = centralRecords(out);
      if (records.length === 0) return out;
      const r = rng.pick(records);
      out.writeUInt16LE((rng.pick([0, 1, 3, 5, 6, 10, 11, 13, 16, 18, 19, 30]) << 8) | 20, r + 4);
      out.writeUInt32LE(
        (unixMode(rng.pick([0o120777, 0o100644, 0o040755, 0o010644, 0o060600, 0])) | rng.pick([0, 0x08, 0x10, 0x20])) >>> 0,
        r + 38,
      );
      return out;
    },
  ],
  [
    'byte-flip',
    (zip, rng) => {
      const out = Buffer.from(zip);
      const at = rng.int(out.length);
      out[at] = (out[at] ?? 0) ^ (1 << rng.int(8));
      return out;
    },
  ],
  ['truncate', (zip, rng) => zip.subarray(0, Math.max(1, zip.length - 1 - rng.int(40)))],
];

function zipSample(rng: Rng, i: number): Sample {
  const malformed = rng.chance(0.7);
  const { bytes } = baseZip(rng, malformed ? 0.15 : 0);
  let out = bytes;
  const applied: string[] = [];
  if (malformed) {
    for (let k = 0, n = 1 + rng.int(2); k < n; k++) {
      const [label, mutate] = rng.pick(ZIP_MUTATIONS);
      out = mutate(out, rng);
      applied.push(label);
    }
  }
  return { name: `zip #${i}${applied.length ? ` (${applied.join(', ')})` : ''}`, format: 'zip', bytes: out };
}

// ---------------------------------------------------------------- tar.gz

const PAX_KEYS: [string, (rng: Rng) => string][] = [
  ['path', (rng) => rng.pick([...NAMES, ...EVIL_NAMES.slice(0, 4)])],
  ['size', (rng) => rng.pick(['0', '5', '17', '6abc', '+3', ' 4', '99999'])],
  ['mtime', (rng) => rng.pick(['1700000000', '1700000000.25', 'soon'])],
  ['uid', (rng) => rng.pick(['0', '1000', '-1', 'x'])],
  ['linkpath', () => '/etc/passwd'],
  ['uname', () => 'someone'],
  ['SCHILY.xattr.user.k', () => 'v'],
  ['GNU.sparse.major', () => '1'],
  ['hdrcharset', () => 'BINARY'],
];

function tarSample(rng: Rng, i: number): Sample {
  const malformed = rng.chance(0.7);
  const applied: string[] = [];
  const parts: TarPart[] = [];
  const fieldMutation = (): Partial<HeaderFields> => {
    if (!malformed || !rng.chance(0.2)) return {};
    const which = rng.int(6);
    applied.push(`field ${which}`);
    if (which === 0) return { typeflag: rng.pick(['1', '2', '3', '6', 'g', 'K', 'S', 'V', 'M', 'N', 'A', 'Z', '\u0000', '7']) };
    if (which === 1)
      return {
        sizeField: rng.pick([
          Buffer.from('00000000017x'),
          Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]),
          Buffer.from('   17      \0'),
        ]),
      };
    if (which === 2) return { uidField: rng.pick([Buffer.from('0001750x'), Buffer.from('        '), Buffer.from('-0000001')]) };
    if (which === 3) return { format: rng.pick(['gnu', 'v7'] as const), ...(rng.chance(0.5) ? { prefix: 'pre' } : {}) };
    if (which === 4) return { prefix: rng.pick(['p', '../..', 'x/y']) };
    return { checksumDelta: rng.pick([1, -1, 256]) };
  };
  for (const name of entryNames(rng, malformed ? 0.1 : 0)) {
    if (name.endsWith('/') || name === '.' || (rng.chance(0.1) && name !== 'SKILL.md')) {
      parts.push({ dir: name.endsWith('/') ? name : `${name}/` });
      continue;
    }
    if (rng.chance(malformed ? 0.3 : 0.15)) {
      const records: [string, string][] = [];
      for (let k = 0, n = 1 + rng.int(2); k < n; k++) {
        const [key, value] = malformed ? rng.pick(PAX_KEYS) : rng.pick(PAX_KEYS.slice(0, 1));
        records.push([key, value(rng)]);
      }
      const global = malformed && rng.chance(0.2);
      applied.push(`pax${global ? ' global' : ''} ${records.map((r) => r[0]).join('+')}`);
      parts.push({ pax: records, global });
    }
    if (rng.chance(0.1)) {
      parts.push({
        longName: rng.chance(0.8) ? `${'long/'.repeat(25)}${name.replace(/^\.\//, '')}` : rng.pick(EVIL_NAMES),
        flag: malformed && rng.chance(0.2) ? 'K' : 'L',
      });
      applied.push('long name');
    }
    const data = name === 'SKILL.md' ? Buffer.from(skillMd()) : content(rng);
    parts.push({ file: name, data, fields: fieldMutation() });
  }
  let end = true;
  let bytes: Buffer;
  if (malformed && rng.chance(0.15)) {
    end = false;
    applied.push('no end');
  }
  bytes = tar(parts, end);
  if (malformed && rng.chance(0.15)) {
    const extra = rng.pick(['lone zero', 'after end', 'record pad', 'half block']);
    applied.push(extra);
    if (extra === 'lone zero')
      bytes = Buffer.concat([
        tar(parts, false),
        Buffer.alloc(512),
        header({ name: 'late.sh', size: 5 }),
        padded(Buffer.from('late\n')),
        Buffer.alloc(1024),
      ]);
    if (extra === 'after end') bytes = Buffer.concat([bytes, header({ name: 'late.sh', size: 5 }), padded(Buffer.from('late\n'))]);
    if (extra === 'record pad') bytes = Buffer.concat([bytes, Buffer.alloc(10240 - (bytes.length % 10240))]);
    if (extra === 'half block') bytes = bytes.subarray(0, bytes.length - 256);
  }
  if (malformed && rng.chance(0.1)) {
    const at = rng.int(bytes.length);
    bytes = Buffer.from(bytes);
    bytes[at] = (bytes[at] ?? 0) ^ (1 << rng.int(8));
    applied.push('byte flip');
  }
  let gz = gzipSync(bytes);
  if (malformed && rng.chance(0.15)) {
    const kind = rng.pick(['members', 'trailing', 'zeros', 'flag', 'flip']);
    applied.push(`gzip ${kind}`);
    if (kind === 'members') {
      const cut = 512 * (1 + rng.int(Math.max(1, bytes.length / 512 - 1)));
      gz = Buffer.concat([gzipSync(bytes.subarray(0, cut)), gzipSync(bytes.subarray(cut))]);
    }
    if (kind === 'trailing') gz = Buffer.concat([gz, Buffer.from('garbage')]);
    if (kind === 'zeros') gz = Buffer.concat([gz, Buffer.alloc(512)]);
    if (kind === 'flag') {
      gz = Buffer.from(gz);
      gz[3] = rng.pick([0x01, 0x02, 0x20, 0x80]);
    }
    if (kind === 'flip') {
      gz = Buffer.from(gz);
      const at = 10 + rng.int(gz.length - 10);
      gz[at] = (gz[at] ?? 0) ^ (1 << rng.int(8));
    }
  }
  return { name: `tar.gz #${i}${applied.length ? ` (${applied.join(', ')})` : ''}`, format: 'tar.gz', bytes: gz };
}

export function generateCorpus(seed: number, count: number): Sample[] {
  const rng = new Rng(seed);
  const out: Sample[] = [];
  for (let i = 0; i < count; i++) out.push(i % 2 === 0 ? zipSample(rng, i) : tarSample(rng, i));
  return out;
}
