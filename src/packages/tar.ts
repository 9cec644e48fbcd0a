/**
 * gzip-compressed tar inspection and extraction: zlib gunzip piped into tar-stream's extractor.
 *
 * Decisions:
 * - The decompressed stream must start with a tar header (valid checksum, ustar/GNU magic or not) or an
 *   all-zero block (an empty tar). A gzip whose content is anything else, or shorter than one 512-byte block,
 *   is a 415 unsupported_media_type: it is not a tar at all. A header that announces ustar but fails its
 *   checksum, a corrupt or truncated gzip stream, and a tar that breaks later on, are 422 invalid_archive.
 *   Old v7 headers (no magic, valid checksum) are accepted.
 * - Entry types: file and contiguous-file are files; directory is a directory (and must not carry data:
 *   tar readers disagree on whether to skip it, which could hide entries); symlinks, hard links, devices,
 *   FIFOs and every unknown type (GNU sparse, volume labels, ...) are refused. pax and GNU long-name headers
 *   are applied by tar-stream to the entry they precede.
 * - Names are decoded as UTF-8 (ustar fields, GNU long names and pax paths alike); one that contains U+FFFD
 *   is refused as "not valid UTF-8" (an invalid byte decodes to U+FFFD; a literal U+FFFD is refused too).
 * - Sizes: tar-stream delivers exactly the size a header declares or fails on truncation; the declared size
 *   is checked against the total limit before reading, real bytes are counted while reading.
 * - Bomb guards on the decompressed stream as a whole (gzip has no per-entry compressed size): it may not
 *   exceed maxRatio × the archive's size once past TAR_RATIO_FLOOR_BYTES (1 MiB: tar headers and padding
 *   compress extremely well, small archives would trip a lower floor), nor maxTotalBytes plus 8 KiB of header
 *   room per allowed entry plus 1 MiB (which also stops zero padding gzipped after the end of the archive).
 */
import { Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import tar, { type Extract, type Header } from 'tar-stream';
import type { RandomAccessSource } from '../storage/blob-store.js';
import { asPackageError, PackageCollector, refuse } from './collector.js';
import { checkEntryPath } from './paths.js';
import { openSource } from './source.js';
import { PackageError, type PackageLimits } from './types.js';

export const TAR_RATIO_FLOOR_BYTES = 1024 * 1024;
const TAR_HEADER_ROOM_PER_ENTRY = 8 * 1024;
const TAR_SLACK_BYTES = 1024 * 1024;
const BLOCK = 512;

function tarChecksumOk(block: Buffer): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  const field = block.subarray(148, 156).toString('latin1').replace(/[\0 ]+$/, '').replace(/^[\0 ]+/, '').replace(/\0.*$/, '');
  if (!/^[0-7]+$/.test(field)) return false;
  const stored = parseInt(field, 8);
  return stored === unsigned || stored === signed;
}

/** True when a 512-byte block is a tar header or the all-zero end-of-archive block. */
export function looksLikeTar(block: Buffer): boolean {
  if (block.length < BLOCK) return false;
  if (block.every((b) => b === 0)) return true;
  return tarChecksumOk(block);
}

function isUstar(block: Buffer): boolean {
  return block.subarray(257, 262).toString('latin1') === 'ustar';
}

/**
 * Sits between gunzip and the tar extractor: checks the first block is a tar (else 415) and counts the
 * decompressed bytes against the ratio and size guards.
 */
class TarGuard extends Transform {
  private head: Buffer[] = [];
  private headLength = 0;
  private sniffed = false;
  private total = 0;

  constructor(
    private readonly compressedSize: number,
    private readonly limits: PackageLimits | null,
    private readonly currentEntry: () => string | null,
  ) {
    super();
  }

  private notTar(): PackageError {
    return new PackageError(415, 'unsupported_media_type', 'The upload is gzip-compressed but does not contain a tar archive; upload a zip or a .tar.gz.', [
      { field: 'file', message: 'gzip content is not a tar archive' },
    ]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.total += chunk.length;
    const limits = this.limits;
    if (limits !== null) {
      if (this.total > TAR_RATIO_FLOOR_BYTES && this.total > limits.maxRatio * this.compressedSize) {
        return callback(refuse(this.currentEntry(), `the archive decompresses to more than ${limits.maxRatio} times its size (${limits.maxRatio}:1 limit)`));
      }
      const cap = limits.maxTotalBytes + (limits.maxEntries + 1) * TAR_HEADER_ROOM_PER_ENTRY + TAR_SLACK_BYTES;
      if (this.total > cap) {
        return callback(refuse(this.currentEntry(), `the tar stream decompresses to more than ${cap} bytes, more than its files and headers may take`));
      }
    }
    if (this.sniffed) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < BLOCK) return callback();
    const all = Buffer.concat(this.head);
    this.head = [];
    const first = all.subarray(0, BLOCK);
    if (!looksLikeTar(first) && !isUstar(first)) return callback(this.notTar());
    this.sniffed = true;
    callback(null, all);
  }

  override _flush(callback: TransformCallback): void {
    if (!this.sniffed) return callback(this.notTar());
    callback();
  }
}

interface Pipeline {
  extract: Extract;
  /** The first error any stage reported, mapped (PackageError, source error or 422). */
  failure(): unknown;
  destroy(): void;
}

