/** How a rule module reports what it found on a line, and notes facts for rules over several lines of a file. */
import type { LineInput } from './file-state.js';
import { raise } from './severity.js';
import { inSignature, signatureLine } from './signature.js';
import type { Severity } from './types.js';

/** Rules that a signature (a pattern list, a table of denied commands) quotes rather than performs, by rule id. */
const QUOTABLE = new Map<string, boolean>();

function quotable(rule: string): boolean {
  let known = QUOTABLE.get(rule);
  if (known === undefined) {
    known = rule.startsWith('command.') || rule.startsWith('agent.') || rule.startsWith('url.') || rule.startsWith('combo.');
    QUOTABLE.set(rule, known);
  }
  return known;
}

/** Reports a match in `input.text`; in a signature (signature.ts) two steps lower. */
export function report(input: LineInput, rule: string, severity: Severity, index: number, length: number, message?: string): void {
  const weighed = quotable(rule) && inSignature(input, index) ? raise(severity, -2) : severity;
  input.file.report({ rule, severity: weighed, line: input.line, context: input.context, text: input.text, index, length, message });
}

/** Notes a fact about the file (its first line is kept). */
export function noteFact(input: LineInput, fact: string): void {
  if (input.file.facts.has(fact) || signatureLine(input)) return;
  input.file.facts.set(fact, input.line);
  input.file.factTexts.set(fact, input.text);
}
