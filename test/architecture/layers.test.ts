import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

/**
 * Imports point one way: http → domain → db, storage and search. The composition root (src/services.ts, src/app.ts,
 * src/server.ts) may import anything; nothing below it imports it.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Rule {
  /** Files under this folder of src/ ... */
  layer: string;
  /** ... import none of these: a path under src/ (a file, or a folder ending in /), or a package name. */
  forbidden: string[];
  why: string;
}

const COMPOSITION = ['services.ts', 'app.ts', 'server.ts'];

const RULES: Rule[] = [
  {
    layer: 'domain/',
    forbidden: [
      'http/',
      ...COMPOSITION,
      // Settings are handed in as values; the HTTP contract is the routes' concern.
      'config.ts',
      '@skill-registry/api-schemas',
      'fastify',
      '@fastify/',
      // The domain declares its own types and reads repository outcomes; the schema, the connection and the
      // drivers' errors stay in the data layer.
      'db/schema.ts',
      'db/database.ts',
      'db/faults.ts',
      'db/repositories/unique-violation.ts',
      'kysely',
      'pg',
      'better-sqlite3',
    ],
    why: 'the domain knows neither HTTP nor the composition root nor how the database is built',
  },
  {
    layer: 'db/',
    forbidden: ['domain/', 'http/', ...COMPOSITION, 'fastify', '@fastify/'],
    why: 'the data layer serves the domain without knowing it',
  },
  {
    layer: 'storage/',
    forbidden: ['domain/', 'http/', ...COMPOSITION, 'fastify', '@fastify/'],
    why: 'storage serves the domain without knowing it',
  },
  {
    layer: 'search/',
    forbidden: ['domain/', 'db/', 'http/', ...COMPOSITION, 'fastify', '@fastify/'],
    why: 'the search index serves the domain without knowing it or the database',
  },
  {
    layer: 'scan-threads/',
    forbidden: ['domain/', 'db/', 'http/', 'storage/', ...COMPOSITION, 'fastify', '@fastify/'],
    why: 'the scanning threads serve the domain without knowing it',
  },
  { layer: 'http/', forbidden: [...COMPOSITION], why: 'routes know the services by the interface http/route-services.ts declares' },
];

/** The rest of the repository, keyed by paths from its root: the console, the benchmarks and each package. */
const PACKAGES = readdirSync(path.join(ROOT, 'packages'));
const REPOSITORY_RULES: Rule[] = [
  {
    layer: 'web/src/',
    forbidden: ['src/', 'bench/', 'test/', 'packages/', 'fastify', '@fastify/'],
    why: "the console uses the packages, by name, never the server's sources",
  },
  ...PACKAGES.map((name) => ({
    layer: `packages/${name}/`,
    forbidden: ['src/', 'web/', 'bench/', 'test/', ...PACKAGES.filter((other) => other !== name).map((other) => `packages/${other}/`)],
    why: 'a package installs without the server and the checkout, and reaches another package by its name',
  })),
  {
    layer: 'bench/',
    forbidden: ['web/', 'test/', 'src/http/'],
    why: 'the benchmarks drive the server from outside or measure its lower layers',
  },
];

/** What an import names: a path under src/ (relative imports, resolved) or a package name. */
function target(fromFile: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  return resolved.replace(/\.js$/, '.ts');
}

function matches(imported: string, forbidden: string): boolean {
  if (forbidden.endsWith('/')) return imported.startsWith(forbidden);
  return imported === forbidden || imported.startsWith(`${forbidden}/`);
}

/** Every import that breaks a rule, as "file → import (why)"; files are keyed by their path under `base`. */
function layerViolations(files: ReadonlyMap<string, string>, allRules: readonly Rule[] = RULES, base = 'src/'): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const rules = allRules.filter((r) => file.startsWith(r.layer));
    if (rules.length === 0) continue;
    // Static imports, re-exports and dynamic import() calls alike.
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const imported = target(file, fileName);
      for (const rule of rules) {
        const hit = rule.forbidden.find((f) => matches(imported, f));
        if (hit !== undefined) found.push(`${base}${file} imports ${fileName} (${rule.why})`);
      }
    }
  }
  return found;
}

function sourceFiles(dir: string, base = dir): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const [k, v] of sourceFiles(full, base)) out.set(k, v);
    else if (/\.(ts|tsx|mts|cts)$/.test(name)) out.set(path.relative(base, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
  }
  return out;
}

/**
 * The import cycles among `files` (keyed by path), each as the files around it with the first repeated at the end; type
 * imports count, since a cycle of types still ties the files to one another.
 */
