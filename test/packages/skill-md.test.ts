import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { frontMatterOf, jsonSafe, parseSkillMd } from '@skill-registry/skill-package/skill-md';
import { PackageError } from '@skill-registry/skill-package/types';
import { rng } from '../../bench/scan-corpus/prng.js';

function parse(text: string | Buffer) {
  return parseSkillMd(typeof text === 'string' ? Buffer.from(text) : text, 'SKILL.md');
}

function refused(text: string | Buffer, fields: string[], pattern?: RegExp): void {
  assert.throws(
    () => parse(text),
    (err: unknown) => {
      assert.ok(err instanceof PackageError);
      assert.equal(err.status, 422);
      assert.equal(err.code, 'invalid_skill_md');
      assert.deepEqual(
        err.problems.map((p) => p.field),
        fields,
      );
      assert.ok(err.problems.every((p) => p.entry === 'SKILL.md'));
      if (pattern) assert.match(err.detail, pattern);
      return true;
    },
  );
}

describe('SKILL.md front matter', () => {
  it('parses name, description and other keys', () => {
    const result = parse(
      '---\nname: pdf-tools\ndescription: Work with PDFs.\nlicense: MIT\nallowed-tools: [Read, Bash]\nmetadata:\n  author: me\n---\n# Body\n',
    );
    assert.deepEqual(result.skillMd, {
      name: 'pdf-tools',
      description: 'Work with PDFs.',
      license: 'MIT',
      'allowed-tools': ['Read', 'Bash'],
      metadata: { author: 'me' },
    });
    assert.deepEqual(result.warnings, []);
  });

  it('accepts a UTF-8 BOM, CRLF line ends and trailing blanks on the fences', () => {
    const result = parse('\uFEFF---  \r\nname: a\r\ndescription: b\r\n--- \r\nbody');
    assert.deepEqual(result.skillMd, { name: 'a', description: 'b' });
  });

  it('accepts a document that is only front matter', () => {
    assert.deepEqual(parse('---\nname: a\ndescription: b\n---').skillMd, { name: 'a', description: 'b' });
  });

  it('refuses a missing or unterminated front matter', () => {
    refused('# Just markdown\n', ['skill_md'], /no YAML front matter/);
    refused('\n---\nname: a\ndescription: b\n---\n', ['skill_md']);
    refused('---\nname: a\ndescription: b\n', ['skill_md']);
    refused('', ['skill_md']);
  });

  it('refuses invalid YAML', () => {
    refused('---\nname: [unclosed\ndescription: b\n---\n', ['skill_md'], /not valid YAML/);
    refused('---\nname: a\nname: b\ndescription: c\n---\n', ['skill_md'], /not valid YAML/);
    refused('---\n? [a, b]\n: c\nname: a\ndescription: b\n---\n', ['skill_md'], /not valid YAML/);
  });

  it('refuses front matter that is not a mapping', () => {
    refused('---\n- a\n- b\n---\n', ['skill_md'], /a list/);
    refused('---\njust a string\n---\n', ['skill_md'], /a string/);
    refused('---\n---\n', ['skill_md'], /null/);
  });

  it('refuses a missing, empty or non-string name and description', () => {
    refused('---\ndescription: b\n---\n', ['skill_md.name']);
    refused('---\nname: a\n---\n', ['skill_md.description']);
    refused('---\nname: ""\ndescription: "   "\n---\n', ['skill_md.name', 'skill_md.description'], /name and description/);
    refused('---\nname: 42\ndescription: [x]\n---\n', ['skill_md.name', 'skill_md.description']);
    refused('---\nname:\ndescription: b\n---\n', ['skill_md.name']);
    refused('---\nfoo: bar\n---\n', ['skill_md.name', 'skill_md.description']);
  });

  it('refuses non-UTF-8 SKILL.md', () => {
    refused(Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a, 0x2d, 0x2d, 0x2d]), ['skill_md'], /UTF-8/);
  });

  it('refuses an alias bomb (billion laughs) instead of expanding it', () => {
    const lines = ['---', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    lines.push('name: x', 'description: y', '---');
    refused(lines.join('\n'), ['skill_md'], /not valid YAML/);
  });

  it('keeps a few aliases', () => {
    const result = parse('---\nname: &n x\ndescription: *n\n---\n');
    assert.deepEqual(result.skillMd, { name: 'x', description: 'x' });
  });

  it('returns JSON-safe data: dates stay strings, YAML 1.1 tags unresolved, __proto__ is data', () => {
    const result = parse(
      '---\nname: a\ndescription: b\ncreated: 2024-01-02\nwhen: !!timestamp 2024-01-02\nbin: !!binary aGk=\ninf: .inf\n__proto__: {polluted: true}\n---\n',
    );
    assert.equal(result.skillMd.created, '2024-01-02');
    assert.equal(typeof result.skillMd.when, 'string');
    assert.equal(typeof result.skillMd.bin, 'string');
    assert.equal(result.skillMd.inf, null);
    assert.deepEqual(Object.getOwnPropertyDescriptor(result.skillMd, '__proto__')?.value, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(result.skillMd), Object.prototype);
    JSON.stringify(result.skillMd);
  });

  it('jsonSafe converts what a YAML 1.1 schema could produce', () => {
    const out = jsonSafe({
      d: new Date('2024-01-02T03:04:05Z'),
      m: new Map([['k', 1]]),
      s: new Set([1, 2]),
      b: new Uint8Array([104, 105]),
      n: NaN,
      big: 10n,
      u: undefined,
    });
    assert.deepEqual(out, { d: '2024-01-02T03:04:05.000Z', m: { k: 1 }, s: [1, 2], b: 'aGk=', n: null, big: 10, u: null });
  });

  it('extracts front matter text', () => {
    assert.equal(frontMatterOf('---\na: 1\n---\nbody'), 'a: 1');
    assert.equal(frontMatterOf('body'), null);
  });

  it('extracts the front matter that splitting the whole document at its line ends would', () => {
    // The reading it stands for: every line split out first.
    const bySplit = (text: string): string | null => {
      const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split(/\r?\n/);
      if (!/^---[ \t]*$/.test(lines[0]!)) return null;
      const end = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
      return end === -1 ? null : lines.slice(1, end).join('\n');
    };
    const pieces = ['---', '--- ', '---\t', '----', 'a: 1', '', '\uFEFF', ' ---'];
    const ends = ['\n', '\r\n', '\r', '\r\r\n'];
    const random = rng('front-matter');
    for (let i = 0; i < 5000; i++) {
      let text = '';
      for (let n = random.int(0, 8); n > 0; n--) text += random.pick(pieces) + random.pick(ends);
      if (random.chance(0.5)) text += random.pick(pieces);
      assert.equal(frontMatterOf(text), bySplit(text), JSON.stringify(text));
    }
  });
});

