/**
 * gzip decompression that accepts exactly one member and nothing after it.
 *
 * GNU gzip and Python's gzip module read every member of a multi-member file (and treat trailing bytes each
 * in their own way: a warning, zero padding skipped, an error); Node's zlib reads further members too. A
 * package is one member: its header is parsed here (reserved flag bits refused, the optional header CRC
 * checked), its deflate data inflated, its trailer's CRC-32 and length checked, and the file must end right
 * after the trailer.
 */
import type { RandomAccessSource } from './source.js';
import { ByteReader, EndOfStream, inflateRaw } from './byte-reader.js';
import { crc32 } from './crc32.js';
import { openSource } from './source.js';
import { isOutsideFault, PackageError, refuse } from './refusal.js';

const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const FRESERVED = 0xe0;
const MAX_HEADER_STRING = 64 * 1024;

function broken(rule: string): PackageError {
  return refuse(null, rule);
}

async function readZeroTerminated(reader: ByteReader, what: string): Promise<Buffer> {
  const bytes: number[] = [];
  for (;;) {
    const b = (await reader.take(1))[0]!;
    if (b === 0) return Buffer.from([...bytes, 0]);
    bytes.push(b);
    if (bytes.length > MAX_HEADER_STRING) throw broken(`its gzip header's ${what} is longer than ${MAX_HEADER_STRING} bytes`);
  }
}

/** Reads the gzip header; returns its bytes (for the optional header CRC). */
async function readHeader(reader: ByteReader): Promise<void> {
  const fixed = Buffer.from(await reader.take(10));
  if (fixed[0] !== 0x1f || fixed[1] !== 0x8b || fixed[2] !== 8) throw broken('it is not a deflate gzip stream');
  const flags = fixed[3]!;
  if (flags & FRESERVED) throw broken('its gzip header sets reserved flags');
  const parts: Buffer[] = [fixed];
  if (flags & FEXTRA) {
    const length = Buffer.from(await reader.take(2));
    parts.push(length, Buffer.from(await reader.take(length.readUInt16LE(0))));
  }
  if (flags & FNAME) parts.push(await readZeroTerminated(reader, 'file name'));
  if (flags & FCOMMENT) parts.push(await readZeroTerminated(reader, 'comment'));
  if (flags & FHCRC) {
    const stored = (await reader.take(2)).readUInt16LE(0);
    if ((crc32(Buffer.concat(parts)) & 0xffff) !== stored) throw broken('its gzip header CRC does not match');
  }
}

/**
 * The decompressed bytes of a single-member gzip file. Throws PackageError for a broken or multi-member
 * stream, and the source's own errors untouched.
 */
export async function* gunzipSingle(source: RandomAccessSource): AsyncGenerator<Buffer> {
  const reader = new ByteReader(openSource(source));
  try {
    try {
      await readHeader(reader);
    } catch (err) {
      if (err instanceof EndOfStream) throw broken('the gzip stream is truncated');
      throw err;
    }
    const headerLength = reader.position;
    // The last 8 bytes fed to the inflater: the trailer, when the member is the whole rest of the file.
    let tail = Buffer.alloc(0);
    async function* rest(): AsyncGenerator<Buffer> {
      for await (const chunk of reader.rest()) {
        tail = Buffer.concat([tail, chunk]);
        if (tail.length > 8) tail = tail.subarray(tail.length - 8);
        yield chunk;
      }
    }
    let crc = 0;
    let length = 0;
    const inflating = inflateRaw(rest());
    let ended;
    try {
      for (;;) {
        const step = await inflating.next();
        if (step.done) {
          ended = step.value;
          break;
        }
        crc = crc32(step.value, crc);
        length += step.value.length;
        yield step.value;
      }
    } catch (err) {
      if (err instanceof PackageError || isOutsideFault(err)) throw err;
      throw broken(`the gzip stream is corrupt or truncated (${err instanceof Error ? err.message : String(err)})`);
    } finally {
      await inflating.return(undefined as never);
    }
    const trailerAt = headerLength + ended.consumed;
    if (trailerAt + 8 > source.size) throw broken('the gzip stream is truncated (no trailer)');
    if (trailerAt + 8 < source.size) {
      throw broken(`${source.size - trailerAt - 8} bytes follow the gzip member (further gzip members or trailing data are refused)`);
    }
    if (tail.readUInt32LE(0) !== crc >>> 0) throw broken('the gzip trailer CRC-32 does not match the data');
    if (tail.readUInt32LE(4) !== length % 0x100000000) throw broken('the gzip trailer length does not match the data');
  } finally {
    await reader.close();
  }
}
