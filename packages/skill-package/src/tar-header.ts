/**
 * Strict parsing of tar header blocks and pax extended headers, as GNU tar and Python's tarfile read them.
 *
 * Where the two (or other readers) could read a header differently, it is refused rather than interpreted:
 * - numeric fields must be octal digits (leading spaces allowed) ended by spaces or NULs; base-256 and
 *   anything else after the digits are refused (Python reads up to the first NUL, GNU tar refuses garbage);
 * - the checksum must match (signed or unsigned sum, as both accept);
 * - the format must be POSIX ustar (`ustar\0` `00`, where the prefix field is part of the name), GNU
 *   (`ustar  \0`) or v7 (no magic); in the latter two the prefix field must be empty, because Python
 *   prepends it whatever the format while GNU tar does not;
 * - pax records must be well formed (`<length> <key>=<value>\n`, the length exact, nothing left over), each
 *   key at most once, and only keys the registry models or that change nothing it lists (see PAX_KEYS).
 */
import { refuse } from './refusal.js';

export const BLOCK = 512;

export type HeaderType = 'file' | 'directory' | 'pax' | 'longname' | 'refused';

export interface TarHeader {
  /** The name from the header itself (prefix joined), as bytes. */
  nameRaw: Buffer;
  size: number;
  type: HeaderType;
  /** For a `refused` type: the rule it breaks (its data, `size` bytes, can be passed over like a file's). */
  rule?: string;
  /** The mode field (permission bits; pax cannot change it: its `mode` key is refused). */
  mode: number;
}

/** Types refused for themselves, whose data (if any) is `size` bytes like a file's: a reader can pass over them. */
const PASSABLE_TYPES = new Set(['1', '2', '3', '4', '6']);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A name as text for messages, whatever its bytes. */
export function nameLabel(raw: Buffer): string {
  return raw.toString('utf8');
}

/** The name decoded as UTF-8, or null when it is not valid UTF-8. */
export function decodeName(raw: Buffer): string | null {
  try {
    const text = utf8.decode(raw);
    return text.includes('\uFFFD') ? null : text;
  } catch {
    return null;
  }
}

function cString(field: Buffer): Buffer {
  const nul = field.indexOf(0);
  return nul === -1 ? field : field.subarray(0, nul);
}

/** An octal field; null when it is not plain octal. `emptyOk` fields may be all spaces and NULs (value 0). */
function octal(field: Buffer, emptyOk: boolean): number | null {
  const text = field.toString('latin1');
  const match = /^ *([0-7]*)[ \0]*$/.exec(text);
  if (match === null) return null;
  const digits = match[1] ?? '';
  if (digits === '') return emptyOk ? 0 : null;
  return parseInt(digits, 8);
}

function checksums(block: Buffer): [number, number] {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return [unsigned, signed];
}

export function isZeroBlock(block: Buffer): boolean {
  for (const b of block) if (b !== 0) return false;
  return true;
}

/** True when a 512-byte block is a tar header with a valid checksum, or the all-zero end-of-archive block. */
export function looksLikeTar(block: Buffer): boolean {
  if (block.length < BLOCK) return false;
  if (isZeroBlock(block)) return true;
  const stored = octal(block.subarray(148, 156), false);
  if (stored === null) return false;
  const [unsigned, signed] = checksums(block);
  return stored === unsigned || stored === signed;
}

export function isUstar(block: Buffer): boolean {
  return block.subarray(257, 262).toString('latin1') === 'ustar';
}

/** The type flags read as entries: regular files (`0`, NUL, contiguous `7`), directories, pax and GNU long-name records. */
const ENTRY_TYPES: Partial<Record<string, HeaderType>> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '5': 'directory',
  x: 'pax',
  L: 'longname',
};

const TYPE_NAMES: Record<string, string> = {
  '1': 'it is a hard link',
  '2': 'it is a symbolic link',
  '3': 'it is a device file',
  '4': 'it is a device file',
  '6': 'it is a FIFO (named pipe)',
  g: 'it is a pax global header, which tar readers apply to every later entry; the registry refuses them',
  K: 'it is a GNU long link name, which only links use (links are refused)',
  S: 'it has an unsupported tar entry type (GNU sparse file)',
  V: 'it has an unsupported tar entry type (tape volume header)',
  M: 'it has an unsupported tar entry type (multi-volume continuation)',
  N: 'it has an unsupported tar entry type (old GNU long name record)',
  D: 'it has an unsupported tar entry type (GNU dump directory)',
};

