import type { ExistingVersion, ScanSummaryColumns as SummaryColumns, ScanVerdict, ScanWrite } from '../../db/repositories/versions.js';
import type { VersionScanRecord } from '../../db/repositories/scans.js';
import type { Same } from '../../lib/same-type.js';
import { toIso } from '../../lib/time.js';
import type { ScanFinding, ScanReport, SeverityCounts, Verdict } from '@skill-registry/skill-package/scan/types';
import type { Inspection } from '@skill-registry/skill-package/types';
import { RULES_VERSION } from '@skill-registry/skill-package/scan/catalogue';
import { latestOf } from './rules.js';

// The verdicts the scanner gives are the ones the version_scans table stores.
true satisfies Same<Verdict, ScanVerdict>;

/** A version's scan as every answer describing the version shows it. */
export interface ScanSummary {
  verdict: Verdict;
  rules_version: string;
  findings: SeverityCounts;
}

/** The whole report of a version's scan (GET …/versions/:version/scan). */
export interface ScanReportView {
  verdict: Verdict;
  rules_version: string;
  scanned_at: string;
  counts: SeverityCounts;
  findings: ScanFinding[];
  /** Findings counted but not listed (beyond the scanner's caps). */
  omitted: number;
  urls: string[];
  domains: string[];
  explanation: { text: string; at: string } | null;
}

export function toScanSummary(row: SummaryColumns): ScanSummary | null {
  if (row.scan_verdict === null || row.scan_rules_version === null) return null;
  return {
    verdict: row.scan_verdict,
    rules_version: row.scan_rules_version,
    findings: {
      critical: row.scan_critical ?? 0,
      high: row.scan_high ?? 0,
      medium: row.scan_medium ?? 0,
      low: row.scan_low ?? 0,
      info: row.scan_info ?? 0,
    },
  };
}

/** The summary columns of a report, as a version written with it shows them. */
export function summaryColumns(report: ScanReport): SummaryColumns {
  return {
    scan_verdict: report.verdict,
    scan_rules_version: report.rulesVersion,
    scan_critical: report.counts.critical,
    scan_high: report.counts.high,
    scan_medium: report.counts.medium,
    scan_low: report.counts.low,
    scan_info: report.counts.info,
  };
}

export function toScanReport(row: VersionScanRecord): ScanReportView {
  const counts = { critical: row.critical, high: row.high, medium: row.medium, low: row.low, info: row.info };
  const findings = JSON.parse(row.findings) as ScanFinding[];
  return {
    verdict: row.verdict,
    rules_version: row.rules_version,
    scanned_at: toIso(row.scanned_at),
    counts,
    findings,
    omitted: omittedOf(counts, findings),
    urls: JSON.parse(row.urls) as string[],
    domains: JSON.parse(row.domains) as string[],
    explanation: row.explanation === null ? null : { text: row.explanation, at: toIso(row.explained_at ?? row.scanned_at) },
  };
}

/** The counts include every finding, listed or not: what they hold beyond the list was left out of it. */
export function omittedOf(counts: SeverityCounts, findings: readonly ScanFinding[]): number {
  return Math.max(0, counts.critical + counts.high + counts.medium + counts.low + counts.info - findings.length);
}

/** A report as the version_scans row stores it. */
export function scanWrite(report: ScanReport, scannedAt: string, explanation?: { text: string; at: string }): ScanWrite {
  return {
    rules_version: report.rulesVersion,
    verdict: report.verdict,
    critical: report.counts.critical,
    high: report.counts.high,
    medium: report.counts.medium,
    low: report.counts.low,
    info: report.counts.info,
    findings: JSON.stringify(report.findings),
    urls: JSON.stringify(report.urls),
    domains: JSON.stringify(report.domains),
    scanned_at: scannedAt,
    ...(explanation ? { explanation: explanation.text, explained_at: explanation.at } : {}),
  };
}

/** The version of the rules the scanner applies now. */
export const CURRENT_RULES_VERSION: string = RULES_VERSION;

/** The scanner's report of an inspected package. */
export function scanOf(inspection: Inspection): ScanReport {
  return inspection.scan;
}

/** Whether a verdict quarantines its version: downloadable by its owner and administrators only, never latest. */
export function isQuarantined(verdict: ScanVerdict | null): boolean {
  return verdict === 'malicious';
}

/**
 * What a skill's row says about its versions: the latest one that is not quarantined, and whether it is quarantined
 * as a whole (it has versions and every one of them is).
 */
export function skillSummary(existing: readonly ExistingVersion[]): { latest_version: string | null; quarantined: number } {
  const available = existing.filter((v) => !isQuarantined(v.verdict)).map((v) => v.version);
  return { latest_version: latestOf(available), quarantined: existing.length > 0 && available.length === 0 ? 1 : 0 };
}
