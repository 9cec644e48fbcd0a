// The most expensive searches one request may ask for, timed in process on a SQLite registry of BENCH_SKILLS
// (default 4,000) generated skills, each answered from the database (the public caches are cleared before every
// request). Run with `npx tsx bench/search-worst-shapes.ts`. The limits themselves are tested as database work in
// test/http/search-bounds.test.ts; these are the wall-clock numbers behind them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { SEARCH_WORDS_MAX } from '../src/domain/skills/search-terms.js';
import { createRuntime } from '../src/server.js';
import { generateSkills } from './lib/generate.js';

const N = Number(process.env.BENCH_SKILLS ?? 4_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ');
const SHAPES: [string, string][] = [
  ['plain list', ''],
  [`${SEARCH_WORDS_MAX} one-letter words`, letters(SEARCH_WORDS_MAX)],
  [`${SEARCH_WORDS_MAX} two-letter words`, 'ka zen to ix ve mo ra qu'],
  [`${SEARCH_WORDS_MAX} common words`, 'is skill with and files support the a'],
  [
    `${SEARCH_WORDS_MAX} long words`,
    Array.from({ length: SEARCH_WORDS_MAX }, (_, i) => `${'converts'.repeat(3).slice(0, 22)}${i}`).join(' '),
  ],
  ['% and _ heavy words', '%% __ %_% _%_ %%%%%%%% ________ %a% _b_'],
  ['20 tags and 8 short words', `&tags=${Array.from({ length: 20 }, (_, i) => `tag${i}`).join(',')}&x=ka zen to ix ve mo ra qu`],
  ['deepest page (page 100 of 100)', '&page=100&page_size=100'],
  ['249 one-letter words (refused: 400)', letters(249)],
];

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-search-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT: 'off',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: 'bench-admin-password',
    ADMIN_EMAIL: 'admin@localhost',
  });
  const runtime = await createRuntime(config);
  try {
    const sqlite = runtime.database.sqlite!;
    const owner = (sqlite.prepare("select id from users where username = 'admin'").get() as { id: string }).id;
    const insert = sqlite.prepare(
      `insert into skills (id, slug, name, description, category, tags, status, featured, owner_id, downloads, created_at, updated_at, published_at)
       values (?, ?, ?, ?, ?, '[]', 'published', ?, ?, ?, ?, ?, ?)`,
    );
    sqlite.transaction(() => {
      for (const r of generateSkills(N))
        insert.run(r.id, r.slug, r.name, r.description, r.category, r.featured, owner, r.downloads, r.updatedAt, r.updatedAt, r.updatedAt);
    })();
    console.log(`search shapes over ${N} skills, SQLite, median of ${ROUNDS} uncached requests`);
    for (const [what, shape] of SHAPES) {
      const query = shape.startsWith('&') ? shape.replace('&x=', '&q=').slice(1) : `q=${encodeURIComponent(shape)}`;
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < ROUNDS; i += 1) {
        runtime.services.skills.forgetCached();
        const started = performance.now();
        const res = await runtime.app.inject({ method: 'GET', url: `/v1/skills?${query}` });
        times.push(performance.now() - started);
        status = res.statusCode;
      }
      times.sort((a, b) => a - b);
      console.log(`${what.padEnd(40)} ${String(status).padEnd(4)} ${times[Math.floor(times.length / 2)]!.toFixed(1).padStart(7)} ms`);
    }
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
