/**
 * Archives found inside a package (a zip, a tar, a gzip-compressed tar or file), opened and scanned like the
 * package's own files, so that what an archive hides is judged rather than only reported as unknown.
 *
 * Read with the package's own strict readers (zip.ts, tar.ts, gzip.ts), under limits of their own: an archive that
 * they refuse, or that breaks a limit, is reported unopened with the reason, as is a format the registry does not
 * read (7z, RAR, xz, bzip2, zstd). Findings in its files name them as `<archive path>!/<path inside>`.
 *
 * Bounds, so a hostile package cannot make a scan costly: the archives' own bytes are kept within
 * NESTED_CAPTURE_TOTAL (file-scanner.ts), each archive may hold NESTED_LIMITS, all of them together
 * NESTED_TOTAL_BYTES of files in NESTED_TOTAL_ENTRIES entries, and archives are opened NESTED_DEPTH_MAX deep (an
 * archive, and one inside it).
 */
import { PackageCollector } from './collector.js';
import { gunzipSingle } from './gzip.js';
import { NESTED_CAPTURE_TOTAL } from './scan/file-scanner.js';
import type { NestedArchive, PackageScanner } from './scan/scanner.js';
import { bufferSource, type RandomAccessSource } from './source.js';
import type { PackageLimits } from './entry-sink.js';
import { PackageError, quote, refuse } from './refusal.js';
import { readTar, readTarGz, TAR_RATIO_FLOOR_BYTES } from './tar.js';
import { readZip } from './zip.js';

const MIB = 1024 * 1024;

/** How many archives deep files are read: an archive in the package, and an archive inside that one. */
export const NESTED_DEPTH_MAX = 2;

/** What one archive inside a package may hold. */
export const NESTED_LIMITS: PackageLimits = { maxEntries: 1_000, maxTotalBytes: 32 * MIB, maxRatio: 100 };

/** Uncompressed bytes read from all the archives of one package together. */
export const NESTED_TOTAL_BYTES = 64 * MIB;

/** Entries read from all the archives of one package together: thousands of small archives cost by their entries. */
export const NESTED_TOTAL_ENTRIES = 5_000;

/** Why an archive whose bytes were kept is left unopened, or null to open it. */
function reasonNotToOpen(archive: NestedArchive, left: number, entriesLeft: number): string | null {
  if (archive.opens === null) return `the registry does not read ${archive.what.replace(/^an? /, '')}s`;
  if (archive.depth >= NESTED_DEPTH_MAX)
    return `it lies inside ${archive.depth} archives, and the registry opens them ${NESTED_DEPTH_MAX} deep`;
  if (left <= 0)
    return `the archives in this package hold more than the ${NESTED_TOTAL_BYTES / MIB} MiB of files the registry reads from them`;
  if (entriesLeft <= 0)
    return `the archives in this package hold more than the ${NESTED_TOTAL_ENTRIES.toLocaleString('en-US')} entries the registry reads from them`;
  return null;
}

/** A refusal of the strict readers, as the reason an archive was left unopened. */
function refusal(error: PackageError): string {
  const problem = error.problems[0];
  if (problem === undefined) return `its reader refused it (${error.detail})`;
  return `its reader refused it (${problem.entry === undefined ? '' : `${quote(problem.entry)}: `}${problem.message})`;
}

/** A gzip stream that holds no tar: one compressed file, named as the stream is without `.gz`. */
async function readGzipFile(source: RandomAccessSource, path: string, collector: PackageCollector): Promise<void> {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.(?:gz|gzip)$/i, '') || 'data';
  collector.countEntry(name);
  collector.reserveFile(name, name);
  const file = collector.openFile(name);
  let total = 0;
  for await (const chunk of gunzipSingle(source)) {
    total += chunk.length;
    if (total > TAR_RATIO_FLOOR_BYTES && total > collector.limits.maxRatio * source.size) {
      throw refuse(name, `it decompresses to more than ${collector.limits.maxRatio} times its size`);
    }
    collector.addBytes(name, chunk.length);
    file.push(chunk);
  }
  file.end();
  collector.recordFile(name, total);
}

async function read(archive: NestedArchive, bytes: Buffer, collector: PackageCollector): Promise<void> {
  const source = bufferSource(bytes);
  if (archive.opens === 'zip') return readZip(source, collector);
  if (archive.opens === 'tar') return readTar(source, collector);
  try {
    await readTarGz(source, collector);
  } catch (error) {
    // A gzip stream whose content is no tar: the one file it compresses.
    if (!(error instanceof PackageError && error.status === 415) || collector.fileCount > 0) throw error;
    await readGzipFile(source, archive.path, collector);
  }
}

/**
 * Opens the archives the scanner found, and those found inside them, feeding their files to the same scanner;
 * settles each as opened or unopened (with the reason). Errors other than refusals (none are expected: the
 * bytes are in memory) are thrown.
 */
export async function openNestedArchives(scanner: PackageScanner): Promise<void> {
  let left = NESTED_TOTAL_BYTES;
  let entriesLeft = NESTED_TOTAL_ENTRIES;
  for (let found = scanner.takeArchives(); found.length > 0; found = scanner.takeArchives()) {
    for (const archive of found) {
      if (archive.bytes === null) {
        const why = `the archives in this package are larger than the ${NESTED_CAPTURE_TOTAL / MIB} MiB the registry opens`;
        scanner.settleArchive(archive, { unopened: why });
        continue;
      }
      const why = reasonNotToOpen(archive, left, entriesLeft);
      if (why !== null) {
        scanner.settleArchive(archive, { unopened: why });
        continue;
      }
      const limits = {
        ...NESTED_LIMITS,
        maxEntries: Math.min(NESTED_LIMITS.maxEntries, entriesLeft),
        maxTotalBytes: Math.min(NESTED_LIMITS.maxTotalBytes, left),
      };
      const collector = new PackageCollector(limits, scanner, { prefix: `${archive.path}!/`, depth: archive.depth + 1 });
      try {
        await read(archive, archive.bytes, collector);
        scanner.settleArchive(archive, { opened: collector.fileCount });
      } catch (error) {
        if (!(error instanceof PackageError)) throw error;
        scanner.settleArchive(archive, { unopened: refusal(error) });
      } finally {
        left -= collector.totalBytes;
        entriesLeft -= collector.entries;
      }
    }
  }
}
