/**
 * Which scan verdicts an install takes. A malicious version is never installed; a suspicious one only with
 * --allow-suspicious; with --require-clean (for CI), only a version the scanner found clean. A refusal carries the
 * findings, grouped by file, so the person or the build log sees why.
 */
import { RegistryError, type RegistryClient, type ScanSummary } from '@skill-registry/client';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { findingsByFile, summaryOf, type ScanView } from './scan-report.js';

export interface ScanPolicy {
  /** Install suspicious versions too. */
  allowSuspicious: boolean;
  /** Install only versions scanned clean: refuses notice and suspicious, and a version never scanned. */
  requireClean: boolean;
}

/** An install refused for its scan verdict; `--json` output carries the report. */
export class ScanRefusedError extends CliError {
  constructor(
    message: string,
    exitCode: ExitCode,
    details: string[],
    readonly scan: ScanSummary,
    readonly report: ScanView | null,
  ) {
    super(message, exitCode, details);
    this.name = 'ScanRefusedError';
  }
}

interface Refusal {
  code: ExitCode;
  reason: string;
}

/**
 * Why `policy` refuses a version with this scan, or null when it may be installed. `by`: whose scan it is, the
 * registry's (which quarantines a malicious version) or the scanner's run on this machine.
 */
export function scanRefusal(scan: ScanSummary, policy: ScanPolicy, by: 'registry' | 'local' = 'registry'): Refusal | null {
  if (scan === null) {
    return policy.requireClean
      ? { code: EXIT.scanRefused, reason: 'it has not been scanned yet, and --require-clean accepts only versions scanned clean' }
      : null;
  }
  const scanner = by === 'registry' ? 'the package scanner' : 'the package scanner, run on this machine (the registry has not scanned it),';
  const judged = `${scanner} judged it ${scan.verdict} (rules ${scan.rules_version})`;
  if (scan.verdict === 'malicious') {
    const quarantined = by === 'registry' ? 'it is quarantined, and ' : '';
    return { code: EXIT.malicious, reason: `${judged}; ${quarantined}a malicious version is never installed` };
  }
  if (policy.requireClean && scan.verdict !== 'clean') {
    return { code: EXIT.scanRefused, reason: `${judged}, and --require-clean accepts only clean versions` };
  }
  if (scan.verdict === 'suspicious' && !policy.allowSuspicious) {
    return { code: EXIT.scanRefused, reason: `${judged}; read the findings, and pass --allow-suspicious to install it anyway` };
  }
  return null;
}

function refused(label: string, refusal: Refusal, scan: ScanSummary, report: ScanView | null, note: string[]): ScanRefusedError {
  const details = report === null ? note : ['Findings:', ...findingsByFile(report).map((line) => `  ${line}`)];
  return new ScanRefusedError(`${label} is not installed: ${refusal.reason}.`, refusal.code, details, scan, report);
}

/**
 * Applies the policy to a version record's scan. A refusal reads the registry's full report (GET …/scan) for its
 * findings; when that cannot be read, the refusal says so and still stands.
 */
export async function checkRegistryScan(
  client: RegistryClient,
  slug: string,
  version: { version: string; scan: ScanSummary },
  policy: ScanPolicy,
): Promise<void> {
  const refusal = scanRefusal(version.scan, policy);
  if (refusal === null) return;
  const label = `${slug} ${version.version}`;
  if (version.scan === null) throw refused(label, refusal, null, null, []);
  try {
    const report = await client.versions.scan(slug, version.version);
    throw refused(label, refusal, version.scan, report, []);
  } catch (error) {
    if (error instanceof ScanRefusedError) throw error;
    const why = error instanceof RegistryError ? error.detail : error instanceof Error ? error.message : String(error);
    throw refused(label, refusal, version.scan, null, [`The findings could not be read: ${why}`]);
  }
}

/** Applies the policy to a report of the scanner run on this machine (for a version the registry has not scanned). */
export function checkLocalScan(label: string, report: ScanView, policy: ScanPolicy): void {
  const scan = summaryOf(report);
  const refusal = scanRefusal(scan, policy, 'local');
  if (refusal !== null) throw refused(label, refusal, scan, report, []);
}