/** Parses one non-zero header block; throws a refusal naming the entry (by its raw header name). */
export function parseHeader(block: Buffer): TarHeader {
  const ownName = cString(block.subarray(0, 100));
  const label = nameLabel(ownName);
  const stored = octal(block.subarray(148, 156), false);
  const [unsigned, signed] = checksums(block);
  if (stored === null || (stored !== unsigned && stored !== signed)) {
    throw refuse(label, 'its header checksum does not match (a corrupt or forged header)');
  }
  const magic = block.subarray(257, 265).toString('latin1');
  const posix = magic === 'ustar\u000000';
  const gnu = magic === 'ustar  \u0000';
  const v7 = isZeroBlock(block.subarray(257, 265));
  if (!posix && !gnu && !v7) throw refuse(label, 'its header has an unknown format (magic)');
  let nameRaw = ownName;
  if (posix) {
    const prefix = cString(block.subarray(345, 500));
    if (prefix.length > 0) nameRaw = Buffer.concat([prefix, Buffer.from('/'), ownName]);
  } else if (block[345] !== 0) {
    throw refuse(label, 'its header has a prefix field outside the POSIX ustar format (tar readers disagree on it)');
  }
  const numeric: [string, number, number, boolean][] = [
    ['mode', 100, 8, false],
    ['uid', 108, 8, false],
    ['gid', 116, 8, false],
    ['size', 124, 12, false],
    ['mtime', 136, 12, false],
  ];
  if (posix || gnu) numeric.push(['devmajor', 329, 8, true], ['devminor', 337, 8, true]);
  const values: Record<string, number> = {};
  for (const [field, at, length, emptyOk] of numeric) {
    const value = octal(block.subarray(at, at + length), emptyOk);
    if (value === null) throw refuse(label, `its header's ${field} field is not a plain octal number`);
    values[field] = value;
  }
  const size = values.size ?? 0;
  const flag = String.fromCharCode(block[156] ?? 0);
  const type = ENTRY_TYPES[flag];
  if (type === undefined) {
    const rule =
      TYPE_NAMES[flag] ?? `it has an unsupported tar entry type (${JSON.stringify(flag)}; only files and directories are accepted)`;
    if (PASSABLE_TYPES.has(flag)) return { nameRaw, size, type: 'refused', rule, mode: values.mode ?? 0 };
    throw refuse(label, rule);
  }
  return { nameRaw, size, type, mode: values.mode ?? 0 };
}

/** pax keys accepted: those the registry applies, and those that change nothing it lists. */
const PAX_KEYS = new Set([
  'path',
  'size',
  'mtime',
  'atime',
  'ctime',
  'uid',
  'gid',
  'uname',
  'gname',
  'comment',
  'SCHILY.dev',
  'SCHILY.ino',
  'SCHILY.nlink',
  'LIBARCHIVE.creationtime',
]);
const PAX_PREFIXES = ['SCHILY.xattr.', 'LIBARCHIVE.xattr.'];
const DECIMAL = /^[0-9]{1,15}$/;
const TIME = /^-?[0-9]{1,20}(\.[0-9]{1,9})?$/;

export interface PaxValues {
  path?: Buffer;
  size?: number;
}

/** Parses a pax extended header's data; `label` names the entry it belongs to in refusals. */
export function parsePax(data: Buffer, label: string): PaxValues {
  const out: PaxValues = {};
  const seen = new Set<string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const lengthText = space === -1 ? '' : data.subarray(at, space).toString('latin1');
    if (!/^[1-9][0-9]{0,7}$/.test(lengthText)) throw refuse(label, 'its pax extended header is malformed (record length)');
    const length = parseInt(lengthText, 10);
    const end = at + length;
    if (end > data.length || data[end - 1] !== 0x0a) throw refuse(label, 'its pax extended header is malformed (record length or newline)');
    const record = data.subarray(space + 1, end - 1);
    const eq = record.indexOf(0x3d);
    if (eq <= 0) throw refuse(label, 'its pax extended header is malformed (no key)');
    const key = decodeName(record.subarray(0, eq));
    const value = record.subarray(eq + 1);
    if (key === null) throw refuse(label, 'its pax extended header has a key that is not UTF-8');
    if (seen.has(key)) throw refuse(label, `its pax extended header sets ${JSON.stringify(key)} more than once`);
    seen.add(key);
    if (!PAX_KEYS.has(key) && !PAX_PREFIXES.some((p) => key.startsWith(p))) {
      throw refuse(label, `its pax extended header sets ${JSON.stringify(key)}, which the registry does not accept`);
    }
    const text = value.toString('latin1');
    if (key === 'path') {
      if (value.length === 0) throw refuse(label, 'its pax extended header sets an empty path');
      out.path = value;
    } else if (key === 'size') {
      if (!DECIMAL.test(text))
        throw refuse(label, `its pax extended header's size (${JSON.stringify(text)}) is not a plain decimal number`);
      out.size = parseInt(text, 10);
    } else if (key === 'uid' || key === 'gid' || key === 'SCHILY.dev' || key === 'SCHILY.ino' || key === 'SCHILY.nlink') {
      if (!DECIMAL.test(text)) throw refuse(label, `its pax extended header's ${key} is not a plain decimal number`);
    } else if (key === 'mtime' || key === 'atime' || key === 'ctime' || key === 'LIBARCHIVE.creationtime') {
      if (!TIME.test(text)) throw refuse(label, `its pax extended header's ${key} is not a plain time`);
    }
    at = end;
  }
  return out;
}

/** The name a GNU long name record carries: its bytes up to a trailing NUL (nothing after it). */
export function parseLongName(data: Buffer, label: string): Buffer {
  const nul = data.indexOf(0);
  if (nul === -1) return data;
  if (!isZeroBlock(data.subarray(nul))) throw refuse(label, 'its GNU long name record has bytes after the name');
  return data.subarray(0, nul);
}
