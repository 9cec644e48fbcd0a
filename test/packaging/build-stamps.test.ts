import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { build, projectParts, staleParts, type BuildPart as Part } from '../../scripts/build.mjs';

/**
 * `npm start` and `npm install` build only what changed: a part is rebuilt when a file it is built from changed or its
 * output is missing, and never twice for the same inputs.
 */

const root = mkdtempSync(path.join(tmpdir(), 'skreg-build-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A part that appends its name to runs.log and writes its output, as a real build step would. */
function part(name: string, inputs: string[]): Part {
  const script = `require('fs').appendFileSync('runs.log', '${name}\\n'); require('fs').mkdirSync('out', {recursive: true}); require('fs').writeFileSync('out/${name}', 'x')`;
  return { name, inputs, outputs: [`out/${name}`], command: [process.execPath, '-e', script] };
}
const runs = () => readFileSync(path.join(root, 'runs.log'), 'utf8').trim().split('\n');
const quiet = { log: () => undefined };

describe('the incremental build', () => {
  mkdirSync(path.join(root, 'src/lib'), { recursive: true });
  mkdirSync(path.join(root, 'web'), { recursive: true });
  writeFileSync(path.join(root, 'src/lib/a.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'web/app.tsx'), 'export {};\n');
  writeFileSync(path.join(root, 'runs.log'), '');
  const parts = [part('server', ['src']), part('console', ['web', 'src/lib'])];

  it('builds every part the first time, and nothing when nothing changed', () => {
    assert.deepEqual(build(root, parts, quiet), ['server', 'console']);
    assert.deepEqual(build(root, parts, quiet), []);
    assert.deepEqual(staleParts(root, parts), []);
    assert.deepEqual(runs(), ['server', 'console']);
  });

  it('rebuilds only the parts built from a changed file', () => {
    writeFileSync(path.join(root, 'web/app.tsx'), 'export const changed = true;\n');
    assert.deepEqual(build(root, parts, quiet), ['console']);
    writeFileSync(path.join(root, 'src/lib/a.ts'), 'export const a = 2;\n');
    assert.deepEqual(build(root, parts, quiet), ['server', 'console']);
    writeFileSync(path.join(root, 'src/new.ts'), 'export {};\n');
    assert.deepEqual(build(root, parts, quiet), ['server']);
  });

  it('rebuilds a part whose output is missing, and every part when forced', () => {
    rmSync(path.join(root, 'out/console'));
    assert.deepEqual(build(root, parts, quiet), ['console']);
    assert.deepEqual(build(root, parts, { ...quiet, force: true }), ['server', 'console']);
  });

  it('keeps a failed part stale, so the next build tries it again', () => {
    const failing = { ...part('server', ['src']), command: [process.execPath, '-e', 'process.exit(3)'] };
    writeFileSync(path.join(root, 'src/lib/a.ts'), 'export const a = 3;\n');
    assert.throws(() => build(root, [failing], quiet), /Building server failed/);
    assert.deepEqual(
      staleParts(root, [parts[0]!]).map((p) => p.name),
      ['server'],
    );
  });

  it('covers every source folder of this checkout: the workspace packages, the server and the console', () => {
    const real = projectParts();
    const inputs = new Set(real.flatMap((p) => p.inputs));
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { workspaces: string[] };
    for (const needed of ['src', 'web', 'package-lock.json', ...manifest.workspaces])
      assert.ok(inputs.has(needed), `${needed} is an input of the build`);
    assert.deepEqual(
      real.map((p) => p.name),
      [...manifest.workspaces, 'server', 'console'],
    );
  });
});
