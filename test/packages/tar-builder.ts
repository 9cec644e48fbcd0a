/**
 * Assembles tar bytes by hand: header blocks with any field as raw bytes, pax records, GNU long names,
 * and gzip members, for the ways tar readers can be made to disagree.
 */
import { gzipSync } from 'node:zlib';
import { withChecksum } from './helpers.js';

export interface HeaderFields {
  name: string | Buffer;
  typeflag?: string;
  size?: number;
  /** Raw bytes for the 12-byte size field (overrides `size` in the header only). */
  sizeField?: Buffer;
  uidField?: Buffer;
  mtimeField?: Buffer;
  /** 'posix' (ustar\0 00, default), 'gnu' (ustar  \0) or 'v7' (none). */
  format?: 'posix' | 'gnu' | 'v7';
  prefix?: string;
  linkname?: string;
  /** Added to the computed checksum (0: valid). */
  checksumDelta?: number;
}

function field(block: Buffer, at: number, length: number, value: Buffer | string): void {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  block.fill(0, at, at + length);
  bytes.copy(block, at, 0, Math.min(length, bytes.length));
}

export function header(f: HeaderFields): Buffer {
  const block = Buffer.alloc(512);
  const name = typeof f.name === 'string' ? Buffer.from(f.name) : f.name;
  field(block, 0, 100, name);
  field(block, 100, 8, '0000644\0');
  field(block, 108, 8, f.uidField ?? '0001750\0');
  field(block, 116, 8, '0001750\0');
  field(block, 124, 12, f.sizeField ?? `${(f.size ?? 0).toString(8).padStart(11, '0')}\0`);
  field(block, 136, 12, f.mtimeField ?? '14500000000\0');
  block.write(f.typeflag ?? '0', 156, 'latin1');
  if (f.linkname !== undefined) field(block, 157, 100, f.linkname);
  const format = f.format ?? 'posix';
  if (format === 'posix') block.write('ustar\u000000', 257, 'latin1');
  if (format === 'gnu') block.write('ustar  \u0000', 257, 'latin1');
  if (format !== 'v7') {
    field(block, 265, 32, 'user');
    field(block, 297, 32, 'group');
    field(block, 329, 8, '0000000\0');
    field(block, 337, 8, '0000000\0');
  }
  if (f.prefix !== undefined) field(block, 345, 155, f.prefix);
  withChecksum(block);
  if (f.checksumDelta) {
    const sum = parseInt(block.subarray(148, 154).toString('latin1'), 8) + f.checksumDelta;
    block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  }
  return block;
}

/** Pads data to a whole number of blocks. */
export function padded(data: Buffer): Buffer {
  const pad = (512 - (data.length % 512)) % 512;
  return Buffer.concat([data, Buffer.alloc(pad)]);
}

/** pax records, each `<length> key=value\n` with the exact length. */
export function paxData(records: [string, string | Buffer][]): Buffer {
  return Buffer.concat(
    records.map(([key, value]) => {
      const body = Buffer.concat([Buffer.from(` ${key}=`), typeof value === 'string' ? Buffer.from(value) : value, Buffer.from('\n')]);
      let length = body.length + 1;
      while (String(length).length + body.length !== length) length += 1;
      return Buffer.concat([Buffer.from(String(length)), body]);
    }),
  );
}

export type TarPart =
  | { file: string | Buffer; data?: string | Buffer; fields?: Partial<HeaderFields> }
  | { dir: string }
  | { pax: [string, string | Buffer][]; global?: boolean; raw?: Buffer }
  | { longName: string | Buffer; flag?: 'L' | 'K' }
  | { raw: Buffer };

/** Tar bytes from parts; `end` (default true) appends the two zero blocks. */
export function tar(parts: TarPart[], end = true): Buffer {
  const out: Buffer[] = [];
  for (const part of parts) {
    if ('file' in part) {
      const data = typeof part.data === 'string' ? Buffer.from(part.data) : (part.data ?? Buffer.alloc(0));
      out.push(header({ name: part.file, size: data.length, ...part.fields }), padded(data));
    } else if ('dir' in part) {
      out.push(header({ name: part.dir, typeflag: '5' }));
    } else if ('pax' in part) {
      const data = part.raw ?? paxData(part.pax);
      out.push(
        header({ name: part.global ? 'pax_global_header' : 'PaxHeaders/x', typeflag: part.global ? 'g' : 'x', size: data.length }),
        padded(data),
      );
    } else if ('longName' in part) {
      const name = Buffer.concat([typeof part.longName === 'string' ? Buffer.from(part.longName) : part.longName, Buffer.alloc(1)]);
      out.push(header({ name: '././@LongLink', typeflag: part.flag ?? 'L', size: name.length }), padded(name));
    } else {
      out.push(part.raw);
    }
  }
  if (end) out.push(Buffer.alloc(1024));
  return Buffer.concat(out);
}

export function gz(bytes: Buffer): Buffer {
  return gzipSync(bytes);
}
