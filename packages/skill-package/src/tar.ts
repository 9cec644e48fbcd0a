/**
 * gzip-compressed tar inspection and extraction: one gzip member (gzip.ts), read block by block here.
 *
 * Written here rather than on a tar library, for a security reason: libraries skip what they do not model (a pax
 * global header, a second gzip member, bytes after the end blocks) while GNU tar and Python's tarfile act on it,
 * so the registry would list one set of files while an extractor writes another. The archive differential test
 * (test/packages/differential.test.ts) checks this reader against GNU tar and tarfile.
 *
 * Decisions:
 * - The decompressed stream must start with a tar header (valid checksum, ustar/GNU magic or not) or an
 *   all-zero block (an empty tar). A gzip whose content is anything else, or shorter than one 512-byte block,
 *   is a 415 unsupported_media_type: it is not a tar at all. A header that announces ustar but fails its
 *   checksum, a corrupt, truncated or multi-member gzip stream, and a tar that breaks later on, are 422
 *   invalid_archive. Old v7 headers (no magic, valid checksum) are accepted.
 * - Headers are read strictly (tar-header.ts). Entry types: file (`0`, NUL, contiguous `7`) and directory
 *   (`5`, which must not carry data). Hard and symbolic links, devices, FIFOs, pax global headers (`g`: GNU
 *   tar and Python apply them to every later entry, so one header could rename or resize all of them), GNU
 *   long link names (`K`), sparse files, volume headers, multi-volume continuations and every unknown type
 *   are refused.
 * - A pax extended header (`x`) or a GNU long name (`L`) applies to the one entry that follows, which must
 *   be a file or a directory; at most one of them per entry (the readers disagree on which would win). The
 *   registry applies `path` and `size` from pax exactly as GNU tar and Python do, and refuses what it does
 *   not model (see tar-header.ts).
 * - Names are decoded as UTF-8 (ustar fields, GNU long names and pax paths alike); invalid UTF-8 is refused.
 * - A file is executable when its mode sets the owner's execute bit; nothing else of the mode (setuid, setgid,
 *   sticky, group and other bits) is kept.
 * - The archive ends with two all-zero blocks, then only zero padding (GNU tar pads to its record size). A zero
 *   block followed by anything else (Python stops at the first zero block, GNU tar warns and reads on), or a
 *   lone zero block at the end, is refused. A stream that simply ends after the last entry's data is accepted,
 *   as both readers accept it silently.
 * - Duplicate paths (a later entry would overwrite an earlier one on extraction) are refused by the collector.
 * - Sizes: the declared size is checked against the total limit before reading, real bytes are counted while
 *   reading; truncated data is a refusal.
 * - Bomb guards on the decompressed stream as a whole (gzip has no per-entry compressed size): it may not
 *   exceed maxRatio × the archive's size once past TAR_RATIO_FLOOR_BYTES (1 MiB: tar headers and padding
 *   compress extremely well, small archives would trip a lower floor), nor maxTotalBytes plus 8 KiB of header
 *   room per allowed entry plus 1 MiB (which also stops zero padding gzipped after the end of the archive).
 */
import { Readable } from 'node:stream';
import { openSource, type RandomAccessSource } from './source.js';
import { ByteReader, EndOfStream } from './byte-reader.js';
import { gunzipSingle } from './gzip.js';
import { checkEntryPath } from './paths.js';
import {
  BLOCK,
  decodeName,
  isUstar,
  isZeroBlock,
  looksLikeTar,
  nameLabel,
  parseHeader,
  parseLongName,
  parsePax,
  type TarHeader,
} from './tar-header.js';

/** The owner's execute bit: what marks a file executable (as git reads a mode). */
const S_IXUSR = 0o100;
import type { EntrySink, PackageLimits } from './entry-sink.js';
import { asPackageError, isOutsideFault, PackageError, refuse } from './refusal.js';

export { looksLikeTar } from './tar-header.js';

export const TAR_RATIO_FLOOR_BYTES = 1024 * 1024;
const TAR_HEADER_ROOM_PER_ENTRY = 8 * 1024;
const TAR_SLACK_BYTES = 1024 * 1024;
/** pax and GNU long name records are small; a larger one is refused before it is read into memory. */
const MAX_META_BYTES = 64 * 1024;

function notTar(): PackageError {
  return new PackageError(
    415,
    'unsupported_media_type',
    'The upload is gzip-compressed but does not contain a tar archive; upload a zip or a .tar.gz.',
    [{ field: 'file', message: 'gzip content is not a tar archive' }],
  );
}

/** The bytes of an uncompressed tar. */
async function* plainBytes(source: RandomAccessSource): AsyncGenerator<Buffer> {
  for await (const chunk of openSource(source)) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
}

