/**
 * What the package scanner reports. The scanner reads every file of a package (inside the inspection pass that
 * already reads each entry) and applies versioned rules; each finding names its rule, where it was found and why
 * it matters, and the findings together make one verdict for the version.
 */

/** How much a finding weighs, least to most. */
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * A version's verdict: `clean` (nothing above `info`), `notice` (something a reviewer may want to read),
 * `suspicious` (something an installer should not take without reading), `malicious` (quarantined).
 */
export const VERDICTS = ['clean', 'notice', 'suspicious', 'malicious'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The families rules belong to: what a reviewer filters by and what the evaluation counts per. */
export const RULE_FAMILIES = [
  'hidden-content',
  'agent-manipulation',
  'dangerous-command',
  'secret',
  'executable',
  'skill-spec',
  'external-reference',
] as const;
export type RuleFamily = (typeof RULE_FAMILIES)[number];

/** One rule of the catalogue: a stable id, and the sentences every finding of it carries. */
export interface ScanRule {
  /** Stable across rules versions, e.g. `hidden.bidi-control`; a rule that changes meaning gets a new id. */
  id: string;
  family: RuleFamily;
  severity: Severity;
  /** A short name, e.g. "Bidirectional control character". */
  title: string;
  /** Why it matters and what to do, in one or two sentences. */
  explanation: string;
}

export interface ScanFinding {
  rule: string;
  family: RuleFamily;
  severity: Severity;
  /** The file's path inside the package, as in Inspection.files. */
  file: string;
  /** 1-based line, or null for a finding about the whole file (a binary, a nested archive). */
  line: number | null;
  /** A short excerpt of what fired (at most 160 characters), with secrets redacted and invisible characters shown as escapes. */
  excerpt: string;
  /** The rule's explanation, possibly made specific to this finding. */
  message: string;
}

/** Findings counted by severity. */
export type SeverityCounts = Record<Severity, number>;

export interface ScanReport {
  verdict: Verdict;
  /** The version of the rule set that produced this report, e.g. `2026.11.1`. */
  rulesVersion: string;
  counts: SeverityCounts;
  /** Every finding, ordered by severity (most severe first), then file and line. */
  findings: ScanFinding[];
  /** Every external http(s) URL the package mentions, deduplicated, in order of first appearance (capped). */
  urls: string[];
  /** The hosts of those URLs, deduplicated and sorted (capped). */
  domains: string[];
  /** Findings counted (in `counts` and the verdict) but not listed, beyond the caps per rule, per file and in all. */
  omitted?: number;
}
