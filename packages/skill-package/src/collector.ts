/**
 * Bookkeeping shared by the zip and tar.gz readers: entry count, real uncompressed bytes, path collisions,
 * the file list and SKILL.md, and the refusal helper every rule goes through.
 *
 * SKILL.md decisions:
 * - Candidates are `SKILL.md` at the root and `<folder>/SKILL.md` for every top-level folder (exact, case-
 *   sensitive name). Exactly one candidate is the package's SKILL.md; none is the `skill_md_missing` warning;
 *   more than one (root and a folder, or two folders) is a 422 invalid_skill_md naming them, since it is
 *   ambiguous which skill the package is. `x/SKILL.md` counts even when other files sit beside folder `x`.
 * - Every file's bytes also go through the package scanner (scan/), in the same pass; its report is part of the
 *   inspection.
 * - Only the first candidate's bytes are kept (at most SKILL_MD_MAX_BYTES + 1), so memory stays bounded
 *   whatever the archive holds. SKILL.md problems are reported after the whole archive was read.
 *
 * Every problem, not only the first (`collecting`, what inspection asks for): a rule an entry breaks on its own (its
 * name, path, type, attributes, data) is noted and the reader goes on to the next entry, so one refusal lists
 * what there is to fix. What leaves the reader no sound way on (the archive's structure, a limit on entries or
 * bytes) still ends the reading, with the problems noted before it. A refused package's list also names SKILL.md's
 * problems, and its absence. At most MAX_LISTED_PROBLEMS are listed; the detail counts them all. Once a problem is
 * noted, files are no longer scanned: the package is refused whatever they hold. Archives inside a package are read
 * without collecting: their first problem ends the reading.
 */
import { comparePaths, pathKey } from './paths.js';
import type { DataSink, EntrySink, PackageLimits } from './entry-sink.js';
import { markOutsideFault, PackageError, quote, refuse } from './refusal.js';
import type { SkillMdInfo } from './scan/scanner.js';
import { parseSkillMd, SKILL_MD_MAX_BYTES } from './skill-md.js';
import type { ArchiveFormat, Inspection, PackageFile, PackageWarning } from './types.js';

/** Problems listed in one refusal; the detail counts the others. */
export const MAX_LISTED_PROBLEMS = 50;

/** Refusals after which a reader cannot go on (limits on entries and bytes): never noted to read on. */
const stops = new WeakSet<PackageError>();
function stop(error: PackageError): PackageError {
  stops.add(error);
  return error;
}