/** The (decompressed) tar stream of `source`, with the ratio and size guards applied. */
async function* guarded(
  source: RandomAccessSource,
  compressed: boolean,
  limits: PackageLimits | null,
  current: () => string | null,
): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of compressed ? gunzipSingle(source) : plainBytes(source)) {
    total += chunk.length;
    if (limits !== null) {
      if (total > TAR_RATIO_FLOOR_BYTES && total > limits.maxRatio * source.size) {
        throw refuse(current(), `the archive decompresses to more than ${limits.maxRatio} times its size (${limits.maxRatio}:1 limit)`);
      }
      const cap = limits.maxTotalBytes + (limits.maxEntries + 1) * TAR_HEADER_ROOM_PER_ENTRY + TAR_SLACK_BYTES;
      if (total > cap)
        throw refuse(current(), `the tar stream decompresses to more than ${cap} bytes, more than its files and headers may take`);
    }
    yield chunk;
  }
}

export interface TarEntry {
  name: string;
  path: string;
  isDirectory: boolean;
  size: number;
  /** The rule the entry breaks on its own (its name, path or type), or null: its data is passed over either way. */
  refused: PackageError | null;
  /** A file whose mode sets the owner's execute bit (nothing else of the mode is kept). */
  executable: boolean;
}

/**
 * Walks the tar: yields each file or directory entry once its name and type are settled; the caller reads
 * `size` bytes of data from `reader` (or leaves them: they are skipped). Throws refusals naming the entry.
 */
async function* tarEntries(reader: ByteReader, setCurrent: (name: string | null) => void): AsyncGenerator<TarEntry> {
  let first = true;
  let previous: string | null = null;
  let pending: { kind: 'pax' | 'longname'; label: string; path?: Buffer; data?: Buffer } | null = null;
  for (;;) {
    let block: Buffer;
    try {
      block = Buffer.from(await reader.take(BLOCK));
    } catch (err) {
      if (!(err instanceof EndOfStream)) throw err;
      if (first) throw notTar();
      if (err.got !== 0) throw refuse(pending?.label ?? null, 'the tar stream ends in the middle of a header block');
      if (pending !== null) throw refuse(pending.label, 'the archive ends after an extended header, without the entry it belongs to');
      return;
    }
    if (first) {
      first = false;
      if (!looksLikeTar(block) && !isUstar(block)) throw notTar();
    }
    if (isZeroBlock(block)) {
      if (pending !== null) throw refuse(pending.label, 'the archive ends after an extended header, without the entry it belongs to');
      let second: Buffer;
      try {
        second = Buffer.from(await reader.take(BLOCK));
      } catch (err) {
        if (err instanceof EndOfStream) throw refuse(null, 'the archive ends with a lone zero block (the end of a tar is two zero blocks)');
        throw err;
      }
      if (!isZeroBlock(second))
        throw refuse(null, 'non-zero bytes follow the end-of-archive block (tar readers disagree on whether to read them)');
      for await (const rest of reader.rest()) {
        if (!isZeroBlock(rest))
          throw refuse(null, 'non-zero bytes follow the end-of-archive block (tar readers disagree on whether to read them)');
      }
      return;
    }
    let header;
    try {
      header = parseHeader(block);
    } catch (err) {
      // A "header" that fails is often the data of the entry before, longer than it declared: name both.
      if (err instanceof PackageError && previous !== null) {
        throw new PackageError(422, 'invalid_archive', err.detail, [
          ...err.problems,
          {
            field: 'file',
            entry: previous,
            message: 'the block after its data is not a valid header (its data may be longer than it declares)',
          },
        ]);
      }
      throw err;
    }
    const label = nameLabel(header.nameRaw);
    setCurrent(label);
    if (header.type === 'pax' || header.type === 'longname') {
      if (pending !== null)
        throw refuse(pending.label, 'it has more than one extended header or long name record (tar readers disagree on which applies)');
      if (header.size > MAX_META_BYTES)
        throw refuse(
          label,
          `its ${header.type === 'pax' ? 'pax extended header' : 'GNU long name record'} is larger than ${MAX_META_BYTES} bytes`,
        );
      const data = Buffer.from(await reader.take(header.size));
      await skipPadding(reader, header.size);
      if (header.type === 'pax') {
        // Parsed with the entry it belongs to, so that a refusal names that entry.
        pending = { kind: 'pax', label, data };
      } else {
        const name = parseLongName(data, label);
        pending = { kind: 'longname', label: nameLabel(name), path: name };
      }
      continue;
    }
    let nameRaw = header.nameRaw;
    let size = header.size;
    if (pending?.kind === 'pax') {
      const pax = parsePax(pending.data ?? Buffer.alloc(0), nameLabel(header.nameRaw));
      nameRaw = pax.path ?? nameRaw;
      size = pax.size ?? size;
    } else if (pending?.kind === 'longname') {
      nameRaw = pending.path ?? nameRaw;
    }
    pending = null;
    const entryLabel = nameLabel(nameRaw);
    setCurrent(entryLabel);
    const start = reader.position;
    const entry = settle(nameRaw, header, size);
    previous = entry.name;
    yield entry;
    const left = start + size - reader.position;
    // Read and dropped: the entry's bytes are not needed, only the position after them.

    for await (const _skipped of reader.chunks(left));
    await skipPadding(reader, size);
  }
}

