/**
 * Zip inspection and extraction, reading through a RandomAccessSource.
 *
 * Written here rather than on a zip library, for a security reason: what must be refused is exactly what a
 * library smooths over — an end record whose counts under-state the central directory, bytes no entry accounts
 * for, a local header that disagrees with its central record. unzip and Python's zipfile each resolve those
 * their own way, so the registry would list one set of files while an extractor writes another. The archive
 * differential test (test/packages/differential.test.ts) checks this reader against unzip and zipfile.
 *
 * The structure (end records, central directory, no prefix) is read by zip-layout.ts. This module applies the
 * per-entry rules and then walks the archive body front to back in one read, so that every byte from 0 to the
 * central directory belongs to exactly one entry (local header, data, data descriptor): whatever an extractor
 * could find there, the registry has read.
 *
 * Decisions:
 * - Names are decoded from the raw bytes: with general purpose bit 11 they must be valid UTF-8; without it only
 *   pure-ASCII names are accepted (anything else would be CP437, i.e. not UTF-8). Non-ASCII names made by a
 *   FAT, HPFS or NTFS host are refused: unzip reads those in an MS-DOS code page even when flagged UTF-8. An
 *   Info-ZIP Unicode Path extra field (0x7075), which unzip uses instead of the name, is refused in the central
 *   directory (unzip refuses an archive that has one and a data descriptor anywhere); in a local header it must
 *   be version 1, carry the CRC-32 of the raw name, and spell the same name. A name that is only `.` (the
 *   root) must be a directory entry (`./`).
 * - Extra fields must tile their space exactly, and only fields known to change nothing an extractor writes
 *   (besides times and owners) are accepted: zip64 (0x0001), NTFS times (0x000a), extended timestamp (0x5455),
 *   Info-ZIP Unix (0x5855, 0x7855, 0x7875), Unicode Path and Comment (0x7075, 0x6375), the Java marker
 *   (0xcafe) and zipalign padding (0xd935). Anything else (PKWARE Unix 0x000d, which can carry a link target,
 *   AES 0x9901, ...) is refused, naming the field.
 * - Flags: only bits 1–2 (deflate options), 3 (data descriptor) and 11 (UTF-8) are accepted; encryption
 *   (bits 0, 6, 13) and everything else is refused. Methods: stored (0) and deflate (8) only. An entry that
 *   needs a version above 4.5 to extract (unzip skips those) is refused.
 * - Entry types come from the unix mode in the high 16 bits of the external attributes, whatever the
 *   "made by" host says (unzip honours it for several hosts): the file type must be none, regular (files) or
 *   directory (names ending in `/`). Symlinks, devices, FIFOs and sockets are refused; so are the MS-DOS
 *   volume-label attribute and the directory attribute on a name without a trailing `/`.
 * - A file is executable when it was made on Unix or macOS and its mode sets the owner's execute bit; nothing else of
 *   the mode (setuid, setgid, sticky, group and other bits) is kept.
 * - Every local header must repeat the central record: name bytes, flags, method, and (without a data
 *   descriptor) CRC-32 and sizes (zip64 sizes from the local zip64 extra field). With a data descriptor the
 *   local values must be zero or the central ones, and the descriptor (12, 16, 20 or 24 bytes, with or
 *   without its signature) must repeat them and fill the space up to the next entry exactly.
 * - Entries must follow one another without a gap or an overlap, from byte 0 to the central directory.
 * - Every file and directory entry is inflated and counted: more bytes than declared, fewer, a CRC-32
 *   mismatch, or compressed data left over after the deflate stream ends is a refusal. Directory entries
 *   must hold nothing. Limits are enforced first on declared sizes (before inflating) and again on the real
 *   bytes as they arrive.
 * - Ratio: an entry is refused when uncompressed > maxRatio × compressed, but only once it is at least
 *   RATIO_FLOOR_BYTES (64 KiB) uncompressed: small files of repetitive text legitimately compress past 100:1,
 *   deflate tops out near 1032:1, and 64 KiB × maxEntries is bounded by the total limit anyway.
 */
