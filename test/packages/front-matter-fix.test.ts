/**
 * The repair of SKILL.md front matter that is not YAML: the shapes it repairs (each re-parsed to the text the line
 * held), the ones it must leave alone, and applying a repair to a SKILL.md.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, parseDocument } from 'yaml';
import { applyFrontMatterFix, FRONT_MATTER_YAML, repairFrontMatter } from '@skill-registry/skill-package/front-matter-fix';
import { parseSkillMd } from '@skill-registry/skill-package/skill-md';
import { PackageError } from '@skill-registry/skill-package/types';

/** [what, front matter, the line it repairs (1-based in the front matter), the value that key must then hold] */
const REPAIRED: [string, string, number, string][] = [
  ['an unquoted ": " in description', 'name: docs\ndescription: Use when: updating documents', 2, 'Use when: updating documents'],
  ['several ": " in one value', 'name: docs\ndescription: Triggers: a, b: c, d: e', 2, 'Triggers: a, b: c, d: e'],
  ['a value ending in ":"', 'name: docs\ndescription: Use it for the following:', 2, 'Use it for the following:'],
  ['"| text" on one line', 'name: docs\ndescription: | Use this skill to edit PDFs', 2, 'Use this skill to edit PDFs'],
  ['"> text" on one line', 'name: docs\ndescription: > Use this skill to edit PDFs', 2, 'Use this skill to edit PDFs'],
  ['"|- text" on one line', 'name: docs\ndescription: |- Strip it', 2, 'Strip it'],
  ['">+ text" on one line', 'name: docs\ndescription: >+ Keep it', 2, 'Keep it'],
  ['"| text" holding ": "', 'name: docs\ndescription: | Use when: editing', 2, 'Use when: editing'],
  ['a value starting with "@"', 'name: docs\ndescription: @mention the team when done', 2, '@mention the team when done'],
  ['a value starting with a backtick', 'name: docs\ndescription: `pdftotext` wrapper for agents', 2, '`pdftotext` wrapper for agents'],
  ['a value starting with "%"', 'name: docs\ndescription: %PDF files, read and written', 2, '%PDF files, read and written'],
  ['double quotes and backslashes inside', 'name: docs\ndescription: Say "hi": C:\\temp', 2, 'Say "hi": C:\\temp'],
  ['non-ASCII text', 'name: docs\ndescription: Résumé: für Dokumente — 文档', 2, 'Résumé: für Dokumente — 文档'],
  ['a key other than description', 'name: docs\ndescription: ok\ncompatibility: Needs: python3', 3, 'Needs: python3'],
  ['a nested key', 'name: docs\ndescription: ok\nmetadata:\n  short-description: Edit: PDFs\n  version: 1.0.0', 4, 'Edit: PDFs'],
  ['trailing blanks after the value', 'name: docs\ndescription: Use when: x   ', 2, 'Use when: x'],
  ['the broken line first', 'description: Use when: x\nname: docs', 1, 'Use when: x'],
  [
    'a long value (no folding)',
    `name: docs\ndescription: ${'Use when: a long line of text. '.repeat(12).trim()}`,
    2,
    'Use when: a long line of text. '.repeat(12).trim(),
  ],
];

/** [what, front matter]: not valid YAML, but not a mistake whose intent is beyond doubt. */
const LEFT_ALONE: [string, string][] = [
  ['a value going on over further lines', 'name: docs\ndescription: Use when: updating\n  documents and more'],
  ['"| text" going on below', 'name: docs\ndescription: | Use this\n  and that'],
  ['a " #" (a comment, or not?)', 'name: docs\ndescription: Use when: C # or F# # files'],
  ['a value that starts with a quote', 'name: docs\ndescription: "Use" when: editing'],
  ['a flow collection', 'name: docs\ndescription: [unclosed: list'],
  ['an alias', 'name: docs\ndescription: *nowhere: x'],
  ['an anchor', 'name: docs\ndescription: &a b: c'],
  ['a tag', 'name: docs\ndescription: !tag x: y'],
  ['a list marker', 'name: docs\ndescription: - item: one'],
  ['a duplicate key', 'name: docs\ndescription: ok\nname: other'],
  ['a tab as indentation', 'name: docs\nmetadata:\n\tversion: 1'],
  ['bad indentation', 'name: docs\n  description: x: y\n description: z'],
  ['a line that is no key: value', 'name: docs\njust some words: and: more: {'],
  ['a quoted key', 'name: docs\n"description": Use when: x'],
  ['an unclosed quote', 'name: docs\ndescription: "Use when'],
];