function importCycles(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of files) {
    const imported = ts
      .preProcessFile(text, true, true)
      .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => target(file, fileName))
      .filter((to) => files.has(to));
    edges.set(file, imported);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    trail.push(file);
    for (const to of edges.get(file) ?? []) {
      if (state.get(to) === 'open') cycles.push([...trail.slice(trail.indexOf(to)), to].join(' → '));
      else if (!state.has(to)) visit(to);
    }
    trail.pop();
    state.set(file, 'done');
  };
  for (const file of [...files.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('layers', () => {
  it('every import under src/ points the allowed way', () => {
    const files = sourceFiles(path.join(ROOT, 'src'));
    assert.ok(files.size > 50, `read ${files.size} files under src/`);
    assert.deepEqual(layerViolations(files), []);
  });

  it('packages/skill-package has no import cycles: the archive readers sit below the collector and the scanner', () => {
    const files = sourceFiles(path.join(ROOT, 'packages', 'skill-package', 'src'));
    assert.ok(files.size > 30, `read ${files.size} files under packages/skill-package/src/`);
    assert.deepEqual(importCycles(files), []);
    // The readers reach neither the collector nor the scanner, not even by their types.
    for (const reader of ['zip.ts', 'tar.ts', 'gzip.ts']) {
      const imports = ts.preProcessFile(files.get(reader) ?? '', true, true).importedFiles.map(({ fileName }) => target(reader, fileName));
      assert.deepEqual(
        imports.filter((i) => i === 'collector.ts' || i.startsWith('scan/')),
        [],
        `${reader} imports ${imports.join(', ')}`,
      );
    }
  });

  it('finds an import cycle, type imports included', () => {
    const files = new Map([
      ['a.ts', "import { b } from './b.js';"],
      ['b.ts', "import type { C } from './scan/c.js';"],
      ['scan/c.ts', "export { a } from '../a.js';"],
      ['d.ts', "import { a } from './a.js';"],
    ]);
    assert.deepEqual(importCycles(files), ['a.ts → b.ts → scan/c.ts → a.ts']);
  });

  it('every import under web/, bench/ and packages/ points the allowed way', () => {
    const files = new Map<string, string>();
    for (const dir of ['web/src', 'bench', ...PACKAGES.map((name) => `packages/${name}/src`)]) {
      for (const [file, text] of sourceFiles(path.join(ROOT, dir))) files.set(`${dir}/${file}`, text);
    }
    assert.ok(files.size > 200, `read ${files.size} files`);
    assert.deepEqual(layerViolations(files, REPOSITORY_RULES, ''), []);
    const wrong = new Map([
      ['web/src/lib/x.ts', "import { checkName } from '../../../src/domain/skills/fields.js';"],
      ['packages/client/src/x.ts', "import type { Skill } from '../../api-schemas/src/skills.js';"],
      ['bench/x.ts', "import { startRegistry } from '../test/helpers/app.js';"],
      ['web/src/ok.ts', "import { checkName } from '@skill-registry/rules/skill-fields';"],
    ]);
    assert.deepEqual(
      layerViolations(wrong, REPOSITORY_RULES, '').map((f) => f.split(' ')[0]),
      ['web/src/lib/x.ts', 'packages/client/src/x.ts', 'bench/x.ts'],
    );
  });

  it('reports each kind of wrong-way import', () => {
    const files = new Map([
      [
        'domain/skills/x.ts',
        "import type { SkillStatus } from '../../db/schema.js';\nimport { isUniqueViolation } from '../../db/repositories/unique-violation.js';",
      ],
      ['domain/y.ts', "import type { FastifyRequest } from 'fastify';\nexport { caller } from '../http/plugins/auth.js';"],
      ['domain/z.ts', "const services = await import('../services.js');\nimport { openDatabase } from '../db/database.js';"],
      ['db/repositories/w.ts', "import type { Actor } from '../../domain/actor.js';"],
      ['storage/v.ts', "import { sendProblem } from '../http/plugins/errors.js';"],
      ['http/routes/u.ts', "import type { Services } from '../../services.js';"],
      // Allowed: domain → repositories, http → domain, db → db.
      ['domain/ok.ts', "import type { SkillsRepository } from '../db/repositories/skills.js';"],
      ['http/ok.ts', "import { AppError } from '../domain/errors.js';"],
      ['db/ok.ts', "import type { Database } from './schema.js';"],
    ]);
    const found = layerViolations(files);
    assert.equal(found.length, 9, found.join('\n'));
    for (const file of ['domain/skills/x.ts', 'domain/y.ts', 'domain/z.ts', 'db/repositories/w.ts', 'storage/v.ts', 'http/routes/u.ts']) {
      assert.ok(
        found.some((f) => f.startsWith(`src/${file} `)),
        `${file} is reported`,
      );
    }
    assert.ok(!found.some((f) => f.includes('/ok.ts')), 'allowed imports are not reported');
  });
});