import { Readable } from 'node:stream';
import type { RandomAccessSource } from './source.js';
import { ByteReader, EndOfStream, inflateRaw } from './byte-reader.js';
import { crc32 } from './crc32.js';
import { checkEntryPath } from './paths.js';
import { openSource, readRange } from './source.js';
import type { DataSink, EntrySink } from './entry-sink.js';
import { asPackageError, isOutsideFault, PackageError, quote, refuse } from './refusal.js';
import { parseExtraFields, readZipLayout, type CentralRecord, type ExtraField } from './zip-layout.js';

export const RATIO_FLOOR_BYTES = 64 * 1024;

const FLAG_DATA_DESCRIPTOR = 0x8;
const FLAG_UTF8 = 0x800;
const FLAGS_ENCRYPTED = 0x1 | 0x40 | 0x2000;
const FLAGS_ACCEPTED = 0x2 | 0x4 | FLAG_DATA_DESCRIPTOR | FLAG_UTF8;
const MAX_VERSION_NEEDED = 45;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** The owner's execute bit: what marks a file executable (as git reads a mode). */
const S_IXUSR = 0o100;
/** "Made by" hosts whose external attributes carry a Unix mode that unzip applies: Unix, and macOS. */
const UNIX_HOSTS = new Set([3, 19]);
const DOS_VOLUME_LABEL = 0x08;
const DOS_DIRECTORY = 0x10;
const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;

/** "Made by" hosts whose names unzip translates from an OEM code page: FAT, HPFS, NTFS. */
const OEM_HOSTS = new Set([0, 6, 11]);
const HARMLESS_EXTRA_FIELDS = new Set([0x0001, 0x000a, 0x5455, 0x5855, 0x7855, 0x7875, 0x7075, 0x6375, 0xcafe, 0xd935]);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b > 0x7f) return false;
  return true;
}

/** The entry's name per the UTF-8 rules above, or null when it is not UTF-8. */
function decodeZipName(raw: Buffer, flags: number): string | null {
  if (flags & FLAG_UTF8) {
    try {
      return utf8.decode(raw);
    } catch {
      return null;
    }
  }
  return isAscii(raw) ? raw.toString('latin1') : null;
}

function hex(id: number): string {
  return `0x${id.toString(16).padStart(4, '0')}`;
}

/** The problem with an entry's extra fields (central or local), or null. */
function extraFieldProblem(fields: ExtraField[], raw: Buffer, name: string, central: boolean): string | null {
  const seen = new Set<number>();
  for (const field of fields) {
    if (!HARMLESS_EXTRA_FIELDS.has(field.id)) return `it carries the extra field ${hex(field.id)}, which the registry does not accept`;
    if (seen.has(field.id)) return `it carries the extra field ${hex(field.id)} more than once`;
    seen.add(field.id);
    if (field.id !== 0x7075) continue;
    if (field.data.length < 5 || field.data[0] !== 1) return 'its Unicode Path extra field is not version 1';
    if (field.data.readUInt32LE(1) !== crc32(raw)) return 'its Unicode Path extra field does not match its name (CRC-32)';
    let alt: string;
    try {
      alt = utf8.decode(field.data.subarray(5));
    } catch {
      return 'its Unicode Path extra field is not valid UTF-8';
    }
    if (alt !== name) return `its Unicode Path extra field names a different path (${quote(alt)})`;
    if (central)
      return 'it carries an Info-ZIP Unicode Path extra field (0x7075), which unzip mishandles (it refuses such archives when an entry has a data descriptor); name the entry with the UTF-8 flag instead';
  }
  return null;
}

type Kind = 'file' | 'directory' | 'symlink' | 'special' | null;

/** Whether an entry's Unix mode marks it executable (see the top of this file). */
function isExecutable(record: Pick<CentralRecord, 'versionMadeBy' | 'externalAttributes'>): boolean {
  return UNIX_HOSTS.has(record.versionMadeBy >>> 8) && ((record.externalAttributes >>> 16) & S_IXUSR) !== 0;
}

function unixKind(record: CentralRecord): Kind {
  const type = (record.externalAttributes >>> 16) & S_IFMT;
  if (type === 0) return null;
  if (type === S_IFREG) return 'file';
  if (type === S_IFDIR) return 'directory';
  if (type === S_IFLNK) return 'symlink';
  return 'special';
}

