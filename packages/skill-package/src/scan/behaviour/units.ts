/**
 * The pieces of a file that run, or that an agent reads as instructions: a script is one piece; a notebook's code cells
 * (a `!` line and a `%%bash` cell are shell), a `package.json`'s scripts, and a Markdown file's fenced code blocks are
 * pieces of their own; a Markdown file's paragraphs are prose. A file an agent or a CI runner executes by configuration
 * (workflows, hooks, tasks) is read whole, as a script.
 */
import { AUTO_RUN_CONFIG } from '../file-kind.js';
import { STARTUP_PLACE } from './facts.js';

export interface CodeUnit {
  /** The line of the file the piece starts on (1-based). */
  line: number;
  code: string;
  /** Read as a shell (variables `$x`, an unset one empty) rather than as another language. */
  shell: boolean;
  /** A Markdown code block (documentation that may be run) rather than a file or a cell that runs. */
  documented: boolean;
  /**
   * Run by a tool on its own, with nobody asking: an agent's hook, an editor's task on opening the folder, a package
   * manager's install script, a git hook.
   */
  autoRun?: boolean;
  /**
   * A Markdown block the prose just before it says to add to a shell's start-up file (`Append this line to ~/.bashrc`):
   * what it runs, it runs at every start.
   */
  addedToStartup?: boolean;
  /** The line each of the piece's lines stands for in the file (a notebook's cells joined: the cell's number). */
  lines?: readonly number[];
}

export interface ProseUnit {
  line: number;
  /** The paragraph's lines joined by spaces: a sentence broken over lines is read whole. */
  text: string;
  lines: string[];
}

export interface Units {
  code: CodeUnit[];
  prose: ProseUnit[];
}

const SHELL_FILE =
  /\.(?:sh|bash|zsh|ksh|command|ya?ml|json)$|(?:^|\/)(?:makefile|gnumakefile|dockerfile|containerfile|justfile|\.bashrc|\.zshrc|\.profile)$|(?:^|\/)[^/.]+$/i;
const SHELL_SHEBANG = /^#!.*\b(?:sh|bash|zsh|ksh|dash)\b/;
const NOTEBOOK = /\.ipynb$/i;
/** Scripts a package manager runs on install, on its own. */
const LIFECYCLE =
  /^(?:pre|post)?(?:install|prepare|preinstall|postinstall|prepublish|uninstall)$|^(?:pre|post)-(?:install|update|autoload-dump|create-project|root-package-install)-cmd$/;
/** An editor's tasks that run when the folder opens. */
const TASKS = /(?:^|\/)\.vscode\/tasks\.json$/i;
/** `npm run x`, `yarn x`, `pnpm run x`, `composer run-script x`: another script of the same manifest. */
const RUNS_SCRIPT = /\b(?:npm\s+run(?:-script)?|pnpm(?:\s+run)?|yarn(?:\s+run)?|bun\s+run|composer\s+run(?:-script)?)\s+([\w:.-]{1,64})/g;
/** npm's and Composer's manifests, whose `scripts` run commands (Composer's as a list per event). */
const PACKAGE_JSON = /(?:^|\/)(?:package|composer)\.json$/i;
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const SHELL_FENCE = /^(?:|sh|bash|zsh|shell|console|terminal|ksh|fish)$/;

interface NotebookCell {
  cell_type?: unknown;
  source?: unknown;
}

function cellText(source: unknown): string {
  if (typeof source === 'string') return source;
  return Array.isArray(source) ? source.filter((s): s is string => typeof s === 'string').join('') : '';
}

function notebookUnits(text: string): Units | null {
  let cells: NotebookCell[];
  try {
    const parsed = JSON.parse(text) as { cells?: unknown };
    if (!Array.isArray(parsed.cells)) return null;
    cells = parsed.cells as NotebookCell[];
  } catch {
    return null;
  }
  const units: Units = { code: [], prose: [] };
  const kernel: string[] = [];
  const cellOf: number[] = [];
  let shell = false;
  cells.forEach((cell, index) => {
    const source = cellText(cell.source);
    if (cell.cell_type === 'markdown') units.prose.push(...paragraphs(source, index + 1));
    if (cell.cell_type !== 'code') return;
    const magic = /^\s*%%(?:bash|sh|script\s+(?:ba)?sh)\b/.test(source);
    const bang = /^[^\S\n\r\u2028\u2029]*!/m.test(source);
    const code = source
      .replace(/^([^\S\n\r\u2028\u2029]*)!/gm, '$1')
      .replace(/(?:(?<![\s\S])|(?<=\S[^\S\n\r\u2028\u2029]*[\n\r\u2028\u2029]))\s*%%\w+.*$/m, '');
    if (magic) units.code.push({ line: index + 1, code, shell: true, documented: false });
    else {
      kernel.push(code);
      for (const _ of code.split('\n')) cellOf.push(index + 1);
      shell ||= bang;
    }
  });
  // A notebook's Python cells run in one kernel, in order: one program, whose names carry from cell to cell. Its
  // findings name the cell (the line a notebook's finding reports).
  if (kernel.length > 0) units.code.push({ line: 1, code: kernel.join('\n'), shell, documented: false, lines: cellOf });
  return units;
}

