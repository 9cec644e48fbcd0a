import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkChangelog as changelogRule, checkVersion as versionRule, RuleError, slugProblem } from '@skill-registry/skill-package/rules';
import { AppError } from '../../src/domain/errors.js';
import { checkChangelog, checkVersion } from '@skill-registry/rules/version-fields';

/** The RuleError a shared rule throws for `value`. */
function refusal(rule: () => unknown): RuleError {
  try {
    rule();
  } catch (error) {
    if (error instanceof RuleError) return error;
    throw error;
  }
  assert.fail('the rule accepted the value');
}

describe('the shared slug, version and changelog rules', () => {
  it('accept what the registry accepts', () => {
    assert.equal(versionRule('2.0.0-rc.1'), '2.0.0-rc.1');
    assert.equal(changelogRule('  '), null);
    assert.equal(changelogRule('Tables'), 'Tables');
    assert.equal(slugProblem('pdf-tools'), null);
  });

  it('refuse with a RuleError, not the server’s AppError, naming the field', () => {
    const loose = refusal(() => versionRule('v1.0.0'));
    assert.equal(loose instanceof AppError, false);
    assert.equal(loose.code, 'invalid_version');
    assert.deepEqual(
      loose.errors.map((e) => e.field),
      ['version'],
    );
    const missing = refusal(() => versionRule(undefined));
    assert.equal(missing.code, 'validation_failed');
    assert.equal(missing.detail, 'version: is required, e.g. 1.0.0');
    assert.equal(refusal(() => changelogRule('a\u0000b')).detail, 'changelog: must not contain NUL characters');
    assert.match(slugProblem('123e4567-e89b-12d3-a456-426614174000') ?? '', /shape of a skill id/);
    assert.match(slugProblem('PDF') ?? '', /lower-case/);
  });

  it('are the domain’s rules, as AppErrors with the same code, detail and fields', () => {
    for (const [domain, shared] of [
      [() => checkVersion('1.0'), () => versionRule('1.0')],
      [() => checkVersion('1'.repeat(65)), () => versionRule('1'.repeat(65))],
      [() => checkChangelog('x'.repeat(20_001)), () => changelogRule('x'.repeat(20_001))],
    ] as const) {
      const expected = refusal(shared);
      assert.throws(domain, (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.deepEqual(
          [error.status, error.code, error.detail, error.errors],
          [400, expected.code, expected.detail, [...expected.errors]],
        );
        return true;
      });
    }
  });
});
