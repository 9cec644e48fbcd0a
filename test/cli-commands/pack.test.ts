import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import yauzl from 'yauzl';
import { CliError } from '@skill-registry/cli/exit-codes';
import { extractPackage } from '@skill-registry/cli/extract';
import { inspectLocalArchive } from '@skill-registry/cli/local-package';
import { collectFiles, packZip } from '@skill-registry/cli/pack';
import { tarGz, zip } from '../helpers/archives.js';
import { buildZip } from '../packages/zip-builder.js';
import { readTree, removeDir, skillMdText, tempDir, writeTree } from './harness.js';

const root = tempDir('skreg-pack-');
after(() => removeDir(root));
let counter = 0;
const fresh = (name: string) => path.join(root, `${name}-${++counter}`);

async function pack(dir: string): Promise<{ file: string; sha256: string; size: number }> {
  const { files } = await collectFiles(dir);
  const file = `${dir}-${++counter}.zip`;
  return { file, ...(await packZip(files, file)) };
}

/** Entry names, times and modes as the zip's central directory lists them. */
function zipEntries(file: string): Promise<{ name: string; time: number; date: number; mode: number; method: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zipfile) => {
      if (err) {
        reject(err);
        return;
      }
      const out: { name: string; time: number; date: number; mode: number; method: number }[] = [];
      zipfile.on('entry', (entry: yauzl.Entry) => {
        out.push({
          name: entry.fileName,
          time: entry.lastModFileTime,
          date: entry.lastModFileDate,
          mode: entry.externalFileAttributes >>> 16,
          method: entry.compressionMethod,
        });
        zipfile.readEntry();
      });
      zipfile.on('end', () => resolve(out));
      zipfile.on('error', reject);
      zipfile.readEntry();
    });
  });
}

describe('publish packing: file selection and deterministic zips', () => {
  it('packs the same files to the same bytes, whatever their order of creation, times, modes but the execute bit, and the time zone', async () => {
    const files = { 'SKILL.md': skillMdText('same'), 'b/two.txt': 'two\n', 'a/one.txt': 'one\n', 'z.md': '# z\n' };
    const first = writeTree(fresh('det'), files);
    const second = writeTree(fresh('det'), Object.fromEntries(Object.entries(files).reverse()));
    utimesSync(path.join(second, 'z.md'), new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
    chmodSync(path.join(second, 'a/one.txt'), 0o600);
    chmodSync(path.join(second, 'z.md'), 0o664);
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'America/New_York';
      const a = await pack(first);
      process.env.TZ = 'Asia/Tokyo';
      const b = await pack(second);
      assert.equal(a.sha256, b.sha256);
      assert.deepEqual(readFileSync(a.file), readFileSync(b.file));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const entries = await zipEntries((await pack(first)).file);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['SKILL.md', 'a/one.txt', 'b/two.txt', 'z.md'],
      'sorted, no directory entries',
    );
    assert.ok(
      entries.every((e) => e.date === ((0 << 9) | (1 << 5) | 2) && e.time === 0),
      'every entry at 1980-01-02 00:00',
    );
    assert.ok(entries.every((e) => e.mode === 0o100644));

    const changed = writeTree(fresh('det'), { ...files, 'z.md': '# changed\n' });
    assert.notEqual((await pack(changed)).sha256, (await pack(first)).sha256, 'different content, different bytes');

    // The execute bit is the one permission a package keeps: 0755 in the zip, and so other bytes.
    const executable = writeTree(fresh('det'), files);
    chmodSync(path.join(executable, 'a/one.txt'), 0o744);
    const packed = await pack(executable);
    assert.notEqual(packed.sha256, (await pack(first)).sha256);
    assert.deepEqual(
      (await zipEntries(packed.file)).map((e) => [e.name, e.mode]),
      [
        ['SKILL.md', 0o100644],
        ['a/one.txt', 0o100755],
        ['b/two.txt', 0o100644],
        ['z.md', 0o100644],
      ],
    );
  });

  it('skips .git, node_modules, .env and .env.* everywhere, and what .skillignore lists (gitignore syntax)', async () => {
    const dir = writeTree(fresh('ignore'), {
      'SKILL.md': skillMdText('ignore'),
      '.skillignore': '# comments and blank lines are allowed\n\n*.log\n!keep.log\n/build/\ntmp\n',
      'keep.log': 'kept by negation\n',
      'debug.log': 'x',
      'sub/trace.log': 'x',
      'build/out.js': 'x',
      'sub/build/kept.js': 'only the root build/ is anchored\n',
      'tmp/cache': 'x',
      'sub/tmp': 'x',
      '.env': 'x',
      'sub/.env.production': 'x',
      '.envrc': 'not an .env file: kept\n',
      '.git/config': 'x',
      'sub/node_modules/dep.js': 'x',
      '.github/workflows/ci.yml': 'kept: only .git itself is skipped\n',
    });
    const { files, skipped } = await collectFiles(dir);
    assert.deepEqual(
      files.map((f) => f.path),
      ['.envrc', '.github/workflows/ci.yml', 'SKILL.md', 'keep.log', 'sub/build/kept.js'],
    );
    assert.deepEqual(skipped, [
      '.env',
      '.git/',
      '.skillignore',
      'build/',
      'debug.log',
      'sub/.env.production',
      'sub/node_modules/',
      'sub/tmp',
      'sub/trace.log',
      'tmp/',
    ]);
  });

  it('refuses symbolic links unless .skillignore excludes them', async () => {
    const dir = writeTree(fresh('link'), { 'SKILL.md': skillMdText('link'), 'real.txt': 'x' });
    symlinkSync('real.txt', path.join(dir, 'alias.txt'));
    await assert.rejects(
      collectFiles(dir),
      (error: unknown) => error instanceof CliError && error.exitCode === 8 && error.message.includes('alias.txt is a symbolic link'),
    );
    writeFileSync(path.join(dir, '.skillignore'), 'alias.txt\n');
    assert.deepEqual(
      (await collectFiles(dir)).files.map((f) => f.path),
      ['SKILL.md', 'real.txt'],
    );
  });

  it("stores a large, very compressible file uncompressed, so the registry's ratio limit accepts it", async () => {
    const dir = writeTree(fresh('ratio'), { 'SKILL.md': skillMdText('ratio'), 'data/zeros.csv': Buffer.alloc(1024 * 1024, '0,') });
    const packed = await pack(dir);
    const entries = await zipEntries(packed.file);
    assert.deepEqual(
      entries.map((e) => [e.name, e.method]),
      [
        ['SKILL.md', 8],
        ['data/zeros.csv', 0],
      ],
    );
    const { inspection } = await inspectLocalArchive(packed.file);
    assert.deepEqual(
      inspection.files.map((f) => [f.path, f.size]),
      [
        ['SKILL.md', skillMdText('ratio').length],
        ['data/zeros.csv', 1024 * 1024],
      ],
    );
  });
});

