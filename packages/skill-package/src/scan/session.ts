/**
 * Where an inspection sends a package's files to be scanned, and where it gets the report from. One session per
 * package: its files arrive one after another, in order; `finish` opens the archives found among them (nested.ts)
 * and reports. Sessions scan on the caller's thread (inlineScans, here) or on a worker thread (worker-scans.ts),
 * so that scanning runs beside the inflating it is fed by rather than after it.
 */
import { openNestedArchives } from '../nested.js';
import { PackageScanner, type FileSink, type SkillMdInfo } from './scanner.js';
import type { ScanReport } from './types.js';

export { ScanFailed } from './scan-failed.js';

export interface ScanSession {
  /** A sink for the next file's bytes; `depth` is how many archives deep it lies. */
  file(path: string, depth: number): FileSink;
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

/** Where sessions come from. */
export interface Scans {
  session(): ScanSession;
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
