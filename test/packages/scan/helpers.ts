import { PackageScanner } from '@skill-registry/skill-package/scan/scanner';
import { feedFiles } from '@skill-registry/skill-package/scan/scan-files';
import type { ScanFinding, ScanReport } from '@skill-registry/skill-package/scan/types';

export const SKILL = '---\nname: pdf-tools\ndescription: Extract text from PDF files.\n---\n\n# PDF tools\n\n';

/**
 * Scans files given as text (or bytes), the way scanFiles does, except that archives among them are reported
 * unopened (the tests of nested archives call scanFiles or inspectPackage).
 */
export function scan(files: Record<string, string | Buffer>): ScanReport {
  const scanner = new PackageScanner();
  const entries = Object.entries(files).map(([path, content]) => ({
    path,
    bytes: typeof content === 'string' ? Buffer.from(content) : content,
  }));
  return scanner.finish(feedFiles(scanner, entries));
}

/** Scans one file's bytes fed in chunks of `size` bytes. */
export function scanChunked(path: string, content: string | Buffer, size: number): ScanReport {
  const scanner = new PackageScanner();
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const sink = scanner.file(path);
  for (let at = 0; at < bytes.length; at += size) sink.push(bytes.subarray(at, at + size));
  sink.end();
  return scanner.finish(null);
}

export function findingsOf(report: ScanReport, rule: string): ScanFinding[] {
  return report.findings.filter((f) => f.rule === rule);
}

export function rulesOf(report: ScanReport): string[] {
  return [...new Set(report.findings.map((f) => f.rule))].sort();
}
