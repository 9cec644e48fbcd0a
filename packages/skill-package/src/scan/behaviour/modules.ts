/**
 * Data passed from one file of a package to another: a script hands a secret to a function it imports from the
 * package's own module (`require('../lib/report.js')`, `from .report import send`), and that module sends what it is
 * handed. Each file notes what it exports that sends and what it passes to which module; the package joins them once
 * every file is read (scanner.ts).
 */
import type { Hit } from '../findings.js';
import { ASSIGNED, type Statement } from './flow.js';

export interface PassedSource {
  /** The imported module's path as written (`../lib/report.js`, `.report`), and the file that imports it. */
  module: string;
  from: string;
  fact: 'environment' | 'credential-store';
  statement: Statement;
}

export interface ModuleLinks {
  /** Files (paths in the package) whose exports send over the network. */
  senders: Set<string>;
  passed: PassedSource[];
  /** Files a piece that runs on its own (an install script, a hook) runs in turn: `make setup`, `bash scripts/x.sh`. */
  autoRuns?: FileRun[];
  /**
   * Files that download code and run it (by their path in lower case), each with the statements that do; in a
   * Makefile, with the target whose recipe holds each and the targets' prerequisites.
   */
  downloads?: Map<string, { file: string; statements: { statement: Statement; target?: string }[]; make?: MakeTargets }>;
  /** Statements that write the environment or a credential store to a file (`json.dump(dict(os.environ), fh)`). */
  staged?: { file: string; fact: PassedSource['fact']; statement: Statement }[];
  /** Files that send a file named on their command line (`upload(sys.argv[1])`, `curl -T "$1"`). */
  sendsArgument?: Set<string>;
  /** Files (paths in the package) whose exports read the environment or a credential store, and which. */
  providers?: Map<string, PassedSource['fact']>;
  /** Calls of a function imported from the package's own module whose result is sent over the network. */
  received?: Omit<PassedSource, 'fact'>[];
}

/** A file run by a command: a script, or a Makefile with the targets named (none: its first). */
export interface FileRun {
  from: string;
  target: string;
  makeTargets?: string[];
}

/** A Makefile's targets: each one's prerequisites, and the first (what `make` alone builds). */
export interface MakeTargets {
  first?: string;
  prerequisites: Map<string, string[]>;
}

const MAKE_RULE = /^([a-z0-9_.%/-][\w.%/-]{0,100}(?:[ \t]+[\w.%/-]{1,100}){0,20})[ \t]*::?(?![=:])(.*)$/i;

/** The targets of a Makefile and the recipe each line of it belongs to (by 0-based line). */
export function makeTargets(code: string): { targets: MakeTargets; recipeOf: (string | undefined)[] } {
  const targets: MakeTargets = { prerequisites: new Map() };
  const recipeOf: (string | undefined)[] = [];
  let current: string | undefined;
  for (const line of code.split('\n')) {
    const found = /^[ \t]/.test(line) ? null : MAKE_RULE.exec(line);
    // A target's variable (`x: CFLAGS = -O2`) is not a rule; a recipe may follow a `;`.
    const rule = found !== null && !found[2]!.split(';')[0]!.includes('=') ? found : null;
    if (rule !== null) {
      const names = rule[1]!.trim().split(/\s+/);
      const prerequisites = rule[2]!
        .split(';')[0]!
        .trim()
        .split(/\s+/)
        .filter((p) => p !== '' && !p.startsWith('|'));
      for (const name of names)
        targets.prerequisites.set(
          name.toLowerCase(),
          prerequisites.map((p) => p.toLowerCase()),
        );
      current = names[0]!.toLowerCase();
      if (targets.first === undefined && !current.startsWith('.') && !current.includes('%')) targets.first = current;
    } else if (!/^[ \t]/.test(line) && line.trim() !== '' && !line.trimStart().startsWith('#')) current = undefined;
    recipeOf.push(current);
  }
  return { targets, recipeOf };
}

