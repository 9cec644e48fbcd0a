import { create } from 'content-disposition';

/**
 * `Content-Disposition: attachment` for a file name as stored (a package file may be named anything, quotes and
 * non-Latin-1 characters included): RFC 6266 quoting, with an RFC 8187 `filename*` beside an ASCII fallback.
 * A plain name is quoted too, which RFC 6266 allows: released clients read only the quoted form.
 */
export function attachment(filename: string): string {
  const header = create(filename);
  return header.includes('"') || header.includes('filename*') ? header : `attachment; filename="${filename}"`;
}
