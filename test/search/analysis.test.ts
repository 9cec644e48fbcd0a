import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compounds, fold, tokenize } from '../../src/search/analysis.js';
import { editDistanceWithin, typoBudget, TypoIndex } from '../../src/search/typos.js';

const terms = (text: string) => tokenize(text).map((t) => t.term);

describe('search analysis', () => {
  it('folds case and diacritics', () => {
    assert.equal(fold('Café MENÜ Ångström'), 'cafe menu angstrom');
  });

  it('splits on hyphens, underscores, dots and camelCase, so pdf-tools, pdf tools and PdfTools meet', () => {
    for (const text of ['pdf-tools', 'pdf tools', 'PdfTools', 'pdf_tools', 'pdf.tools'])
      assert.deepEqual(terms(text), ['pdf', 'tool'], text);
    assert.deepEqual(terms('HTTPServer'), ['http', 'server']);
    assert.deepEqual(compounds('PdfTools and issue-planning'), ['pdftools', 'issueplanning']);
  });

  it('stems English words: publish, publishing and published are one term', () => {
    assert.deepEqual(terms('publish publishing published'), ['publish', 'publish', 'publish']);
    assert.deepEqual(terms('tests testing'), ['test', 'test']);
  });

  it('keeps the place of each word in the original text, in UTF-16 code units', () => {
    const [first, second] = tokenize('Café Menu');
    assert.deepEqual([first?.start, first?.end, second?.start, second?.end], [0, 4, 5, 9]);
  });

  it('indexes scripts written without spaces as overlapping pairs of characters', () => {
    assert.deepEqual(
      tokenize('数据分析').map((t) => [t.surface, t.start, t.end, t.gram]),
      [
        ['数据', 0, 2, true],
        ['据分', 1, 3, true],
        ['分析', 2, 4, true],
      ],
    );
    assert.deepEqual(terms('PDF表格'), ['pdf', '表格']);
  });
});

describe('typo tolerance', () => {
  it('counts a swap of adjacent letters as one edit', () => {
    assert.equal(editDistanceWithin('planning', 'palnning', 1), true);
    assert.equal(editDistanceWithin('planning', 'plaming', 1), false);
    assert.equal(editDistanceWithin('planning', 'plaming', 2), true);
    assert.equal(editDistanceWithin('kubernetes', 'kubrnetes', 1), true);
    assert.equal(editDistanceWithin('abc', 'xyz', 2), false);
  });

  it('allows one edit from five letters and two from nine', () => {
    assert.deepEqual([4, 5, 8, 9].map(typoBudget), [0, 1, 1, 2]);
  });

  it('finds the words of a vocabulary within the budget, and only those', () => {
    const index = new TypoIndex();
    for (const word of ['planning', 'planting', 'workflow', 'scanning', 'plan']) index.add(word);
    assert.deepEqual(index.near('palnning', 1).sort(), ['planning']);
    assert.deepEqual(index.near('planing', 1).sort(), ['planning', 'planting']);
    assert.deepEqual(index.near('wrokflow', 1), ['workflow']);
  });

  it('reads an ASCII text as the general path reads it, camelCase, digits and punctuation included', () => {
    let seed = 5;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    const words = ['pdf', 'PdfTools', 'HTTPServer', 'iPhone', 'gAmMa', 'x2y', '42', 'ABC123def', 'publishing', 'Tables', 'a'];
    const separators = [' ', '-', '_', '.', ', ', '/', '(', ')', "'", '  '];
    for (let round = 0; round < 300; round += 1) {
      let text = '';
      for (let i = 0, n = 1 + next(10); i < n; i += 1)
        text += (words[next(words.length)] ?? '') + (separators[next(separators.length)] ?? '');
      // A character outside ASCII sends the text through the general path; its own token is the last.
      assert.deepEqual(tokenize(text), tokenize(`${text} é`).slice(0, -1), text);
    }
  });
});
