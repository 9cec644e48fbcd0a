/**
 * SKILL.md front matter: parsing, the hard rules (422 invalid_skill_md) and the soft ones (warnings).
 *
 * Decisions:
 * - SKILL.md is at most 1 MiB (SKILL_MD_MAX_BYTES); bigger is a 422. It must be valid UTF-8; a UTF-8 BOM and
 *   CRLF line ends are accepted.
 * - Front matter is the text between a first line `---` and the next line `---` (trailing blanks allowed on
 *   both). An unterminated block counts as missing front matter.
 * - YAML is read with the YAML 1.2 core schema, no YAML 1.1 tags (`!!timestamp`, `!!binary`, `!!set`, `!!omap`:
 *   unresolved tags stay strings), keys must be scalars, duplicate keys are an error, and alias expansion is
 *   capped (maxAliasCount 100) so "billion laughs" documents are refused as invalid YAML.
 * - Mappings and lists nest at most NESTING_MAX (64) levels, the front matter's own mapping included: the yaml
 *   library has no such limit and composes a document recursively, so the depth is read from its syntax tree
 *   before it is composed, and again from the value after aliases are resolved (an alias can add levels, and one
 *   naming its own collection adds them without end).
 * - The parsed object is made JSON-safe (Dates become ISO strings, non-finite numbers null, Maps objects,
 *   Sets arrays, bytes base64) and built with own properties only (a `__proto__` key is kept as data).
 * - `name` and `description` must be strings that are not blank; both are checked and reported together.
 * - Description length is counted in Unicode code points.
 * - Front matter that is not YAML is refused with the line at fault numbered as in SKILL.md, and, when it is one of the
 *   mistakes repaired safely (front-matter-fix.ts: an unquoted `: ` in a value, `| text` on one line, a reserved first
 *   character), with the corrected line in the detail and the repair in the problem's `fix`.
 */
import { CST, Parser, parseDocument } from 'yaml';
import { FRONT_MATTER_YAML, repairFrontMatter, type FrontMatterFix } from './front-matter-fix.js';
import { NESTING_MAX, valueNestsDeeper } from './nesting-depth.js';
import { PackageError, type PackageProblem, type PackageWarning } from './types.js';

export const SKILL_MD_MAX_BYTES = 1024 * 1024;
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;
export const SKILL_MD_KEYS: readonly string[] = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
const MAX_ALIAS_COUNT = 100;

export interface SkillMdResult {
  skillMd: Record<string, unknown>;
  warnings: PackageWarning[];
}

function invalid(entry: string, detail: string, problems: PackageProblem[]): PackageError {
  return new PackageError(
    422,
    'invalid_skill_md',
    detail,
    problems.map((p) => ({ ...p, entry })),
  );
}

const FENCE = /^---[ \t]*$/;

/**
 * Extracts the front matter text, or null when the document has none. Lines end at `\n` or `\r\n`; they are read
 * one at a time up to the closing fence, not all split first (a megabyte SKILL.md is 100,000 lines).
 */
export function frontMatterOf(text: string): string | null {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines: string[] = [];
  for (let start = 0; ;) {
    const newline = body.indexOf('\n', start);
    const end = newline === -1 ? body.length : newline > start && body.charCodeAt(newline - 1) === 0x0d ? newline - 1 : newline;
    const line = body.slice(start, end);
    if (start === 0) {
      if (!FENCE.test(line)) return null;
    } else if (FENCE.test(line)) return lines.join('\n');
    else lines.push(line);
    if (newline === -1) return null;
    start = newline + 1;
  }
}

