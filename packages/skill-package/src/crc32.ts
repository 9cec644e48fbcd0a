import zlib from 'node:zlib';

let table: Uint32Array | null = null;

function jsCrc32(data: Uint8Array, value = 0): number {
  if (table === null) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (value ^ 0xffffffff) >>> 0;
  for (const byte of data) {
    crc = (table[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 (the zip one), continuing from `value`. Uses zlib.crc32 when Node has it (20.15+), else a table. */
export const crc32: (data: Uint8Array, value?: number) => number =
  typeof zlib.crc32 === 'function' ? (data, value) => zlib.crc32(data, value) >>> 0 : jsCrc32;

/** Exposed for tests: the pure-JS fallback. */
export const crc32Fallback = jsCrc32;
