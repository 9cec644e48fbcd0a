/**
 * Where an inspection sends a package's files to be scanned, and where it gets the report from. One session per
 * package: its files arrive one after another, in order; `finish` opens the archives found among them (nested.ts)
 * and reports. Sessions scan on the caller's thread (inlineScans, here) or on a worker thread (worker-scans.ts),
 * so that scanning runs beside the inflating it is fed by rather than after it.
 */
import type { InflatedData, Span } from '../collector.js';
import { openNestedArchives } from '../nested.js';
import type { PackageLimits } from '../types.js';
import { PackageScanner, type FileSink, type SkillMdInfo } from './scanner.js';
import type { ScanReport } from './types.js';

export { ScanFailed } from './scan-failed.js';

export interface ScanSession {
  /** A sink for the next file's bytes; `depth` is how many archives deep it lies, `span` where it lies in the package. */
  file(path: string, depth: number, span?: Span): FileSink;
  /**
   * Undefined while the scanner keeps up with what it is fed; otherwise a promise that settles once it has caught
   * up (or rejects when it cannot go on), which readers wait for before feeding more, so bytes never pile up.
   */
  ready(): Promise<void> | undefined;
  /** Opens the archives found in the files, then reports; SKILL.md as inspection read it (null: none). */
  finish(skillMd: SkillMdInfo | null): Promise<ScanReport>;
  /** Lets the session go without a report (the package was refused). Safe after finish. */
  abort(): void;
}

/**
 * A session whose scan has read the package's bytes already, as they arrived: inspection gives it each file's path and
 * span only, takes what it found in each zip entry instead of inflating it again, and `finish` reports, or gives null
 * when the scan read other files than inspection did (the package is then read again and scanned).
 */
export interface FollowedSession extends Omit<ScanSession, 'finish'> {
  /** What the scan found in a zip entry it inflated whole (collector.ts, ScanTarget.inflated). */
  inflated(span: Span): Promise<InflatedData | null>;
  finish(skillMd: SkillMdInfo | null): Promise<ScanReport | null>;
}

/**
 * A scan that follows a package while its upload is written to a local file (arriving.ts), so that it is scanned
 * during the upload rather than after it. The blob store tells it where the bytes go and how many are written.
 */
export interface ArrivingScan {
  /** The local file the package is being written to. */
  file(path: string): void;
  /** How many bytes of the file are written so far; `pieces`, when given, are the last ones written, ending there. */
  written(bytes: number, pieces?: readonly Buffer[]): void;
  /** Every byte is written: the package is `bytes` long. */
  complete(bytes: number): void;
  /** The session for inspection, or null when the scan cannot follow this package (it is then scanned as it is read). */
  session(): FollowedSession | null;
  /** Lets the scan go (the upload failed, or inspection is over). Safe at any time, and more than once. */
  abort(): void;
}

/** Where sessions come from. */
export interface Scans {
  session(): ScanSession;
  /** A scan to follow a package as it arrives, where the scans can (worker threads can; scans on this thread cannot). */
  follow?(limits: PackageLimits): ArrivingScan;
}

/** Scans on the caller's thread: the command line, tests, and a registry configured without scan threads. */
class InlineSession implements ScanSession {
  private readonly scanner = new PackageScanner();

  file(path: string, depth: number): FileSink {
    return this.scanner.file(path, depth);
  }

  ready(): undefined {
    return undefined;
  }

  async finish(skillMd: SkillMdInfo | null): Promise<ScanReport> {
    await openNestedArchives(this.scanner);
    return this.scanner.finish(skillMd);
  }

  abort(): void {}
}

export const inlineScans: Scans = { session: () => new InlineSession() };