/** An entry whose header is read: its name, path and type checked (a refusal is carried, not thrown). */
function settle(nameRaw: Buffer, header: Pick<TarHeader, 'type' | 'rule' | 'mode'>, size: number): TarEntry {
  const { type, rule } = header;
  const label = nameLabel(nameRaw);
  const refused = (name: string, why: string): TarEntry => ({
    name,
    path: '',
    isDirectory: false,
    size,
    refused: refuse(name, why),
    executable: false,
  });
  const name = decodeName(nameRaw);
  if (name === null) return refused(label, 'its name is not valid UTF-8');
  if (type === 'refused') return refused(name, rule ?? 'it is neither a file nor a directory');
  const checked = checkEntryPath(name);
  if (!checked.ok) return refused(name, checked.rule);
  const isDirectory = type === 'directory';
  if (isDirectory && size !== 0) return refused(name, 'it is a directory entry with content');
  if (!isDirectory && checked.isDirectory) return refused(name, 'it is a file entry whose name ends in "/"');
  return { name, path: checked.path, isDirectory, size, refused: null, executable: !isDirectory && (header.mode & S_IXUSR) !== 0 };
}

async function skipPadding(reader: ByteReader, size: number): Promise<void> {
  const pad = (BLOCK - (size % BLOCK)) % BLOCK;
  if (pad > 0) await reader.take(pad);
}

function mapError(err: unknown, current: string | null): unknown {
  if (err instanceof PackageError || isOutsideFault(err)) return err;
  if (err instanceof EndOfStream) return refuse(current, 'the tar archive is corrupt or truncated (its data ends early)');
  return asPackageError(err, current, 'the tar archive is corrupt or truncated');
}

/**
 * Reads every entry of the tar.gz into `collector`; throws PackageError (or a source error) on the first problem, or,
 * when the collector collects every problem, notes each entry's and goes on with the next, throwing only where the
 * stream leaves no way on (a header that cannot be read, a limit).
 */
export function readTarGz(source: RandomAccessSource, collector: EntrySink): Promise<void> {
  return readTarStream(source, true, collector);
}

/** As readTarGz, for a tar that is not compressed (found inside a package). */
export function readTar(source: RandomAccessSource, collector: EntrySink): Promise<void> {
  return readTarStream(source, false, collector);
}

async function readTarStream(source: RandomAccessSource, compressed: boolean, collector: EntrySink): Promise<void> {
  let current: string | null = null;
  const reader = new ByteReader(guarded(source, compressed, collector.limits, () => current));
  try {
    for await (const entry of tarEntries(reader, (name) => (current = name))) {
      const { name } = entry;
      if (entry.refused !== null) {
        collector.entryRefused(entry.refused);
        collector.countEntry(name);
        continue;
      }
      collector.countEntry(name);
      try {
        if (entry.isDirectory) collector.addDirectory(name, entry.path);
        else {
          collector.reserveFile(name, entry.path);
          collector.checkDeclaredSize(name, entry.size);
        }
      } catch (error) {
        collector.entryRefused(error);
        continue;
      }
      if (entry.isDirectory) continue;
      const file = collector.openFile(entry.path);
      let count = 0;
      for await (const chunk of reader.chunks(entry.size)) {
        count += chunk.length;
        collector.addBytes(name, chunk.length);
        file.push(chunk);
        const caughtUp = collector.ready();
        if (caughtUp !== undefined) await caughtUp;
      }
      file.end();
      collector.recordFile(entry.path, count, entry.executable);
    }
  } catch (err) {
    throw mapError(err, current);
  } finally {
    await reader.close();
  }
}

/** Streams one file of a tar.gz, or resolves null when the archive has no file at `path` (normalised). */
export async function openTarGzEntry(source: RandomAccessSource, path: string): Promise<Readable | null> {
  const reader = new ByteReader(guarded(source, true, null, () => null));
  const entries = tarEntries(reader, () => {});
  try {
    for (;;) {
      const step = await entries.next();
      if (step.done) break;
      const entry = step.value;
      if (entry.isDirectory || entry.path !== path) continue;
      const data = reader.chunks(entry.size);
      async function* bytes(): AsyncGenerator<Buffer> {
        try {
          yield* data;
        } finally {
          await entries.return(undefined);
          await reader.close();
        }
      }
      return Readable.from(bytes(), { objectMode: false });
    }
  } catch (err) {
    await reader.close();
    throw err;
  }
  await reader.close();
  return null;
}
