// One expression for a list of patterns: it matches a text exactly when one of them does, and refuses lists it could
// not join without changing what they match.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anyOf } from '@skill-registry/skill-package/scan/alternation';
import { rng } from '../../../bench/scan-corpus/prng.js';

describe('alternation of patterns', () => {
  it('matches exactly where one of the patterns does, on random texts', () => {
    const patterns = [/\bdup2\b|pty\.spawn/i, /^\s*exec\s+sh$/i, /(?<![\w-])nc\s+-e\b/i, /a(?:b|c){2,3}d/i, /x(?=y)/i];
    const joined = anyOf(patterns);
    const random = rng('alternation');
    const pieces = ['dup2', 'DUP2x', 'pty.spawn', ' ', 'exec', 'sh', 'nc', '-e', 'x-', 'ab', 'c', 'd', 'x', 'y', '\n'];
    let matched = 0;
    for (let i = 0; i < 5000; i++) {
      let text = '';
      for (let k = random.int(1, 8); k > 0; k--) text += random.pick(pieces);
      const expected = patterns.some((pattern) => pattern.test(text));
      assert.equal(joined.test(text), expected, JSON.stringify(text));
      if (expected) matched += 1;
    }
    assert.ok(matched > 500, `${matched} texts matched`);
  });

  it('keeps each pattern whole, so an alternation inside one does not reach into the next', () => {
    const joined = anyOf([/^a|b$/i, /^c/i]);
    assert.equal(joined.test('xa'), false);
    assert.equal(joined.test('xb'), true);
    assert.equal(joined.test('xc'), false);
  });

  it('refuses patterns of different flags and back-references', () => {
    assert.throws(() => anyOf([/a/i, /b/]), /different flags/);
    assert.throws(() => anyOf([/(a)\1/i]), /back-reference/);
    assert.throws(() => anyOf([/(?<q>a)\k<q>/i]), /back-reference/);
    assert.doesNotThrow(() => anyOf([/a/gi, /b/i]));
    assert.equal(anyOf([]).test('anything'), false, 'any of none matches nothing');
  });
});
