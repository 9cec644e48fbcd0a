/**
 * What a file is, from its first bytes: an executable (ELF, PE, Mach-O), an archive (zip, gzip, 7z, rar, xz,
 * bzip2, zstd, tar), other binary data (a NUL byte in the first HEAD_BYTES), or text. The name plays no part,
 * except that zip-based document formats (Office, OpenDocument, EPUB) are documents rather than nested archives.
 */

/** Bytes looked at to decide; a file shorter than this is decided on what it has. */
export const HEAD_BYTES = 4096;

/** The archive formats the registry opens inside a package (the others are reported unopened). */
export type NestedFormat = 'zip' | 'gzip' | 'tar';

export type Magic =
  | { kind: 'executable'; rule: 'executable.elf' | 'executable.pe' | 'executable.macho'; what: string }
  | { kind: 'archive'; what: string; opens: NestedFormat | null }
  | { kind: 'binary' }
  | { kind: 'text' };

const DOCUMENT_ZIP = /\.(?:docx|docm|dotx|xlsx|xlsm|xltx|pptx|pptm|potx|odt|ods|odp|odg|epub|vsdx|3mf|kmz)$/i;

function startsWith(head: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (head.length < at + bytes.length) return false;
  return bytes.every((b, i) => head[at + i] === b);
}

function u32be(head: Uint8Array, at: number): number {
  return ((head[at]! << 24) | (head[at + 1]! << 16) | (head[at + 2]! << 8) | head[at + 3]!) >>> 0;
}

export function sniff(head: Uint8Array, path: string): Magic {
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46]))
    return { kind: 'executable', rule: 'executable.elf', what: 'an ELF executable or library' };
  if (startsWith(head, [0x4d, 0x5a]) && head.length >= 64) {
    const peOffset = head[0x3c]! | (head[0x3d]! << 8) | (head[0x3e]! << 16) | (head[0x3f]! << 24);
    if (peOffset > 0 && startsWith(head, [0x50, 0x45, 0, 0], peOffset))
      return { kind: 'executable', rule: 'executable.pe', what: 'a Windows (PE) executable or DLL' };
    if (head.includes(0)) return { kind: 'executable', rule: 'executable.pe', what: 'a DOS/Windows (MZ) executable' };
  }
  if (head.length >= 4) {
    const magic = u32be(head, 0);
    if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic))
      return { kind: 'executable', rule: 'executable.macho', what: 'a Mach-O executable or library' };
    // 0xcafebabe is both a universal Mach-O and a Java class; universal binaries list few architectures.
    if (magic === 0xcafebabe && head.length >= 8 && u32be(head, 4) > 0 && u32be(head, 4) < 20)
      return { kind: 'executable', rule: 'executable.macho', what: 'a universal Mach-O executable' };
  }
  if (
    startsWith(head, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(head, [0x50, 0x4b, 0x05, 0x06]) ||
    startsWith(head, [0x50, 0x4b, 0x07, 0x08])
  ) {
    return DOCUMENT_ZIP.test(path) ? { kind: 'binary' } : { kind: 'archive', what: 'a zip archive', opens: 'zip' };
  }
  if (startsWith(head, [0x1f, 0x8b])) return { kind: 'archive', what: 'a gzip stream', opens: 'gzip' };
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return { kind: 'archive', what: 'a 7z archive', opens: null };
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return { kind: 'archive', what: 'a RAR archive', opens: null };
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return { kind: 'archive', what: 'an xz stream', opens: null };
  if (
    startsWith(head, [0x42, 0x5a, 0x68]) &&
    head.length >= 10 &&
    head[3]! >= 0x31 &&
    head[3]! <= 0x39 &&
    startsWith(head, [0x31, 0x41, 0x59, 0x26, 0x53, 0x59], 4)
  )
    return { kind: 'archive', what: 'a bzip2 stream', opens: null };
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return { kind: 'archive', what: 'a zstd stream', opens: null };
  if (startsWith(head, [0x75, 0x73, 0x74, 0x61, 0x72], 257)) return { kind: 'archive', what: 'a tar archive', opens: 'tar' };
  return head.includes(0) ? { kind: 'binary' } : { kind: 'text' };
}

/**
 * Whether the scanner reads a file past its first HEAD_BYTES (`head`: at least those, or the whole file): it reads text
 * to its end and keeps an archive whole; any other file is decided by its head alone.
 */
export function readsPastHead(head: Uint8Array, path: string): boolean {
  const { kind } = sniff(head.subarray(0, HEAD_BYTES), path);
  return kind === 'text' || kind === 'archive';
}