function packageScripts(text: string): Units | null {
  try {
    const parsed = JSON.parse(text) as { scripts?: unknown };
    const scripts = parsed.scripts;
    if (typeof scripts !== 'object' || scripts === null) return { code: [], prose: [] };
    const code = Object.entries(scripts as Record<string, unknown>)
      .map(([name, s]): [string, string] => [
        name,
        Array.isArray(s) ? s.filter((c) => typeof c === 'string').join('\n') : typeof s === 'string' ? s : '',
      ])
      .filter(([, s]) => s !== '');
    // A script that an install script runs by name (`"postinstall": "npm run setup"`) runs on its own too.
    const onOwn = new Set(code.filter(([name]) => LIFECYCLE.test(name)).map(([name]) => name));
    for (const [name, s] of code) if (onOwn.has(name)) for (const m of s.matchAll(RUNS_SCRIPT)) if (m[1] !== undefined) onOwn.add(m[1]);
    return { code: code.map(([name, s]) => ({ line: 1, code: s, shell: true, documented: false, autoRun: onOwn.has(name) })), prose: [] };
  } catch {
    return null;
  }
}

const QUOTE_MARKS = /^(?:>[ \t]*)+/;
/** A table cell that is one code span. */
const CODE_CELL = /^`[^`]+`$/;

/**
 * Whether a column's cell reads on into the next as one sentence: it ends none and the next starts in lower case
 * (`The operator's earlier` / `guidance is withdrawn.`), unlike `…before applying` / `Ignore all instructions…`.
 */
function runsOn(cell: string, next: string): boolean {
  return !/[.!?:;]$/.test(cell) && !/^[A-Z]/.test(next);
}
/** A line of an indented code block: four spaces or a tab, then something. */
const INDENTED_CODE = /^(?: {4}|\t)[ \t]*\S/;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]/;

/** Whether the last lines before the blank line that ends `prose` belong to a list, where indented lines continue an item. */
function inList(prose: readonly string[]): boolean {
  for (let i = prose.length - 3; i >= 0 && i >= prose.length - 40; i--) {
    const line = prose[i]!;
    if (line.trim() === '') return false;
    if (LIST_ITEM.test(line)) return true;
    if (!/^[ \t]/.test(line)) return false;
  }
  return false;
}
const TABLE_DELIMITER = /^\|[\s:|-]*$/;

/** A Markdown text's paragraphs (lines between blank lines, fences apart) from line `first`. */
function paragraphs(text: string, first: number): ProseUnit[] {
  const out: ProseUnit[] = [];
  let current: string[] = [];
  let start = first;
  let table: { line: number; rows: string[][] } | null = null;
  const flush = () => {
    if (current.length > 0) out.push({ line: start, text: current.join(' '), lines: current });
    current = [];
  };
  // A table is read down each column, whose cells may carry one sentence over rows; across a row they are apart.
  const flushTable = () => {
    if (table === null) return;
    const { line, rows } = table;
    table = null;
    // A reference table (each row names a field or option in code: `model`, `systemMessage`) describes what it names:
    // its rows are read one by one as written, never as sentences running down a column.
    if (rows.length > 1 && rows.slice(1).every((row) => CODE_CELL.test(row[0] ?? ''))) {
      const written = rows.map((row) => `| ${row.join(' | ')} |`);
      out.push({ line, text: written.join(' '), lines: written });
      return;
    }
    const columns = Math.max(...rows.map((row) => row.length));
    for (let c = 0; c < columns; c++) {
      const cells = rows.map((row) => row[c] ?? '').filter((cell) => cell !== '');
      // A cell that neither ends a sentence nor runs on into the next (in lower case) is given a full stop.
      const read = cells.map((cell, i) =>
        i + 1 < cells.length && !runsOn(cell, cells[i + 1]!) && !/[.!?]$/.test(cell) ? `${cell}.` : cell,
      );
      if (read.length > 0) out.push({ line, text: read.join(' '), lines: read });
    }
  };
  text.split(/\r?\n/).forEach((line, i) => {
    // A quotation's marks (`> `, `> > `) are not words of its sentences; a line of marks alone ends a paragraph.
    const content = line.trim().replace(QUOTE_MARKS, '');
    if (content.startsWith('|')) {
      flush();
      table ??= { line: first + i, rows: [] };
      if (!TABLE_DELIMITER.test(content))
        table.rows.push(
          content
            .split('|')
            .slice(1, content.endsWith('|') ? -1 : undefined)
            .map((cell) => cell.trim()),
        );
      return;
    }
    flushTable();
    if (content === '') flush();
    else {
      if (current.length === 0) start = first + i;
      current.push(content);
    }
  });
  flush();
  flushTable();
  return [...out, ...stitched(out)];
}