function buildPipeline(source: RandomAccessSource, limits: PackageLimits | null, currentEntry: () => string | null, onFail?: (err: unknown) => void): Pipeline {
  const input = openSource(source);
  const gunzip = zlib.createGunzip();
  const guard = new TarGuard(source.size, limits, currentEntry);
  // tar-stream's bundled types omit its own extract options.
  const options: NonNullable<Parameters<typeof tar.extract>[0]> & { filenameEncoding: BufferEncoding; allowUnknownFormat: boolean } = {
    filenameEncoding: 'utf-8',
    allowUnknownFormat: true,
  };
  const extract = tar.extract(options);
  let first: unknown = null;
  const destroy = () => {
    input.destroy();
    gunzip.destroy();
    guard.destroy();
    extract.destroy();
  };
  const fail = (err: unknown, what: string) => {
    if (first !== null) return;
    first = asPackageError(err, currentEntry(), what);
    extract.destroy(first instanceof Error ? first : new Error(String(first)));
    input.destroy();
    gunzip.destroy();
    guard.destroy();
    onFail?.(first);
  };
  input.on('error', (err) => fail(err, 'the archive could not be read'));
  gunzip.on('error', (err) => fail(err, 'the gzip stream is corrupt or truncated'));
  guard.on('error', (err) => fail(err, 'the archive is corrupt'));
  extract.on('error', (err: unknown) => {
    // tar-stream's "Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?" misleads here.
    const invalidHeader = err instanceof Error && err.message.startsWith('Invalid tar header');
    fail(invalidHeader ? new Error('a tar header block is invalid: bad checksum or unknown format') : err, 'the tar archive is corrupt or truncated');
  });
  input.pipe(gunzip).pipe(guard).pipe(extract as unknown as Writable);
  return { extract, failure: () => first, destroy };
}

type EntryKind = 'file' | 'directory';

function entryKind(name: string, type: string | null): EntryKind {
  switch (type) {
    case 'file':
    case 'contiguous-file':
      return 'file';
    case 'directory':
      return 'directory';
    case 'symlink':
      throw refuse(name, 'it is a symbolic link');
    case 'link':
      throw refuse(name, 'it is a hard link');
    case 'character-device':
    case 'block-device':
      throw refuse(name, 'it is a device file');
    case 'fifo':
      throw refuse(name, 'it is a FIFO (named pipe)');
    default:
      throw refuse(name, 'it has an unsupported tar entry type (only files and directories are accepted)');
  }
}

/** Reads every entry of the tar.gz into `collector`; throws PackageError (or a source error) on the first problem. */
export async function scanTarGz(source: RandomAccessSource, collector: PackageCollector): Promise<void> {
  let current: string | null = null;
  const pipe = buildPipeline(source, collector.limits, () => current);
  try {
    for await (const entry of pipe.extract) {
      const header = entry.header;
      const name = header.name;
      current = name;
      collector.countEntry(name);
      if (name.includes('\uFFFD')) throw refuse(name, 'its name is not valid UTF-8');
      // Unknown typeflags arrive as null, whatever the bundled types say.
      const kind = entryKind(name, header.type as string | null);
      const path = checkEntryPath(name);
      if (!path.ok) throw refuse(name, path.rule);
      const declared = header.size;

      if (kind === 'directory') {
        if (declared !== 0) throw refuse(name, 'it is a directory entry with content');
        collector.addDirectory(name, path.path);
        entry.resume();
        continue;
      }
      if (path.isDirectory) throw refuse(name, 'it is a file entry whose name ends in "/"');
      collector.reserveFile(name, path.path);
      collector.checkDeclaredSize(name, declared);
      const capture = collector.captureFor(path.path);
      let count = 0;
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        count += chunk.length;
        collector.addBytes(name, chunk.length);
        capture?.push(chunk);
      }
      if (count !== declared) throw refuse(name, `it holds ${count} bytes but declares ${declared}`);
      collector.recordFile(path.path, count);
    }
  } catch (err) {
    throw pipe.failure() ?? asPackageError(err, current, 'the tar archive is corrupt or truncated');
  } finally {
    pipe.destroy();
  }
  const late = pipe.failure();
  if (late !== null) throw late;
}

/** Streams one file of a tar.gz, or resolves null when the archive has no file at `path` (normalised). */
export function openTarGzEntry(source: RandomAccessSource, path: string): Promise<Readable | null> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let current: string | null = null;
    const pipe = buildPipeline(source, null, () => current, (err) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    });
    pipe.extract.on('entry', (header: Header, stream, next) => {
      current = header.name;
      const checked = checkEntryPath(header.name);
      const isFile = header.type === 'file' || header.type === 'contiguous-file';
      if (settled || !isFile || !checked.ok || checked.isDirectory || checked.path !== path) {
        stream.on('end', () => next());
        stream.resume();
        return;
      }
      settled = true;
      // Node stream over tar-stream's entry (a streamx stream); once it ends or is dropped, stop everything.
      const out = Readable.from(stream as AsyncIterable<Buffer>, { objectMode: false });
      out.once('close', () => pipe.destroy());
      resolve(out);
    });
    pipe.extract.on('finish', () => {
      if (!settled) {
        settled = true;
        resolve(null);
      }
    });
  });
}
