/**
 * The structure of a zip, read strictly: the end record (and zip64 end record), every central directory
 * record, and the rules that make the registry's reading the only possible one.
 *
 * Extractors disagree on malformed zips: unzip walks the central directory by the end record's entry count,
 * Python's zipfile by its byte size; both find the end record as the last signature in the file, Python
 * shifts every offset by any prefix it finds, and the zip64 end record is taken from the locator's offset by
 * some and from just before the locator by others. So the layout must leave no choice:
 * - one end record, the last end-record signature in the file, its comment running exactly to the end;
 * - single disk only; the entry count, central directory size and offset agree exactly with the records read
 *   (the count records fill the size to the byte), and with the zip64 end record when there is one (which
 *   must sit immediately before its locator, at the offset the locator gives); an end record field may be
 *   the zip64 placeholder only when a zip64 record gives the value;
 * - the central directory ends where the zip64 end record (or the end record) starts;
 * - no prefix: the first entry starts at byte 0 (a self-extracting stub or any other prefix is refused, so
 *   that every reader uses the offsets as written).
 * Entry-by-entry rules (local headers, gaps between entries, data) are in zip.ts.
 */
import { refuse } from './refusal.js';
import { readRange } from './source.js';
import type { RandomAccessSource } from './source.js';

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const EOCD_SIZE = 22;
const LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIZE = 56;
const MAX_COMMENT = 0xffff;
/** Central directory bytes allowed per permitted entry: a 46-byte record, a 4,096-byte name, and room for extras. */
const CENTRAL_BYTES_PER_ENTRY = 8 * 1024;

export interface ExtraField {
  id: number;
  data: Buffer;
}

export interface CentralRecord {
  index: number;
  versionMadeBy: number;
  versionNeeded: number;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  nameRaw: Buffer;
  extraFields: ExtraField[];
  externalAttributes: number;
  localOffset: number;
  /** Which sizes came from the zip64 extra field. */
  zip64: boolean;
}

export interface ZipLayout {
  records: CentralRecord[];
  centralOffset: number;
  centralSize: number;
}

function readUInt64(buf: Buffer, at: number): number {
  const high = buf.readUInt32LE(at + 4);
  // 2^53 and more is no size this registry could ever hold.
  if (high >= 0x200000) return Number.MAX_SAFE_INTEGER;
  return high * 0x100000000 + buf.readUInt32LE(at);
}

/** Parses an extra field into its parts; null when the parts do not tile it exactly. */
export function parseExtraFields(extra: Buffer): ExtraField[] | null {
  const out: ExtraField[] = [];
  let at = 0;
  while (at < extra.length) {
    if (at + 4 > extra.length) return null;
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (at + 4 + size > extra.length) return null;
    out.push({ id, data: extra.subarray(at + 4, at + 4 + size) });
    at += 4 + size;
  }
  return out;
}

function lastIndexOfSignature(buf: Buffer, signature: number): number {
  const sig = Buffer.alloc(4);
  sig.writeUInt32LE(signature, 0);
  return buf.lastIndexOf(sig);
}

interface EndValues {
  entries: number;
  centralSize: number;
  centralOffset: number;
}

