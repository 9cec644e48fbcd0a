// Long base64 and hex runs, found in one pass: the same runs the expressions they stand for match, on random lines
// and on the edges (padding, a 0x prefix, a run at the line's end, one character short).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Runs, firstHexRun } from '@skill-registry/skill-package/scan/long-runs';
import { rng } from '../../../bench/scan-corpus/prng.js';
import { findingsOf, scan, SKILL } from './helpers.js';

/** What the runs stand for, as expressions. */
function base64Expected(text: string, min: number): { index: number; text: string }[] {
  return [...text.matchAll(new RegExp(`[A-Za-z0-9+/]{${min},}={0,2}`, 'g'))].map((m) => ({ index: m.index, text: m[0] }));
}

function hexExpected(text: string, min: number): { index: number; text: string } | null {
  const m = new RegExp(`(?:0x)?[0-9a-fA-F]{${min},}`).exec(text);
  return m === null ? null : { index: m.index, text: m[0] };
}

/** Lines of runs of every length around `min`, separated by characters that end one kind of run or both. */
function randomLine(rand: () => number, min: number): string {
  const pieces = ['0123456789abcdef', 'ABCDEFabcdef0123456789+/', 'QRSTqrst+/', '=', '==', '===', '0x', ' ', '-', '\u00e9', '\u200b'];
  let out = '';
  while (out.length < 4 * min) {
    const piece = pieces[Math.floor(rand() * pieces.length)]!;
    const repeat = piece.length > 3 ? Math.floor(rand() * ((2 * min) / piece.length)) : 1;
    out += piece.repeat(repeat);
  }
  return out;
}

describe('long runs', () => {
  it('are those the expressions match, on random lines', () => {
    const random = rng('long-runs');
    const rand = (): number => random.next();
    for (let i = 0; i < 3000; i++) {
      const min = [4, 8, 16, 200, 256][i % 5]!;
      const line = randomLine(rand, min);
      assert.deepEqual([...base64Runs(line, min)], base64Expected(line, min), line);
      assert.deepEqual(firstHexRun(line, min), hexExpected(line, min), line);
    }
  });

  it('keep their padding, their 0x prefix, and the run that ends the line', () => {
    const run = 'aB3+/'.repeat(40);
    assert.deepEqual(
      [...base64Runs(`x ${run}=== y ${run}`, 200)],
      [
        { index: 2, text: `${run}==` },
        { index: 208, text: run },
      ],
    );
    const hex = '0a1B'.repeat(64);
    assert.deepEqual(firstHexRun(`id=0x${hex};`, 256), { index: 3, text: `0x${hex}` });
    assert.deepEqual(firstHexRun(`id=0X${hex}`, 256), { index: 5, text: hex });
    assert.equal(firstHexRun(`${hex.slice(1)} ${hex.slice(1)}`, 256), null);
    assert.deepEqual([...base64Runs(run.slice(1), 200)], []);
  });

  it('cost one pass: a megabyte line of runs one short is read, and a blob after it is still found', () => {
    const short = `${'QUJD'.repeat(49)}QUJ ${'0123456789abcdef'.repeat(15)}012345678901234 `;
    const blob = 'QUJDRGVmZ2hpams0NTY3'.repeat(12);
    const report = scan({ 'SKILL.md': `${SKILL}${short.repeat(Math.ceil((1024 * 1024) / short.length))}${blob}\n` });
    const found = findingsOf(report, 'hidden.encoded-blob');
    assert.equal(found.length, 1);
    assert.match(found[0]!.excerpt, /QUJDRGVm/);
  });
});