describe('repairFrontMatter', () => {
  for (const [what, text, line, value] of REPAIRED) {
    it(`repairs ${what}`, () => {
      const fix = repairFrontMatter(text);
      assert.ok(fix, 'a repair');
      assert.equal(fix.line, line + 1, 'numbered as a SKILL.md line (the front matter starts on line 2)');
      assert.equal(fix.original, text.split('\n')[line - 1]);
      assert.ok(!fix.corrected.includes('\n'));
      assert.deepEqual(fix.changes, [{ line: fix.line, original: fix.original, corrected: fix.corrected }]);
      const repaired = parse(fix.front_matter) as Record<string, unknown>;
      const key = /^\s*([^:]+):/.exec(fix.original)![1]!;
      const holder = key === 'short-description' ? (repaired.metadata as Record<string, unknown>) : repaired;
      assert.equal(holder[key], value);
      // Every other line is as it was.
      const before = text.split('\n');
      const after = fix.front_matter.replace(/\n$/, '').split('\n');
      assert.equal(after.length, before.length);
      after.forEach((l, i) => i !== line - 1 && assert.equal(l, before[i]));
    });
  }

  it('repairs several lines of one front matter, each numbered', () => {
    const fix = repairFrontMatter('name: a: b\ndescription: | hi there\nlicense: MIT');
    assert.ok(fix);
    assert.deepEqual(
      fix.changes.map((c) => [c.line, c.corrected]),
      [
        [2, 'name: "a: b"'],
        [3, 'description: "hi there"'],
      ],
    );
    assert.equal(fix.line, 2);
    assert.deepEqual(parse(fix.front_matter), { name: 'a: b', description: 'hi there', license: 'MIT' });
  });

  for (const [what, text] of LEFT_ALONE) {
    it(`leaves alone ${what}`, () => {
      assert.ok(parseDocument(text, FRONT_MATTER_YAML).errors.length > 0, 'not valid YAML');
      assert.equal(repairFrontMatter(text), null);
    });
  }

  it('has nothing to repair in valid YAML', () => {
    assert.equal(repairFrontMatter('name: docs\ndescription: "Use when: x"'), null);
    assert.equal(repairFrontMatter('name: docs\ndescription: |\n  Use when: x\n'), null);
  });

  it('counts lines from where the front matter starts', () => {
    assert.equal(repairFrontMatter('description: a: b', 7)?.line, 7);
  });
});

describe('applyFrontMatterFix', () => {
  it('replaces the line and keeps every byte around it, CRLF line ends and a BOM included', () => {
    const text = '\uFEFF---\r\nname: docs\r\ndescription: Use when: x\r\n---\r\n\r\n# Docs\r\n';
    const yaml = 'name: docs\ndescription: Use when: x';
    const fix = repairFrontMatter(yaml);
    assert.ok(fix);
    assert.equal(applyFrontMatterFix(text, fix), '\uFEFF---\r\nname: docs\r\ndescription: "Use when: x"\r\n---\r\n\r\n# Docs\r\n');
  });

  it('gives null when the line no longer reads as it did', () => {
    const fix = repairFrontMatter('name: docs\ndescription: Use when: x');
    assert.ok(fix);
    assert.equal(applyFrontMatterFix('---\nname: docs\ndescription: changed: since\n---\n', fix), null);
    assert.equal(applyFrontMatterFix('---\n', fix), null);
  });
});

describe('parseSkillMd with a repair', () => {
  function refusal(text: string): PackageError {
    try {
      parseSkillMd(Buffer.from(text), 'SKILL.md');
    } catch (error) {
      if (error instanceof PackageError) return error;
      throw error;
    }
    assert.fail('accepted');
  }

  it('names the line as SKILL.md numbers it and gives the corrected line, and the repaired SKILL.md is accepted', () => {
    const text = '---\nname: docs\ndescription: Use when: updating documents\n---\n# Docs\n';
    const error = refusal(text);
    assert.equal(error.code, 'invalid_skill_md');
    assert.match(error.detail, /at line 3, column 14/);
    assert.ok(error.detail.endsWith('line 3 should read: description: "Use when: updating documents"'), error.detail);
    const fix = error.problems[0]?.fix;
    assert.ok(fix);
    const repaired = applyFrontMatterFix(text, fix);
    assert.ok(repaired);
    assert.equal(parseSkillMd(Buffer.from(repaired), 'SKILL.md').skillMd.description, 'Use when: updating documents');
  });

  it('refuses without a repair what it cannot repair', () => {
    const error = refusal('---\nname: a\nname: b\ndescription: c\n---\n');
    assert.equal(error.problems[0]?.fix, undefined);
    assert.doesNotMatch(error.detail, /should read/);
  });
});
