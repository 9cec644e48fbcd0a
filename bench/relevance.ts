// Search relevance, measured: a fresh registry seeded with the relevance corpus (bench/lib/relevance-corpus.ts),
// every judged query (bench/lib/relevance-queries.ts) sent as `GET /v1/skills?q=…&page_size=10`, and per kind the
// share of queries with an expected skill in the first ten results (success@10) and the mean reciprocal rank of the
// first expected skill (0 when it is not in the first ten). `npm run bench:relevance`; BENCH_RELEVANCE_SKILLS sets the
// corpus size (5,000), BENCH_DATABASE_URL a PostgreSQL database to run on (SQLite otherwise), BENCH_VERBOSE=1 lists
// the failing queries.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRegistry, type Registry } from './lib/processes.js';
import { relevanceCorpus } from './lib/relevance-corpus.js';
import { QUERY_KINDS, relevanceQueries, type JudgedQuery, type QueryKind } from './lib/relevance-queries.js';
import { benchDatabase, seedSkills } from './lib/seed.js';

export interface RelevanceScore {
  kind: QueryKind | 'all';
  queries: number;
  /** Share of queries with an expected slug among the first ten results, 0 to 1. */
  successAt10: number;
  /** Mean of 1 / rank of the first expected slug, 0 for a query without one in the first ten. */
  mrr: number;
}

export interface RelevanceMiss {
  query: JudgedQuery;
  /** 1-based rank of the first expected slug, when it came in the first ten but not first. */
  rank?: number;
  /** What came first instead, or the refusal when the registry did not answer 200. */
  first: string;
}

export interface RelevanceResult {
  kinds: RelevanceScore[];
  overall: RelevanceScore;
  /** Every query whose best answer did not come first. */
  misses: RelevanceMiss[];
}

/** How many searches are in flight at once: enough to keep the run short, few enough not to queue on SQLite. */
const CONCURRENCY = 4;

/** The slugs of the first ten results, or the refusal. */
async function firstTen(baseUrl: string, q: string): Promise<string[] | { refused: string }> {
  const res = await fetch(`${baseUrl}/v1/skills?q=${encodeURIComponent(q)}&page_size=10`);
  const body = await res.text();
  if (res.status !== 200) return { refused: `HTTP ${res.status}: ${body.slice(0, 200)}` };
  const { items } = JSON.parse(body) as { items: { slug: string }[] };
  return items.slice(0, 10).map((item) => item.slug);
}

function scoreOf(kind: QueryKind | 'all', ranks: readonly (number | undefined)[]): RelevanceScore {
  const found = ranks.filter((r): r is number => r !== undefined);
  return {
    kind,
    queries: ranks.length,
    successAt10: ranks.length === 0 ? 0 : found.length / ranks.length,
    mrr: ranks.length === 0 ? 0 : found.reduce((sum, r) => sum + 1 / r, 0) / ranks.length,
  };
}

/** Sends every query to the registry at `baseUrl` and scores the answers. */
export async function measureRelevance(baseUrl: string, queries: readonly JudgedQuery[]): Promise<RelevanceResult> {
  // Dense, so a refused query counts as a miss rather than a hole the array methods skip.
  const ranks = Array.from(queries, (): number | undefined => undefined);
  const misses: RelevanceMiss[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < queries.length; i = next++) {
      const query = queries[i]!;
      const answer = await firstTen(baseUrl, query.q);
      if (!Array.isArray(answer)) {
        misses.push({ query, first: answer.refused });
        continue;
      }
      const at = answer.findIndex((slug) => query.expected.includes(slug));
      ranks[i] = at < 0 ? undefined : at + 1;
      if (at !== 0) misses.push({ query, rank: ranks[i], first: answer[0] ?? '(nothing)' });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  // Workers finish in any order; the report lists misses in the order the queries were judged.
  const order = new Map(queries.map((q, i) => [q, i]));
  misses.sort((a, b) => order.get(a.query)! - order.get(b.query)!);
  const kinds = QUERY_KINDS.map((kind) =>
    scoreOf(
      kind,
      ranks.filter((_, i) => queries[i]!.kind === kind),
    ),
  ).filter((s) => s.queries > 0);
  return { kinds, overall: scoreOf('all', ranks), misses };
}

/** The per-kind and overall numbers as a Markdown table. */
export function relevanceTable(result: RelevanceResult): string {
  const rows = [...result.kinds, result.overall].map((s) => [
    s.kind === 'all' ? '**all**' : s.kind,
    String(s.queries),
    `${(s.successAt10 * 100).toFixed(1)}%`,
    s.mrr.toFixed(3),
  ]);
  const header = ['kind', 'queries', 'success@10', 'MRR'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/** One line per miss: the query, its expected slugs, where the first of them came and what came first instead. */
export function missList(misses: readonly RelevanceMiss[]): string {
  return misses
    .map(
      (m) =>
        `- [${m.query.kind}] ${JSON.stringify(m.query.q)} expected ${m.query.expected.join(', ')}` +
        ` ${m.rank === undefined ? 'not in the first 10' : `at rank ${m.rank}`}; first: ${m.first}`,
    )
    .join('\n');
}

/**
 * Seeds a fresh registry with the relevance corpus (BENCH_RELEVANCE_SKILLS, 5,000 by default) on SQLite, or on
 * PostgreSQL with a postgres:// `databaseUrl`, and prints the table; `npm run bench` runs it after its scenarios.
 */
export async function runRelevance(databaseUrl: string | undefined): Promise<RelevanceResult> {
  const size = Number(process.env.BENCH_RELEVANCE_SKILLS ?? 5_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-relevance-'));
  const database = await benchDatabase(dataDir, databaseUrl);
  let registry: Registry | undefined;
  try {
    let t = performance.now();
    const corpus = relevanceCorpus(size);
    const queries = relevanceQueries(corpus);
    const judgedSeconds = (performance.now() - t) / 1000;
    const seed = await seedSkills(database, corpus);
    t = performance.now();
    registry = await startRegistry({ ...database.env }, [], { dataDir });
    console.log(`Database: ${database.label}`);
    console.log(
      `${seed.skills.toLocaleString('en')} skills seeded in ${seed.seconds.toFixed(1)} s; ${queries.length} judged queries ` +
        `(generated and checked in ${judgedSeconds.toFixed(1)} s); registry started in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
    );
    const result = await measureRelevance(registry.url, queries);
    console.log(relevanceTable(result));
    if (process.env.BENCH_VERBOSE === '1') {
      const failing = result.misses.filter((m) => m.rank === undefined);
      const late = result.misses.filter((m) => m.rank !== undefined);
      console.log(`\nFailing: no expected skill in the first 10 (${failing.length})\n${missList(failing)}`);
      console.log(`\nFound, but not first (${late.length})\n${missList(late)}`);
    }
    return result;
  } finally {
    await registry?.stop();
    await database.dispose().catch((error: unknown) => console.error('could not drop the benchmark schema:', error));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run as a script, not when a test or the bench suite imports measureRelevance.
// What bench/run.ts reads from DATABASE_URL, under a name of the bench's own: a shell's DATABASE_URL stays out of it.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === import.meta.filename)
  await runRelevance(process.env.BENCH_DATABASE_URL);
