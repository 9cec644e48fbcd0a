/**
 * Archives of a folder made by the tools people make them with, which keep files' modes: the command line's own packer,
 * Python's zipfile, Info-ZIP's `zip` and GNU tar. For the tests of executable files.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectFiles, packZip } from '@skill-registry/cli/pack';

/** A skill folder with an executable script (mode 0755 unless `scriptMode` says otherwise) and plain files. */
export function skillFolder(dir: string, name: string, scriptMode = 0o755): string {
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Runs its script.\nmetadata:\n  version: 1.0.0\n---\n\nRun \`./scripts/run.sh\`.\n`,
  );
  writeFileSync(path.join(dir, 'scripts', 'run.sh'), '#!/bin/sh\necho "ran $0"\n');
  writeFileSync(path.join(dir, 'scripts', 'notes.txt'), 'not a program\n');
  chmodSync(path.join(dir, 'SKILL.md'), 0o644);
  chmodSync(path.join(dir, 'scripts', 'notes.txt'), 0o644);
  chmodSync(path.join(dir, 'scripts', 'run.sh'), scriptMode);
  return dir;
}

export type ArchiveTool = 'packer' | 'python-zipfile' | 'info-zip' | 'gnu-tar';

const PYTHON_ZIP = `
import os, sys, zipfile
out, root = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for base, dirs, files in sorted(os.walk(root)):
        for f in sorted(files):
            full = os.path.join(base, f)
            z.write(full, os.path.relpath(full, root))
`;

/** The folder's archive as `tool` makes it, written beside the folder; resolves with its bytes. */
export async function archiveWith(tool: ArchiveTool, dir: string): Promise<Buffer> {
  const out = `${dir}.${tool}.${tool === 'gnu-tar' ? 'tar.gz' : 'zip'}`;
  if (tool === 'packer') await packZip((await collectFiles(dir)).files, out);
  else if (tool === 'python-zipfile') execFileSync('python3', ['-c', PYTHON_ZIP, out, dir]);
  else if (tool === 'info-zip') execFileSync('zip', ['-q', '-r', '-X', out, '.'], { cwd: dir });
  else execFileSync('tar', ['-czf', out, '-C', dir, '.']);
  return readFileSync(out);
}
