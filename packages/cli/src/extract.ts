/**
 * Safe extraction of a downloaded package. The archive is first checked by the registry's own inspector (the
 * same path, size, ratio and SKILL.md rules uploads pass), then each file it listed is written below a fresh
 * directory, re-checking that every target stays inside it. Nothing is ever written outside that directory,
 * and no link or device from the archive is reproduced. Of its permission bits one is kept: a file the archive marks
 * executable (its owner's execute bit, Inspection.files[].executable) is written 0755, every other file 0644, folders
 * 0755; never setuid, setgid or sticky, whatever the archive says. Each file is created new (O_EXCL, so never through
 * a link) and its mode set on the open file itself (fchmod), never by path, whatever the umask.
 */
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { openPackageEntry } from '@skill-registry/skill-package/inspect';
import { checkEntryPath } from '@skill-registry/skill-package/paths';
import type { Inspection } from '@skill-registry/skill-package/types';
import { CliError, EXIT } from './exit-codes.js';
import { inspectLocalArchive } from './local-package.js';

export interface Extracted {
  inspection: Inspection;
  /** The package's files as written, relative to the directory. */
  files: string[];
  /** The single top-level folder holding SKILL.md that was stripped (`pdf-tools/`), or null. */
  stripped: string | null;
}

/**
 * The folder to strip: when SKILL.md sits inside one top-level folder and every file is inside that folder,
 * the skill's files are that folder's contents (agents look for `<skills dir>/<slug>/SKILL.md`).
 */
export function strippedPrefix(inspection: Inspection): string | null {
  const at = inspection.skillMdPath?.indexOf('/') ?? -1;
  if (inspection.skillMdPath === null || at === -1) return null;
  const prefix = inspection.skillMdPath.slice(0, at + 1);
  return inspection.files.every((f) => f.path.startsWith(prefix)) ? prefix : null;
}

function inside(root: string, relative: string): string {
  const checked = checkEntryPath(relative);
  if (!checked.ok || checked.isDirectory || checked.path !== relative) {
    throw new CliError(`The package holds an unsafe path ${JSON.stringify(relative)}; nothing was installed.`, EXIT.invalidPackage);
  }
  const target = path.resolve(root, ...relative.split('/'));
  const rel = path.relative(root, target);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new CliError(
      `The package path ${JSON.stringify(relative)} leads outside the skill's folder; nothing was installed.`,
      EXIT.invalidPackage,
    );
  }
  return target;
}

/**
 * Checks `archive` and writes its files into `dir`, which must not exist yet. `accept` sees the inspection (with
 * the scanner's report) before anything is written, and throws to stop.
 */
export async function extractPackage(archive: string, dir: string, accept?: (inspection: Inspection) => void): Promise<Extracted> {
  const { inspection, source } = await inspectLocalArchive(archive, 'The downloaded package is refused: ');
  accept?.(inspection);
  const prefix = strippedPrefix(inspection);
  await mkdir(dir, { mode: 0o755 });
  const written: string[] = [];
  for (const file of inspection.files) {
    const relative = prefix === null ? file.path : file.path.slice(prefix.length);
    const target = inside(dir, relative);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    const entry = await openPackageEntry(source, inspection.format, file.path);
    if (entry === null)
      throw new CliError(`The package lists ${file.path} but does not hold it; nothing was installed.`, EXIT.invalidPackage);
    let size = 0;
    const mode = file.executable ? 0o755 : 0o644;
    const handle = await open(target, 'wx', mode);
    try {
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        size += chunk.length;
        // The inspector already held every entry to its declared size; this guards the second read.
        if (size > file.size)
          throw new CliError(`${file.path} is larger than the package declares; nothing was installed.`, EXIT.invalidPackage);
        for (let at = 0; at < chunk.length;) at += (await handle.write(chunk, at)).bytesWritten;
      }
      // The umask may have taken bits off the mode `open` was given.
      await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    if (size !== file.size)
      throw new CliError(`${file.path} is shorter than the package declares; nothing was installed.`, EXIT.invalidPackage);
    written.push(relative);
  }
  return { inspection, files: written, stripped: prefix };
}
