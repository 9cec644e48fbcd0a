/**
 * Assembles zip bytes by hand (local headers, data, central directory, end record), with knobs to lie in
 * every way yazl refuses to: sizes, CRCs, names, flags, methods, attributes, local/central disagreement.
 */
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '@skill-registry/skill-package/crc32';

export interface RawEntry {
  name: string | Buffer;
  /** Uncompressed content. */
  data?: string | Buffer;
  /** Compression method written to both headers (default 8 when there is data, else 0). */
  method?: number;
  /** Bytes written as the file data (default: deflated or stored `data`). */
  rawData?: Buffer;
  /** General purpose flags (default 0x800, UTF-8 names). */
  flags?: number;
  versionMadeBy?: number;
  externalAttributes?: number;
  /** Lies in the central directory record. */
  central?: { crc?: number; compressedSize?: number; uncompressedSize?: number; extra?: Buffer };
  /** Lies in the local header. */
  local?: {
    name?: string | Buffer;
    method?: number;
    flags?: number;
    crc?: number;
    compressedSize?: number;
    uncompressedSize?: number;
    extra?: Buffer;
  };
  /** Write no local header: point the central record at entry N's local header instead (overlap). */
  shareLocalHeaderWith?: number;
  /** Write no local header: point the central record at this offset (e.g. inside another entry's data). */
  localHeaderAt?: number;
  /** Use a data descriptor (bit 3): zeros in the local header, a descriptor after the data. */
  dataDescriptor?: boolean;
}

const VERSION_UNIX = (3 << 8) | 20;

export function unixMode(mode: number): number {
  return (mode << 16) >>> 0;
}

export function buildZip(entries: RawEntry[], options: { entryCount?: number; truncateCentral?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  const central: Buffer[] = [];
  let offset = 0;

  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : (e.data ?? Buffer.alloc(0));
    const method = e.method ?? (data.length > 0 ? 8 : 0);
    const raw = e.rawData ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = crc32(data);
    let flags = e.flags ?? 0x800;
    if (e.dataDescriptor) flags |= 0x8;

    let localOffset: number;
    if (e.shareLocalHeaderWith !== undefined || e.localHeaderAt !== undefined) {
      localOffset = e.localHeaderAt ?? offsets[e.shareLocalHeaderWith ?? 0] ?? 0;
      offsets.push(localOffset);
    } else {
      localOffset = offset;
      offsets.push(localOffset);
      const l = e.local ?? {};
      const lname = l.name === undefined ? name : typeof l.name === 'string' ? Buffer.from(l.name) : l.name;
      const lextra = l.extra ?? Buffer.alloc(0);
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(l.flags ?? flags, 6);
      header.writeUInt16LE(l.method ?? method, 8);
      header.writeUInt16LE(0, 10);
      header.writeUInt16LE(0x21, 12);
      header.writeUInt32LE(e.dataDescriptor ? 0 : (l.crc ?? crc) >>> 0, 14);
      header.writeUInt32LE(e.dataDescriptor ? 0 : (l.compressedSize ?? raw.length), 18);
      header.writeUInt32LE(e.dataDescriptor ? 0 : (l.uncompressedSize ?? data.length), 22);
      header.writeUInt16LE(lname.length, 26);
      header.writeUInt16LE(lextra.length, 28);
      parts.push(header, lname, lextra, raw);
      offset += 30 + lname.length + lextra.length + raw.length;
      if (e.dataDescriptor) {
        const dd = Buffer.alloc(16);
        dd.writeUInt32LE(0x08074b50, 0);
        dd.writeUInt32LE(crc, 4);
        dd.writeUInt32LE(raw.length, 8);
        dd.writeUInt32LE(data.length, 12);
        parts.push(dd);
        offset += 16;
      }
    }

    const c = e.central ?? {};
    const cextra = c.extra ?? Buffer.alloc(0);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(e.versionMadeBy ?? VERSION_UNIX, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(flags, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt16LE(0, 12);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE((c.crc ?? crc) >>> 0, 16);
    record.writeUInt32LE(c.compressedSize ?? raw.length, 20);
    record.writeUInt32LE(c.uncompressedSize ?? data.length, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt16LE(cextra.length, 30);
    record.writeUInt16LE(0, 32);
    record.writeUInt16LE(0, 34);
    record.writeUInt16LE(0, 36);
    const isDir = name.length > 0 && name[name.length - 1] === 0x2f;
    record.writeUInt32LE(e.externalAttributes ?? unixMode(isDir ? 0o040755 : 0o100644), 38);
    record.writeUInt32LE(localOffset, 42);
    central.push(Buffer.concat([record, name, cextra]));
  }

  const centralStart = offset;
  let centralBytes = Buffer.concat(central);
  if (options.truncateCentral) centralBytes = centralBytes.subarray(0, Math.floor(centralBytes.length / 2));
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = options.entryCount ?? entries.length;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(centralStart, 16);
  return Buffer.concat([...parts, centralBytes, end]);
}

/** An Info-ZIP Unicode Path extra field (0x7075) for `rawName`, claiming `unicodeName`. */
export function unicodePathExtra(rawName: Buffer, unicodeName: string): Buffer {
  const name = Buffer.from(unicodeName, 'utf8');
  const field = Buffer.alloc(4 + 5 + name.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + name.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(rawName), 5);
  name.copy(field, 9);
  return field;
}

/** A stored entry's local header followed by its data, as bytes to embed somewhere else. */
export function storedLocalEntry(name: string, data: Buffer): Buffer {
  const n = Buffer.from(name);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(0x800, 6);
  header.writeUInt16LE(0, 8);
  header.writeUInt32LE(crc32(data), 14);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(n.length, 26);
  return Buffer.concat([header, n, data]);
}

/** A zip64 extended information extra field as a local header carries it: original size, then compressed size. */
export function zip64LocalExtra(uncompressedSize: number, compressedSize: number): Buffer {
  const field = Buffer.alloc(4 + 16);
  field.writeUInt16LE(0x0001, 0);
  field.writeUInt16LE(16, 2);
  field.writeUInt32LE(uncompressedSize, 4);
  field.writeUInt32LE(compressedSize, 12);
  return field;
}

/** Local header + stored data of an entry, as bytes to hide somewhere. */
export function localEntry(name: string, data: Buffer): Buffer {
  const n = Buffer.from(name);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0x800, 6);
  h.writeUInt32LE(crc32(data), 14);
  h.writeUInt32LE(data.length, 18);
  h.writeUInt32LE(data.length, 22);
  h.writeUInt16LE(n.length, 26);
  return Buffer.concat([h, n, data]);
}
