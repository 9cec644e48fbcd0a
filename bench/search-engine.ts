// The search engine alone, in this process: how long indexing takes, what it holds in memory, and what distinct
// queries cost (bench/lib/query-log.ts: one to three words from the corpus's own names and descriptions, the
// last one cut short as typed in 40% of them, none repeated), after a warm-up log of other queries. Run with `npx tsx bench/search-engine.ts` (BENCH_SKILLS, default
// 100,000; BENCH_QUERIES, default 2,000).
import { generateSkills } from './lib/generate.js';
import { queryLog } from './lib/query-log.js';
import { SearchEngine, type SearchDocument, type SearchQuery } from '../src/search/engine.js';

const SKILLS = Number(process.env.BENCH_SKILLS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

const rows = generateSkills(SKILLS);
const documents: SearchDocument[] = rows.map((row) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  description: row.description,
  category: row.category,
  tags: row.tags,
  status: 'published',
  ownerId: 'owner',
  featured: row.featured === 1,
  downloads: row.downloads,
  updatedAt: Date.parse(row.updatedAt),
}));
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const engine = SearchEngine.build(documents);
const buildMs = performance.now() - started;
global.gc?.();
const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

const search = (q: string) => engine.search({ text: q, statuses: ['published'], tags: [], sort: 'relevance', offset: 0, limit: 20 });
// A log of other queries first, as a server answers many before any one measured: compiled code, not start-up.
for (const q of queryLog(rows, QUERIES, 8)) search(q);
const timings: { ms: number; q: string; total: number }[] = [];
for (const q of queryLog(rows, QUERIES)) {
  const at = performance.now();
  const answer = search(q);
  timings.push({ ms: performance.now() - at, q, total: answer.total });
}
const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
console.log(`${SKILLS.toLocaleString('en-US')} skills: indexed in ${(buildMs / 1000).toFixed(1)} s, ${heapMiB.toFixed(0)} MiB of heap`);
console.log(
  `${QUERIES.toLocaleString('en-US')} distinct queries: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, max ${(sorted.at(-1) ?? 0).toFixed(2)} ms`,
);
console.log('slowest:');
for (const t of timings.sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`  ${t.ms.toFixed(1)} ms  "${t.q}" (${t.total} matches)`);

// The most expensive shapes one request may ask for within the API's limits (8 distinct words of 200
// characters, 20 tags, pages within the first 10,000 items): each asked 5 times, the slowest kept.
const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i)).join(' ');
const shapes: [string, Partial<SearchQuery>][] = [
  ['plain list, first page', { text: '', sort: 'latest' }],
  ['plain list, deepest page (items 9,901–10,000)', { text: '', sort: 'downloads', offset: 9_900, limit: 100 }],
  ['8 one-letter words', { text: letters(8) }],
  ['8 one-letter words, ending in a space', { text: `${letters(8)} ` }],
  ['8 two-letter prefixes', { text: 'co re pr da te sk fi su' }],
  ['8 common words', { text: 'is skill with and files support the a' }],
  ['8 common words, sort=featured, page_size 100', { text: 'skill files support data tool code test with', sort: 'featured', limit: 100 }],
  [
    '8 unknown long words (typo lookups)',
    { text: 'qwertyuiopa asdfghjklzx zxcvbnmasd poiuytrewq lkjhgfdsaq mnbvcxzlkj plokijuhyg qazwsxedcr' },
  ],
  ['one letter, deepest page', { text: 's', offset: 9_900, limit: 100 }],
  ['20 tags with 8 short words', { text: 'ka zen to ix ve mo ra qu', tags: Array.from({ length: 20 }, (_, i) => `tag${i}`) }],
];
console.log('worst shapes (slowest of 5):');
for (const [what, shape] of shapes) {
  let worst = 0;
  let total = 0;
  for (let round = 0; round < 5; round += 1) {
    const at = performance.now();
    total = engine.search({ text: '', statuses: ['published'], tags: [], sort: 'relevance', offset: 0, limit: 20, ...shape }).total;
    worst = Math.max(worst, performance.now() - at);
  }
  console.log(`  ${worst.toFixed(2)} ms  ${what} (${total} matches)`);
}
