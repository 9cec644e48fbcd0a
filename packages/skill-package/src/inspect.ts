/**
 * Package inspection: what the registry knows about an uploaded archive before it stores it.
 * Pure: no HTTP, no database; reads through a RandomAccessSource.
 *
 * - Format by magic bytes, never by name (format.ts): `PK\x03\x04` (or `PK\x05\x06`, an empty zip) is a zip,
 *   `\x1f\x8b\x08` a gzip that must hold a tar (see tar.ts for when a gzip is 415 and when 422). Anything
 *   else, an empty upload included, is a 415 unsupported_media_type.
 * - Every refusal is a PackageError: 415 unsupported_media_type, 422 invalid_archive (the rule and the entry
 *   in `problems`: { field: 'file', entry, message }) or 422 invalid_skill_md. Errors from the source itself
 *   (storage faults) are rethrown untouched: they are not the uploader's fault.
 * - A refusal lists every problem the reading found, entry by entry (at most MAX_LISTED_PROBLEMS, collector.ts),
 *   SKILL.md's included, not only the first.
 * - What the registry lists must be exactly what unzip, GNU tar and Python's zipfile and tarfile unpack: the
 *   readers here are strict and refuse whatever those could read differently (test/packages/differential.test.ts
 *   extracts every accepted package with all of them and compares).
 * - Rules and limits: paths.ts (names), zip-layout.ts (zip end records and central directory), zip.ts (zip
 *   entries, ratios), gzip.ts (one gzip member), tar-header.ts and tar.ts (tar headers, pax, entries),
 *   byte-reader.ts (front-to-back reading), collector.ts (counts, collisions, SKILL.md location), skill-md.ts
 *   (front matter), scan/ (the package scanner, fed every file's bytes in the same pass; its report is
 *   Inspection.scan; session.ts decides on which thread it runs), nested.ts (archives inside the package, opened for
 *   the scanner after that pass). The readers report to the collector through entry-sink.ts and refuse through
 *   refusal.ts; they know nothing of the scanner.
 */
import type { Readable } from 'node:stream';
import type { RandomAccessSource } from './source.js';
import { PackageCollector, type Collected, type ScanTarget } from './collector.js';
import { detectArchiveFormat, FORMAT_SNIFF_BYTES } from './format.js';
import { readRange } from './source.js';
import { inlineScans, type Scans } from './scan/session.js';
import { openTarGzEntry, readTarGz } from './tar.js';
import { DEFAULT_LIMITS, PackageError, type ArchiveFormat, type Inspection, type PackageLimits } from './types.js';
import { openZipEntry, readZip } from './zip.js';

export { contentTypeFor, isTextPath, checkEntryPath } from './paths.js';
export { parseSkillMd, SKILL_MD_MAX_BYTES } from './skill-md.js';
export { RATIO_FLOOR_BYTES } from './zip.js';
export { TAR_RATIO_FLOOR_BYTES } from './tar.js';
export { scanFiles, type ScanInputFile } from './scan/scan-files.js';
export { inlineScans, type ScanSession, type Scans } from './scan/session.js';

function unsupported(detail: string): PackageError {
  return new PackageError(415, 'unsupported_media_type', detail, [{ field: 'file', message: 'not a zip or gzip-compressed tar archive' }]);
}

/** The archive format by magic bytes; PackageError 415 when it is neither. (A gzip is only checked to be a tar later.) */
export async function detectFormat(source: RandomAccessSource): Promise<ArchiveFormat> {
  if (source.size === 0) throw unsupported('The upload is empty; upload a zip or a .tar.gz archive.');
  const format = detectArchiveFormat(await readRange(source, 0, Math.min(FORMAT_SNIFF_BYTES, source.size)));
  if (format === null)
    throw unsupported('The upload is not a zip or a gzip-compressed tar archive (recognised by content, not by file name).');
  return format;
}

function resolveLimits(limits: Partial<PackageLimits> | undefined): PackageLimits {
  const out: PackageLimits = { ...DEFAULT_LIMITS };
  for (const key of ['maxEntries', 'maxTotalBytes', 'maxRatio'] as const) {
    const value = limits?.[key];
    if (value !== undefined) {
      if (!(typeof value === 'number' && value > 0)) throw new RangeError(`Package limit ${key} must be a positive number.`);
      out[key] = value;
    }
  }
  return out;
}

/** How a package is inspected, beyond its limits. */
export interface InspectOptions {
  /** Where its files are scanned: on this thread unless told otherwise (worker-scans.ts scans on worker threads). */
  scans?: Scans;
}

/**
 * Reads the whole archive, checks every rule, and describes it. Throws PackageError when it is refused.
 * `limits` defaults to DEFAULT_LIMITS; a partial object overrides only what it names.
 */
export async function inspectPackage(
  source: RandomAccessSource,
  limits?: Partial<PackageLimits>,
  options: InspectOptions = {},
): Promise<Inspection> {
  const resolved = resolveLimits(limits);
  const format = await detectFormat(source);
  const session = (options.scans ?? inlineScans).session();
  try {
    const { inspection, skillMd } = await read(source, format, resolved, session);
    return { ...inspection, scan: await session.finish(skillMd) };
  } finally {
    session.abort();
  }
}

/** One pass over the archive: every rule checked, every file handed to `scanner`; a refusal lists every problem found. */
async function read(source: RandomAccessSource, format: ArchiveFormat, limits: PackageLimits, scanner: ScanTarget): Promise<Collected> {
  const collector = new PackageCollector(limits, scanner, undefined, { collecting: true });
  try {
    if (format === 'zip') await readZip(source, collector);
    else await readTarGz(source, collector);
  } catch (error) {
    throw collector.failure(error);
  }
  return collector.finish(format);
}

/**
 * A stream of one file's bytes, or null when the archive has no file at `path` (the normalised path, as
 * listed in Inspection.files: no leading `./`). Meant for archives inspectPackage accepted.
 */
export async function openPackageEntry(source: RandomAccessSource, format: ArchiveFormat, path: string): Promise<Readable | null> {
  if (path === '' || path.endsWith('/')) return null;
  return format === 'zip' ? openZipEntry(source, path) : openTarGzEntry(source, path);
}
