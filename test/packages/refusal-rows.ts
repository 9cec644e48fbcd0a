/**
 * Hostile packages and the refusal each must get: the rows of the HTTP refusal test (test/http/
 * package-refusals.test.ts), and the archives of hostile.ts as rows. The differential test runs the real
 * extractors over all of them.
 */
import { gzipSync } from 'node:zlib';
import { rawTar, skillMd, tarGz, tarHeader, yazlZip, type TarInput } from './helpers.js';
import { HOSTILE } from './hostile.js';
import { buildZip, unixMode, type RawEntry } from './zip-builder.js';

export const SKILL = skillMd();
const MiB = 1024 * 1024;
/** The default maxTotalBytes (200 MiB) plus one MiB: declared, never written. */
const OVER_TOTAL = 201 * MiB;

export interface Row {
  name: string;
  build: () => Promise<Buffer> | Buffer;
  status: 415 | 422;
  code: 'unsupported_media_type' | 'invalid_archive' | 'invalid_skill_md';
  /** Entries some error must name (rules about one entry). */
  entries?: string[];
  /** What the problem's detail must say, so the row is refused for the rule it is about. */
  detail?: RegExp;
}

function zipWith(...entries: RawEntry[]): Buffer {
  return buildZip([{ name: 'SKILL.md', data: SKILL }, ...entries]);
}

function tarWith(...entries: TarInput[]): Promise<Buffer> {
  return tarGz([{ name: 'SKILL.md', data: SKILL }, ...entries]);
}

function zipSkill(content: string, name = 'SKILL.md'): Promise<Buffer> {
  return yazlZip([
    { name, data: content },
    { name: 'README.md', data: 'read me' },
  ]);
}

const nonUtf8Flagged = Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x6d, 0x64]); // "a\xff\xfe.md", flagged UTF-8
const cp437Name = Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]); // "caf\x82.txt", é in CP437, no flag
const nonUtf8Tar = Buffer.from([0x61, 0xff, 0x2e, 0x74, 0x78, 0x74]); // "a\xff.txt"
const prose = Buffer.from('The quick brown fox jumps over the lazy dog. '.repeat(200));

