import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize, unstemmed, type Token } from '../../src/search/analysis.js';
import { highlighter } from '../../src/search/highlights.js';

/** Highlights as the definition reads: every word of the text tokenized, the matched ones' spans merged. */
function reference(text: string, surfaces: ReadonlySet<string>, prefix: string | null): [number, number][] {
  const hit = (t: Token) => surfaces.has(t.surface) || (prefix !== null && !t.gram && t.surface.startsWith(prefix));
  const found: [number, number][] = [];
  for (const token of tokenize(text, unstemmed)) {
    if (!hit(token)) continue;
    const last = found.at(-1);
    if (last !== undefined && token.start <= last[1]) last[1] = Math.max(last[1], token.end);
    else found.push([token.start, token.end]);
  }
  return found;
}

describe('highlights', () => {
  const texts = [
    'Convert PDF files to Markdown, with tables and images kept.',
    'PdfTools: merge, split and sign PDFs (pdf-tools, pdf_tools, pdf.tools).',
    'HTTPServer and iPhone and gAmMa and ABC123def and x2y and 3d-models',
    'Runs   with  spaces,,, and--dashes__under.dots!',
    'Café menü: the same words folded',
    'PDF表格 ツール and pdf',
  ];
  const queries: [Set<string>, string | null][] = [
    [new Set(['pdf', 'tools']), null],
    [new Set(['pdf']), 'ta'],
    [new Set(['http', 'server', 'gamma', 'phone']), 'i'],
    [new Set(['abc123def', 'x2y', '3d']), 'mo'],
    [new Set(['with', 'dashes', 'under', 'dots']), 'spa'],
    [new Set(['cafe', 'menu']), 'fo'],
    [new Set(['表格', 'ツー']), 'pd'],
    [new Set(), null],
  ];
  for (const text of texts) {
    it(`finds in "${text}" the spans every word's token would`, () => {
      for (const [surfaces, prefix] of queries) {
        const expected = reference(text, surfaces, prefix);
        assert.deepEqual(highlighter({ surfaces, prefix })({ name: text, description: text }), { name: expected, description: expected });
      }
    });
  }

  it('agrees with the tokens on generated ASCII texts of every kind of word', () => {
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    const words = ['pdf', 'Pdf', 'PDF', 'PdfTools', 'tools', 'x2', '42', 'aB', 'HTTPServer', 'tables', 'Tab', 'ta', 'a'];
    const separators = [' ', '-', '_', '.', ', ', '  ', '/', '(', ')'];
    for (let round = 0; round < 300; round += 1) {
      const length = 1 + next(12);
      let text = '';
      for (let i = 0; i < length; i += 1) text += (words[next(words.length)] ?? '') + (separators[next(separators.length)] ?? '');
      const surfaces = new Set([words[next(words.length)]!.toLowerCase(), 'server']);
      const prefix = next(2) === 0 ? null : ['t', 'pd', 'x', '4', 'http'][next(5)]!;
      const expected = reference(text, surfaces, prefix);
      assert.deepEqual(
        highlighter({ surfaces, prefix })({ name: text, description: '' }).name,
        expected,
        `${text} / ${[...surfaces].join(',')} / ${prefix}`,
      );
    }
  });
});
