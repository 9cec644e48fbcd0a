import { Type } from 'typebox';
import { RULE_FAMILIES, SEVERITIES, VERDICTS } from '@skill-registry/skill-package/scan/types';
import { EXPLANATION_MAX } from '@skill-registry/rules/limits';
import { ListEnvelope, Nullable, NullableTimestamp, OneOf, PageQuery, Timestamp } from './common.js';

export { EXPLANATION_MAX } from '@skill-registry/rules/limits';

export const Verdict = OneOf(VERDICTS, {
  description:
    '`clean`: nothing above info; `notice`: something a reviewer may want to read; `suspicious`: read before installing; ' +
    '`malicious`: quarantined (downloadable by its owner and administrators only, never `latest`).',
});

export const SeverityCounts = Type.Object(
  {
    critical: Type.Integer({ minimum: 0 }),
    high: Type.Integer({ minimum: 0 }),
    medium: Type.Integer({ minimum: 0 }),
    low: Type.Integer({ minimum: 0 }),
    info: Type.Integer({ minimum: 0 }),
  },
  { description: 'Findings counted by severity.' },
);

/** What every answer describing a version says of its scan; null for a version never scanned. */
export const ScanSummary = Nullable(
  Type.Object(
    {
      verdict: Verdict,
      rules_version: Type.String({ description: 'The version of the rule set that produced the verdict.' }),
      findings: SeverityCounts,
    },
    { description: "The package scanner's verdict; null for a version uploaded before the scanner, until it is rescanned." },
  ),
);

export const ScanFinding = Type.Object({
  rule: Type.String({ description: 'Stable rule id, e.g. `hidden.bidi-control`.' }),
  family: OneOf(RULE_FAMILIES),
  severity: OneOf(SEVERITIES),
  file: Type.String({ description: "The file's path inside the package." }),
  line: Nullable(Type.Integer({ minimum: 1, description: '1-based; null for a finding about the whole file.' })),
  excerpt: Type.String({ description: 'What fired, at most 160 characters, secrets redacted.' }),
  message: Type.String(),
});

const reportFields = {
  verdict: Verdict,
  rules_version: Type.String(),
  counts: SeverityCounts,
  findings: Type.Array(ScanFinding, { description: 'Most severe first, then by file and line.' }),
  omitted: Type.Integer({
    minimum: 0,
    description: 'Findings counted in `counts` but not listed, beyond the caps per rule, per file and in all.',
  }),
  urls: Type.Array(Type.String(), { description: 'External http(s) URLs the package mentions, in order of first appearance.' }),
  domains: Type.Array(Type.String(), { description: 'The hosts of those URLs, sorted.' }),
};

/** The scan a validation answers with: the report of a package that is not stored. */
export const PackageScan = Nullable(
  Type.Object(reportFields, { description: "The package scanner's report; null when the package was refused before it was scanned." }),
);

export const ScanReport = Type.Object(
  {
    ...reportFields,
    scanned_at: Timestamp,
    explanation: Nullable(
      Type.Object(
        { text: Type.String(), at: Timestamp },
        { description: "What the skill's owner told reviewers about these findings, and when; null without one." },
      ),
    ),
  },
  { $id: 'ScanReport', title: 'ScanReport' },
);
export const ScanReportRef = Type.Ref('ScanReport');

export const RescanBody = Type.Object(
  {
    explanation: Type.Optional(
      Type.String({
        maxLength: EXPLANATION_MAX,
        description: 'What the reviewer should know about the findings (kept with the report; an empty text removes it).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ScanJob = Type.Object(
  {
    id: Type.String(),
    state: OneOf(['running', 'finished'] as const),
    rules_version: Type.String({ description: 'The rules the job scans with.' }),
    total: Type.Integer({ description: 'Versions the job scans: every version there was when it started.' }),
    done: Type.Integer(),
    failed: Type.Integer({ description: 'Versions that could not be scanned (their package unreadable or refused).' }),
    pending: Type.Integer(),
    started_at: Timestamp,
    finished_at: NullableTimestamp,
  },
  { title: 'ScanJob' },
);

export const ScanJobParams = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 64 }) });

export const ScanJobList = ListEnvelope(ScanJob, 'ScanJobList');
export const ScanJobsQuery = Type.Object({ ...PageQuery });
