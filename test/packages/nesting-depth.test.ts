import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NESTING_MAX, jsonNestsDeeper, valueNestsDeeper } from '@skill-registry/skill-package/nesting-depth';

const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('the depth of JSON text', () => {
  it('counts objects and arrays inside one another, the outermost included', () => {
    assert.equal(jsonNestsDeeper('1', 0), false);
    assert.equal(jsonNestsDeeper('{}', 0), true);
    assert.equal(jsonNestsDeeper('{"a":[1],"b":{"c":2}}', 2), false);
    assert.equal(jsonNestsDeeper('{"a":[1],"b":{"c":[2]}}', 2), true);
    assert.equal(jsonNestsDeeper(arrays(NESTING_MAX)), false);
    assert.equal(jsonNestsDeeper(arrays(NESTING_MAX + 1)), true);
  });

  it('reads brackets in strings, escaped quotes included, as text', () => {
    assert.equal(jsonNestsDeeper(JSON.stringify(['['.repeat(100)]), 2), false);
    assert.equal(jsonNestsDeeper(JSON.stringify([`"${'{'.repeat(100)}`]), 2), false);
    assert.equal(jsonNestsDeeper(JSON.stringify([`\\`, [[1]]]), 2), true);
  });

  it('reads half a million levels without overflowing', () => {
    assert.equal(jsonNestsDeeper(arrays(500_000)), true);
  });
});

describe('the depth of a parsed value', () => {
  it('counts containers inside one another', () => {
    assert.equal(valueNestsDeeper('text', 0), false);
    assert.equal(valueNestsDeeper({ a: [1, { b: 2 }] }, 3), false);
    assert.equal(valueNestsDeeper({ a: [1, { b: [2] }] }, 3), true);
    assert.equal(valueNestsDeeper(JSON.parse(arrays(NESTING_MAX))), false);
    assert.equal(valueNestsDeeper(JSON.parse(arrays(NESTING_MAX + 1))), true);
    assert.equal(valueNestsDeeper(new Map([['k', new Set([[1]])]]), 2), true);
    assert.equal(valueNestsDeeper({ when: new Date(0), bytes: new Uint8Array(4) }, 1), false);
  });

  it('finds a cycle too deep, and measures a value shared many times once', () => {
    const loop: unknown[] = [];
    loop.push(loop);
    assert.equal(valueNestsDeeper(loop), true);
    // 2^63 paths to the innermost list, 64 lists: each is measured once.
    let shared: unknown = [1];
    for (let i = 1; i < NESTING_MAX; i++) shared = [shared, shared];
    assert.equal(valueNestsDeeper(shared), false);
    assert.equal(valueNestsDeeper([shared]), true);
    assert.equal(valueNestsDeeper({ a: shared, b: [[shared]] }), true);
  });

  it('walks half a million levels without overflowing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 500_000; i++) deep = [deep];
    assert.equal(valueNestsDeeper(deep, 1_000_000), false);
    assert.equal(valueNestsDeeper(deep), true);
  });
});
