/**
 * Zip inspection and extraction on top of yauzl, reading through a RandomAccessSource.
 *
 * Decisions:
 * - yauzl is opened with `decodeStrings: false` and `validateEntrySizes: false`: every name and size rule is
 *   checked here instead, so each refusal names the entry (yauzl's own checks fail the whole archive with a
 *   message that does not say which entry). Names are decoded from the raw bytes: with general purpose bit 11
 *   they must be valid UTF-8; without it only pure-ASCII names are accepted (anything else would be CP437,
 *   i.e. not UTF-8). yauzl's behaviour of taking a name from an Info-ZIP Unicode Path extra field (0x7075) is
 *   replaced by a check: when such a field is in force (version 1, matching CRC) it must spell the same name.
 * - Encrypted entries (bit 0; bit 6, strong encryption, makes yauzl fail the archive) and compression methods
 *   other than 0 and 8 are refused. Symlinks and other special files are found in the unix mode (high 16 bits
 *   of the external attributes, when made by Unix (3) or OS X (19)); a mode of 0 means "no information".
 * - Every local header is read and compared with the central directory: name bytes, compression method,
 *   encryption flag, the UTF-8 flag for non-ASCII names, and (unless bit 3, data descriptor, is set) CRC-32
 *   and sizes (zip64 sizes from the local zip64 extra field). Entry data may not overlap another entry or run
 *   into the central directory (overlapping entries are the classic non-recursive zip bomb).
 * - Every file is inflated and counted, whatever it declares: more bytes than declared, fewer, or a CRC-32
 *   mismatch is a refusal. Limits are enforced first on declared sizes (before inflating) and again on the
 *   real bytes as they arrive.
 * - Ratio: an entry is refused when uncompressed > maxRatio × compressed, but only once it is at least
 *   RATIO_FLOOR_BYTES (64 KiB) uncompressed: small files of repetitive text legitimately compress past 100:1,
 *   deflate tops out near 1032:1, and 64 KiB × maxEntries is bounded by the total limit anyway.
 * - A zip whose structure yauzl cannot read (no end of central directory, truncated, bad signatures) is a
 *   422 invalid_archive: it starts like a zip, so it is a broken zip, not an unsupported format.
 */
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { RandomAccessSource } from '../storage/blob-store.js';
import { asPackageError, PackageCollector, quote, refuse } from './collector.js';
import { crc32 } from './crc32.js';
import { checkEntryPath } from './paths.js';
import { openSource, readRange } from './source.js';

export const RATIO_FLOOR_BYTES = 64 * 1024;

const FLAG_ENCRYPTED = 0x1;
const FLAG_DATA_DESCRIPTOR = 0x8;
const FLAG_UTF8 = 0x800;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const CACHE_WINDOW = 64 * 1024;
const CACHE_WINDOWS = 4;
/** Entries with at most this much compressed data are read in one go with their local header. */
const PREFETCH_MAX = 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * yauzl's reader over a RandomAccessSource. Every source.read may cost a request (a file open, an S3 GET),
 * so reads go through a few cached windows (LRU): header reads fetch at least 64 KiB, and scanZip prefetches
 * each small entry's local header and data in one read, which also serves the entry's data stream.
 */
class SourceReader extends yauzl.RandomAccessReader {
  private windows: { start: number; bytes: Buffer }[] = [];

  constructor(private readonly source: RandomAccessSource) {
    super();
  }

  private cached(start: number, end: number): Buffer | null {
    const index = this.windows.findIndex((w) => start >= w.start && end <= w.start + w.bytes.length);
    if (index === -1) return null;
    const window = this.windows[index]!;
    if (index !== 0) {
      this.windows.splice(index, 1);
      this.windows.unshift(window);
    }
    return window.bytes.subarray(start - window.start, end - window.start);
  }

  /** Makes [start, needed) available from memory (clamped to the source), reading at least up to `end`. */
  async prefetch(start: number, needed: number, end = needed): Promise<void> {
    const need = Math.min(this.source.size, needed);
    if (start >= need || this.cached(start, need) !== null) return;
    const bytes = await readRange(this.source, start, Math.min(this.source.size, Math.max(need, end)));
    this.windows.unshift({ start, bytes });
    if (this.windows.length > CACHE_WINDOWS) this.windows.length = CACHE_WINDOWS;
  }

