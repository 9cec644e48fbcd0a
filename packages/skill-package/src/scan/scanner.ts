/**
 * The package scanner: one per package, fed file by file as the archive is read (inspectPackage does this in
 * its single pass), then finished with SKILL.md's front matter into a ScanReport. Memory is bounded: each file
 * holds at most a few KiB of head and one capped line; findings are capped (findings.ts); URL and domain lists
 * are capped (rules-url.ts).
 */
import { joinAutoRuns, joinLinks, joinStaged, type ModuleLinks } from './behaviour/modules.js';
import { RULES_VERSION } from './catalogue.js';
import { combine } from './combine.js';
import { FileScanner, JUDGED_TOTAL, NESTED_CAPTURE_TOTAL, type ArchiveKeeper, type FoundArchive } from './file-scanner.js';
import { FindingSink } from './findings.js';
import { checkFrontMatter } from './rules-spec.js';
import { UrlCollector } from './rules-url.js';
import { rank } from './severity.js';
import type { ScanFinding, ScanReport } from './types.js';
import { verdictOf } from './verdict.js';

export interface FileSink {
  push(chunk: Uint8Array): void;
  end(): void;
}

/** SKILL.md as inspection read it: its path and front matter, or the reason it has none. */
export interface SkillMdInfo {
  path: string;
  frontMatter: Record<string, unknown> | null;
  problem?: string;
}

function compareFindings(a: ScanFinding, b: ScanFinding): number {
  return (
    rank(b.severity) - rank(a.severity) ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)
  );
}

/** An archive found inside the package, and how many archives deep its file lies (0: in the package itself). */
export interface NestedArchive extends FoundArchive {
  depth: number;
}

/** What became of a nested archive: opened, with the files read from it, or left unopened, and why. */
export type NestedOutcome = { opened: number } | { unopened: string };

function filesOpened(count: number, path: string): string {
  if (count === 0) return 'found no files in it';
  return `scanned the ${count === 1 ? 'file' : `${count} files`} in it, listed under ${path}!/`;
}

export class PackageScanner {
  private readonly sink = new FindingSink();
  private readonly urls = new UrlCollector();
  private readonly fileFacts = new Map<string, Map<string, number>>();
  private found: NestedArchive[] = [];
  private readonly capture = { left: NESTED_CAPTURE_TOTAL };
  private readonly judging = { left: JUDGED_TOTAL };
  private readonly links: ModuleLinks = {
    senders: new Set(),
    passed: [],
    autoRuns: [],
    downloads: new Map(),
    staged: [],
    sendsArgument: new Set(),
  };

  /**
   * A sink for one file's bytes, in order; call end() after its last chunk. `depth` is how many archives deep the
   * file lies (its path then names them: `tools/data.zip!/setup.sh`).
   */
  file(path: string, depth = 0): FileSink {
    const keeper: ArchiveKeeper = { capture: this.capture, found: (archive) => this.found.push({ ...archive, depth }) };
    const scanner = new FileScanner(path, this.sink, this.urls, keeper, this.judging, this.links);
    this.fileFacts.set(path, scanner.facts);
    return scanner;
  }

  /** The archives found since the last call, for the caller to open (nested.ts) and settle. */
  takeArchives(): NestedArchive[] {
    const found = this.found;
    this.found = [];
    return found;
  }

  /** Reports what became of a nested archive, and gives its bytes' share of the capture allowance back. */
  settleArchive(archive: NestedArchive, outcome: NestedOutcome): void {
    this.capture.left += archive.bytes?.length ?? 0;
    const { shown } = archive;
    const opened = 'opened' in outcome;
    this.sink.add(archive.path, {
      rule: opened ? 'executable.nested-archive-opened' : 'executable.nested-archive',
      severity: opened ? 'low' : 'high',
      line: null,
      context: null,
      text: shown,
      index: 0,
      length: shown.length,
      message: opened
        ? `This file is ${archive.what}; the registry opened it and ${filesOpened(outcome.opened, archive.path)}.`
        : `This file is ${archive.what} (recognised by its content) that the registry did not open: ${outcome.unopened}. Its contents are unknown to reviewers.`,
    });
  }

  finish(skillMd: SkillMdInfo | null): ScanReport {
    for (const archive of this.takeArchives()) this.settleArchive(archive, { unopened: 'this scan opens no archives' });
    if (skillMd !== null) checkFrontMatter(this.sink, skillMd.path, skillMd.frontMatter, skillMd.problem);
    for (const { file, hit } of joinLinks(this.links, new Set(this.fileFacts.keys()), 'critical')) this.sink.add(file, hit);
    for (const { file, hit } of joinAutoRuns(this.links, 'critical')) this.sink.add(file, hit);
    for (const { file, hit } of joinStaged(this.links, 'high')) this.sink.add(file, hit);
    combine(this.sink, this.fileFacts);
    const findings = [...this.sink.findings].sort(compareFindings);
    return {
      verdict: verdictOf(this.sink),
      rulesVersion: RULES_VERSION,
      counts: { ...this.sink.counts },
      findings,
      urls: [...this.urls.urls],
      domains: [...this.urls.domains].sort(),
      omitted: this.sink.omitted,
    };
  }
}
