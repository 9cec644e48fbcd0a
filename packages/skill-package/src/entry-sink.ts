/**
 * What the archive readers (zip.ts, tar.ts) report the entries they read to: the collector (collector.ts) implements
 * it, for a package and for an archive inside one. The readers know nothing else of what is done with the entries.
 */

export interface PackageLimits {
  /** Most entries (files and directories) an archive may hold. Default 2,000. */
  maxEntries: number;
  /** Most uncompressed bytes, all files together. Default 200 MiB. */
  maxTotalBytes: number;
  /** Highest uncompressed:compressed ratio of any one entry. Default 100. */
  maxRatio: number;
}

export const DEFAULT_LIMITS: PackageLimits = { maxEntries: 2000, maxTotalBytes: 200 * 1024 * 1024, maxRatio: 100 };

/** Where one file's bytes go as they are read. */
export interface DataSink {
  push(chunk: Uint8Array): void;
  end(): void;
}

export interface EntrySink {
  readonly limits: PackageLimits;
  /** An entry broke a rule of its own: noted when every problem is collected (the reader goes on), else thrown. */
  entryRefused(error: unknown): void;
  countEntry(label: string): void;
  /** A directory entry (normalised path, `''` for the root). */
  addDirectory(label: string, path: string): void;
  /** Reserves a file's path before its bytes are read, so collisions are refused before any inflating. */
  reserveFile(label: string, path: string): void;
  /** Refuses a file before reading it when the sizes declared so far break the total limit. */
  checkDeclaredSize(label: string, declared: number): void;
  /** Counts real bytes as they are read. */
  addBytes(label: string, n: number): void;
  /** Where a file's bytes go; end() after its last chunk. */
  openFile(path: string): DataSink;
  /** Undefined while whoever takes the bytes keeps up; otherwise what a reader waits for before reading on. */
  ready(): Promise<void> | undefined;
  recordFile(path: string, size: number, executable?: boolean): void;
}
