/**
 * The archive formats the registry takes, and how each is recognised: by its first bytes, never by a file name.
 * Pure (no Node built-ins), so the web console checks a chosen file exactly as the server will.
 */

/** Every format, in the order error messages name them. */
export const ARCHIVE_FORMATS = ['zip', 'tar.gz'] as const;

export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

/** The media type a package of each format is served with. */
export const ARCHIVE_MEDIA_TYPES: Readonly<Record<ArchiveFormat, string>> = { zip: 'application/zip', 'tar.gz': 'application/gzip' };

/** The file-name extension (without its dot) a package of each format is saved under. */
export const ARCHIVE_EXTENSIONS: Readonly<Record<ArchiveFormat, string>> = { zip: 'zip', 'tar.gz': 'tar.gz' };

/** File-name suffixes a file picker offers for each format; only a hint, the bytes decide. */
export const ARCHIVE_FILE_SUFFIXES: Readonly<Record<ArchiveFormat, readonly string[]>> = { zip: ['.zip'], 'tar.gz': ['.tar.gz', '.tgz'] };

/** How many leading bytes detectArchiveFormat needs to decide. */
export const FORMAT_SNIFF_BYTES = 4;

/**
 * The format whose signature `head` (the first bytes of the archive) starts with, or null.
 * `PK\x03\x04` is a zip's first local header and `PK\x05\x06` the end record an empty zip consists of;
 * `\x1f\x8b\x08` is a deflate gzip member, which must then hold a tar (checked when the archive is read).
 */
export function detectArchiveFormat(head: Uint8Array): ArchiveFormat | null {
  if (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06))
  ) {
    return 'zip';
  }
  if (head.length >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 0x08) return 'tar.gz';
  return null;
}

export function isArchiveFormat(value: unknown): value is ArchiveFormat {
  return (ARCHIVE_FORMATS as readonly unknown[]).includes(value);
}