interface Plan {
  record: CentralRecord;
  name: string;
  path: string;
  isDirectory: boolean;
  /** Refused by a rule of its own (noted by the collector): its bytes are passed over unread. */
  refused: boolean;
  executable: boolean;
}

/**
 * Every rule the central record alone can settle; counts, reserves and refuses before any data is read. An entry
 * refused while the collector collects every problem is planned as refused.
 */
function planEntry(record: CentralRecord, collector: EntrySink): Plan {
  try {
    return checkEntry(record, collector);
  } catch (error) {
    collector.entryRefused(error);
    const name = decodeZipName(record.nameRaw, record.flags) ?? record.nameRaw.toString('utf8');
    return { record, name, path: '', isDirectory: false, refused: true, executable: false };
  }
}

function checkEntry(record: CentralRecord, collector: EntrySink): Plan {
  const { limits } = collector;
  const raw = record.nameRaw;
  const flags = record.flags;
  const decoded = decodeZipName(raw, flags);
  const label = decoded ?? raw.toString('utf8');
  collector.countEntry(label);
  if (decoded === null) {
    throw refuse(
      label,
      flags & FLAG_UTF8
        ? 'its name is flagged as UTF-8 but is not valid UTF-8'
        : 'its name is not UTF-8 (non-ASCII bytes without the zip UTF-8 flag)',
    );
  }
  const name = decoded;
  const extraProblem = extraFieldProblem(record.extraFields, raw, name, true);
  if (extraProblem !== null) throw refuse(name, extraProblem);
  const path = checkEntryPath(name);
  if (!path.ok) throw refuse(name, path.rule);
  if (path.isDirectory && !name.endsWith('/'))
    throw refuse(name, 'it names the archive root but is not a directory entry (extractors would write it as a file)');
  const host = record.versionMadeBy >>> 8;
  if (OEM_HOSTS.has(host) && !isAscii(raw)) {
    throw refuse(
      name,
      `its name is not ASCII and its "made by" host (${host}) makes unzip read the name in an MS-DOS code page, whatever the UTF-8 flag says`,
    );
  }
  if (flags & FLAGS_ENCRYPTED) throw refuse(name, 'it is encrypted');
  if (flags & ~FLAGS_ACCEPTED)
    throw refuse(name, `it sets general purpose flags ${hex(flags & ~FLAGS_ACCEPTED)}, which the registry does not accept`);
  if (record.method !== 0 && record.method !== 8) {
    throw refuse(name, `it uses compression method ${record.method}; only stored (0) and deflate (8) are accepted`);
  }
  if ((record.versionNeeded & 0xff) > MAX_VERSION_NEEDED) {
    throw refuse(
      name,
      `it needs zip version ${(record.versionNeeded & 0xff) / 10} to extract; at most ${MAX_VERSION_NEEDED / 10} is accepted`,
    );
  }
  const kind = unixKind(record);
  if (kind === 'symlink') throw refuse(name, 'it is a symbolic link');
  if (kind === 'special') throw refuse(name, 'it is a special file (device, FIFO or socket), not a regular file or directory');
  if (record.externalAttributes & DOS_VOLUME_LABEL) throw refuse(name, 'its attributes mark a volume label');
  if ((kind === 'directory' || record.externalAttributes & DOS_DIRECTORY) && !path.isDirectory) {
    throw refuse(name, 'its attributes mark a directory but its name does not end in "/"');
  }

  if (path.isDirectory) {
    if (record.uncompressedSize !== 0) throw refuse(name, 'it is a directory entry with content');
    collector.addDirectory(name, path.path);
  } else {
    collector.reserveFile(name, path.path);
    collector.checkDeclaredSize(name, record.uncompressedSize);
    if (record.uncompressedSize >= RATIO_FLOOR_BYTES && record.uncompressedSize > limits.maxRatio * record.compressedSize) {
      throw refuse(
        name,
        `its compression ratio (${ratioText(record.uncompressedSize, record.compressedSize)}) is over the limit of ${limits.maxRatio}:1`,
      );
    }
  }
  if (record.method === 0 && record.compressedSize !== record.uncompressedSize) {
    throw refuse(
      name,
      `it is stored uncompressed but declares ${record.compressedSize} compressed and ${record.uncompressedSize} uncompressed bytes`,
    );
  }
  const executable = kind !== 'directory' && !path.isDirectory && isExecutable(record);
  return { record, name, path: path.path, isDirectory: path.isDirectory, refused: false, executable };
}

