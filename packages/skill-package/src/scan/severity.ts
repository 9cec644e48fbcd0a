/**
 * Severity arithmetic and the contexts a line can be read in. The same text weighs differently by where it sits:
 * a script that runs, a Markdown comment no reader sees, a Markdown code block (shown, typically documentation),
 * or prose.
 */
import { SEVERITIES, type Severity } from './types.js';

/** Where a line sits: a script file; a hidden Markdown comment; a Markdown fenced code block; prose (Markdown or other text). */
export type Context = 'script' | 'comment' | 'code' | 'prose';

/** A rule's severity in each visible context; a hidden comment weighs like a script, and at least `high`. */
export interface ContextSeverities {
  script: Severity;
  code: Severity;
  prose: Severity;
}

/**
 * Each severity's place in SEVERITIES, asked several times for every hit: a switch over the five names, where looking
 * them up as keys of an object was 4% of scanning a megabyte that makes a finding on every line.
 */
export function rank(severity: Severity): number {
  switch (severity) {
    case 'info':
      return 0;
    case 'low':
      return 1;
    case 'medium':
      return 2;
    case 'high':
      return 3;
    case 'critical':
      return 4;
  }
}

export function atRank(n: number): Severity {
  return SEVERITIES[Math.max(0, Math.min(SEVERITIES.length - 1, n))]!;
}

export function raise(severity: Severity, steps: number): Severity {
  return atRank(rank(severity) + steps);
}

export function maxSeverity(a: Severity, b: Severity): Severity {
  return rank(a) >= rank(b) ? a : b;
}

export function inContext(table: ContextSeverities, context: Context): Severity {
  return context === 'comment' ? maxSeverity(table.script, 'high') : table[context];
}
