import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchEngine, type SearchDocument, type SearchQuery } from '../../src/search/engine.js';

let next = 0;
function skill(fields: Partial<SearchDocument> & { name: string }): SearchDocument {
  next += 1;
  return {
    id: `id-${String(next).padStart(4, '0')}`,
    slug: fields.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    description: '',
    category: null,
    tags: [],
    status: 'published',
    ownerId: 'owner-1',
    featured: false,
    downloads: 0,
    updatedAt: next,
    ...fields,
  };
}

function query(text: string, extra: Partial<SearchQuery> = {}): SearchQuery {
  return { text, statuses: ['published'], tags: [], sort: 'relevance', offset: 0, limit: 10, ...extra };
}

const corpus = [
  skill({ name: 'Debugging Patterns', description: 'Use when a test fails: systematic debugging of flaky code.' }),
  skill({ name: 'Issue Planning Workflow', description: 'Plans issues into milestones.', tags: ['planning'] }),
  skill({ name: 'PdfTools', description: 'Fill PDF forms and merge documents.', category: 'documents', downloads: 50 }),
  skill({ name: 'Spreadsheet Helper', description: 'Works with PDF exports of spreadsheets now and then.', downloads: 1_000_000 }),
  skill({ name: 'Café Menu Designer', description: 'Designs menus for restaurants.' }),
  skill({ name: '数据分析助手', description: '帮助你分析表格数据。' }),
  skill({ name: 'Release Publisher', description: 'Publishing releases to package registries.', status: 'draft', ownerId: 'owner-2' }),
  skill({
    name: 'Changelog Writer',
    description: 'Writes changelogs when a release is published.',
    featured: true,
    tags: ['release', 'docs'],
  }),
  skill({ name: 'Planning Poker', description: 'Estimate stories with the team.' }),
];
const engine = SearchEngine.build(corpus);
const names = (text: string, extra: Partial<SearchQuery> = {}) =>
  engine.search(query(text, extra)).hits.map((hit) => corpus.find((c) => c.id === hit.id)?.name);