function readUInt64LE(buf: Buffer, offset: number): number {
  return buf.readUInt32LE(offset + 4) * 0x100000000 + buf.readUInt32LE(offset);
}

interface LocalHeader {
  flags: number;
  method: number;
  versionNeeded: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  nameRaw: Buffer;
  extra: Buffer;
}

function parseLocalFixed(header: Buffer): { nameLength: number; extraLength: number } | null {
  if (header.readUInt32LE(0) !== SIG_LOCAL) return null;
  return { nameLength: header.readUInt16LE(26), extraLength: header.readUInt16LE(28) };
}

function localHeader(fixed: Buffer, nameRaw: Buffer, extra: Buffer): LocalHeader {
  return {
    versionNeeded: fixed.readUInt16LE(4),
    flags: fixed.readUInt16LE(6),
    method: fixed.readUInt16LE(8),
    crc32: fixed.readUInt32LE(14),
    compressedSize: fixed.readUInt32LE(18),
    uncompressedSize: fixed.readUInt32LE(22),
    nameRaw,
    extra,
  };
}

/** The ways a local header disagrees with its central directory record (empty when they agree). */
function localHeaderMismatches(plan: Plan, local: LocalHeader, localExtra: ExtraField[]): string[] {
  const record = plan.record;
  const out: string[] = [];
  if (!local.nameRaw.equals(record.nameRaw)) out.push('file name');
  if (local.method !== record.method) out.push('compression method');
  if (local.flags !== record.flags) {
    if ((local.flags ^ record.flags) & FLAGS_ENCRYPTED) out.push('encryption flag');
    else out.push('general purpose flags');
  }
  if ((local.versionNeeded & 0xff) > MAX_VERSION_NEEDED) out.push('version needed to extract');
  const deferred = (record.flags & FLAG_DATA_DESCRIPTOR) !== 0;
  const same = (value: number, expected: number) => value === expected || (deferred && value === 0);
  if (!same(local.crc32 >>> 0, record.crc32 >>> 0)) out.push('CRC-32');
  const sizes = localSizes(local, localExtra);
  if (sizes === null) {
    out.push('zip64 sizes');
    return out;
  }
  if (!same(sizes.compressed, record.compressedSize)) out.push('compressed size');
  if (!same(sizes.uncompressed, record.uncompressedSize)) out.push('uncompressed size');
  return out;
}

/** A local header's sizes, from its zip64 extra field where the fixed fields point there; null when that field is missing. */
function localSizes(local: LocalHeader, localExtra: ExtraField[]): { compressed: number; uncompressed: number } | null {
  if (local.compressedSize !== 0xffffffff && local.uncompressedSize !== 0xffffffff)
    return { compressed: local.compressedSize, uncompressed: local.uncompressedSize };
  const zip64 = localExtra.find((f) => f.id === 0x0001)?.data ?? null;
  if (zip64 === null || zip64.length < 16) return null;
  return { uncompressed: readUInt64LE(zip64, 0), compressed: readUInt64LE(zip64, 8) };
}

/** Checks the data descriptor that fills `bytes`: one of the four forms, repeating the central values. */
function descriptorProblem(bytes: Buffer, record: CentralRecord): string | null {
  const signed = bytes.length >= 4 && bytes.readUInt32LE(0) === SIG_DESCRIPTOR;
  let at = 0;
  let wide: boolean;
  if (signed && (bytes.length === 16 || bytes.length === 24)) {
    at = 4;
    wide = bytes.length === 24;
  } else if (bytes.length === 12 || bytes.length === 20) {
    wide = bytes.length === 20;
  } else {
    return `${bytes.length} bytes follow its data where a data descriptor (12 to 24 bytes) belongs`;
  }
  const crc = bytes.readUInt32LE(at);
  const compressed = wide ? readUInt64LE(bytes, at + 4) : bytes.readUInt32LE(at + 4);
  const uncompressed = wide ? readUInt64LE(bytes, at + 12) : bytes.readUInt32LE(at + 8);
  if (crc !== record.crc32 >>> 0 || compressed !== record.compressedSize || uncompressed !== record.uncompressedSize) {
    return 'its data descriptor disagrees with the central directory';
  }
  return null;
}

