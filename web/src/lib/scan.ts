import type { EXPLANATION_MAX as SCHEMA_EXPLANATION_MAX } from '@skill-registry/api-schemas/scans';
import type { ScanFinding, Severity, SeverityCounts, Verdict } from '../api/types';

export const VERDICT_LABEL: Record<Verdict, string> = {
  clean: 'Clean',
  notice: 'Notice',
  suspicious: 'Suspicious',
  malicious: 'Malicious',
};

/** What each verdict means for someone about to install the version. */
export const VERDICT_MEANING: Record<Verdict, string> = {
  clean: 'The scanner found nothing above information level.',
  notice: 'The scanner found something a reviewer may want to read.',
  suspicious: 'The scanner found something to read before installing this version.',
  malicious: 'The scanner found this version malicious: it is quarantined.',
};

/** Most severe first, the order findings are listed and counted in. */
export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

/** "2 high, 1 medium": the severities that have findings, most severe first. */
export function countsText(counts: SeverityCounts): string {
  const parts = SEVERITIES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  return parts.length === 0 ? 'no findings' : parts.join(', ');
}

export interface FileFindings {
  file: string;
  findings: ScanFinding[];
  /** The most severe finding of the file, which orders the files. */
  worst: Severity;
}

/** Findings grouped by file: the files with the most severe findings first, each file's findings by line. */
export function groupByFile(findings: readonly ScanFinding[]): FileFindings[] {
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  const files = new Map<string, ScanFinding[]>();
  for (const finding of findings) {
    const list = files.get(finding.file);
    if (list) list.push(finding);
    else files.set(finding.file, [finding]);
  }
  return [...files.entries()]
    .map(([file, list]) => {
      const sorted = [...list].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || rank(a.severity) - rank(b.severity));
      const worst = SEVERITIES[Math.min(...list.map((f) => rank(f.severity)))]!;
      return { file, findings: sorted, worst };
    })
    .sort((a, b) => rank(a.worst) - rank(b.worst) || a.file.localeCompare(b.file));
}

/**
 * The longest explanation an owner may leave a reviewer. Typed by the schema's constant, so a change there fails
 * the type check here (the value itself is not imported: the schema module would bring TypeBox into the bundle).
 */
export const EXPLANATION_MAX: typeof SCHEMA_EXPLANATION_MAX = 4000;