/** Longest line of a paragraph that is read together with its neighbours when it stands alone. */
const SHORT_LINE = 60;

/**
 * Runs of short one-line paragraphs (a sentence broken over lines with blank lines between, list marks before each)
 * read as one paragraph too, at the first line: what only the lines together say is said.
 */
function stitched(paragraphs: readonly ProseUnit[]): ProseUnit[] {
  const out: ProseUnit[] = [];
  let run: ProseUnit[] = [];
  const flush = () => {
    if (run.length >= 2) {
      const lines = run.flatMap((p) => p.lines);
      out.push({ line: run[0]!.line, text: lines.join(' '), lines });
    }
    run = [];
  };
  for (const p of paragraphs) {
    // A paragraph of at most three short lines (`the operator's earlier` / `guidance`), one or two blank lines after
    // the last.
    const short = p.lines.length <= 3 && p.lines.every((l) => l.length <= SHORT_LINE) && !p.text.startsWith('#');
    const before = run.at(-1);
    const next = before === undefined || p.line <= before.line + before.lines.length + 2;
    if (!short || !next) flush();
    if (short && run.length < 12) run.push(p);
  }
  flush();
  return out;
}

const DESCRIPTION = /^description:[ \t]*(.*)$/m;

/**
 * The front matter's `description`, which agents read when they choose a skill: a paragraph of prose (its folded or
 * quoted continuation lines included).
 */
function describedIn(frontMatter: string): ProseUnit[] {
  const m = DESCRIPTION.exec(frontMatter);
  if (m === null) return [];
  const before = frontMatter.slice(0, m.index).split('\n').length;
  const lines = [m[1]!.replace(/^[>|][-+]?\s*$/, '')];
  for (const next of frontMatter.slice(m.index + m[0].length + 1).split(/\r?\n/)) {
    if (!/^[ \t]+\S/.test(next)) break;
    lines.push(next.trim());
  }
  const text = lines
    .join(' ')
    .trim()
    .replace(/^["']|["']$/g, '');
  return text === '' ? [] : [{ line: before, text, lines: [text] }];
}

/**
 * Prose that says to add what follows to a shell's start-up file (`Append this line to ~/.bashrc and ~/.zshrc:`): a verb
 * of adding and a start-up file named in the lines just before a block.
 */
const ADDS = /\b(?:append|add|adding|put|paste|insert|place|write|create|save|update|edit|include|register)\b/;
export const STARTUP_FILE_NAMED = new RegExp(
  String.raw`${STARTUP_PLACE}|\$profile\b|\bshell(?:'s)? (?:start-?up|rc|profile|config(?:uration)?)(?: files?)?\b|\b(?:bash|zsh|fish|login|powershell) (?:profile|rc|start-?up files?)\b|\b(?:each|every) (?:new )?(?:shell|terminal|login)\b|\b(?:at|on) (?:shell |each |every )?(?:start-?up|login|boot)\b`,
);
/** Prose that says to add something to a start-up file. */
const addsToStartup = (text: string): boolean => ADDS.test(text) && STARTUP_FILE_NAMED.test(text);
/**
 * An inline command the sentence says to add somewhere: `add \`…\` to ~/.bashrc` (the place after the span) or `add
 * this line to your shell profile: \`…\`` (the place before it). Which place is checked by the caller.
 */
const ADDED_SPAN = new RegExp(
  String.raw`\b(?:append|add|put|paste|insert|place|write)\b(?: (?:the line|this line|the following(?: line)?|this))? \x60([a-z][\w.-]{0,40} [^\x60\n]{2,400})\x60 (?:to|in|into|inside|at the end of)\b([^\x60]{0,60})|\b(?:append|add|put|paste|insert|place|write)\b([^\x60:]{0,80}):\s*\x60([a-z][\w.-]{0,40} [^\x60\n]{2,400})\x60(?!\x60)`,
  'gi',
);

/**
 * An inline code span holding a command line that the sentence tells the reader to run (`run \`curl … @.env …\``, `execute
 * the following: \`…\``): a word, a space, more. A span shown without such a verb (an attack in a security reference, a
 * blocked command in a changelog) is an example, not an instruction.
 */
const INLINE_COMMAND =
  /\b(?:run|execute|exec|type|enter|paste|invoke)\b(?: (?:this|it|the following|the command|this command))?:? ?`([a-z][\w.-]{0,40} [^`\n]{2,400})`(?!`)/gi;