/** Reads the end record(s) and the central directory; every disagreement is a 422 naming no entry. */
export async function readZipLayout(source: RandomAccessSource, maxEntries: number): Promise<ZipLayout> {
  const size = source.size;
  if (size < EOCD_SIZE) throw refuse(null, 'it is too short to be a zip (no end of central directory record)');
  const tailStart = Math.max(0, size - (EOCD_SIZE + MAX_COMMENT + LOCATOR_SIZE + ZIP64_EOCD_SIZE));
  const tail = await readRange(source, tailStart, size);
  const eocdAt = lastIndexOfSignature(tail, SIG_EOCD);
  if (eocdAt === -1 || tailStart + eocdAt < size - EOCD_SIZE - MAX_COMMENT) {
    throw refuse(null, 'it has no end of central directory record');
  }
  if (eocdAt + EOCD_SIZE > tail.length)
    throw refuse(null, 'an end of central directory signature lies in its last 22 bytes, after the end record');
  const eocd = tail.subarray(eocdAt, eocdAt + EOCD_SIZE);
  const commentLength = eocd.readUInt16LE(20);
  if (eocdAt + EOCD_SIZE + commentLength !== tail.length) {
    throw refuse(null, `its end record's comment (${commentLength} bytes) does not end exactly at the end of the file`);
  }
  const eocdOffset = tailStart + eocdAt;
  const disk = eocd.readUInt16LE(4);
  const centralDisk = eocd.readUInt16LE(6);
  const entriesHere = eocd.readUInt16LE(8);
  const entries16 = eocd.readUInt16LE(10);
  const centralSize32 = eocd.readUInt32LE(12);
  const centralOffset32 = eocd.readUInt32LE(16);

  let end: EndValues;
  let centralEnd: number;
  const locatorAt = eocdAt - LOCATOR_SIZE;
  if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === SIG_ZIP64_LOCATOR) {
    const locator = tail.subarray(locatorAt, locatorAt + LOCATOR_SIZE);
    const zip64Offset = readUInt64(locator, 8);
    const expected = eocdOffset - LOCATOR_SIZE - ZIP64_EOCD_SIZE;
    if (locator.readUInt32LE(4) !== 0 || locator.readUInt32LE(16) !== 1) throw refuse(null, 'it spans several disks (zip64 locator)');
    if (zip64Offset !== expected || expected < 0) {
      throw refuse(null, 'its zip64 end record is not immediately before the zip64 locator, where the locator says it is');
    }
    const recordAt = zip64Offset - tailStart;
    if (recordAt < 0) throw refuse(null, 'its zip64 end record lies outside the end of the file');
    const record = tail.subarray(recordAt, recordAt + ZIP64_EOCD_SIZE);
    if (record.readUInt32LE(0) !== SIG_ZIP64_EOCD) throw refuse(null, 'its zip64 locator does not point at a zip64 end record');
    if (readUInt64(record, 4) !== ZIP64_EOCD_SIZE - 12) throw refuse(null, 'its zip64 end record has an extensible data sector');
    if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0) throw refuse(null, 'it spans several disks (zip64 end record)');
    const entries64Here = readUInt64(record, 24);
    end = { entries: readUInt64(record, 32), centralSize: readUInt64(record, 40), centralOffset: readUInt64(record, 48) };
    if (entries64Here !== end.entries)
      throw refuse(null, 'its zip64 end record counts a different number of entries on this disk and in total');
    const agrees = (value: number, placeholder: number, actual: number) => value === placeholder || value === actual;
    if (
      !agrees(entries16, 0xffff, end.entries) ||
      !agrees(entriesHere, 0xffff, end.entries) ||
      !agrees(centralSize32, 0xffffffff, end.centralSize) ||
      !agrees(centralOffset32, 0xffffffff, end.centralOffset) ||
      !agrees(disk, 0xffff, 0) ||
      !agrees(centralDisk, 0xffff, 0)
    ) {
      throw refuse(null, 'its end record and zip64 end record disagree');
    }
    centralEnd = zip64Offset;
  } else {
    if (entries16 === 0xffff || centralSize32 === 0xffffffff || centralOffset32 === 0xffffffff) {
      throw refuse(null, 'its end record defers to a zip64 end record that is not there');
    }
    if (disk !== 0 || centralDisk !== 0) throw refuse(null, 'it spans several disks');
    if (entriesHere !== entries16) throw refuse(null, 'its end record counts a different number of entries on this disk and in total');
    end = { entries: entries16, centralSize: centralSize32, centralOffset: centralOffset32 };
    centralEnd = eocdOffset;
  }

  if (end.entries > maxEntries) throw refuse(null, `the archive holds ${end.entries} entries, more than the limit of ${maxEntries}`);
  if (end.centralOffset + end.centralSize !== centralEnd) {
    throw refuse(
      null,
      `its central directory (offset ${end.centralOffset}, ${end.centralSize} bytes) does not end where the end record starts (${centralEnd}); bytes between them would be read differently by different tools`,
    );
  }
  const centralCap = (maxEntries + 1) * CENTRAL_BYTES_PER_ENTRY;
  if (end.centralSize > centralCap) throw refuse(null, `its central directory is larger than ${centralCap} bytes`);
  const central = await readRange(source, end.centralOffset, centralEnd);
  const records = parseCentralDirectory(central, end.entries);
  return { records, centralOffset: end.centralOffset, centralSize: end.centralSize };
}

