/** What every rule module is given: one line (or one segment of it) in its context, and its file's state. */
import type { Hit } from './findings.js';
import type { Context } from './severity.js';

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
