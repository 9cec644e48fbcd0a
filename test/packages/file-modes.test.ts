/**
 * Executable files: inspection keeps the owner's execute bit of each file, from archives made by real tools (the
 * command line's packer, Python's zipfile, Info-ZIP's zip, GNU tar), and nothing else of the mode.
 */
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { archiveWith, skillFolder, type ArchiveTool } from '../helpers/mode-archives.js';
import { removeDir, tempDir } from '../cli-commands/harness.js';
import { bufferSource, rawTar, tarHeader, withChecksum } from './helpers.js';
import { gz } from './tar-builder.js';
import { buildZip, unixMode } from './zip-builder.js';

const root = tempDir('skreg-modes-');
after(() => removeDir(root));

async function executables(bytes: Buffer): Promise<Record<string, boolean>> {
  const inspection = await inspectPackage(bufferSource(bytes));
  return Object.fromEntries(inspection.files.map((f) => [f.path, f.executable]));
}

const TOOLS: ArchiveTool[] = ['packer', 'python-zipfile', 'info-zip', 'gnu-tar'];

describe('executable files', () => {
  for (const tool of TOOLS) {
    it(`keeps the execute bit of a 0755 script in an archive made by ${tool}`, async () => {
      const dir = skillFolder(path.join(root, `skill-${tool}`), 'runner');
      assert.deepEqual(await executables(await archiveWith(tool, dir)), {
        'SKILL.md': false,
        'scripts/notes.txt': false,
        'scripts/run.sh': true,
      });
    });
  }

  for (const tool of ['python-zipfile', 'info-zip', 'gnu-tar'] as const) {
    it(`reads a setuid script (04755) made by ${tool} as executable, and nothing more`, async () => {
      const dir = skillFolder(path.join(root, `setuid-${tool}`), 'setuid-runner');
      chmodSync(path.join(dir, 'scripts', 'run.sh'), 0o4755);
      chmodSync(path.join(dir, 'scripts', 'notes.txt'), 0o6644);
      const files = await executables(await archiveWith(tool, dir));
      assert.equal(files['scripts/run.sh'], true);
      assert.equal(files['scripts/notes.txt'], false, 'setuid and setgid alone do not make a file executable');
    });
  }

  it('reads the owner bit only: 0700 is executable, 0644 and 0011 are not', async () => {
    const header = (name: string, mode: string) => {
      const block = tarHeader({ name, size: 1 });
      block.write(`${mode}\0`, 100, 'latin1');
      return withChecksum(block);
    };
    const bytes = gz(
      rawTar([
        { header: header('a.sh', '0000700'), data: Buffer.from('a') },
        { header: header('b.txt', '0000644'), data: Buffer.from('b') },
        { header: header('c.sh', '0000011'), data: Buffer.from('c') },
      ]),
    );
    assert.deepEqual(await executables(bytes), { 'a.sh': true, 'b.txt': false, 'c.sh': false });
  });

  it('takes a zip mode only from a Unix or macOS host', async () => {
    const made = (host: number) => ((host << 8) | 20) >>> 0;
    const bytes = buildZip([
      { name: 'unix.sh', data: 'a', versionMadeBy: made(3), externalAttributes: unixMode(0o100755) },
      { name: 'mac.sh', data: 'b', versionMadeBy: made(19), externalAttributes: unixMode(0o100755) },
      { name: 'dos.sh', data: 'c', versionMadeBy: made(0), externalAttributes: unixMode(0o100755) },
      { name: 'ntfs.sh', data: 'd', versionMadeBy: made(11), externalAttributes: unixMode(0o100755) },
      { name: 'plain.sh', data: 'e', versionMadeBy: made(3), externalAttributes: unixMode(0o100644) },
      { name: 'untyped.sh', data: 'f', versionMadeBy: made(3), externalAttributes: unixMode(0o755) },
    ]);
    assert.deepEqual(await executables(bytes), {
      'dos.sh': false,
      'mac.sh': true,
      'ntfs.sh': false,
      'plain.sh': false,
      'unix.sh': true,
      'untyped.sh': true,
    });
  });
});
