import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from '@skill-registry/skill-package/crc32';
import { checkEntryPath, contentTypeFor, isTextPath, pathKey } from '@skill-registry/skill-package/paths';

describe('checkEntryPath', () => {
  it('accepts ordinary paths and normalises ./ and directories', () => {
    assert.deepEqual(checkEntryPath('SKILL.md'), { ok: true, path: 'SKILL.md', isDirectory: false });
    assert.deepEqual(checkEntryPath('a/b/c.txt'), { ok: true, path: 'a/b/c.txt', isDirectory: false });
    assert.deepEqual(checkEntryPath('./a/b.txt'), { ok: true, path: 'a/b.txt', isDirectory: false });
    assert.deepEqual(checkEntryPath('a/b/'), { ok: true, path: 'a/b', isDirectory: true });
    assert.deepEqual(checkEntryPath('./'), { ok: true, path: '', isDirectory: true });
    assert.deepEqual(checkEntryPath('.'), { ok: true, path: '', isDirectory: true });
    assert.deepEqual(checkEntryPath('..a/b..c/.hidden'), { ok: true, path: '..a/b..c/.hidden', isDirectory: false });
    assert.deepEqual(checkEntryPath('caf\u00e9/\u65e5\u672c.md'), { ok: true, path: 'caf\u00e9/\u65e5\u672c.md', isDirectory: false });
  });

  it('strips only one leading ./', () => {
    assert.equal(checkEntryPath('././a').ok, false);
  });

  const refused: [string, RegExp][] = [
    ['', /empty/],
    ['/abs', /absolute/],
    ['//abs', /absolute/],
    ['../x', /"\.\."/],
    ['a/..', /"\.\."/],
    ['a/../b', /"\.\."/],
    ['a/./b', /"\."/],
    ['a\\b', /backslash/],
    ['..\\x', /backslash/],
    ['C:/x', /drive letter/],
    ['c:x', /drive letter/],
    ['a//b', /empty segment/],
    ['a/b//', /empty segment/],
    ['a\u0000b', /control/],
    ['a\nb', /control/],
    ['a\u007fb', /control/],
    ['a\u0085b', /control/],
    ['x'.repeat(4097), /longer than 4096/],
  ];
  for (const [name, rule] of refused) {
    it(`refuses ${JSON.stringify(name.length > 20 ? `${name.slice(0, 10)}…` : name)}`, () => {
      const result = checkEntryPath(name);
      assert.equal(result.ok, false);
      assert.match(result.rule, rule);
    });
  }
});

describe('pathKey', () => {
  it('folds letter case and Unicode normalisation', () => {
    assert.equal(pathKey('Docs/README.md'), pathKey('docs/readme.md'));
    assert.equal(pathKey('caf\u00e9'), pathKey('cafe\u0301'));
  });

  it('folds what case-insensitive file systems fold: ß and SS, the Kelvin sign, ignorable code points, trailing dots', () => {
    assert.equal(pathKey('STRASSE.md'), pathKey('stra\u00dfe.md'));
    assert.equal(pathKey('\u212a.txt'), pathKey('k.txt'));
    assert.equal(pathKey('.gi\u200ct/config'), pathKey('.git/config'));
    assert.equal(pathKey('a.txt.'), pathKey('a.txt'));
    assert.equal(pathKey('dir. /x'), pathKey('dir/x'));
    assert.notEqual(pathKey('a.txt'), pathKey('a.txx'));
    assert.notEqual(pathKey('a.md'), pathKey('b.md'));
  });
});

describe('content types', () => {
  it('serves Markdown as text/markdown', () => {
    for (const p of ['SKILL.md', 'docs/guide.markdown', 'README.MD']) {
      assert.equal(isTextPath(p), true, p);
      assert.equal(contentTypeFor(p), 'text/markdown; charset=utf-8', p);
    }
  });

  it('serves other text files as text/plain, HTML, SVG and CSV included', () => {
    for (const p of [
      'a/notes.txt',
      'x.json',
      'c.yaml',
      'c.yml',
      'run.py',
      'a.js',
      'a.ts',
      'do.sh',
      'p.toml',
      'd.csv',
      'page.html',
      'logo.svg',
      'LICENSE',
      'sub/Makefile',
      'README',
    ]) {
      assert.equal(isTextPath(p), true, p);
      assert.equal(contentTypeFor(p), 'text/plain; charset=utf-8', p);
    }
  });

  it('serves everything else as application/octet-stream', () => {
    for (const p of ['logo.png', 'a.bin', 'archive.zip', 'noext', 'font.woff2', 'x.md.exe']) {
      assert.equal(isTextPath(p), false, p);
      assert.equal(contentTypeFor(p), 'application/octet-stream', p);
    }
  });
});

describe('crc32', () => {
  it('matches the standard check value and continues across chunks', () => {
    const data = Buffer.from('123456789');
    assert.equal(crc32(data), 0xcbf43926);
    assert.equal(crc32(data.subarray(4), crc32(data.subarray(0, 4))), 0xcbf43926);
  });
});