function parseCentralDirectory(central: Buffer, count: number): CentralRecord[] {
  const records: CentralRecord[] = [];
  let at = 0;
  while (at < central.length) {
    if (records.length === count) {
      const surplus =
        at + 46 <= central.length && central.readUInt32LE(at) === SIG_CENTRAL
          ? central.subarray(at + 46, Math.min(central.length, at + 46 + central.readUInt16LE(at + 28))).toString('utf8')
          : null;
      throw refuse(
        surplus,
        `the central directory holds more records than the ${count} the end record counts (the end record hides entries that extractors would unpack)`,
      );
    }
    if (at + 46 > central.length || central.readUInt32LE(at) !== SIG_CENTRAL) {
      throw refuse(null, `its central directory is malformed at byte ${at} (record ${records.length + 1} of ${count})`);
    }
    const nameLength = central.readUInt16LE(at + 28);
    const extraLength = central.readUInt16LE(at + 30);
    const commentLength = central.readUInt16LE(at + 32);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > central.length)
      throw refuse(null, `its central directory record ${records.length + 1} runs past the central directory's size`);
    const nameRaw = central.subarray(at + 46, at + 46 + nameLength);
    const label = nameRaw.toString('utf8');
    const extraFields = parseExtraFields(central.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    if (extraFields === null) throw refuse(label, 'its extra field is malformed');
    let compressedSize = central.readUInt32LE(at + 20);
    let uncompressedSize = central.readUInt32LE(at + 24);
    let diskStart = central.readUInt16LE(at + 34);
    let localOffset = central.readUInt32LE(at + 42);
    const needs64 = uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff || diskStart === 0xffff;
    if (needs64) {
      const field = extraFields.find((f) => f.id === 0x0001);
      if (field === undefined) throw refuse(label, 'it defers to a zip64 extra field that is not there');
      let p = 0;
      const next64 = (bytes: number): number => {
        if (p + bytes > field.data.length) throw refuse(label, 'its zip64 extra field is too short');
        const value = bytes === 8 ? readUInt64(field.data, p) : field.data.readUInt32LE(p);
        p += bytes;
        return value;
      };
      if (uncompressedSize === 0xffffffff) uncompressedSize = next64(8);
      if (compressedSize === 0xffffffff) compressedSize = next64(8);
      if (localOffset === 0xffffffff) localOffset = next64(8);
      if (diskStart === 0xffff) diskStart = next64(4);
    }
    if (extraFields.filter((f) => f.id === 0x0001).length > 1) throw refuse(label, 'it has more than one zip64 extra field');
    if (diskStart !== 0) throw refuse(label, 'it starts on another disk');
    records.push({
      index: records.length,
      versionMadeBy: central.readUInt16LE(at + 4),
      versionNeeded: central.readUInt16LE(at + 6),
      flags: central.readUInt16LE(at + 8),
      method: central.readUInt16LE(at + 10),
      crc32: central.readUInt32LE(at + 16),
      compressedSize,
      uncompressedSize,
      nameRaw,
      extraFields,
      externalAttributes: central.readUInt32LE(at + 38),
      localOffset,
      zip64: needs64,
    });
    at = next;
  }
  if (records.length !== count) {
    throw refuse(null, `its end record counts ${count} entries but the central directory holds ${records.length}`);
  }
  return records;
}
