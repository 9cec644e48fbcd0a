/** What every rule module is given: one line (or one segment of it) in its context, and its file's state. */
import type { Hit } from './findings.js';
import { raise } from './severity.js';
import { inSignature, signatureLine } from './signature.js';
import type { Context } from './severity.js';
import type { Severity } from './types.js';

/** How a text file is read: Markdown (code blocks and comments matter), a script that runs, or other text. */
export type FileKind = 'markdown' | 'script' | 'text';

export interface FileState {
  readonly path: string;
  kind: FileKind;
  /** Facts rules note about the file as a whole (name → first line), for rules that need several lines. */
  readonly facts: Map<string, number>;
  /** The text of the line each fact was noted on, for the excerpt of a finding built from facts. */
  readonly factTexts: Map<string, string>;
  /** Set by a rule that needs to see the next line whatever it holds (a private key's first body line). */
  examineNext: boolean;
  report(hit: Hit): void;
}

export interface LineInput {
  /** The line, or the segment of it that has one context. */
  text: string;
  line: number;
  context: Context;
  file: FileState;
}

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
