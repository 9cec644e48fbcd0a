import { randomFillSync } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter that keeps ids made in the same
 * millisecond in order, then 62 random bits. Every request gets one, so random bytes come from a pool
 * refilled 4 KiB at a time rather than one system call per id. Time-ordered ids keep primary-key indexes
 * append-mostly and make `id` a stable tie-break that sorts newer first.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;
let lastMs = -1;
let sequence = 0;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** The 12-bit counter as three hex digits, after the version digit 7. */
const HEX3 = Array.from({ length: 0x1000 }, (_, i) => i.toString(16).padStart(3, '0'));
let prefixMs = -1;
let prefix = '';

export function newId(): string {
  // Bytes are read from the pool in place: a view (subarray) per id would cost more than the id's arithmetic.
  if (offset + 10 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const r = offset;
  offset += 10;
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    // Start each millisecond somewhere in the lower half, leaving room to count up.
    sequence = ((pool[r + 8]! << 8) | pool[r + 9]!) & 0x7ff;
  } else {
    ms = lastMs;
    sequence += 1;
    if (sequence > 0xfff) {
      // More than 2,048 ids in one millisecond: borrow the next millisecond rather than lose the order.
      lastMs += 1;
      ms = lastMs;
      sequence = 0;
    }
  }
  if (ms !== prefixMs) {
    // The time part changes once a millisecond, not once an id: formatted again only then.
    const time = ms.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    prefixMs = ms;
  }
  const b0 = 0x80 | (pool[r]! & 0x3f);
  return (
    `${prefix}${HEX3[sequence]}-` +
    `${HEX[b0]}${HEX[pool[r + 1]!]}-${HEX[pool[r + 2]!]}${HEX[pool[r + 3]!]}${HEX[pool[r + 4]!]}${HEX[pool[r + 5]!]}${HEX[pool[r + 6]!]}${HEX[pool[r + 7]!]}`
  );
}

/**
 * The millisecond an id from newId was made: its first 48 bits. Ids made later never sort before it, so a time
 * taken from the id orders exactly as the ids do, which a clock read again later would not promise.
 */
export function idTime(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

export { looksLikeId } from '@skill-registry/skill-package/rules';
