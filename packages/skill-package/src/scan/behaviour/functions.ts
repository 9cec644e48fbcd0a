/**
 * The functions a piece of code defines and the lines of their bodies, in the languages skills' scripts are written
 * in: a call passes its arguments to what the body does, and takes back what the body reads (flow.ts carries a body's
 * sources and sinks to the statements that call it). Bodies are found by indentation (Python), braces (JavaScript,
 * shells, PowerShell, Go, Perl) or a closing `end` (Ruby); a body longer than BODY_LINES lines is read that far.
 */

export interface FunctionSpan {
  name: string;
  /** Line indexes of the piece (0-based): the definition's line and the body's last line. */
  first: number;
  last: number;
  /** Called as a command (`name args`), as shells call functions, rather than as `name(…)`. */
  command: boolean;
}

const BODY_LINES = 400;

const PYTHON_OR_RUBY = /^([ \t]*)(?:async[ \t]+)?def[ \t]+(?:self\.)?([a-z_]\w{0,63})\b/;
const JS_FUNCTION =
  /^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function(?:[ \t]*\*[ \t]*|[ \t]+)([a-z_$][\w$]{0,63})[ \t]*\(/;
const JS_ASSIGNED =
  /^\s*(?:export\s+)?(?:const|let|var)\s+([a-z_$][\w$]{0,63})\s*=\s*(?:async\s+)?(?:function\b|\([^()]{0,200}\)\s*=>|[a-z_$][\w$]{0,63}\s*=>)/;
const JS_EXPORTED = /^\s*(?:module\.)?exports(?:\.([a-z_$][\w$]{0,63}))?\s*=\s*(?:async\s+)?(?:function\b\s*([a-z_$][\w$]{0,63})?|\()/;
// A body may follow on the same line (`append() { echo … >> "$1"; }`).
const SHELL_FUNCTION = /^[ \t]*(?:function[ \t]+([a-z_][\w-]{0,63})|([a-z_][\w-]{0,63})[ \t]*\(\))[ \t]*(?:\(\)[ \t]*)?(?:\{[^\n]*)?$/;
/** A class's method (`collect() {`, `async push(target) { … }`), but not a control statement's head. */
const JS_METHOD =
  /^[ \t]*(?:static[ \t]+)?(?:async[ \t]+)?(?!(?:if|for|while|switch|catch|function|return)\b)([a-z_$][\w$]{0,63})[ \t]*\([^()]{0,200}\)[ \t]*\{/;
const OTHER = /^\s*(?:func\s+(?:\([^()]{0,100}\)\s*)?([a-z_]\w{0,63})\s*\(|sub\s+([a-z_]\w{0,63})\b)/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The last line of a body opened on line `first` by braces. */
function braceEnd(lines: readonly string[], first: number): number {
  let depth = 0;
  let opened = false;
  const stop = Math.min(lines.length, first + BODY_LINES);
  for (let i = first; i < stop; i++) {
    for (const c of lines[i]!) {
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}' && depth > 0) depth--;
    }
    if (opened && depth === 0) return i;
    // A definition that opens no brace on its line or the next is one line (`const f = (x) => send(x);`).
    if (!opened && i > first) return first;
  }
  return stop - 1;
}

/** The last line of a Python body (lines indented deeper than its `def`) or a Ruby one (up to its `end`). */
function indentEnd(lines: readonly string[], first: number, indent: number, ruby: boolean): number {
  const stop = Math.min(lines.length, first + BODY_LINES);
  let last = first;
  for (let i = first + 1; i < stop; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (indentOf(line) <= indent) return ruby && /^\s*end\b/.test(line) ? i : last;
    last = i;
  }
  return last;
}

/** The functions `lines` define; `shell` false reads `name() {` as a method rather than a shell function. */
export function functionSpans(lines: readonly string[], shell = true): FunctionSpan[] {
  const spans: FunctionSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!/def|function|=>|\(\s*\)|\)\s*\{|func|sub|exports/.test(line)) continue;
    const py = PYTHON_OR_RUBY.exec(line);
    if (py !== null) {
      // Python's `def` line ends with a colon; Ruby's body runs to its `end`.
      spans.push({ name: py[2]!, first: i, last: indentEnd(lines, i, py[1]!.length, !line.trimEnd().endsWith(':')), command: false });
      continue;
    }
    const js = JS_FUNCTION.exec(line) ?? JS_ASSIGNED.exec(line);
    if (js !== null) {
      spans.push({ name: js[1]!, first: i, last: braceEnd(lines, i), command: false });
      continue;
    }
    const exported = JS_EXPORTED.exec(line);
    if (exported !== null) {
      const last = braceEnd(lines, i);
      // `module.exports = function report(…)`: the module is called by the name its importer gives it.
      spans.push({ name: exported[1] ?? exported[2] ?? 'module.exports', first: i, last, command: false });
      continue;
    }
    // Outside a shell, `name() {` is a class's method, called as `this.name()`.
    const method = shell ? null : JS_METHOD.exec(line);
    if (method !== null) {
      spans.push({ name: method[1]!, first: i, last: braceEnd(lines, i), command: false });
      continue;
    }
    const shellFunction = SHELL_FUNCTION.exec(line);
    if (shellFunction !== null) {
      spans.push({ name: (shellFunction[1] ?? shellFunction[2])!, first: i, last: braceEnd(lines, i), command: true });
      continue;
    }
    const other = OTHER.exec(line);
    if (other !== null) spans.push({ name: (other[1] ?? other[2])!, first: i, last: braceEnd(lines, i), command: false });
  }
  return spans;
}
