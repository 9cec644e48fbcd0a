// Bytes of executables and archives, built from their headers plus filler: enough for a magic-byte check and for
// a reader of the format to recognise them, never a program that runs.
import { crc32, gzipSync } from 'node:zlib';
import type { Rng } from './prng.js';

function filler(r: Rng, n: number, strings: string[]): Uint8Array {
  const out = Buffer.from(r.bytes(n));
  let at = 64;
  for (const s of strings) {
    if (at + s.length + 1 >= n) break;
    out.write(`${s}\0`, at, 'latin1');
    at += s.length + 1 + r.int(16, 200);
  }
  return out;
}

/** An x86-64 ELF header (executable or shared object) and filler with the strings a linker leaves. */
export function elf(r: Rng, size = 4096, shared = false): Uint8Array {
  const out = Buffer.from(
    filler(r, size, [
      '/lib64/ld-linux-x86-64.so.2',
      'libc.so.6',
      'GLIBC_2.34',
      'socket',
      'connect',
      'execve',
      '.text',
      '.rodata',
      '.dynamic',
    ]),
  );
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], 0);
  out.fill(0, 8, 16);
  out.writeUInt16LE(shared ? 3 : 2, 16);
  out.writeUInt16LE(0x3e, 18);
  out.writeUInt32LE(1, 20);
  out.writeBigUInt64LE(0x401000n, 24);
  out.writeBigUInt64LE(64n, 32);
  out.writeUInt16LE(64, 52);
  return out;
}

/** A PE file: MZ header, DOS stub, the PE signature at e_lfanew and a COFF header for x86-64. */
export function pe(r: Rng, size = 6144, dll = false): Uint8Array {
  const out = Buffer.from(filler(r, size, ['KERNEL32.dll', 'WinExec', 'URLDownloadToFileA', 'VirtualAlloc', '.text', '.rdata']));
  out.fill(0, 0, 0x100);
  out.write('MZ', 0, 'latin1');
  out.writeUInt32LE(0x80, 0x3c);
  out.write('This program cannot be run in DOS mode.\r\r\n$', 0x4e, 'latin1');
  out.write('PE\0\0', 0x80, 'latin1');
  out.writeUInt16LE(0x8664, 0x84);
  out.writeUInt16LE(3, 0x86);
  out.writeUInt16LE(dll ? 0x2022 : 0x0022, 0x96);
  return out;
}

/** A 64-bit Mach-O (MH_EXECUTE) header, or a universal (fat) header, and filler. */
export function machO(r: Rng, size = 4096, fat = false): Uint8Array {
  const out = Buffer.from(filler(r, size, ['__TEXT', '__DATA', '/usr/lib/libSystem.B.dylib', '_system', '_connect']));
  if (fat) {
    out.writeUInt32BE(0xcafebabe, 0);
    out.writeUInt32BE(2, 4);
  } else {
    out.writeUInt32LE(0xfeedfacf, 0);
    out.writeUInt32LE(0x01000007, 4);
    out.writeUInt32LE(3, 8);
    out.writeUInt32LE(2, 12);
  }
  return out;
}

/** A zip with stored (uncompressed) entries. */
export function storedZip(files: { path: string; content: string | Uint8Array }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const data = Buffer.from(f.content);
    const name = Buffer.from(f.path);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A ustar archive of regular files. */
export function tar(files: { path: string; content: string | Uint8Array }[]): Uint8Array {
  const blocks: Buffer[] = [];
  for (const f of files) {
    const data = Buffer.from(f.content);
    const header = Buffer.alloc(512);
    header.write(f.path, 0, 100, 'utf8');
    header.write('0000755\0', 100, 'latin1');
    header.write('0001750\0', 108, 'latin1');
    header.write('0001750\0', 116, 'latin1');
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
    header.write(`${(1_700_000_000).toString(8).padStart(11, '0')}\0`, 136, 'latin1');
    header.write('        ', 148, 'latin1');
    header.write('0', 156, 'latin1');
    header.write('ustar\0', 257, 'latin1');
    header.write('00', 263, 'latin1');
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export function gzip(data: string | Uint8Array): Uint8Array {
  // A fixed mtime (zero) keeps the bytes the same on every run.
  return gzipSync(Buffer.from(data));
}