describe('SKILL.md warnings', () => {
  const codes = (text: string) => parse(text).warnings.map((w) => w.code);

  it('warns about names outside the Agent Skills pattern or over 64 characters', () => {
    assert.deepEqual(codes('---\nname: PDF_Tools\ndescription: d\n---\n'), ['skill_md_name']);
    assert.deepEqual(codes('---\nname: pdf--tools\ndescription: d\n---\n'), ['skill_md_name']);
    assert.deepEqual(codes('---\nname: -pdf\ndescription: d\n---\n'), ['skill_md_name']);
    assert.deepEqual(codes(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\n`), ['skill_md_name']);
    assert.deepEqual(codes(`---\nname: ${'a'.repeat(64)}\ndescription: d\n---\n`), []);
    assert.deepEqual(codes('---\nname: pdf-tools-2\ndescription: d\n---\n'), []);
  });

  it('warns about descriptions over 1,024 characters (code points)', () => {
    assert.deepEqual(codes(`---\nname: a\ndescription: ${'d'.repeat(1025)}\n---\n`), ['skill_md_description_length']);
    assert.deepEqual(codes(`---\nname: a\ndescription: ${'\u{1F600}'.repeat(1024)}\n---\n`), []);
  });

  it('warns once per unknown key', () => {
    const warnings = parse('---\nname: a\ndescription: b\nversion: 1\ntags: [x]\nlicense: MIT\ncompatibility: claude\n---\n').warnings;
    assert.deepEqual(
      warnings.map((w) => w.code),
      ['skill_md_unknown_key', 'skill_md_unknown_key'],
    );
    assert.match(warnings[0]?.message ?? '', /"version"/);
    assert.match(warnings[1]?.message ?? '', /"tags"/);
  });
});
