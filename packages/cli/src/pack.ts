/**
 * Packing a skill folder for publication: which files go in, and a deterministic zip of them.
 *
 * Files: everything under the folder except `.git`, `node_modules`, `.env` and `.env.*` (at any depth), the
 * `.skillignore` file itself, and what `.skillignore` (gitignore syntax, one file at the folder's root) excludes.
 * Symbolic links and other special files are refused: a package holds regular files only.
 *
 * Determinism: the same files give the same bytes, whoever packs them, wherever and whenever. Entries are
 * sorted by path (code-unit order), every entry has the same timestamp (1980-01-02 00:00, with no extended
 * timestamp field) and mode 0644, or 0755 for a file its owner may execute (the one permission bit a package
 * keeps: a script's instructions run `./scripts/x.py`), there are no directory entries, and deflate runs at level 6. A
 * file of 64 KiB or more that deflates beyond the registry's ratio limit is stored uncompressed, so a large
 * repetitive text file is not mistaken for a zip bomb.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflateRaw } from 'node:zlib';
import ignore, { type Ignore } from 'ignore';
import yazl from 'yazl';
import { RATIO_FLOOR_BYTES } from '@skill-registry/skill-package/inspect';
import { comparePaths } from '@skill-registry/skill-package/paths';
import { DEFAULT_LIMITS } from '@skill-registry/skill-package/types';
import { CliError, EXIT } from './exit-codes.js';

export const IGNORE_FILE = '.skillignore';
const COMPRESSION_LEVEL = 6;
const FILE_MODE = 0o100644;
const EXECUTABLE_MODE = 0o100755;
/** The owner's execute bit, which makes a packed file executable (as git reads a mode). */
const S_IXUSR = 0o100;

export interface PackFile {
  /** `/`-separated, relative to the folder. */
  path: string;
  absolute: string;
  size: number;
  /** Whether its owner may execute it: packed with mode 0755 rather than 0644. */
  executable: boolean;
}

export interface Collected {
  files: PackFile[];
  /** Paths left out, for `--dry-run` output (a skipped folder is listed once, with a trailing `/`). */
  skipped: string[];
}

function alwaysSkipped(name: string): boolean {
  return name === '.git' || name === 'node_modules' || name === '.env' || name.startsWith('.env.');
}

async function loadIgnore(dir: string): Promise<Ignore> {
  const rules = ignore();
  try {
    rules.add(await readFile(path.join(dir, IGNORE_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return rules;
}

/** The files a folder's package holds, sorted by path. */
export async function collectFiles(dir: string): Promise<Collected> {
  const rules = await loadIgnore(dir);
  const files: PackFile[] = [];
  const skipped: string[] = [];
  const walk = async (relativeDir: string): Promise<void> => {
    const absoluteDir = path.join(dir, ...relativeDir.split('/').filter(Boolean));
    const entries = await readdir(absoluteDir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const absolute = path.join(absoluteDir, entry.name);
      if (entry.isDirectory()) {
        if (alwaysSkipped(entry.name) || rules.ignores(`${rel}/`)) skipped.push(`${rel}/`);
        else await walk(rel);
      } else if (entry.isFile()) {
        if (alwaysSkipped(entry.name) || rel === IGNORE_FILE || rules.ignores(rel)) skipped.push(rel);
        else {
          const stats = await lstat(absolute);
          files.push({ path: rel, absolute, size: stats.size, executable: (stats.mode & S_IXUSR) !== 0 });
        }
      } else if (alwaysSkipped(entry.name) || rules.ignores(rel)) {
        skipped.push(rel);
      } else {
        const what = entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
        throw new CliError(
          `${rel} is ${what}; a package holds regular files only. Replace it with a file, or list it in ${IGNORE_FILE}.`,
          EXIT.invalidPackage,
        );
      }
    }
  };
  await walk('');
  files.sort((a, b) => comparePaths(a.path, b.path));
  skipped.sort(comparePaths);
  return { files, skipped };
}

async function deflatedSize(file: string): Promise<number> {
  let size = 0;
  await pipeline(
    createReadStream(file),
    createDeflateRaw({ level: COMPRESSION_LEVEL }),
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback();
      },
    }),
  );
  return size;
}

/** Whether deflating the file would trip the registry's compression-ratio limit. */
async function mustStore(file: PackFile): Promise<boolean> {
  if (file.size < RATIO_FLOOR_BYTES) return false;
  return file.size > DEFAULT_LIMITS.maxRatio * (await deflatedSize(file.absolute));
}

/**
 * The fixed entry time, built from local fields when packing starts: zip stores local wall-clock time, which
 * yazl reads back with local getters, so the stored fields are 1980-01-02 00:00 in every time zone. (A day past
 * the DOS epoch, so yazl's clamp of earlier times, computed in the time zone it was loaded in, never applies.)
 */
function fixedTime(): Date {
  return new Date(1980, 0, 2, 0, 0, 0);
}

/** Writes the zip to `out`; resolves with its size and sha256. */
export async function packZip(files: PackFile[], out: string): Promise<{ size: number; sha256: string }> {
  const zip = new yazl.ZipFile();
  const mtime = fixedTime();
  for (const file of files) {
    const store = await mustStore(file);
    zip.addReadStreamLazy(
      file.path,
      {
        size: file.size,
        mtime,
        mode: file.executable ? EXECUTABLE_MODE : FILE_MODE,
        compressionLevel: store ? 0 : COMPRESSION_LEVEL,
        forceDosTimestamp: true,
      },
      (callback) => callback(null, createReadStream(file.absolute)),
    );
  }
  zip.end();
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    zip.outputStream,
    async function* (source: AsyncIterable<Buffer | string>) {
      for await (const chunk of source) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        hash.update(bytes);
        size += bytes.length;
        yield bytes;
      }
    },
    createWriteStream(out, { flags: 'wx', mode: 0o600 }),
  );
  return { size, sha256: hash.digest('hex') };
}
