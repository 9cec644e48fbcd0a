/**
 * The package scanner's verdicts and findings for people: one line for a verdict with its counts by severity and
 * rules version, and the findings grouped by file. Reports come from the registry (a version's scan) or from the
 * same scanner run on this machine (a dry run, a version the registry has not scanned yet); both are shown alike.
 */
import type { ScanFinding, ScanReport, ScanSummary, ScanVerdict, SeverityCounts } from '@skill-registry/client';
import type { ScanReport as LocalScanReport } from '@skill-registry/skill-package/scan/types';

/** The fields a registry report and a local report share, in the registry's shape (as `--json` prints them). */
export type ScanView = Pick<ScanReport, 'verdict' | 'rules_version' | 'counts' | 'findings' | 'omitted' | 'urls' | 'domains'>;

/** Most severe first, as the counts are read. */
const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** A report of the scanner run here, in the registry's shape. */
export function localScanView(report: LocalScanReport): ScanView {
  return {
    verdict: report.verdict,
    rules_version: report.rulesVersion,
    counts: report.counts,
    findings: report.findings,
    omitted: report.omitted ?? 0,
    urls: report.urls,
    domains: report.domains,
  };
}

/** A report reduced to what a version record says of its scan. */
export function summaryOf(report: ScanView): NonNullable<ScanSummary> {
  return { verdict: report.verdict, rules_version: report.rules_version, findings: report.counts };
}

/** `1 critical, 0 high, 2 medium, 0 low, 0 info`. */
export function countsText(counts: SeverityCounts): string {
  return SEVERITY_ORDER.map((severity) => `${counts[severity]} ${severity}`).join(', ');
}

/** What a verdict means for whoever installs the version. */
export function verdictMeaning(verdict: ScanVerdict): string {
  switch (verdict) {
    case 'clean':
      return 'nothing found above info';
    case 'notice':
      return 'findings a reviewer may want to read';
    case 'suspicious':
      return 'read the findings before installing';
    case 'malicious':
      return 'quarantined: only its owner and administrators can download it, and install refuses it';
  }
}

/** `suspicious (read the findings before installing): 1 critical, 0 high, … (rules 2026.11.1)`, or that it was never scanned. */
export function verdictText(scan: ScanSummary): string {
  if (scan === null) return 'not scanned yet (uploaded before the registry scanned packages)';
  return `${scan.verdict} (${verdictMeaning(scan.verdict)}): ${countsText(scan.findings)} (rules ${scan.rules_version})`;
}

/**
 * The findings grouped by file, each with its line, severity, rule and message, and the excerpt that fired:
 *
 *     scripts/cleanup.sh
 *       line 2  critical  command.destructive-delete: Recursively deleting the home directory …
 *         rm -rf ~/
 */
export function findingsByFile(report: Pick<ScanView, 'findings' | 'omitted'>): string[] {
  if (report.findings.length === 0) return ['No findings.'];
  const byFile = new Map<string, ScanFinding[]>();
  for (const finding of report.findings) {
    const list = byFile.get(finding.file);
    if (list === undefined) byFile.set(finding.file, [finding]);
    else list.push(finding);
  }
  const lines: string[] = [];
  for (const file of [...byFile.keys()].sort()) {
    lines.push(file);
    for (const f of byFile.get(file) ?? []) {
      lines.push(`  ${f.line === null ? 'whole file' : `line ${f.line}`}  ${f.severity}  ${f.rule}: ${f.message}`);
      if (f.excerpt !== '') lines.push(`    ${f.excerpt}`);
    }
  }
  if (report.omitted > 0) lines.push(`(${report.omitted} more finding${report.omitted === 1 ? '' : 's'} counted but not listed)`);
  return lines;
}