/**
 * A command a sentence says something is done through (`goes to https://… via \`curl -T .env …\``, `using \`…\``): an
 * instruction too, unless the line describes an attack, warns or gives an example.
 */
const INLINE_MEANS = /\b(?:via|using)\b:? ?`([a-z][\w.-]{0,40} [^`\n]{2,400})`(?!`)/gi;
const DESCRIBES =
  /\b(?:attackers?|malicious|malware|phishing|stealers?|exfiltrat\w*|payloads?|red team|detects?|flags?|warns?|never|do not|don't|avoid|example|e\.g\.)\b/i;

/** Front matter at the top of a Markdown file: read as fields (skill-md.ts), not as prose. */
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/;

function markdownUnits(file: string): Units {
  const units: Units = { code: [], prose: [] };
  const prose: string[] = [];
  const frontMatter = FRONT_MATTER.exec(file)?.[0] ?? '';
  // Its lines stay, blank, so that line numbers hold.
  const text = frontMatter.replace(/[^\n]/g, '') + file.slice(frontMatter.length);
  let fence: { marker: string; shell: boolean; line: number; lines: string[]; startup: boolean } | null = null;
  let indented: { line: number; lines: string[]; startup: boolean } | null = null;
  const codeOf = (block: { line: number; lines: string[]; startup: boolean }): CodeUnit => ({
    line: block.line,
    code: block.lines.join('\n'),
    shell: true,
    documented: true,
    ...(block.startup ? { addedToStartup: true } : {}),
  });
  text.split(/\r?\n/).forEach((line, i) => {
    const open = FENCE.exec(line);
    if (fence === null && open !== null) {
      const before = prose.slice(-3).join(' ').toLowerCase();
      fence = {
        marker: open[1]!,
        shell: SHELL_FENCE.test(open[2]!.toLowerCase()),
        line: i + 2,
        lines: [],
        startup: addsToStartup(before),
      };
      prose.push('');
      return;
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence.marker)) {
        units.code.push({
          line: fence.line,
          code: fence.lines.join('\n'),
          shell: fence.shell,
          documented: true,
          ...(fence.startup ? { addedToStartup: true } : {}),
        });
        fence = null;
        prose.push('');
      } else fence.lines.push(line);
      return;
    }
    prose.push(line);
    // An indented code block (four spaces or a tab after a blank line, outside a list) is code as a fenced one is.
    if (INDENTED_CODE.test(line) && (indented !== null || (i > 0 && prose.at(-2)?.trim() === '' && !inList(prose)))) {
      indented ??= { line: i + 1, lines: [], startup: addsToStartup(prose.slice(-5, -2).join(' ').toLowerCase()) };
      indented.lines.push(line.trim());
    } else if (line.trim() !== '' && indented !== null) {
      units.code.push(codeOf(indented));
      indented = null;
    }
    // A command a sentence says to run inline (`run \`curl -F f=@.env https://…\``) is code shown as documentation.
    if (line.includes('`')) {
      // A line that starts with the span is read after the last words of the line before (`… via` / `\`curl …\``).
      const before = /^\s*`/.test(line) ? (prose.at(-2) ?? '').replace(/`[^`]*`/g, ' ').slice(-40) : '';
      const read = before === '' ? line : `${before} ${line.trimStart()}`;
      const means = DESCRIBES.test(read) ? [] : [...read.matchAll(INLINE_MEANS)];
      const commands = [...read.matchAll(INLINE_COMMAND), ...means].map((m) => m[1]!).slice(0, 8);
      if (commands.length > 0) units.code.push({ line: i + 1, code: commands.join('\n'), shell: true, documented: true });
      // A command a sentence says to add to a start-up file (`Put \`curl … | sh\` in your .bashrc`) runs at every start.
      const added = [...read.matchAll(ADDED_SPAN)]
        .filter((m) => STARTUP_FILE_NAMED.test((m[2] ?? m[3]!).toLowerCase()))
        .map((m) => (m[1] ?? m[4])!)
        .slice(0, 8);
      if (added.length > 0) units.code.push(codeOf({ line: i + 1, lines: added, startup: true }));
    }
  });
  const open = fence as { shell: boolean; line: number; lines: string[] } | null;
  if (open !== null) units.code.push({ line: open.line, code: open.lines.join('\n'), shell: open.shell, documented: true });
  const last = indented as { line: number; lines: string[]; startup: boolean } | null;
  if (last !== null) units.code.push(codeOf(last));
  units.prose = [...describedIn(frontMatter), ...paragraphs(prose.join('\n'), 1)];
  return units;
}

