import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CODES, isErrorCode, type ErrorCode } from '@skill-registry/rules/errors';

/**
 * One catalogue of error codes: every code the server's sources can answer with is in ERROR_CODES with the status it
 * is sent with, and docs/api-decisions.md lists each one with that status. The compiler already refuses an
 * AppError with an unlisted code; this also holds the statuses and the documentation to the list.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The status each way of making a refusal sends, when the code is written beside it. */
const MAKERS: [RegExp, number | null][] = [
  [/new (?:AppError|HttpProblem|PackageError)\(\s*(\d+),\s*'([a-z_]+)'/g, null],
  [/\bbadRequest\(\s*'([a-z_]+)'/g, 400],
  [/new RuleError\(\s*'([a-z_]+)'/g, 400],
  [/\bforbidden\(\s*'([a-z_]+)'/g, 403],
  [/\bnotFound\(\s*'([a-z_]+)'/g, 404],
  [/\bconflict\(\s*'([a-z_]+)'/g, 409],
];

/** Every code written in the server's and the packages' sources, with the status it is sent with. */
function codesInSources(): { code: string; status: number; file: string }[] {
  const files = [
    ...sources(path.join(ROOT, 'src')),
    ...readdirSync(path.join(ROOT, 'packages')).flatMap((p) => sources(path.join(ROOT, 'packages', p, 'src'))),
  ];
  const found: { code: string; status: number; file: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const [pattern, status] of MAKERS) {
      for (const m of text.matchAll(pattern)) {
        found.push(status === null ? { status: Number(m[1]), code: m[2]!, file } : { status, code: m[1]!, file });
      }
    }
  }
  return found;
}

/** The rows of the table under "### Error codes": code → status. */
function documentedCodes(): Map<string, number> {
  const text = readFileSync(path.join(ROOT, 'docs/api-decisions.md'), 'utf8');
  const section = text.slice(text.indexOf('### Error codes'));
  const out = new Map<string, number>();
  for (const m of section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

describe('error codes', () => {
  it('every code the sources send is in the catalogue, with the status it is sent with', () => {
    const found = codesInSources();
    assert.ok(found.length > 60, `found ${found.length} refusals`);
    const wrong = found
      .filter(({ code, status }) => !isErrorCode(code) || ERROR_CODES[code].status !== status)
      .map(({ code, status, file }) => `${path.relative(ROOT, file)}: ${status} ${code}`);
    assert.deepEqual(wrong, []);
  });

  it('every code in the catalogue is sent: written in the sources, or the name of a status the framework refuses with', () => {
    const written = new Set(codesInSources().map((f) => f.code));
    const unused = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => {
      const framework = (STATUS_CODES[ERROR_CODES[code].status] ?? '').toLowerCase().replace(/[^a-z]+/g, '_');
      return !written.has(code) && framework !== code;
    });
    assert.deepEqual(unused, []);
  });

  it('docs/api-decisions.md lists every code with its status, and no other', () => {
    const documented = documentedCodes();
    const expected = new Map(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status as number]));
    assert.deepEqual([...documented].sort(), [...expected].sort());
  });
});