const BASE_ROWS: Row[] = [
  // Names.
  {
    name: 'zip: absolute path',
    build: () => zipWith({ name: '/etc/passwd', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['/etc/passwd'],
    detail: /absolute/,
  },
  {
    name: 'tar.gz: absolute path',
    build: () => tarWith({ name: '/etc/passwd', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['/etc/passwd'],
    detail: /absolute/,
  },
  {
    name: 'zip: .. segment',
    build: () => zipWith({ name: 'a/../../evil.sh', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['a/../../evil.sh'],
    detail: /"\.\." segment/,
  },
  {
    name: 'tar.gz: .. segment',
    build: () => tarWith({ name: '../evil.sh', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['../evil.sh'],
    detail: /"\.\." segment/,
  },
  {
    name: 'zip: backslash',
    build: () => zipWith({ name: 'scripts\\run.sh', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['scripts\\run.sh'],
    detail: /backslash/,
  },
  {
    name: 'tar.gz: backslash',
    build: () => tarWith({ name: 'a\\b.txt', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['a\\b.txt'],
    detail: /backslash/,
  },
  {
    name: 'zip: drive letter',
    build: () => zipWith({ name: 'C:/Windows/evil.txt', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['C:/Windows/evil.txt'],
    detail: /drive letter/,
  },
  {
    name: 'tar.gz: drive letter',
    build: () => tarWith({ name: 'C:/evil.txt', data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['C:/evil.txt'],
    detail: /drive letter/,
  },
  {
    name: 'zip: name flagged UTF-8 that is not UTF-8',
    build: () => zipWith({ name: nonUtf8Flagged, data: 'x' }),
    status: 422,
    code: 'invalid_archive',
    entries: [nonUtf8Flagged.toString('utf8')],
    detail: /not valid UTF-8/,
  },
  {
    name: 'zip: non-ASCII name without the UTF-8 flag (CP437)',
    build: () => zipWith({ name: cp437Name, data: 'x', flags: 0 }),
    status: 422,
    code: 'invalid_archive',
    entries: [cp437Name.toString('utf8')],
    detail: /not UTF-8/,
  },
  {
    name: 'tar.gz: name that is not UTF-8',
    build: () =>
      gzipSync(
        rawTar([
          { header: tarHeader({ name: 'SKILL.md', size: Buffer.byteLength(SKILL) }), data: Buffer.from(SKILL) },
          { header: tarHeader({ name: nonUtf8Tar, size: 1 }), data: Buffer.from('x') },
        ]),
      ),
    status: 422,
    code: 'invalid_archive',
    entries: ['a\uFFFD.txt'],
    detail: /not valid UTF-8/,
  },

  // Entry types.
  {
    name: 'zip: symlink',
    build: () => zipWith({ name: 'link', data: '/etc/passwd', method: 0, externalAttributes: unixMode(0o120777) }),
    status: 422,
    code: 'invalid_archive',
    entries: ['link'],
    detail: /symbolic link/,
  },
  {
    name: 'tar.gz: symlink',
    build: () => tarWith({ name: 'link', type: 'symlink', linkname: '/etc/passwd' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['link'],
    detail: /symbolic link/,
  },
  {
    name: 'tar.gz: hard link',
    build: () => tarWith({ name: 'hard', type: 'link', linkname: 'SKILL.md' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['hard'],
    detail: /hard link/,
  },
  {
    name: 'tar.gz: character device',
    build: () => tarWith({ name: 'tty', type: 'character-device' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['tty'],
    detail: /device/,
  },
  {
    name: 'tar.gz: block device',
    build: () => tarWith({ name: 'disk', type: 'block-device' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['disk'],
    detail: /device/,
  },
  {
    name: 'tar.gz: FIFO',
    build: () => tarWith({ name: 'pipe', type: 'fifo' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['pipe'],
    detail: /FIFO/,
  },
  {
    name: 'zip: FIFO (unix mode S_IFIFO)',
    build: () => zipWith({ name: 'pipe', data: '', externalAttributes: unixMode(0o010644) }),
    status: 422,
    code: 'invalid_archive',
    entries: ['pipe'],
    detail: /special file/,
  },

  // Duplicates.
  {
    name: 'zip: duplicate paths',
    build: () => zipWith({ name: 'a.txt', data: '1' }, { name: 'a.txt', data: '2' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['a.txt'],
    detail: /twice/,
  },
  {
    name: 'tar.gz: duplicate paths',
    build: () => tarWith({ name: 'a.txt', data: '1' }, { name: 'a.txt', data: '2' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['a.txt'],
    detail: /twice/,
  },
  {
    name: 'zip: duplicates differing only in case',
    build: () => zipWith({ name: 'README.md', data: '1' }, { name: 'readme.md', data: '2' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['readme.md'],
    detail: /collides/,
  },
  {
    name: 'tar.gz: duplicates differing only in case',
    build: () => tarWith({ name: 'Docs/A.md', data: '1' }, { name: 'docs/a.md', data: '2' }),
    status: 422,
    code: 'invalid_archive',
    entries: ['docs/a.md'],
    detail: /collides/,
  },

  // Zip structure.
  {
    name: 'zip: encrypted entry',
    build: () => zipWith({ name: 'secret.txt', data: 'x', flags: 0x801 }),
    status: 422,
    code: 'invalid_archive',
    entries: ['secret.txt'],
    detail: /encrypted/,
  },
  {
    name: 'zip: compression method 12 (bzip2)',
    build: () => zipWith({ name: 'data.bin', data: 'x', method: 12, rawData: Buffer.from('garbage') }),
    status: 422,
    code: 'invalid_archive',
    entries: ['data.bin'],
    detail: /compression method 12/,
  },
  {
    name: 'zip: compression method 14 (LZMA)',
    build: () => zipWith({ name: 'data.bin', data: 'x', method: 14, rawData: Buffer.from('garbage') }),
    status: 422,
    code: 'invalid_archive',
    entries: ['data.bin'],
    detail: /compression method 14/,
  },
  {
    name: 'zip: local header name disagrees with the central directory',
    build: () => zipWith({ name: 'safe.txt', data: 'x', local: { name: '../x.txt' } }),
    status: 422,
    code: 'invalid_archive',
    entries: ['safe.txt'],
    detail: /local header disagrees .*file name/,
  },
  {
    name: 'zip: local header sizes and CRC disagree with the central directory',
    build: () => zipWith({ name: 's.txt', data: prose, local: { uncompressedSize: 5, crc: 7 } }),
    status: 422,
    code: 'invalid_archive',
    entries: ['s.txt'],
    detail: /local header disagrees .*CRC-32.*uncompressed size/,
  },
  {
    name: 'zip: local header compression method disagrees',
    build: () => zipWith({ name: 'm.txt', data: 'xyz', method: 0, local: { method: 8 } }),
    status: 422,
    code: 'invalid_archive',
    entries: ['m.txt'],
    detail: /local header disagrees .*compression method/,
  },

  // Sizes and limits.
  {
    name: 'zip: real size exceeds the declared size (lying size)',
    build: () => zipWith({ name: 'liar.txt', data: prose, central: { uncompressedSize: 100 }, local: { uncompressedSize: 100 } }),
    status: 422,
    code: 'invalid_archive',
    entries: ['liar.txt'],
    detail: /more than the 100 bytes it declares/,
  },
  {
    name: 'zip: lying zip bomb (declared 1,000 bytes, 2 MiB of zeros)',
    build: () =>
      zipWith({ name: 'bomb.bin', data: Buffer.alloc(2 * MiB), central: { uncompressedSize: 1000 }, local: { uncompressedSize: 1000 } }),
    status: 422,
    code: 'invalid_archive',
    entries: ['bomb.bin'],
    detail: /more than the 1000 bytes it declares/,
  },
  {
    name: 'tar.gz: data longer than the size its header declares',
    build: () =>
      gzipSync(
        rawTar([
          { header: tarHeader({ name: 'SKILL.md', size: Buffer.byteLength(SKILL) }), data: Buffer.from(SKILL) },
          { header: tarHeader({ name: 'liar.txt', size: 3 }), data: Buffer.alloc(1500, 0x61) },
        ]),
      ),
    status: 422,
    code: 'invalid_archive',
    entries: ['liar.txt'],
  },
  {
    name: 'zip: 2,001 entries (limit 2,000)',
    build: () => buildZip(Array.from({ length: 2001 }, (_, i): RawEntry => ({ name: `f${i}.txt`, data: 'x', method: 0 }))),
    status: 422,
    code: 'invalid_archive',
    detail: /2001 entries, more than the limit of 2000/,
  },
  {
    name: 'tar.gz: 2,001 entries (limit 2,000)',
    build: () => tarGz(Array.from({ length: 2001 }, (_, i): TarInput => ({ name: `f${i}.txt`, data: 'x' }))),
    status: 422,
    code: 'invalid_archive',
    entries: ['f2000.txt'],
    detail: /more than 2000 entries/,
  },
  {
    name: 'zip: declared uncompressed total over 200 MiB',
    build: () =>
      zipWith({
        name: 'huge.bin',
        data: 'x'.repeat(1000),
        central: { uncompressedSize: OVER_TOTAL },
        local: { uncompressedSize: OVER_TOTAL },
      }),
    status: 422,
    code: 'invalid_archive',
    entries: ['huge.bin'],
    detail: /limit of 209715200 uncompressed bytes/,
  },
  {
    name: 'tar.gz: declared uncompressed total over 200 MiB',
    build: () =>
      gzipSync(
        Buffer.concat([
          tarHeader({ name: 'SKILL.md', size: Buffer.byteLength(SKILL) }),
          Buffer.from(SKILL),
          Buffer.alloc(512 - Buffer.byteLength(SKILL)),
          tarHeader({ name: 'huge.bin', size: OVER_TOTAL }),
          Buffer.alloc(4096, 0x62),
        ]),
      ),
    status: 422,
    code: 'invalid_archive',
    entries: ['huge.bin'],
    detail: /limit of 209715200 uncompressed bytes/,
  },
  {
    name: 'zip: compression ratio over 100:1 (5 MiB of zeros)',
    build: () =>
      yazlZip([
        { name: 'SKILL.md', data: SKILL },
        { name: 'zeros.bin', data: Buffer.alloc(5 * MiB) },
      ]),
    status: 422,
    code: 'invalid_archive',
    entries: ['zeros.bin'],
    detail: /ratio .* over the limit of 100:1/,
  },
  {
    name: 'tar.gz: compression ratio over 100:1 (5 MiB of zeros)',
    build: () => tarWith({ name: 'zeros.bin', data: Buffer.alloc(5 * MiB) }),
    status: 422,
    code: 'invalid_archive',
    entries: ['zeros.bin'],
    detail: /100 times its size/,
  },

  // SKILL.md.
  {
    name: 'SKILL.md without front matter',
    build: () => zipSkill('# pdf-tools\n\nNo front matter here.\n'),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md'],
    detail: /no YAML front matter/,
  },
  {
    name: 'SKILL.md with unterminated front matter',
    build: () => zipSkill('---\nname: pdf-tools\ndescription: d\n\n# body\n'),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md'],
    detail: /no YAML front matter/,
  },
  {
    name: 'SKILL.md front matter that is not valid YAML',
    build: () => zipSkill('---\nname: [unclosed\ndescription: d\n---\n'),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md'],
    detail: /not valid YAML/,
  },
  {
    name: 'SKILL.md front matter that is not a mapping',
    build: () => zipSkill('---\n- name\n- description\n---\n'),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md'],
    detail: /mapping/,
  },
  {
    name: 'SKILL.md without a name',
    build: () => zipSkill('---\ndescription: d\n---\n'),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md'],
    detail: /name/,
  },
  {
    name: 'SKILL.md with a blank name',
    build: () => zipSkill("---\nname: '   '\ndescription: d\n---\n"),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md'],
    detail: /name/,
  },
  {
    name: 'SKILL.md (in a folder, tar.gz) without a description',
    build: () => tarGz([{ name: 'pdf-tools/SKILL.md', data: '---\nname: pdf-tools\n---\nbody\n' }]),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['pdf-tools/SKILL.md'],
    detail: /description/,
  },
  {
    name: 'two SKILL.md candidates: root and folder',
    build: () =>
      yazlZip([
        { name: 'SKILL.md', data: SKILL },
        { name: 'other/SKILL.md', data: SKILL },
      ]),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['SKILL.md', 'other/SKILL.md'],
    detail: /more than one SKILL\.md/,
  },
  {
    name: 'two SKILL.md candidates: two folders (tar.gz)',
    build: () =>
      tarGz([
        { name: 'a/SKILL.md', data: SKILL },
        { name: 'b/SKILL.md', data: SKILL },
      ]),
    status: 422,
    code: 'invalid_skill_md',
    entries: ['a/SKILL.md', 'b/SKILL.md'],
    detail: /more than one SKILL\.md/,
  },

  // Broken archives.
  {
    name: 'zip: truncated',
    build: async () => {
      const whole = await yazlZip([
        { name: 'SKILL.md', data: SKILL },
        { name: 'big.txt', data: prose },
      ]);
      return whole.subarray(0, whole.length - 30);
    },
    status: 422,
    code: 'invalid_archive',
  },
  {
    name: 'zip: central directory cut short',
    build: () =>
      buildZip(
        [
          { name: 'a.txt', data: 'a' },
          { name: 'b.txt', data: 'b' },
        ],
        { truncateCentral: true },
      ),
    status: 422,
    code: 'invalid_archive',
  },
  {
    name: 'tar.gz: truncated gzip stream',
    build: async () => {
      const whole = await tarWith({ name: 'data.bin', data: Buffer.alloc(50_000, 3) });
      return whole.subarray(0, whole.length - 8);
    },
    status: 422,
    code: 'invalid_archive',
  },
  {
    name: 'tar.gz: file data cut short',
    build: () =>
      gzipSync(rawTar([{ header: tarHeader({ name: 'big.txt', size: 4000 }), data: Buffer.alloc(4000, 0x61) }]).subarray(0, 2048)),
    status: 422,
    code: 'invalid_archive',
    entries: ['big.txt'],
  },

  // Not an archive at all.
  {
    name: 'plain text',
    build: () => Buffer.from('---\nname: pdf-tools\ndescription: d\n---\n'),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'PNG bytes',
    build: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR'), Buffer.alloc(64, 1)]),
    status: 415,
    code: 'unsupported_media_type',
  },
  { name: 'an empty file', build: () => Buffer.alloc(0), status: 415, code: 'unsupported_media_type' },
  {
    name: 'gzip of text (not a tar)',
    build: () => gzipSync(Buffer.from('hello world, this is not a tar archive. '.repeat(40))),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'gzip of a zip (not a tar)',
    build: () => gzipSync(buildZip([{ name: 'SKILL.md', data: SKILL }])),
    status: 415,
    code: 'unsupported_media_type',
  },
];

/** Every row: the refusal rules one by one, then the structural tricks of hostile.ts. */
export const ROWS: Row[] = [
  ...BASE_ROWS,
  ...HOSTILE.map((h): Row => ({
    name: h.name,
    build: h.build,
    status: h.status ?? 422,
    code: h.status === 415 ? 'unsupported_media_type' : 'invalid_archive',
    entries: h.entry !== undefined ? [h.entry] : undefined,
    detail: h.detail,
  })),
];
