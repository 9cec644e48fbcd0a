/**
 * Data passed from one file of a package to another: a script hands a secret to a function it imports from the
 * package's own module (`require('../lib/report.js')`, `from .report import send`), and that module sends what it is
 * handed. Each file notes what it exports that sends and what it passes to which module; the package joins them once
 * every file is read (scanner.ts).
 */
import type { Hit } from '../findings.js';
import type { Statement } from './flow.js';

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
}

/** `const x = require('./m')`, `const { a, b } = require('./m')`, `import x from './m'`, `import { a } from './m'`, `from .m import a`. */
const IMPORT =
  /^\s*(?:(?:const|let|var)\s+(?:([\w$]+)|\{([^}\n]{1,200})\})\s*=\s*require\(\s*["'](\.{1,2}\/[^"'\n]{1,200})["']\s*\)|import\s+(?:([\w$]+)|\{([^}\n]{1,200})\})\s+from\s+["'](\.{1,2}\/[^"'\n]{1,200})["']|from\s+(\.{1,2}[\w.]{0,100})\s+import\s+([\w, ]{1,200}))/;
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

/** Notes what one piece of code of `path` exports that sends, and the secrets it passes to imported functions. */
export function noteLinks(path: string, statements: readonly Statement[], python: boolean, links: ModuleLinks): void {
  const sends = statements.some((s) => s.facts.has('network-send'));
  // A Python module is importable whole; a JavaScript one shares what it exports.
  if (sends && (python || statements.some((s) => EXPORTS.test(s.raw)))) links.senders.add(path);
  const imported = imports(statements);
  if (imported.size === 0) return;
  for (const s of statements) {
    const fact = s.facts.has('environment') ? 'environment' : s.facts.has('credential-store') ? 'credential-store' : null;
    if (fact === null) continue;
    for (const [name, module] of imported)
      if (s.text.includes(`${name}(`) && !IMPORT.test(s.raw)) links.passed.push({ module, from: path, fact, statement: s });
  }
}

/** The package path an import names, relative to the importing file, as one of the files read (extensions tried). */
function resolveModule(from: string, module: string, files: ReadonlySet<string>): string | null {
  const dir = from.split('/').slice(0, -1);
  let target: string[];
  if (module.startsWith('./') || module.startsWith('../')) target = [...dir, ...module.split('/')];
  else {
    // Python: `.m` is a sibling, `..m` one folder up, dots between names are folders.
    const dots = /^\.+/.exec(module)![0].length;
    target = [...dir.slice(0, dir.length - (dots - 1)), ...module.slice(dots).split('.')];
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

/** The findings of secrets passed to a module of the package that sends what it is handed. */
export function joinLinks(links: ModuleLinks, files: ReadonlySet<string>, severity: Hit['severity']): { file: string; hit: Hit }[] {
  const out: { file: string; hit: Hit }[] = [];
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
