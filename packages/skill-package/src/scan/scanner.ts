/**
 * The package scanner: one per package, fed file by file as the archive is read (inspectPackage does this in
 * its single pass), then finished with SKILL.md's front matter into a ScanReport. Memory is bounded: each file
 * holds at most a few KiB of head and one capped line; findings are capped (findings.ts); URL and domain lists
 * are capped (rules-url.ts).
 */
import { RULES_VERSION } from './catalogue.js';
import { combine } from './combine.js';
import { FileScanner } from './file-scanner.js';
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

export class PackageScanner {
  private readonly sink = new FindingSink();
  private readonly urls = new UrlCollector();
  private readonly fileFacts = new Map<string, Map<string, number>>();

  /** A sink for one file's bytes, in order; call end() after its last chunk. */
  file(path: string): FileSink {
    const scanner = new FileScanner(path, this.sink, this.urls);
    this.fileFacts.set(path, scanner.facts);
    return scanner;
  }

  finish(skillMd: SkillMdInfo | null): ScanReport {
    if (skillMd !== null) checkFrontMatter(this.sink, skillMd.path, skillMd.frontMatter, skillMd.problem);
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