export class SkillMdCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;
  push(chunk: Buffer): void {
    this.size += chunk.length;
    const room = SKILL_MD_MAX_BYTES + 1 - this.kept;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(Buffer.from(part));
    this.kept += part.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const IGNORED: DataSink = { push() {}, end() {} };

/**
 * Where a collector sends files' bytes to be scanned: a package's scan session (scan/session.ts), or for an archive
 * inside a package, the package's scanner itself.
 */
export interface ScanTarget {
  file(path: string, depth: number): DataSink;
  /** Set when the scanner can fall behind the reader: see ScanSession.ready. */
  ready?(): Promise<void> | undefined;
}

/** What the collector found, and SKILL.md as the scanner is to be told of it (null: the package has none). */
export interface Collected {
  inspection: Omit<Inspection, 'scan'>;
  skillMd: SkillMdInfo | null;
}

export function isSkillMdCandidate(path: string): boolean {
  return path === 'SKILL.md' || /^[^/]+\/SKILL\.md$/.test(path);
}

export class PackageCollector implements EntrySink {
  entries = 0;
  totalBytes = 0;
  private declaredBytes = 0;
  private readonly files: PackageFile[] = [];
  /** pathKey → path, for files and for directories (explicit entries and parents implied by file paths). */
  private readonly fileKeys = new Map<string, string>();
  private readonly dirKeys = new Map<string, string>();
  private readonly skillMdCandidates: string[] = [];
  private skillMd: SkillMdCapture | null = null;
  private readonly caseVariants: string[] = [];
  /** Where files' bytes are scanned; null to leave scanning out (benchmarks measure inspection with and without it). */
  readonly scanner: ScanTarget | null;
  /** For an archive inside a package: its path with `!/`, put before each of its files' paths, and its depth. */
  private readonly nesting: { prefix: string; depth: number };
  /** Whether entries' refusals are noted and reading goes on (see the top of this file), or the first is thrown. */
  readonly collecting: boolean;
  /** The refusals noted so far, in the order they were met. */
  private readonly noted: PackageError[] = [];

  constructor(
    readonly limits: PackageLimits,
    scanner: ScanTarget | null,
    nesting = { prefix: '', depth: 0 },
    options: { collecting?: boolean } = {},
  ) {
    this.scanner = scanner;
    this.nesting = nesting;
    this.collecting = options.collecting ?? false;
  }

  /**
   * An entry broke a rule of its own: when collecting, the refusal is noted and the caller goes on to the next entry;
   * otherwise, and for anything but such a refusal, it is thrown.
   */
  entryRefused(error: unknown): void {
    if (!this.collecting || !(error instanceof PackageError) || stops.has(error)) throw error;
    this.noted.push(error);
  }

  /** Whether a problem was noted: the package is refused whatever else is read. */
  get refused(): boolean {
    return this.noted.length > 0;
  }

  /**
   * What a reader's failure becomes: with problems noted before it, one refusal listing them all and then it;
   * otherwise the failure itself.
   */
  failure(error: unknown): unknown {
    if (!(error instanceof PackageError) || this.noted.length === 0) return error;
    return combined([...this.noted, error]);
  }

  /**
   * Undefined while the scanner keeps up; otherwise what a reader waits for before reading on. A scan that stopped is
   * no fault of the package: the readers pass its error on as it is.
   */
  ready(): Promise<void> | undefined {
    return this.scanner?.ready?.()?.catch((error: unknown) => {
      markOutsideFault(error);
      throw error;
    });
  }

  /** Files read so far. */
  get fileCount(): number {
    return this.files.length;
  }

  countEntry(label: string): void {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) {
      throw stop(refuse(label, `the archive holds more than ${this.limits.maxEntries} entries (files and directories)`));
    }
  }

  private claimParents(label: string, path: string): void {
    let at = path.indexOf('/');
    while (at !== -1) {
      const parent = path.slice(0, at);
      const key = pathKey(parent);
      const file = this.fileKeys.get(key);
      if (file !== undefined) throw refuse(label, `its path lies under ${quote(file)}, which is a file`);
      if (!this.dirKeys.has(key)) this.dirKeys.set(key, parent);
      at = path.indexOf('/', at + 1);
    }
  }

  /** A directory entry (normalised path, `''` for the root). Repeated directory entries are harmless. */
  addDirectory(label: string, path: string): void {
    if (path === '') return;
    const key = pathKey(path);
    const file = this.fileKeys.get(key);
    if (file !== undefined) {
      throw refuse(
        label,
        file === path
          ? 'the same path is also a file'
          : `its path collides with the file ${quote(file)} (paths differing only in letter case or Unicode normalisation are the same)`,
      );
    }
    this.claimParents(label, path);
    if (!this.dirKeys.has(key)) this.dirKeys.set(key, path);
  }

  /** Reserves a file path before its bytes are read, so collisions are refused before any inflating. */
  reserveFile(label: string, path: string): void {
    const key = pathKey(path);
    const file = this.fileKeys.get(key);
    if (file !== undefined) {
      throw refuse(
        label,
        file === path
          ? 'its path appears twice in the archive'
          : `its path collides with ${quote(file)} (paths differing only in letter case or Unicode normalisation are duplicates)`,
      );
    }
    const dir = this.dirKeys.get(key);
    if (dir !== undefined) throw refuse(label, `its path is also a directory (${quote(dir)})`);
    this.claimParents(label, path);
    this.fileKeys.set(key, path);
  }

  /**
   * Refuses a file before reading it when the sizes declared so far break the total limit. (The zip reader
   * declares every entry before it reads any; real bytes are counted separately by addBytes.)
   */
  checkDeclaredSize(label: string, declared: number): void {
    if (this.declaredBytes + declared > this.limits.maxTotalBytes) {
      throw refuse(
        label,
        `it declares ${declared} bytes, which takes the package over its limit of ${this.limits.maxTotalBytes} uncompressed bytes`,
      );
    }
    this.declaredBytes += declared;
  }

  /** Counts real bytes as they are read. */
  addBytes(label: string, n: number): void {
    this.totalBytes += n;
    if (this.totalBytes > this.limits.maxTotalBytes) {
      throw stop(refuse(label, `the files hold more than ${this.limits.maxTotalBytes} uncompressed bytes in total`));
    }
  }

  /**
   * Where a file's bytes go as they are read: the scanner, and for the first SKILL.md candidate the capture.
   * Call end() after the file's last chunk.
   */
  openFile(path: string): DataSink {
    const capture = this.captureFor(path);
    const scan = this.refused ? IGNORED : (this.scanner?.file(this.nesting.prefix + path, this.nesting.depth) ?? IGNORED);
    if (capture === null) return scan;
    return {
      push(chunk) {
        capture.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        scan.push(chunk);
      },
      end() {
        scan.end();
      },
    };
  }

  /** Returns a capture for SKILL.md candidates (only the first one keeps bytes), else null. */
  private captureFor(path: string): SkillMdCapture | null {
    if (!isSkillMdCandidate(path)) {
      if (/^([^/]+\/)?skill\.md$/i.test(path)) this.caseVariants.push(path);
      return null;
    }
    this.skillMdCandidates.push(path);
    if (this.skillMdCandidates.length > 1) return null;
    this.skillMd = new SkillMdCapture();
    return this.skillMd;
  }

  recordFile(path: string, size: number, executable = false): void {
    this.files.push({ path, size, executable });
  }

  /**
   * The package as read: its files, SKILL.md and warnings. Throws the refusal when a problem was noted (with SKILL.md's
   * problems, or its absence, after the archive's), or when SKILL.md breaks a rule.
   */
  finish(format: ArchiveFormat): Collected {
    if (this.noted.length === 0) return this.describe(format);
    let described: Collected;
    try {
      described = this.describe(format);
    } catch (error) {
      throw this.failure(error);
    }
    const missing = described.inspection.warnings.find((w) => w.code === 'skill_md_missing');
    const also =
      missing === undefined
        ? []
        : [new PackageError(422, 'invalid_skill_md', missing.message, [{ field: 'skill_md', message: missing.message }])];
    throw combined([...this.noted, ...also]);
  }

  private describe(format: ArchiveFormat): Collected {
    const files = [...this.files].sort((a, b) => comparePaths(a.path, b.path));
    const warnings: PackageWarning[] = [];
    const candidates = this.skillMdCandidates;
    if (candidates.length > 1) {
      const names = candidates.map(quote).join(', ');
      throw new PackageError(
        422,
        'invalid_skill_md',
        `The package has more than one SKILL.md (${names}); it must have one, at the root or inside a single top-level folder.`,
        candidates.map((entry) => ({ field: 'skill_md', entry, message: 'more than one SKILL.md in the package' })),
      );
    }
    const path = candidates[0];
    if (path === undefined || this.skillMd === null) {
      const hint = this.caseVariants.length > 0 ? ` (found ${this.caseVariants.map(quote).join(', ')}; the name is case-sensitive)` : '';
      warnings.push({
        code: 'skill_md_missing',
        message: `The package has no SKILL.md at its root or inside a single top-level folder${hint}.`,
      });
      return { inspection: { format, files, skillMdPath: null, skillMd: null, warnings }, skillMd: null };
    }
    if (this.skillMd.size > SKILL_MD_MAX_BYTES) {
      throw new PackageError(
        422,
        'invalid_skill_md',
        `${path} is ${this.skillMd.size} bytes; SKILL.md must be at most ${SKILL_MD_MAX_BYTES} bytes.`,
        [{ field: 'skill_md', entry: path, message: `SKILL.md must be at most ${SKILL_MD_MAX_BYTES} bytes` }],
      );
    }
    const parsed = parseSkillMd(this.skillMd.bytes(), path);
    warnings.push(...parsed.warnings);
    return {
      inspection: { format, files, skillMdPath: path, skillMd: parsed.skillMd, warnings },
      skillMd: { path, frontMatter: parsed.skillMd },
    };
  }
}

/**
 * One refusal listing the problems of several: the archive's first (invalid_archive wins over invalid_skill_md), at
 * most MAX_LISTED_PROBLEMS of them, with a detail that quotes the first and counts them all.
 */
function combined(refusals: readonly PackageError[]): PackageError {
  const first = refusals[0]!;
  if (refusals.length === 1) return first;
  const problems = refusals.flatMap((r) => r.problems);
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  const code = refusals.some((r) => r.code === 'invalid_archive') ? 'invalid_archive' : first.code;
  const which = listed.length < problems.length ? `the first ${listed.length} are listed in errors` : 'each is listed in errors';
  return new PackageError(first.status, code, `${first.detail} The package has ${problems.length} problems in all; ${which}.`, listed);
}