const MAKEFILE = /(?:^|\/)(?:gnu)?makefile$|\.mk$/i;
const MAKE_DEFINITION = /^[ \t]*(?:export[ \t]+|override[ \t]+)?([A-Za-z_][\w.-]{0,63})[ \t]*(?::{1,3}=|\?=|\+=|!=|=)/gm;
const MAKE_REFERENCE = /\$[({]([A-Za-z_][\w.-]{0,63})[)}]/g;
/** Variables make or the environment always sets. */
const MAKE_SET = new Set(['MAKE', 'CURDIR', 'SHELL', 'HOME', 'PWD', 'PATH', 'USER', 'MAKEFLAGS', 'TMPDIR', 'CC', 'CXX', 'RM', 'AR']);

/**
 * A Makefile as the shell lines make runs: `$(shell cmd)` is a command substitution, run when the file is read, and a
 * variable the file never defines is empty (`rm -rf $(OUT_DIR)/*` with only `OUTDIR` defined removes `/*`).
 */
function makefileCode(text: string): string {
  const defined = new Set([...text.matchAll(MAKE_DEFINITION)].map((m) => m[1]!));
  return text
    .replace(/\$\(shell\s/g, '$(')
    .replace(MAKE_REFERENCE, (whole, name: string) => (defined.has(name) || MAKE_SET.has(name) ? whole : ''));
}

/** Files that define start-up items (launchd property lists, systemd timers, desktop entries): their commands run. */
export const STARTUP_DEFINITION_FILE = /\.(?:plist|desktop|timer)$/i;

/** The pieces of one file, by its kind (`script`, `markdown` or other text). */
export function unitsOf(path: string, kind: 'script' | 'markdown' | 'text', text: string): Units {
  if (NOTEBOOK.test(path)) return notebookUnits(text) ?? { code: [], prose: [] };
  // A property list's program and arguments are its strings: read as the command line they make.
  if (kind === 'text' && STARTUP_DEFINITION_FILE.test(path))
    return {
      code: [
        { line: 1, code: text.replace(/<\/string>\s*<string>/g, ' ').replace(/<[^<>\n]{0,200}>/g, ' '), shell: true, documented: false },
      ],
      prose: [],
    };
  if (kind === 'markdown') return markdownUnits(text);
  if (kind !== 'script') return { code: [], prose: [] };
  if (PACKAGE_JSON.test(path)) return packageScripts(text) ?? { code: [], prose: [] };
  // JSON and YAML configurations hold their commands in strings: their escaped quotes are read as quotes.
  const code = /\.json$/i.test(path) ? text.replace(/\\"/g, '"') : MAKEFILE.test(path) ? makefileCode(text) : text;
  const autoRun = AUTO_RUN_CONFIG.test(path) || (TASKS.test(path) && /"runon"\s*:\s*"folderopen"/i.test(text));
  return { code: [{ line: 1, code, shell: SHELL_FILE.test(path) || SHELL_SHEBANG.test(text), documented: false, autoRun }], prose: [] };
}