  /** yauzl's `end` is exclusive; ByteRange.end is inclusive. */
  override _readStreamForRange(start: number, end: number): Readable {
    const hit = this.cached(start, end);
    return hit !== null ? Readable.from([hit]) : openSource(this.source, start, end);
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    const end = position + length;
    if (end > this.source.size) {
      setImmediate(callback, new Error('unexpected EOF'));
      return;
    }
    this.prefetch(position, end, position + CACHE_WINDOW).then(
      () => {
        const hit = this.cached(position, end);
        if (hit === null) return callback(new Error('unexpected EOF'));
        hit.copy(buffer, offset);
        callback(null);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
  }
}

function openZip(source: RandomAccessSource, validateEntrySizes: boolean, reader = new SourceReader(source)): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      reader,
      source.size,
      { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes, strictFileNames: true },
      (err, zipfile) => {
        if (err) return reject(err);
        // A late error (nobody iterating) must not crash the process; eachEntry() has its own listener.
        zipfile.on('error', () => {});
        resolve(zipfile);
      },
    );
  });
}

function isAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b > 0x7f) return false;
  return true;
}

/** The entry's name per the UTF-8 rules above, or null when it is not UTF-8. */
export function decodeZipName(raw: Buffer, flags: number): string | null {
  if (flags & FLAG_UTF8) {
    try {
      return utf8.decode(raw);
    } catch {
      return null;
    }
  }
  return isAscii(raw) ? raw.toString('latin1') : null;
}

/** Checks Info-ZIP Unicode Path extra fields that readers would honour: they must agree with the name. */
function unicodePathProblem(extraFields: yauzl.ExtraField[], raw: Buffer, name: string): string | null {
  for (const field of extraFields) {
    if (field.id !== 0x7075 || field.data.length < 6 || field.data[0] !== 1) continue;
    if (field.data.readUInt32LE(1) !== crc32(raw)) continue;
    let alt: string;
    try {
      alt = utf8.decode(field.data.subarray(5));
    } catch {
      return 'its Unicode Path extra field is not valid UTF-8';
    }
    if (alt !== name) return `its Unicode Path extra field names a different path (${quote(alt)})`;
  }
  return null;
}

type UnixKind = 'file' | 'directory' | 'symlink' | 'special' | null;

function unixKind(entry: yauzl.Entry): UnixKind {
  const host = entry.versionMadeBy >>> 8;
  if (host !== 3 && host !== 19) return null;
  const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const type = mode & S_IFMT;
  if (type === 0) return null;
  if (type === S_IFREG) return 'file';
  if (type === S_IFDIR) return 'directory';
  if (type === S_IFLNK) return 'symlink';
  return 'special';
}

function readUInt64LE(buf: Buffer, offset: number): number {
  return buf.readUInt32LE(offset + 4) * 0x100000000 + buf.readUInt32LE(offset);
}

/** The ways a local header disagrees with its central directory record (empty when they agree). */
function localHeaderMismatches(entry: yauzl.Entry, local: yauzl.LocalFileHeader, nonAsciiName: boolean): string[] {
  const out: string[] = [];
  if (!local.fileName.equals(entry.fileNameRaw)) out.push('file name');
  if (local.compressionMethod !== entry.compressionMethod) out.push('compression method');
  const flagDiff = local.generalPurposeBitFlag ^ entry.generalPurposeBitFlag;
  if (flagDiff & FLAG_ENCRYPTED) out.push('encryption flag');
  if (flagDiff & FLAG_UTF8 && nonAsciiName) out.push('UTF-8 flag');
  if (!(local.generalPurposeBitFlag & FLAG_DATA_DESCRIPTOR)) {
    if (local.crc32 >>> 0 !== entry.crc32 >>> 0) out.push('CRC-32');
    let compressed = local.compressedSize;
    let uncompressed = local.uncompressedSize;
    if (compressed === 0xffffffff || uncompressed === 0xffffffff) {
      let zip64: Buffer | null = null;
      try {
        zip64 = yauzl.parseExtraFields(local.extraField).find((f) => f.id === 0x0001)?.data ?? null;
      } catch {
        zip64 = null;
      }
      if (zip64 === null || zip64.length < 16) {
        out.push('zip64 sizes');
        return out;
      }
      uncompressed = readUInt64LE(zip64, 0);
      compressed = readUInt64LE(zip64, 8);
    }
    if (compressed !== entry.compressedSize) out.push('compressed size');
    if (uncompressed !== entry.uncompressedSize) out.push('uncompressed size');
  }
  return out;
}