/** Turns what the YAML parser returns into plain JSON data. */
export function jsonSafe(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value instanceof Set) return [...value].map(jsonSafe);
  // What is left is a scalar YAML produced (string, number, boolean, null, undefined); YAML makes no functions.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (typeof value !== 'object') return String(value);
  const out: Record<string, unknown> = {};
  const entries: Iterable<[unknown, unknown]> = value instanceof Map ? value.entries() : Object.entries(value);
  for (const [k, v] of entries) {
    Object.defineProperty(out, String(k), { value: jsonSafe(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Whether YAML text nests collections more than NESTING_MAX levels deep, read from the parser's syntax tree
 * (which the parser builds without recursion) with a stack of its own.
 */
function yamlNestsDeeper(text: string): boolean {
  const stack: { token: CST.Token; depth: number }[] = [];
  for (const token of new Parser().parse(text)) stack.push({ token, depth: 0 });
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { token } = top;
    const depth = CST.isCollection(token) ? top.depth + 1 : top.depth;
    if (depth > NESTING_MAX) return true;
    const inner =
      token.type === 'document' ? [token.value] : CST.isCollection(token) ? token.items.flatMap((item) => [item.key, item.value]) : [];
    for (const child of inner) if (child) stack.push({ token: child, depth });
  }
  return false;
}

function tooDeep(entry: string): PackageError {
  return invalid(
    entry,
    `The front matter of ${entry} nests mappings and lists more than ${NESTING_MAX} levels deep (aliases count as what they name); ` +
      'flatten it: SKILL.md needs a few levels at most.',
    [{ field: 'skill_md', message: `front matter must nest at most ${NESTING_MAX} levels of mappings and lists` }],
  );
}

/** The SKILL.md line the front matter's first line is: the one after the opening `---`. */
const FRONT_MATTER_FIRST_LINE = 2;

/** The parser's "at line N, column M:" counts front-matter lines; people count SKILL.md's. */
function inSkillMdLines(message: string): string {
  return message.replace(
    / at line (\d+), column (\d+):?$/,
    (_, line: string, column: string) => ` at line ${Number(line) + FRONT_MATTER_FIRST_LINE - 1}, column ${column}`,
  );
}

/** The repair as a sentence of the refusal's detail. */
function fixSentence(fix: FrontMatterFix): string {
  const lines = fix.changes.map((c) => `line ${c.line} should read: ${c.corrected}`).join('; ');
  return ` With its value quoted, ${lines}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/**
 * Parses SKILL.md's bytes. Throws PackageError(422, 'invalid_skill_md') for the hard rules; returns the
 * front matter and the warnings otherwise. `entry` is SKILL.md's path in the archive, for messages.
 */
export function parseSkillMd(bytes: Uint8Array, entry: string): SkillMdResult {
  if (bytes.byteLength > SKILL_MD_MAX_BYTES) {
    throw invalid(entry, `${entry} is larger than ${SKILL_MD_MAX_BYTES} bytes.`, [
      { field: 'skill_md', message: `SKILL.md must be at most ${SKILL_MD_MAX_BYTES} bytes` },
    ]);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw invalid(entry, `${entry} is not valid UTF-8 text.`, [{ field: 'skill_md', message: 'SKILL.md must be UTF-8 text' }]);
  }
  const yamlText = frontMatterOf(text);
  if (yamlText === null) {
    throw invalid(entry, `${entry} has no YAML front matter: it must start with a line "---", then the YAML, then a line "---".`, [
      { field: 'skill_md', message: 'YAML front matter (between two "---" lines at the top) is missing' },
    ]);
  }

  if (yamlNestsDeeper(yamlText)) throw tooDeep(entry);
  let data: unknown;
  let fix: FrontMatterFix | null = null;
  try {
    const doc = parseDocument(yamlText, FRONT_MATTER_YAML);
    const first = doc.errors[0];
    if (first) {
      fix = repairFrontMatter(yamlText, FRONT_MATTER_FIRST_LINE);
      throw first;
    }
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = inSkillMdLines((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'invalid YAML');
    const problem = { field: 'skill_md', message: `invalid YAML: ${message}` };
    throw invalid(entry, `The front matter of ${entry} is not valid YAML: ${message}.${fix === null ? '' : fixSentence(fix)}`, [
      fix === null ? problem : { ...problem, fix },
    ]);
  }

  if (valueNestsDeeper(data)) throw tooDeep(entry);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw invalid(entry, `The front matter of ${entry} must be a YAML mapping with name and description; it is ${describe(data)}.`, [
      { field: 'skill_md', message: `front matter must be a mapping, not ${describe(data)}` },
    ]);
  }
  const skillMd = jsonSafe(data) as Record<string, unknown>;

  const problems: PackageProblem[] = [];
  for (const field of ['name', 'description'] as const) {
    const value = skillMd[field];
    if (value === undefined) problems.push({ field: `skill_md.${field}`, message: `${field} is required` });
    else if (typeof value !== 'string')
      problems.push({ field: `skill_md.${field}`, message: `${field} must be a string, not ${describe(value)}` });
    else if (value.trim() === '') problems.push({ field: `skill_md.${field}`, message: `${field} must not be empty` });
  }
  if (problems.length > 0) {
    const fields = problems.map((p) => p.field.slice('skill_md.'.length)).join(' and ');
    throw invalid(entry, `The front matter of ${entry} needs a non-empty ${fields}.`, problems);
  }

  const warnings: PackageWarning[] = [];
  const name = skillMd.name as string;
  const description = skillMd.description as string;
  const nameIssues: string[] = [];
  if (!SKILL_NAME_PATTERN.test(name)) nameIssues.push('should be lower-case letters, digits and single hyphens (^[a-z0-9]+(-[a-z0-9]+)*$)');
  // Limits count code points, as agents reading SKILL.md do.

  if ([...name].length > SKILL_NAME_MAX) nameIssues.push(`should be at most ${SKILL_NAME_MAX} characters`);
  if (nameIssues.length > 0) {
    warnings.push({ code: 'skill_md_name', message: `SKILL.md name ${JSON.stringify(name)} ${nameIssues.join(' and ')}.` });
  }

  const descriptionLength = [...description].length;
  if (descriptionLength > SKILL_DESCRIPTION_MAX) {
    warnings.push({
      code: 'skill_md_description_length',
      message: `SKILL.md description is ${descriptionLength} characters; it should be at most ${SKILL_DESCRIPTION_MAX}.`,
    });
  }
  for (const key of Object.keys(skillMd)) {
    if (!SKILL_MD_KEYS.includes(key)) {
      warnings.push({
        code: 'skill_md_unknown_key',
        message: `SKILL.md front matter key ${JSON.stringify(key)} is not one of ${SKILL_MD_KEYS.join(', ')}.`,
      });
    }
  }
  return { skillMd, warnings };
}