/** The entry's data, inflated when deflated; checks the deflate stream uses exactly the compressed bytes. */
async function* entryData(reader: ByteReader, record: CentralRecord, name: string): AsyncGenerator<Buffer> {
  const input = reader.chunks(record.compressedSize);
  if (record.method === 0) {
    yield* input;
    return;
  }
  const ended = yield* inflateRaw(input);
  if (ended.consumed !== record.compressedSize) {
    throw refuse(name, `its deflate stream ends after ${ended.consumed} of its ${record.compressedSize} compressed bytes`);
  }
}

function mapDataError(err: unknown, name: string): unknown {
  if (err instanceof PackageError || isOutsideFault(err)) return err;
  if (err instanceof EndOfStream) return refuse(name, 'its data runs into the central directory');
  return asPackageError(err, name, 'its compressed data is corrupt');
}

/**
 * Reads every entry of the zip into `collector`; throws PackageError (or a source error) on the first problem, or,
 * when the collector collects every problem, notes each entry's and goes on with the next (which the central directory
 * places), throwing only where the layout leaves no way on.
 */
export async function readZip(source: RandomAccessSource, collector: EntrySink): Promise<void> {
  const { limits } = collector;
  let layout;
  try {
    layout = await readZipLayout(source, limits.maxEntries);
  } catch (err) {
    throw asPackageError(err, null, 'it is not a readable zip archive');
  }
  const plans = layout.records.map((record) => planEntry(record, collector));
  const ordered = [...plans].sort((a, b) => a.record.localOffset - b.record.localOffset || a.record.index - b.record.index);
  const end = layout.centralOffset;
  const first = ordered[0];
  if (first === undefined) {
    if (end !== 0) throw refuse(null, `${end} bytes before the central directory belong to no entry`);
    return;
  }
  if (first.record.localOffset !== 0) {
    throw refuse(
      first.name,
      `${first.record.localOffset} bytes before its local header belong to no entry (a prefix, such as a self-extractor stub, is refused)`,
    );
  }

  // A long skip (past an entry refused by a rule of its own) reopens the source further on rather than read the bytes.
  const reader = new ByteReader(openSource(source, 0, end), (at) => (at < end ? openSource(source, at, end) : Readable.from([])));
  let previous: Plan | null = null;
  try {
    for (let i = 0; i < ordered.length; i++) {
      const plan = ordered[i]!;
      const { record, name } = plan;
      if (reader.position !== record.localOffset) {
        if (reader.position > record.localOffset)
          throw refuse(name, `its local header overlaps the entry ${quote(previous?.name ?? '')} (entries may not overlap or share data)`);
        throw refuse(name, `${record.localOffset - reader.position} bytes before its local header belong to no entry`);
      }
      const next = ordered[i + 1]?.record.localOffset ?? end;
      if (plan.refused) {
        await reader.skip(next - reader.position);
        previous = plan;
        continue;
      }
      let file: DataSink | null = null;
      try {
        const fixed = await reader.take(30);
        const sizes = parseLocalFixed(fixed);
        if (sizes === null) throw refuse(name, 'its central record points at no local header');
        const local = localHeader(
          fixed,
          Buffer.from(await reader.take(sizes.nameLength)),
          Buffer.from(await reader.take(sizes.extraLength)),
        );
        const localExtra = parseExtraFields(local.extra);
        if (localExtra === null) throw refuse(name, 'its local header has a malformed extra field');
        const mismatches = localHeaderMismatches(plan, local, localExtra);
        if (mismatches.length > 0) throw refuse(name, `its local header disagrees with the central directory (${mismatches.join(', ')})`);
        const extraProblem = extraFieldProblem(localExtra, record.nameRaw, name, false);
        if (extraProblem !== null) throw refuse(name, `${extraProblem} (local header)`);
        if (reader.position + record.compressedSize > next) {
          if (next === end) throw refuse(name, 'its data runs into the central directory');
          throw refuse(ordered[i + 1]!.name, `its local header overlaps the entry ${quote(name)} (entries may not overlap or share data)`);
        }

        file = plan.isDirectory ? null : collector.openFile(plan.path);
        let count = 0;
        let crc = 0;
        for await (const chunk of entryData(reader, record, name)) {
          count += chunk.length;
          if (count > record.uncompressedSize) {
            throw refuse(
              name,
              plan.isDirectory
                ? 'it is a directory entry with content'
                : `it inflates to more than the ${record.uncompressedSize} bytes it declares`,
            );
          }
          collector.addBytes(name, chunk.length);
          if (count >= RATIO_FLOOR_BYTES && count > limits.maxRatio * record.compressedSize) {
            throw refuse(
              name,
              `its compression ratio (over ${ratioText(count, record.compressedSize)}) is over the limit of ${limits.maxRatio}:1`,
            );
          }
          crc = crc32(chunk, crc);
          if (file !== null) {
            file.push(chunk);
            const caughtUp = collector.ready();
            if (caughtUp !== undefined) await caughtUp;
          }
        }
        file?.end();
        file = null;
        if (count !== record.uncompressedSize) throw refuse(name, `it holds ${count} bytes but declares ${record.uncompressedSize}`);
        if (crc !== record.crc32 >>> 0) throw refuse(name, 'its data does not match its CRC-32 checksum');

        if (record.flags & FLAG_DATA_DESCRIPTOR) {
          const gap = next - reader.position;
          if (gap < 12 || gap > 24) throw refuse(name, `${Math.max(gap, 0)} bytes follow its data where a data descriptor belongs`);
          const problem = descriptorProblem(Buffer.from(await reader.take(gap)), record);
          if (problem !== null) throw refuse(name, problem);
        }
        if (reader.position !== next) {
          throw refuse(name, `${next - reader.position} bytes after its data belong to no entry`);
        }
        if (!plan.isDirectory) collector.recordFile(plan.path, count, plan.executable);
      } catch (err) {
        // A file cut short is ended: the scanner is never left with a file open.
        file?.end();
        const refusal = mapDataError(err, name);
        if (err instanceof EndOfStream || reader.position > next) throw refusal;
        collector.entryRefused(refusal);
        await reader.skip(next - reader.position);
      }
      previous = plan;
    }
  } finally {
    await reader.close();
  }
}