function openRaw(zipfile: yauzl.ZipFile, fileDataStart: number, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStreamLowLevel(
      fileDataStart,
      entry.compressedSize,
      0,
      entry.compressedSize,
      entry.compressionMethod === 8,
      entry.uncompressedSize,
      (err, stream) => (err ? reject(err) : resolve(stream)),
    );
  });
}

interface Range {
  start: number;
  end: number;
  label: string;
}

/** Reads every entry of the zip into `collector`; throws PackageError (or a source error) on the first problem. */
export async function scanZip(source: RandomAccessSource, collector: PackageCollector): Promise<void> {
  const { limits } = collector;
  let zipfile: yauzl.ZipFile;
  const reader = new SourceReader(source);
  try {
    zipfile = await openZip(source, false, reader);
  } catch (err) {
    throw asPackageError(err, null, 'it is not a readable zip archive');
  }
  let label: string | null = null;
  try {
    if (zipfile.entryCount > limits.maxEntries) {
      throw refuse(null, `the archive holds ${zipfile.entryCount} entries, more than the limit of ${limits.maxEntries}`);
    }
    // Before the first readEntry, yauzl's cursor is the central directory's offset (@types/yauzl mistypes it).
    const centralDirectoryOffset = zipfile.readEntryCursor as unknown as number;
    const ranges: Range[] = [];

    for await (const entry of zipfile.eachEntry()) {
      // Errors reading the next central record name no entry: `label` is cleared after each one.
      try {
        const raw = entry.fileNameRaw;
        const flags = entry.generalPurposeBitFlag;
        const name = decodeZipName(raw, flags);
        const entryLabel = name ?? raw.toString('utf8');
        label = entryLabel;
        collector.countEntry(entryLabel);
        if (name === null) {
          throw refuse(entryLabel, flags & FLAG_UTF8 ? 'its name is flagged as UTF-8 but is not valid UTF-8' : 'its name is not UTF-8 (non-ASCII bytes without the zip UTF-8 flag)');
        }
        const unicodeProblem = unicodePathProblem(entry.extraFields, raw, name);
        if (unicodeProblem !== null) throw refuse(name, unicodeProblem);
        const path = checkEntryPath(name);
        if (!path.ok) throw refuse(name, path.rule);
        if (flags & FLAG_ENCRYPTED) throw refuse(name, 'it is encrypted');
        if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
          throw refuse(name, `it uses compression method ${entry.compressionMethod}; only stored (0) and deflate (8) are accepted`);
        }
        const kind = unixKind(entry);
        if (kind === 'symlink') throw refuse(name, 'it is a symbolic link');
        if (kind === 'special') throw refuse(name, 'it is a special file (device, FIFO or socket), not a regular file or directory');
        if (kind === 'directory' && !path.isDirectory) throw refuse(name, 'its attributes mark a directory but its name does not end in "/"');

        if (path.isDirectory) {
          if (entry.uncompressedSize !== 0) throw refuse(name, 'it is a directory entry with content');
          collector.addDirectory(name, path.path);
        } else {
          collector.reserveFile(name, path.path);
          if (entry.compressionMethod === 0 && entry.compressedSize !== entry.uncompressedSize) {
            throw refuse(name, `it is stored uncompressed but declares ${entry.compressedSize} compressed and ${entry.uncompressedSize} uncompressed bytes`);
          }
          collector.checkDeclaredSize(name, entry.uncompressedSize);
          if (entry.uncompressedSize >= RATIO_FLOOR_BYTES && entry.uncompressedSize > limits.maxRatio * entry.compressedSize) {
            throw refuse(name, `its compression ratio (${ratioText(entry.uncompressedSize, entry.compressedSize)}) is over the limit of ${limits.maxRatio}:1`);
          }
        }

        // Local header (its name and extra are usually as long as the central ones) and data in one read.
        const headerGuess = 30 + entry.fileNameLength + entry.extraFieldLength + 64;
        const dataToo = entry.compressedSize <= PREFETCH_MAX ? entry.compressedSize : 0;
        const at = entry.relativeOffsetOfLocalHeader;
        await reader.prefetch(at, at + headerGuess + dataToo, at + CACHE_WINDOW);
        const local = await zipfile.readLocalFileHeaderPromise(entry);
        const mismatches = localHeaderMismatches(entry, local, !isAscii(raw));
        if (mismatches.length > 0) throw refuse(name, `its local header disagrees with the central directory (${mismatches.join(', ')})`);
        let localExtra: yauzl.ExtraField[];
        try {
          localExtra = yauzl.parseExtraFields(local.extraField);
        } catch {
          throw refuse(name, 'its local header has a malformed extra field');
        }
        const localUnicodeProblem = unicodePathProblem(localExtra, raw, name);
        if (localUnicodeProblem !== null) throw refuse(name, `${localUnicodeProblem} (local header)`);

        const range: Range = { start: entry.relativeOffsetOfLocalHeader, end: local.fileDataStart + entry.compressedSize, label: name };
        if (range.end > centralDirectoryOffset) throw refuse(name, 'its data runs into the central directory');
        const overlapped = ranges.find((r) => range.start < r.end && r.start < range.end);
        if (overlapped) throw refuse(name, `its data overlaps the entry ${quote(overlapped.label)}`);
        ranges.push(range);

        if (path.isDirectory) continue;

        const capture = collector.captureFor(path.path);
        const stream = await openRaw(zipfile, local.fileDataStart, entry);
        let count = 0;
        let crc = 0;
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            count += chunk.length;
            if (count > entry.uncompressedSize) {
              throw refuse(name, `it inflates to more than the ${entry.uncompressedSize} bytes it declares`);
            }
            collector.addBytes(name, chunk.length);
            if (count >= RATIO_FLOOR_BYTES && count > limits.maxRatio * entry.compressedSize) {
              throw refuse(name, `its compression ratio (over ${ratioText(count, entry.compressedSize)}) is over the limit of ${limits.maxRatio}:1`);
            }
            crc = crc32(chunk, crc);
            capture?.push(chunk);
          }
        } catch (err) {
          throw asPackageError(err, name, 'its compressed data is corrupt');
        } finally {
          stream.destroy();
        }
        if (count !== entry.uncompressedSize) {
          throw refuse(name, `it holds ${count} bytes but declares ${entry.uncompressedSize}`);
        }
        if (crc !== entry.crc32 >>> 0) throw refuse(name, 'its data does not match its CRC-32 checksum');
        collector.recordFile(path.path, count);
      } catch (err) {
        throw asPackageError(err, label, 'the archive is corrupt or truncated');
      } finally {
        label = null;
      }
    }
  } catch (err) {
    throw asPackageError(err, label, 'the archive is corrupt or truncated');
  } finally {
    zipfile.close();
  }
}

function ratioText(uncompressed: number, compressed: number): string {
  return compressed === 0 ? `${uncompressed} bytes from 0 compressed bytes` : `${Math.floor(uncompressed / compressed)}:1`;
}

/** Streams one file of a zip, or resolves null when the archive has no file at `path` (normalised). */
export async function openZipEntry(source: RandomAccessSource, path: string): Promise<Readable | null> {
  const zipfile = await openZip(source, true);
  try {
    for await (const entry of zipfile.eachEntry()) {
      const name = decodeZipName(entry.fileNameRaw, entry.generalPurposeBitFlag);
      if (name === null) continue;
      const checked = checkEntryPath(name);
      if (!checked.ok || checked.isDirectory || checked.path !== path) continue;
      return await zipfile.openReadStreamPromise(entry);
    }
    return null;
  } finally {
    zipfile.close();
  }
}
