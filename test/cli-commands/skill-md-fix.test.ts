/**
 * Publishing's reading of SKILL.md: front matter the registry would refuse but can repair is written back only with
 * consent (the flag, or yes on a terminal); otherwise the repair is printed with how to apply it, and nothing changes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { CliError, EXIT } from '@skill-registry/cli/exit-codes';
import type { Io } from '@skill-registry/cli/io';
import { readSkillMd } from '@skill-registry/cli/skill-md-fix';
import { removeDir, tempDir } from './harness.js';

const root = tempDir('skreg-fix-');
after(() => removeDir(root));

const BROKEN = '---\r\nname: doc-tools\r\ndescription: Use when: updating documents\r\n---\r\n\r\n# Docs\r\n\r\nKeep: this line.\r\n';
const FIXED = '---\r\nname: doc-tools\r\ndescription: "Use when: updating documents"\r\n---\r\n\r\n# Docs\r\n\r\nKeep: this line.\r\n';

let folders = 0;
function folder(skillMd: string): string {
  const dir = path.join(root, `skill-${(folders += 1)}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), skillMd);
  return dir;
}

/** An Io whose stdin is a terminal or not, answering `answer`; stderr is recorded. */
function io(tty: boolean, answer = ''): Io & { written: () => string } {
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  stdin.end(answer);
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stdout: new PassThrough(), stderr, stdin, env: {}, cwd: root, written: () => text };
}

async function refusal(promise: Promise<unknown>): Promise<CliError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  assert.fail('no refusal');
}

const read = (dir: string) => readFileSync(path.join(dir, 'SKILL.md'), 'utf8');

describe('publish: repairing SKILL.md front matter', () => {
  it('with --fix-front-matter, writes the corrected line and leaves every other byte', async () => {
    const dir = folder(BROKEN);
    const terminal = io(false);
    const result = await readSkillMd(dir, terminal, true);
    assert.equal(read(dir), FIXED);
    assert.equal(result.front.description, 'Use when: updating documents');
    assert.equal(result.fixed?.line, 3);
    assert.match(
      terminal.written(),
      /Fixed the front matter .*\n {2}line 3: description: Use when: updating documents\n {2}\s+is now: description: "Use when: updating documents"/,
    );
  });

  it('on a terminal, asks, and writes the fix on yes', async () => {
    const dir = folder(BROKEN);
    const terminal = io(true, 'y\n');
    await readSkillMd(dir, terminal, false);
    assert.equal(read(dir), FIXED);
    assert.match(terminal.written(), /Write this fix to .*SKILL\.md\? \[y\/N\]/);
  });

  it('on a terminal, leaves the file as it is on no (or just Enter), and fails with exit 8', async () => {
    for (const answer of ['n\n', '\n']) {
      const dir = folder(BROKEN);
      const error = await refusal(readSkillMd(dir, io(true, answer), false));
      assert.equal(error.exitCode, EXIT.invalidPackage);
      assert.equal(read(dir), BROKEN);
    }
  });

  it('without a terminal and without the flag, prints the fix and how to apply it, and changes nothing', async () => {
    const dir = folder(BROKEN);
    const piped = io(false, 'y\n');
    const error = await refusal(readSkillMd(dir, piped, false));
    assert.equal(error.exitCode, EXIT.invalidPackage);
    assert.match(error.message, /line 3/);
    assert.ok(
      error.details.some((d) => d.includes('is now: description: "Use when: updating documents"')),
      error.details.join('\n'),
    );
    assert.ok(error.details.some((d) => d.includes('--fix-front-matter')));
    assert.equal(piped.written(), '', 'nothing asked');
    assert.equal(read(dir), BROKEN);
  });

  it('offers nothing for front matter it cannot repair, even with the flag', async () => {
    const text = '---\nname: a\ndescription: b\nname: c\n---\n';
    const dir = folder(text);
    const error = await refusal(readSkillMd(dir, io(false), true));
    assert.equal(error.exitCode, EXIT.invalidPackage);
    assert.ok(!error.details.some((d) => d.includes('--fix-front-matter')));
    assert.equal(read(dir), text);
  });

  it('reads a valid SKILL.md as it is', async () => {
    const text = '---\nname: a\ndescription: "Use when: b"\n---\n';
    const dir = folder(text);
    const result = await readSkillMd(dir, io(false), true);
    assert.equal(result.fixed, null);
    assert.equal(read(dir), text);
  });
});
