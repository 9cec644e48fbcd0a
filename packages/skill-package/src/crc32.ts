import zlib from 'node:zlib';

/** CRC-32 (the zip one), continuing from `value`: zlib's, which every Node this package supports has (20.15+). */
export function crc32(data: Uint8Array, value?: number): number {
  return zlib.crc32(data, value) >>> 0;
}
