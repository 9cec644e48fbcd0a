/**
 * Where findings go while a package is read. Memory stays bounded whatever the package holds: at most
 * MAX_PER_RULE findings of one rule in one file, MAX_PER_FILE per file and MAX_TOTAL in all are kept (with their
 * excerpts); the rest are counted (`omitted`) and still weigh in the counts, the combinations and the verdict.
 * A rule reports a line once, even when overlapping windows of a long line both match.
 */
import { ruleById } from './catalogue.js';
import { rank, type Context } from './severity.js';
import { excerptOf } from './text.js';
import type { RuleFamily, ScanFinding, Severity, SeverityCounts } from './types.js';

export const MAX_PER_RULE = 10;
export const MAX_PER_FILE = 50;
export const MAX_TOTAL = 500;

/** What a rule reports; the excerpt is built only when the finding is kept. */
export interface Hit {
  rule: string;
  severity: Severity;
  line: number | null;
  /** Where the text sat; null for whole-file findings. */
  context: Context | null;
  /** The text the match is in, and the match's place in it (for the excerpt). */
  text: string;
  index: number;
  length: number;
  /** Replaces the rule's explanation when the finding has something specific to say. */
  message?: string;
}

/** The strongest finding of one rule: what combinations look at. */
export interface Signal {
  rule: string;
  family: RuleFamily;
  severity: Severity;
  file: string;
  line: number | null;
  context: Context | null;
  excerpt: string;
}

interface FileTally {
  kept: number;
  perRule: Map<string, { kept: number; lastLine: number | null }>;
}

export class FindingSink {
  readonly findings: ScanFinding[] = [];
  readonly counts: SeverityCounts = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  omitted = 0;
  /** Per rule, the strongest finding (kept or not). */
  readonly signals = new Map<string, Signal>();
  private readonly files = new Map<string, FileTally>();

  add(file: string, hit: Hit): void {
    let tally = this.files.get(file);
    if (tally === undefined) {
      tally = { kept: 0, perRule: new Map() };
      this.files.set(file, tally);
    }
    let perRule = tally.perRule.get(hit.rule);
    if (perRule === undefined) {
      perRule = { kept: 0, lastLine: null };
      tally.perRule.set(hit.rule, perRule);
    } else if (hit.line !== null && perRule.lastLine === hit.line) {
      return;
    }
    perRule.lastLine = hit.line;
    this.counts[hit.severity] += 1;
    const keep = perRule.kept < MAX_PER_RULE && tally.kept < MAX_PER_FILE && this.findings.length < MAX_TOTAL;
    // Most hits of an adversarial file repeat one already counted: nothing is built or looked up for them.
    const signal = this.signals.get(hit.rule);
    let excerpt: string | null = null;
    if (signal === undefined || rank(hit.severity) > rank(signal.severity)) {
      excerpt = excerptOf(hit.text, hit.index, hit.length);
      this.signals.set(hit.rule, {
        rule: hit.rule,
        family: ruleById(hit.rule).family,
        severity: hit.severity,
        file,
        line: hit.line,
        context: hit.context,
        excerpt,
      });
    }
    if (!keep) {
      this.omitted += 1;
      return;
    }
    perRule.kept += 1;
    tally.kept += 1;
    const rule = ruleById(hit.rule);
    this.findings.push({
      rule: hit.rule,
      family: rule.family,
      severity: hit.severity,
      file,
      line: hit.line,
      excerpt: excerpt ?? excerptOf(hit.text, hit.index, hit.length),
      message: hit.message ?? rule.explanation,
    });
  }
}
