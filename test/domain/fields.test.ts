import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/domain/errors.js';
import { normaliseTags, slugFromName, slugProblem } from '@skill-registry/rules/skill-fields';
import { allowedTargets, checkTransition } from '../../src/domain/skills/transitions.js';
import type { SkillStatus } from '../../src/db/schema.js';

describe('slugs', () => {
  for (const good of ['a', 'pdf-tools', 'x1-y2-z3', 'a'.repeat(64)]) {
    it(`accepts "${good.slice(0, 20)}"`, () => assert.equal(slugProblem(good), null));
  }
  for (const bad of [
    '',
    'PDF',
    'pdf_tools',
    '-pdf',
    'pdf-',
    'pdf--tools',
    'pdf tools',
    'a'.repeat(65),
    '0193a1b2-0000-7000-8000-000000000000',
  ]) {
    it(`refuses "${bad.slice(0, 40)}"`, () => assert.notEqual(slugProblem(bad), null));
  }
  it('derives a slug from a display name', () => {
    assert.equal(slugFromName('PDF Tools'), 'pdf-tools');
    assert.equal(slugFromName('  Ünïcode — Tools!! '), 'unicode-tools');
    assert.equal(slugFromName('!!!'), '');
    assert.equal(slugFromName('x'.repeat(70)).length, 64);
  });
});

describe('tags', () => {
  it('trims, lower-cases and removes duplicates', () => {
    assert.deepEqual(normaliseTags([' PDF ', 'pdf', 'Office', 'c++', 'v1.2']), ['pdf', 'office', 'c++', 'v1.2']);
  });
  it('refuses malformed tags, naming each', () => {
    assert.throws(
      () => normaliseTags(['ok', 'has space', '-lead', 'x'.repeat(33)]),
      (e: unknown) =>
        e instanceof AppError && e.code === 'validation_failed' && e.errors?.map((f) => f.field).join() === 'tags[1],tags[2],tags[3]',
    );
  });
  it('allows 20 distinct tags and refuses 21', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    assert.equal(normaliseTags(twenty).length, 20);
    assert.throws(
      () => normaliseTags([...twenty, 'one-more']),
      (e: unknown) => e instanceof AppError && e.code === 'validation_failed',
    );
    assert.equal(normaliseTags([...twenty, 'T0']).length, 20, 'duplicates do not count against the limit');
  });
});

describe('status transitions', () => {
  const all: SkillStatus[] = ['draft', 'published', 'deprecated'];
  const allowed = new Set(['draft>published', 'published>deprecated', 'deprecated>published']);
  for (const from of all) {
    for (const to of all) {
      const ok = allowed.has(`${from}>${to}`);
      it(`${from} → ${to} is ${ok ? 'allowed' : 'refused'}`, () => {
        if (ok) assert.doesNotThrow(() => checkTransition(from, to));
        else
          assert.throws(
            () => checkTransition(from, to),
            (e: unknown) =>
              e instanceof AppError &&
              e.status === 409 &&
              e.code === 'invalid_transition' &&
              e.detail.includes(allowedTargets(from).join(', ')),
          );
      });
    }
  }
});
