/**
 * A refused package lists every problem inspection found, entry by entry, SKILL.md's and its absence included, not
 * only the first; at most MAX_LISTED_PROBLEMS of them, with the detail counting them all.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { MAX_LISTED_PROBLEMS } from '@skill-registry/skill-package/collector';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { PackageError } from '@skill-registry/skill-package/types';
import { bufferSource, rawTar, skillMd, tarGz, tarHeader, yazlZip } from './helpers.js';
import { gz } from './tar-builder.js';
import { buildZip, unixMode } from './zip-builder.js';

async function refusal(bytes: Buffer): Promise<PackageError> {
  try {
    await inspectPackage(bufferSource(bytes));
  } catch (error) {
    if (error instanceof PackageError) return error;
    throw error;
  }
  assert.fail('the package was accepted');
}

function listed(error: PackageError): string[] {
  return error.problems.map((p) => `${p.field} ${p.entry ?? '-'}: ${p.message}`);
}

describe('a refusal lists every problem', () => {
  it('names an escaping path and the missing SKILL.md together (zip)', async () => {
    const error = await refusal(
      buildZip([
        { name: '../escape.txt', data: 'x' },
        { name: 'notes.txt', data: 'fine' },
      ]),
    );
    assert.equal(error.status, 422);
    assert.equal(error.code, 'invalid_archive');
    assert.deepEqual(
      error.problems.map((p) => [p.field, p.entry]),
      [
        ['file', '../escape.txt'],
        ['skill_md', undefined],
      ],
    );
    assert.match(error.problems[1]!.message, /no SKILL\.md/);
    assert.match(error.detail, /"\.\.\/escape\.txt"/);
    assert.match(error.detail, /2 problems in all; each is listed in errors/);
  });

  it('lists bad names, types, a corrupt entry and an invalid SKILL.md of one zip, in archive order', async () => {
    const corrupt = deflateRawSync(Buffer.from('some text'));
    const error = await refusal(
      buildZip([
        { name: 'SKILL.md', data: '---\nname: x\ndescription: [unclosed\n---\n' },
        { name: '/etc/passwd', data: 'root' },
        { name: 'link', data: 'target', externalAttributes: unixMode(0o120777) },
        { name: 'bad.txt', data: 'some text', rawData: Buffer.concat([corrupt.subarray(0, 3), Buffer.alloc(corrupt.length - 3)]) },
        { name: 'a\\b.txt', data: 'x' },
        { name: 'ok.txt', data: 'fine' },
        { name: 'OK.txt', data: 'also fine' },
      ]),
    );
    assert.equal(error.code, 'invalid_archive');
    const entries = error.problems.map((p) => p.entry);
    assert.deepEqual(entries, ['/etc/passwd', 'link', 'a\\b.txt', 'OK.txt', 'bad.txt', 'SKILL.md'], listed(error).join('\n'));
    assert.match(error.problems.at(-1)!.message, /invalid YAML/);
    assert.equal(error.problems.at(-1)!.field, 'skill_md');
  });

  it('lists links, escaping paths and collisions of a tar.gz, and goes on reading after them', async () => {
    const error = await refusal(
      await tarGz([
        { name: 'SKILL.md', data: skillMd() },
        { name: 'up', type: 'symlink', linkname: '../../etc' },
        { name: '../escape.txt', data: 'x' },
        { name: 'hard', type: 'link', linkname: 'SKILL.md' },
        { name: 'Readme.md', data: 'a' },
        { name: 'README.md', data: 'b' },
        { name: 'fifo', type: 'fifo' },
      ]),
    );
    assert.deepEqual(
      error.problems.map((p) => p.entry),
      ['up', '../escape.txt', 'hard', 'README.md', 'fifo'],
      listed(error).join('\n'),
    );
    assert.match(error.detail, /"up" is refused: it is a symbolic link/);
  });

  it('keeps the problems found before a fault that ends the reading', async () => {
    const header = tarHeader({ name: 'broken', size: 3 });
    header[0] = 0x42; // the checksum no longer matches: no header after it can be trusted
    const error = await refusal(
      gz(
        rawTar([
          { header: tarHeader({ name: '../escape.txt', size: 1 }), data: Buffer.from('x') },
          { header, data: Buffer.from('abc') },
          { header: tarHeader({ name: '/abs.txt', size: 1 }), data: Buffer.from('y') },
        ]),
      ),
    );
    // The header that cannot be read ends it (naming the entry before it too, whose data may run long); the entry
    // after it is never read.
    assert.deepEqual(
      error.problems.map((p) => p.entry),
      ['../escape.txt', 'Broken', '../escape.txt'],
    );
    assert.match(error.problems[1]!.message, /checksum/);
    assert.match(error.problems[2]!.message, /not a valid header/);
  });

  it(`lists at most ${MAX_LISTED_PROBLEMS} problems and counts the rest`, async () => {
    const error = await refusal(
      buildZip([
        { name: 'SKILL.md', data: skillMd() },
        ...Array.from({ length: 70 }, (_, i) => ({ name: `../escape-${i}.txt`, data: 'x' })),
      ]),
    );
    assert.equal(error.problems.length, MAX_LISTED_PROBLEMS);
    assert.equal(error.problems[0]!.entry, '../escape-0.txt');
    assert.match(error.detail, new RegExp(`70 problems in all; the first ${MAX_LISTED_PROBLEMS} are listed in errors`));
  });

  it('answers one problem as before when there is one', async () => {
    const error = await refusal(await yazlZip([{ name: 'SKILL.md', data: '---\nname: x\n---\n' }]));
    assert.equal(error.code, 'invalid_skill_md');
    assert.equal(error.problems.length, 1);
    assert.doesNotMatch(error.detail, /problems in all/);
  });

  it('still accepts a package with no problem (and only warns of a missing SKILL.md)', async () => {
    const inspection = await inspectPackage(bufferSource(await yazlZip([{ name: 'notes.txt', data: 'hello' }])));
    assert.deepEqual(
      inspection.warnings.map((w) => w.code),
      ['skill_md_missing'],
    );
  });
});