describe('search engine', () => {
  it('puts an exact name or slug match first', () => {
    assert.equal(names('planning poker')[0], 'Planning Poker');
    assert.equal(names('issue-planning-workflow')[0], 'Issue Planning Workflow');
  });

  it('ranks a name match above a description match, however popular the description match is', () => {
    assert.deepEqual(names('pdf'), ['PdfTools', 'Spreadsheet Helper']);
  });

  it('requires every word, and says so when it falls back to the best partial matches', () => {
    const full = engine.search(query('issue planning'));
    assert.equal(full.match, 'full');
    assert.deepEqual(names('issue planning'), ['Issue Planning Workflow']);
    const partial = engine.search(query('planning zeppelin'));
    assert.equal(partial.match, 'partial');
    assert.equal(partial.total, 2);
  });

  it('matches stems, camelCase parts, folded diacritics and compounds', () => {
    assert.deepEqual(names('published', { statuses: 'all' }).sort(), ['Changelog Writer', 'Release Publisher']);
    assert.deepEqual(names('pdf tools'), ['PdfTools']);
    assert.deepEqual(names('pdftools'), ['PdfTools']);
    assert.deepEqual(names('cafe menu'), ['Café Menu Designer']);
  });

  it('matches the last word as a prefix while typing, but not after a space', () => {
    assert.equal(names('issue pla')[0], 'Issue Planning Workflow');
    assert.deepEqual(names('debug'), ['Debugging Patterns']);
    assert.deepEqual(names('deb '), []);
  });

  it('tolerates a typo in a word of five letters or more', () => {
    assert.equal(names('issue palnning workflow')[0], 'Issue Planning Workflow');
    assert.equal(names('debuging paterns')[0], 'Debugging Patterns');
  });

  it('finds text written without spaces by substring', () => {
    assert.deepEqual(names('分析'), ['数据分析助手']);
    assert.deepEqual(names('表格'), ['数据分析助手']);
  });

  it('marks what matched in the name and the description', () => {
    const [hit] = engine.search(query('pdf forms')).hits;
    assert.deepEqual(hit?.highlights, {
      name: [[0, 3]],
      description: [
        [5, 8],
        [9, 14],
      ],
    });
    const [cjk] = engine.search(query('分析')).hits;
    assert.deepEqual(cjk?.highlights.name, [[2, 4]]);
  });

  it('applies the filters: status, owner, category, tags, featured', () => {
    assert.deepEqual(names('release'), ['Changelog Writer']);
    assert.deepEqual(names('release', { statuses: 'all', ownerIds: ['owner-2'] }), ['Release Publisher']);
    // Several owners (a user and the organisations they belong to): the skills of any of them.
    assert.deepEqual(names('release', { statuses: 'all', ownerIds: ['owner-1', 'owner-2'] }).sort(), [
      'Changelog Writer',
      'Release Publisher',
    ]);
    assert.deepEqual(names('release', { statuses: 'all', ownerIds: ['nobody'] }), []);
    assert.deepEqual(names('pdf', { category: 'documents' }), ['PdfTools']);
    assert.deepEqual(names('release', { tags: ['docs'] }), ['Changelog Writer']);
    assert.deepEqual(names('pdf', { featured: true }), []);
  });

  it('sorts by another key on request, ties broken by id so pages never overlap', () => {
    assert.deepEqual(names('pdf', { sort: 'downloads' }), ['Spreadsheet Helper', 'PdfTools']);
    const all = names('a', { statuses: 'all', limit: 100 });
    const paged = [0, 1, 2, 3, 4].flatMap((page) => names('a', { statuses: 'all', offset: page * 2, limit: 2 }));
    assert.deepEqual(paged, all.slice(0, 10));
  });

  it('follows changes: an edit replaces the old text, a removal takes the skill out', () => {
    const local = SearchEngine.build([skill({ name: 'Old Name', id: 'x1' })]);
    local.upsert({ ...skill({ name: 'New Title' }), id: 'x1' });
    assert.equal(local.search(query('old')).total, 0);
    assert.equal(local.search(query('title')).total, 1);
    local.remove('x1');
    assert.equal(local.search(query('title')).total, 0);
    assert.equal(local.size, 0);
  });

  it('lists without words: every filter list intersected, every sort, exact totals, pages that never overlap', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      skill({
        name: `Listed ${i}`,
        category: i % 3 === 0 ? 'data' : 'web',
        tags: [i % 2 === 0 ? 'even' : 'odd', ...(i % 5 === 0 ? ['fives'] : [])],
        featured: i % 7 === 0,
        downloads: (i * 37) % 11,
        status: i % 10 === 9 ? 'draft' : 'published',
      }),
    );
    const local = SearchEngine.build(many);
    const expected = many.filter(
      (d) => d.status === 'published' && d.category === 'data' && d.tags.includes('even') && d.tags.includes('fives'),
    );
    const answer = local.search(query('', { category: 'data', tags: ['fives', 'even'], sort: 'latest', limit: 100 }));
    assert.equal(answer.total, expected.length);
    assert.deepEqual(
      answer.hits.map((h) => h.id),
      expected.sort((a, b) => b.updatedAt - a.updatedAt).map((d) => d.id),
    );
    const byDownloads = (a: SearchDocument, b: SearchDocument) => b.downloads - a.downloads || (a.id < b.id ? 1 : -1);
    const published = many.filter((d) => d.status === 'published');
    const pages = [0, 1, 2, 3].flatMap((page) =>
      local.search(query('', { sort: 'downloads', offset: page * 7, limit: 7 })).hits.map((h) => h.id),
    );
    assert.deepEqual(
      pages,
      [...published]
        .sort(byDownloads)
        .slice(0, 28)
        .map((d) => d.id),
    );
    const featuredFirst = local.search(query('', { sort: 'featured', limit: 3 })).hits.map((h) => h.id);
    assert.deepEqual(
      featuredFirst,
      published
        .filter((d) => d.featured)
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .slice(0, 3)
        .map((d) => d.id),
    );
    assert.equal(local.search(query('', { tags: ['nowhere'] })).total, 0);
    assert.equal(local.search(query('', { category: 'nowhere' })).total, 0);
    assert.equal(local.search(query('%')).total, 0);
  });

  it('updates status, featuring and downloads in place when the text is unchanged, and follows them', () => {
    const first = skill({ name: 'Steady Text', downloads: 1 });
    const second = skill({ name: 'Steady Other', downloads: 5 });
    const local = SearchEngine.build([first, second]);
    local.upsert({ ...first, downloads: 9, featured: true });
    assert.equal(local.deadShare, 0);
    assert.deepEqual(
      local.search(query('steady', { sort: 'downloads' })).hits.map((h) => h.id),
      [first.id, second.id],
    );
    assert.deepEqual(
      local.search(query('steady', { featured: true })).hits.map((h) => h.id),
      [first.id],
    );
    local.upsert({ ...first, downloads: 9, status: 'deprecated' });
    assert.deepEqual(
      local.search(query('steady')).hits.map((h) => h.id),
      [second.id],
    );
    local.addDownloads(second.id, 100);
    assert.equal([...local.documents()].find((d) => d.id === second.id)?.downloads, 105);
  });
});
