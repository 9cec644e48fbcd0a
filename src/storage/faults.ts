/** The file system (or an object store) has no room for what is being written. */
export function isStorageFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  // EntityTooLarge / QuotaExceeded are what S3-compatible servers answer when a bucket's quota is reached.
  return code === 'ENOSPC' || code === 'EDQUOT' || name === 'QuotaExceeded' || name === 'XMinioStorageFull';
}
