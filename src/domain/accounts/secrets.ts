import { hash as digest, randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

export const API_KEY_PREFIX = 'skreg_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry 256.03 bits; one more keeps a margin after any future trimming. */
const API_KEY_CHARS = 44;

export function sha256Hex(value: string): string {
  // The one-shot form: every authenticated request hashes its credential, and it is twice as fast.
  return digest('sha256', value, 'hex');
}

/** Uniform base62 by rejection sampling: bytes at or above 248 (4 × 62) are discarded to avoid bias. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62.charAt(byte % 62);
      if (out.length === length) break;
    }
  }
  return out;
}

export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBase62(API_KEY_CHARS);
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 8), hash: sha256Hex(key) };
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX) && /^[A-Za-z0-9]+$/.test(value.slice(API_KEY_PREFIX.length));
}

export function newSessionToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

// The package exports Algorithm as a const enum, which isolated modules cannot read; 2 is its Argon2id.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const ARGON2ID = 2 as Algorithm;

// OWASP's argon2id baseline: 19 MiB, two passes, one lane (about 20 ms a hash on this class of machine).
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so a login for an unknown user does not answer faster. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-only-for-timing');
  await verifyPassword(await dummyHash, password);
}
