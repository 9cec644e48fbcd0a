import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseConfig, StorageConfig } from '../config.js';

/** A local directory the registry writes to, and the free space it must keep. */
export interface WatchedDisk {
  /** What is stored there, as a readiness check names it: `blobs`, `database`. */
  name: string;
  dir: string;
}

export type LowDisk = WatchedDisk & { freeBytes: number; minFreeBytes: number };

/**
 * Tells whether the local disks the registry writes to still have `minFreeBytes` free. Below that floor new
 * packages are refused before a byte of them is read, instead of failing half-way with the disk full — and the
 * few bytes left stay for the database's own writes. Object storage has no such floor, so it is not watched.
 */
export function freeSpaceGuard(disks: readonly WatchedDisk[], minFreeBytes: number) {
  return {
    /** The first watched disk below the floor, or null when every one has room (or there is no floor). */
    async lowDisk(): Promise<LowDisk | null> {
      if (minFreeBytes <= 0) return null;
      for (const disk of disks) {
        const info = await statfs(disk.dir);
        // bavail: what an unprivileged writer may still use (the root reserve is not the registry's).
        const freeBytes = info.bavail * info.bsize;
        if (freeBytes < minFreeBytes) return { ...disk, freeBytes, minFreeBytes };
      }
      return null;
    },
  };
}

/** The local disks a registry writes to: the package directory, and the SQLite database's directory. */
export function watchedDisks(storage: StorageConfig, database: DatabaseConfig): WatchedDisk[] {
  return [
    ...(storage.kind === 'file' ? [{ name: 'blobs', dir: storage.dir }] : []),
    ...(database.kind === 'sqlite' ? [{ name: 'database', dir: path.dirname(database.file) }] : []),
  ];
}

export type FreeSpaceGuard = ReturnType<typeof freeSpaceGuard>;