function ratioText(uncompressed: number, compressed: number): string {
  return compressed === 0 ? `${uncompressed} bytes from 0 compressed bytes` : `${Math.floor(uncompressed / compressed)}:1`;
}

/** Streams one file of a zip, or resolves null when the archive has no file at `path` (normalised). */
export async function openZipEntry(source: RandomAccessSource, path: string): Promise<Readable | null> {
  const layout = await readZipLayout(source, 1_000_000);
  for (const record of layout.records) {
    const name = decodeZipName(record.nameRaw, record.flags);
    if (name === null) continue;
    const checked = checkEntryPath(name);
    if (!checked.ok || checked.isDirectory || checked.path !== path) continue;
    const fixed = await readRange(source, record.localOffset, record.localOffset + 30);
    const sizes = parseLocalFixed(fixed);
    if (sizes === null) throw new Error(`The zip entry ${quote(name)} has no local header.`);
    const start = record.localOffset + 30 + sizes.nameLength + sizes.extraLength;
    return Readable.from(entryBytes(source, record, start, name), { objectMode: false });
  }
  return null;
}

async function* entryBytes(source: RandomAccessSource, record: CentralRecord, start: number, name: string): AsyncGenerator<Buffer> {
  if (record.compressedSize === 0 && record.uncompressedSize === 0) return;
  const reader = new ByteReader(openSource(source, start, start + record.compressedSize));
  let count = 0;
  try {
    for await (const chunk of entryData(reader, record, name)) {
      count += chunk.length;
      yield chunk;
    }
  } finally {
    await reader.close();
  }
  if (count !== record.uncompressedSize)
    throw new Error(`The zip entry ${quote(name)} holds ${count} bytes, not ${record.uncompressedSize}.`);
}