/** The targets `names` build, their prerequisites with them. */
function built(names: readonly string[], make: MakeTargets): Set<string> {
  const out = new Set<string>();
  const pending = [...names];
  while (pending.length > 0 && out.size < 200) {
    const name = pending.pop()!;
    if (out.has(name)) continue;
    out.add(name);
    pending.push(...(make.prerequisites.get(name) ?? []));
  }
  return out;
}

/** The files a command runs, as written: make's file (`-f`, `-C`), a script handed to an interpreter or run by path. */
const MAKE = /(?:^|[;&|(]\s*|\b(?:then|do)\s+)(?:g?make)\b([^;&|\n]{0,200})/g;
const SCRIPT_RUN =
  /(?:^|[;&|(]\s*|\b(?:then|do|sudo)\s+)(?:(?:ba|z|da)?sh|node|python[0-9.]*|ruby|perl|pwsh|powershell(?:\.exe)?|tsx|ts-node|bun|deno\s+run)\s+(?:-[\w-]+\s+)*["']?((?:\.{1,2}\/)?[\w][\w./-]{0,200}\.(?:sh|bash|js|mjs|cjs|ts|py|rb|pl|ps1))\b|(?:^|[;&|(]\s*)["']?(\.\.?\/[\w./-]{1,200})/g;

/** The files (relative to the piece's folder) a command line runs. */
export function filesRun(text: string): Omit<FileRun, 'from'>[] {
  const out: Omit<FileRun, 'from'>[] = [];
  for (const m of text.matchAll(MAKE)) {
    const args = m[1]!;
    const makeTargets = args
      .replace(/\s-[cCf]\s*["']?[\w./-]+/g, ' ')
      .trim()
      .split(/\s+/)
      .filter((w) => /^[\w.%/-]+$/.test(w) && !w.startsWith('-'));
    // Statements are lower case: `-C` is read as `-c`.
    const dir = /\s-[cC]\s*["']?([\w./-]+)/.exec(args)?.[1];
    const file = /\s-f\s*["']?([\w./-]+)/.exec(args)?.[1];
    const base = dir === undefined ? '' : `${dir.replace(/\/$/, '')}/`;
    for (const name of file !== undefined ? [file] : ['Makefile', 'GNUmakefile']) out.push({ target: base + name, makeTargets });
  }
  for (const m of text.matchAll(SCRIPT_RUN)) out.push({ target: m[1] ?? m[2]! });
  return out;
}

/**
 * `const x = require('./m')`, `const { a, b } = require('./m')`, `import x from './m'`, `import { a } from './m'`,
 * `from .m import a`, `from lib.m import a`.
 */
const IMPORT =
  /^\s*(?:(?:const|let|var)\s+(?:([\w$]+)|\{([^}\n]{1,200})\})\s*=\s*require\(\s*["'](\.{1,2}\/[^"'\n]{1,200})["']\s*\)|import\s+(?:([\w$]+)|\{([^}\n]{1,200})\})\s+from\s+["'](\.{1,2}\/[^"'\n]{1,200})["']|from\s+(\.{1,2}[\w.]{0,100}|[a-z_][\w.]{0,100})\s+import\s+([\w, ]{1,200}))/;
/** A statement that gives what it computes to its caller: a return, an export. */
const GIVES = /^\s*return\b|\bexports?\b/;
/** What a module makes available to others. */
const EXPORTS = /\bmodule\.exports\b|\bexports\.[\w$]+[ \t]*=|^[ \t]*export[ \t]+(?:default|async|function|const)\b/m;

/** The names a piece imports from the package's own modules, each with the module's path as written. */
function imports(statements: readonly Statement[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of statements) {
    const m = IMPORT.exec(s.raw);
    if (m === null) continue;
    const module = m[3] ?? m[6] ?? m[7]!;
    // `{ a as b }`, `{ a: b }`, `a as b`: the name it is known by here, the last.
    const names = (m[1] ?? m[4] ?? m[2] ?? m[5] ?? m[8]!).split(',').map((n) => n.split(' as ').at(-1)!.split(':').at(-1)!.trim());
    for (const name of names) if (/^[\w$]+$/.test(name)) out.set(name, module);
  }
  return out;
}

/**
 * Notes what one piece of code of `path` exports that sends or that reads a secret, the secrets it passes to imported
 * functions, and the results of imported functions it sends.
 */
export function noteLinks(path: string, statements: readonly Statement[], python: boolean, links: ModuleLinks): void {
  const sends = statements.some((s) => s.facts.has('network-send'));
  // A Python module is importable whole; a JavaScript one shares what it exports.
  const shares = python || statements.some((s) => EXPORTS.test(s.raw));
  if (sends && shares) links.senders.add(path);
  // A secret it hands out: read in a statement that returns or exports what it reads.
  const handsOut = (fact: string) => statements.some((s) => s.facts.has(fact) && GIVES.test(s.text));
  const reads = handsOut('environment') ? 'environment' : handsOut('credential-store') ? 'credential-store' : null;
  if (reads !== null && shares) (links.providers ??= new Map()).set(path, reads);
  const imported = imports(statements);
  if (imported.size === 0) return;
  for (const s of statements) {
    if (IMPORT.test(s.raw)) continue;
    for (const [name, module] of imported) {
      if (!s.text.includes(`${name}(`)) continue;
      // What the call returns, sent in the statement itself or through the name it is kept in.
      const kept = ASSIGNED.exec(s.text);
      const keptIn = kept?.[1] ?? kept?.[2];
      const named = keptIn === undefined ? null : new RegExp(`(?<![\\w$])${keptIn}(?![\\w$])`);
      const sent =
        s.facts.has('network-send') ||
        (named !== null && statements.some((t) => t !== s && t.facts.has('network-send') && named.test(t.text)));
      if (sent) (links.received ??= []).push({ module, from: path, statement: s });
    }
  }
  for (const s of statements) {
    const fact = s.facts.has('environment') ? 'environment' : s.facts.has('credential-store') ? 'credential-store' : null;
    if (fact === null) continue;
    for (const [name, module] of imported)
      if (s.text.includes(`${name}(`) && !IMPORT.test(s.raw)) links.passed.push({ module, from: path, fact, statement: s });
  }
}

/** A path written relative to the folder of `from`, as a path in the package. */
function relativeTo(from: string, written: string): string {
  const parts: string[] = from.split('/').slice(0, -1);
  for (const part of written.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** Downloads run by files that a piece running on its own runs in turn (`"prepare": "make setup"`). */
export function joinAutoRuns(links: ModuleLinks, severity: Hit['severity']): { file: string; hit: Hit }[] {
  const out: { file: string; hit: Hit }[] = [];
  const seen = new Set<string>();
  for (const run of links.autoRuns ?? []) {
    // Commands are read in lower case: files are matched so.
    const target = relativeTo(run.from, run.target).toLowerCase();
    const found = links.downloads?.get(target);
    if (found === undefined || seen.has(target)) continue;
    const { file, make } = found;
    // In a Makefile, a download in the recipe of a target the command builds (or outside every recipe).
    const builds = make === undefined ? null : built(run.makeTargets?.length ? run.makeTargets : make.first ? [make.first] : [], make);
    const statement = found.statements.find((d) => builds === null || d.target === undefined || builds.has(d.target))?.statement;
    if (statement === undefined) continue;
    seen.add(target);
    const text = statement.text.split('\n')[0]!.slice(0, 400);
    out.push({
      file,
      hit: {
        rule: 'behaviour.auto-run-download',
        severity,
        line: statement.line,
        context: 'script',
        text,
        index: 0,
        length: text.length,
        message: `${run.from} runs this file on its own (an install script or a hook), and this file downloads code and runs it.`,
      },
    });
  }
  return out;
}

/** The package path an import names, relative to the importing file, as one of the files read (extensions tried). */
function resolveModule(from: string, module: string, files: ReadonlySet<string>): string | null {
  const dir = from.split('/').slice(0, -1);
  let target: string[];
  if (module.startsWith('./') || module.startsWith('../')) target = [...dir, ...module.split('/')];
  else {
    // Python: `.m` is a sibling, `..m` one folder up, dots between names are folders; `m` without a dot is found beside
    // the script that imports it, as Python puts the script's folder first on its path.
    const dots = /^\.+/.exec(module)?.[0].length ?? 0;
    target = [...dir.slice(0, dir.length - Math.max(0, dots - 1)), ...module.slice(dots).split('.')];
  }
  const parts: string[] = [];
  for (const part of target) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  const base = parts.join('/');
  for (const ext of ['', '.js', '.cjs', '.mjs', '.ts', '.py', '/index.js', '/__init__.py']) if (files.has(base + ext)) return base + ext;
  return null;
}

/**
 * The findings of secrets passed to a module of the package that sends what it is handed, and of what a module of the
 * package reads from the environment or a credential store sent by the code that calls it.
 */
export function joinLinks(links: ModuleLinks, files: ReadonlySet<string>, severity: Hit['severity']): { file: string; hit: Hit }[] {
  const out: { file: string; hit: Hit }[] = [];
  for (const received of links.received ?? []) {
    const target = resolveModule(received.from, received.module, files);
    const fact = target === null ? undefined : links.providers?.get(target);
    if (fact === undefined) continue;
    const text = received.statement.raw.split('\n')[0]!.slice(0, 400);
    out.push({
      file: received.from,
      hit: {
        rule: fact === 'environment' ? 'behaviour.environment-sent' : 'behaviour.credentials-sent',
        severity,
        line: received.statement.line,
        context: 'script',
        text,
        index: 0,
        length: text.length,
        message: `This code sends over the network what ${target!} gives it, read from ${fact === 'environment' ? 'the environment' : 'a credential store'}.`,
      },
    });
  }
  for (const passed of links.passed) {
    const target = resolveModule(passed.from, passed.module, files);
    if (target === null || !links.senders.has(target)) continue;
    const rule = passed.fact === 'environment' ? 'behaviour.environment-sent' : 'behaviour.credentials-sent';
    const text = passed.statement.raw.split('\n')[0]!.slice(0, 400);
    out.push({
      file: passed.from,
      hit: {
        rule,
        severity,
        line: passed.statement.line,
        context: 'script',
        text,
        index: 0,
        length: text.length,
        message: `This code hands ${passed.fact === 'environment' ? 'the environment' : 'a credential store'} to ${target}, which sends what it is handed over the network.`,
      },
    });
  }
  return out;
}

/**
 * Data handed from one script to another through a file: one script of the package writes the environment or a
 * credential store to a file, another sends whatever file its command line names. The file's name may be made at run
 * time (a temporary file whose path is passed on), so the two are joined by the package, not by the name; reported a
 * step below a join the code spells out (`high`), for a person to read.
 */
export function joinStaged(links: ModuleLinks, severity: Hit['severity']): { file: string; hit: Hit }[] {
  const out: { file: string; hit: Hit }[] = [];
  const senders = links.sendsArgument ?? new Set<string>();
  const seen = new Set<string>();
  for (const staged of links.staged ?? []) {
    if (![...senders].some((sender) => sender !== staged.file) || seen.has(staged.file)) continue;
    seen.add(staged.file);
    const text = staged.statement.raw.split('\n')[0]!.slice(0, 400);
    const sender = [...senders].find((s) => s !== staged.file)!;
    out.push({
      file: staged.file,
      hit: {
        rule: staged.fact === 'environment' ? 'behaviour.environment-sent' : 'behaviour.credentials-sent',
        severity,
        line: staged.statement.line,
        context: 'script',
        text,
        index: 0,
        length: text.length,
        message: `This code writes ${staged.fact === 'environment' ? 'the environment' : 'a credential store'} to a file, and ${sender} sends whatever file its command line names over the network.`,
      },
    });
  }
  return out;
}
