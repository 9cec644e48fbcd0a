// The search engine alone, in this process: how long indexing takes, what it holds in memory, and what distinct
// queries cost (one to three words from the generated corpus's vocabulary, the last one cut short as typed in
// 40% of them, no query repeated on purpose). Run with `npx tsx bench/search-engine.ts` (BENCH_SKILLS, default
// 100,000; BENCH_QUERIES, default 2,000).
import { ADJECTIVES, generateSkills, generator, NOUNS, VERBS } from './lib/generate.js';
import { SearchEngine, type SearchDocument } from '../src/search/engine.js';

const SKILLS = Number(process.env.BENCH_SKILLS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);

function queryLog(count: number): string[] {
  const random = generator(7);
  const vocabulary = [...NOUNS, ...VERBS, ...ADJECTIVES];
  const pick = () => vocabulary[Math.floor(random() * vocabulary.length)] ?? 'skill';
  const queries = new Set<string>();
  while (queries.size < count) {
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, pick);
    if (random() < 0.4) {
      const last = words.pop() ?? '';
      words.push(last.slice(0, 2 + Math.floor(random() * 3)));
    }
    queries.add(words.join(' '));
  }
  return [...queries];
}

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

const timings: { ms: number; q: string; total: number }[] = [];
for (const q of queryLog(QUERIES)) {
  const at = performance.now();
  const answer = engine.search({ text: q, statuses: ['published'], tags: [], sort: 'relevance', offset: 0, limit: 20 });
  timings.push({ ms: performance.now() - at, q, total: answer.total });
}
const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
console.log(`${SKILLS.toLocaleString('en-US')} skills: indexed in ${(buildMs / 1000).toFixed(1)} s, ${heapMiB.toFixed(0)} MiB of heap`);
console.log(
  `${QUERIES.toLocaleString('en-US')} distinct queries: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, max ${(sorted.at(-1) ?? 0).toFixed(2)} ms`,
);
console.log('slowest:');
for (const t of timings.sort((a, b) => b.ms - a.ms).slice(0, 5)) console.log(`  ${t.ms.toFixed(1)} ms  "${t.q}" (${t.total} matches)`);
