/**
 * Repairing SKILL.md front matter that is not YAML, for the few mistakes whose intent is beyond doubt. Pure: text in,
 * text out; the registry puts the repair in its refusal, the command line offers to write it.
 *
 * Real SKILL.md files are refused mostly for one line: a value that YAML cannot read as the writer meant it.
 * Repaired, each by quoting the value (the yaml library's double-quoted form, on one line):
 * - a plain value holding `: ` or ending in `:` (`description: Use when: updating files`), which YAML reads as a
 *   mapping inside a mapping;
 * - a block indicator with the text on its own line (`description: | Use this skill`, `>`, `|-`, `>+` …), where YAML
 *   wants the text on the lines below;
 * - a value starting with a character YAML reserves (`@`, a backtick, `%`).
 * Anything else is left alone: a value that goes on over further lines, one with ` #` (a comment, or not?), one that
 * starts with a quote, a bracket, a brace, an anchor, an alias, a tag or a list marker, a line that is no `key: value`,
 * and every other YAML error (a duplicate key, a tab, bad indentation). The repaired text is parsed again: it must be
 * valid, and each repaired key must hold exactly the text the line held; otherwise there is no repair.
 */
import { isPair, isScalar, parseDocument, stringify, visit, type Document } from 'yaml';

/** One line changed, numbered as in SKILL.md (its first line, the opening `---`, is line 1). */
export interface FrontMatterChange {
  line: number;
  original: string;
  corrected: string;
}

/** A repair: the first line changed (most repairs change one), every change, and the corrected front matter. */
export interface FrontMatterFix extends FrontMatterChange {
  changes: FrontMatterChange[];
  /** The front matter as repaired: the text between the two `---` lines, each line ending in `\n`. */
  front_matter: string;
}

/** The parser's options, as SKILL.md is read (skill-md.ts). */
export const FRONT_MATTER_YAML = {
  schema: 'core',
  version: '1.2',
  resolveKnownTags: false,
  merge: false,
  stringKeys: true,
  uniqueKeys: true,
  prettyErrors: true,
  logLevel: 'silent',
} as const;

/** Lines repaired at most in one front matter. */
const MAX_CHANGES = 8;

/** `key: value` with a simple key, the value running to the end of the line. */
const KEY_VALUE = /^( *)([A-Za-z0-9_][A-Za-z0-9_.-]*):[ \t]+(\S(?:.*\S)?)[ \t]*$/;
/** A block scalar's indicator (with its chomping and indentation signs) and text after it on the same line. */
const BLOCK_WITH_TEXT = /^[|>](?:[1-9][+-]?|[+-][1-9]?)?[ \t]+(\S.*)$/;
/** Characters YAML reserves at the start of a plain value, which are safe to quote. */
const RESERVED_START = /^[@`%]/;
/** Starts a plain value never has, or that give the value another meaning (a quote, a collection, a tag …). */
const OTHER_START = /^(?:["'[\]{}#&*!|>,]|[-?:](?:\s|$))/;

interface Planned {
  index: number;
  change: FrontMatterChange;
  /** The key's column on the line, and the text its value must hold. */
  indent: number;
  value: string;
}

function parse(text: string): Document {
  return parseDocument(text, FRONT_MATTER_YAML);
}

/** The text a line's value was meant to be, or null when the line is not one of the repaired shapes. */
function intended(value: string): string | null {
  if (/[ \t]#/.test(value)) return null;
  const block = BLOCK_WITH_TEXT.exec(value);
  if (block) return block[1]!.startsWith('#') ? null : block[1]!;
  if (RESERVED_START.test(value)) return value;
  if (OTHER_START.test(value)) return null;
  return value.includes(': ') || value.endsWith(':') ? value : null;
}

/** Whether a value goes on below its line: the next line that is not blank is indented further than the key. */
function continues(lines: readonly string[], index: number, indent: number): boolean {
  for (let i = index + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    return /^[ \t]*/.exec(line)![0].length > indent;
  }
  return false;
}

/** The repair of one line, or null. `index` counts front-matter lines from 0; `firstLine` is SKILL.md's line of index 0. */
function repairLine(lines: readonly string[], index: number, firstLine: number): Planned | null {
  const original = lines[index];
  if (original === undefined) return null;
  const match = KEY_VALUE.exec(original);
  if (!match) return null;
  const indent = match[1]!.length;
  const value = intended(match[3]!);
  if (value === null || continues(lines, index, indent)) return null;
  const quoted = stringify(value, { defaultStringType: 'QUOTE_DOUBLE', lineWidth: 0 }).trimEnd();
  if (quoted.includes('\n')) return null;
  const corrected = `${match[1]!}${match[2]!}: ${quoted}`;
  return { index, indent, value, change: { line: firstLine + index, original, corrected } };
}

/** Whether the pair whose key starts at `offset` holds exactly `value`. */
function holds(doc: Document, offset: number, value: string): boolean {
  let found = false;
  visit(doc, {
    Pair(_, pair) {
      if (!isPair(pair) || !isScalar(pair.key) || pair.key.range?.[0] !== offset) return undefined;
      found = isScalar(pair.value) && pair.value.value === value;
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * The repair of front matter that the YAML parser refuses, or null when it parses already or is not one of the shapes
 * repaired here. `yamlText` is the text between the `---` lines (lines joined by `\n`); `firstLine` is the SKILL.md
 * line it starts on (2 when SKILL.md opens with `---`).
 */
export function repairFrontMatter(yamlText: string, firstLine = 2): FrontMatterFix | null {
  const lines = yamlText.split('\n');
  const planned: Planned[] = [];
  let doc = parse(yamlText);
  while (doc.errors.length > 0) {
    const at = doc.errors[0]!.linePos?.[0]?.line;
    if (at === undefined || planned.length >= MAX_CHANGES) return null;
    const index = at - 1;
    if (planned.some((p) => p.index === index)) return null;
    const repair = repairLine(lines, index, firstLine);
    if (repair === null) return null;
    planned.push(repair);
    lines[index] = repair.change.corrected;
    doc = parse(lines.join('\n'));
  }
  if (planned.length === 0) return null;
  // Proof: each repaired key holds the text its line held.
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  for (const p of planned) if (!holds(doc, starts[p.index]! + p.indent, p.value)) return null;
  const changes = planned.map((p) => p.change).sort((a, b) => a.line - b.line);
  const first = changes[0]!;
  const text = lines.join('\n');
  return { ...first, changes, front_matter: text.endsWith('\n') ? text : `${text}\n` };
}

/**
 * SKILL.md's text with a repair applied: each changed line replaced, its line ending kept. Null when a line to change
 * no longer reads as it did (the file changed since).
 */
export function applyFrontMatterFix(skillMd: string, fix: Pick<FrontMatterFix, 'changes'>): string | null {
  const parts = skillMd.split(/(?<=\n)/);
  for (const change of fix.changes) {
    const part = parts[change.line - 1];
    if (part === undefined) return null;
    const ending = /\r?\n$/.exec(part)?.[0] ?? '';
    if (part.slice(0, part.length - ending.length) !== change.original) return null;
    parts[change.line - 1] = change.corrected + ending;
  }
  return parts.join('');
}
