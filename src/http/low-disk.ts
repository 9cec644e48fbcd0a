import { AppError } from '../domain/errors.js';
import type { FreeSpaceGuard, LowDisk } from '../storage/free-space.js';

const DISK_LABELS: Record<string, string> = { blobs: 'The package store', database: "The database's disk" };

const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;

/** How a disk below the free-space floor is reported, by /readyz and to a refused upload. */
export function lowDiskDetail(low: LowDisk): string {
  return (
    `${DISK_LABELS[low.name] ?? low.name} has ${mib(low.freeBytes)} free, below the ${mib(low.minFreeBytes)} the registry keeps ` +
    '(STORAGE_MIN_FREE_BYTES); new packages are refused until there is room.'
  );
}

/** 507 before a package's first byte is read when a disk it would be written to is below the floor. */
export async function refuseWhenLow(guard: FreeSpaceGuard): Promise<void> {
  const low = await guard.lowDisk();
  if (low !== null) throw new AppError(507, 'insufficient_storage', `${lowDiskDetail(low)} Nothing was changed; try again later.`);
}