describe("install extraction: the registry's package rules before any byte is written", () => {
  it("writes exactly the package's files, and strips a single top-level folder holding SKILL.md", async () => {
    const archive = fresh('nested.tgz');
    writeFileSync(
      archive,
      await tarGz(
        [
          { path: 'pdf-tools/SKILL.md', content: skillMdText('pdf-tools') },
          { path: 'pdf-tools/scripts/run.py', content: 'print(1)\n' },
        ],
        ['pdf-tools/', 'pdf-tools/scripts/'],
      ),
    );
    const dir = fresh('out');
    const result = await extractPackage(archive, dir);
    assert.equal(result.stripped, 'pdf-tools/');
    assert.deepEqual(Object.keys(readTree(dir)), ['SKILL.md', 'scripts/run.py']);
    assert.equal(readFileSync(path.join(dir, 'scripts/run.py'), 'utf8'), 'print(1)\n');

    // Files beside the folder: nothing is stripped, nothing is dropped.
    const mixed = fresh('mixed.zip');
    writeFileSync(
      mixed,
      await zip([
        { path: 'x/SKILL.md', content: skillMdText('x') },
        { path: 'README.md', content: 'r' },
      ]),
    );
    const out = fresh('out');
    assert.equal((await extractPackage(mixed, out)).stripped, null);
    assert.deepEqual(Object.keys(readTree(out)), ['README.md', 'x/SKILL.md']);
  });

  for (const [label, entries] of [
    [
      'a ".." path',
      [
        { name: 'SKILL.md', data: skillMdText('evil') },
        { name: '../evil.txt', data: 'x' },
      ],
    ],
    [
      'an absolute path',
      [
        { name: 'SKILL.md', data: skillMdText('evil') },
        { name: '/tmp/evil.txt', data: 'x' },
      ],
    ],
    [
      'a backslash path',
      [
        { name: 'SKILL.md', data: skillMdText('evil') },
        { name: '..\\evil.txt', data: 'x' },
      ],
    ],
    [
      'a symbolic link',
      [
        { name: 'SKILL.md', data: skillMdText('evil') },
        { name: 'link', data: '/etc/passwd', externalAttributes: (0o120777 << 16) >>> 0, versionMadeBy: (3 << 8) | 20 },
      ],
    ],
  ] as const) {
    it(`refuses a package with ${label} and writes nothing`, async () => {
      const archive = fresh('evil.zip');
      writeFileSync(archive, buildZip(entries.map((e) => ({ ...e }))));
      const dir = fresh('out');
      await assert.rejects(extractPackage(archive, dir), (error: unknown) => {
        assert.ok(error instanceof CliError);
        assert.equal(error.exitCode, 8);
        assert.match(error.message, /^The downloaded package is refused: /);
        return true;
      });
      assert.ok(!existsSync(dir), 'not even the folder was created');
    });
  }
});
