import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { generateSkills } from '../../bench/lib/generate.js';
import { SEARCH_TEXT_MAX, SEARCH_WORDS_MAX, TAG_FILTERS_MAX, searchWords } from '../../src/domain/skills/search-terms.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { call, expectProblem, expectStatus, registerUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * What one search may cost the database, measured as work rather than time: the statements a request runs, the
 * word conditions each carries, and what evaluating them costs. On SQLite the short-word conditions call the
 * registered `unicode_lower` once per row and word, and those calls are counted; on PostgreSQL each statement is
 * run again under EXPLAIN ANALYZE and the rows its plan nodes examined are multiplied by the word conditions
 * applied to them.
 */

const N = 4_000;
/** Two statements (the count, then the page) per search. */
const STATEMENTS_MAX = 2;
/** Name and description for every word. */
const CONDITIONS_MAX = 2 * SEARCH_WORDS_MAX;
/** Generous: every condition evaluated twice on every row (a scan, then a join or sort above it), in each statement. */
const WORK_MAX = 2 * N * CONDITIONS_MAX * STATEMENTS_MAX;

interface Work {
  statements: string[];
  /** Word conditions in the statement that carries the most. */
  conditions: number;
  /** SQLite: unicode_lower calls; PostgreSQL: rows examined × word conditions, summed over the statements. */
  work: number;
}

const oneLetterWords = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ');

for (const backend of backends()) {
  describe(`search bounds over ${N.toLocaleString('en')} skills [${backend.name}]`, { timeout: 240_000 }, () => {
    let t: TestApp;
    let captured: CompiledQuery[] | null = null;
    let udfCalls = 0;

    before(async () => {
      t = await startApp(backend);
      const owner = await registerUser(t);
      const rows = generateSkills(N);
      const { db, sqlite } = t.runtime.database;
      if (sqlite) {
        const insert = sqlite.prepare(
          `insert into skills (id, slug, name, description, category, tags, status, featured, owner_id, downloads, created_at, updated_at, published_at)
           values (?, ?, ?, ?, ?, ?, 'published', ?, ?, ?, ?, ?, ?)`,
        );
        const tag = sqlite.prepare('insert into skill_tags (skill_id, tag) values (?, ?)');
        sqlite.transaction(() => {
          for (const r of rows) {
            insert.run(
              r.id,
              r.slug,
              r.name,
              r.description,
              r.category,
              JSON.stringify(r.tags),
              r.featured,
              owner.id,
              r.downloads,
              r.updatedAt,
              r.updatedAt,
              r.updatedAt,
            );
            for (const name of r.tags) tag.run(r.id, name);
          }
        })();
        // The same function, counting: every call is one row checked for one short word.
        sqlite.function('unicode_lower', { deterministic: true }, (value: unknown) => {
          udfCalls += 1;
          return typeof value === 'string' ? value.toLowerCase() : value;
        });
      } else {
        await sql`
          insert into skills (id, slug, name, description, category, tags, status, featured, owner_id, downloads, created_at, updated_at, published_at)
          select d.id, d.slug, d.name, d.description, d.category, d.tags, 'published', d.featured, ${owner.id}, d.downloads, d.at, d.at, d.at
          from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.slug)}::text[], ${rows.map((r) => r.name)}::text[],
            ${rows.map((r) => r.description)}::text[], ${rows.map((r) => r.category)}::text[], ${rows.map((r) => JSON.stringify(r.tags))}::text[],
            ${rows.map((r) => r.featured)}::int[], ${rows.map((r) => r.downloads)}::bigint[], ${rows.map((r) => r.updatedAt)}::timestamptz[])
            as d(id, slug, name, description, category, tags, featured, downloads, at)
        `.execute(db);
        const pairs = rows.flatMap((r) => r.tags.map((name) => [r.id, name] as const));
        await sql`insert into skill_tags (skill_id, tag) select * from unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[])`.execute(
          db,
        );
        await sql`analyze skills`.execute(db);
        await sql`analyze skill_tags`.execute(db);
      }
      // Every statement the services run goes through this one executor.
      const executor = db.getExecutor() as unknown as { executeQuery: (query: CompiledQuery, id: unknown) => Promise<unknown> };
      const original = executor.executeQuery.bind(executor);
      executor.executeQuery = (query, id) => {
        captured?.push(query);
        return original(query, id);
      };
    });
    after(() => ifSet(t)?.close());

    function conditionsIn(query: CompiledQuery): number {
      if (backend.name === 'sqlite') {
        const fts = query.parameters.filter((p): p is string => typeof p === 'string' && /^".*"( AND ".*")*$/s.test(p));
        const phrases = fts.reduce((n, match) => n + match.split('" AND "').length, 0);
        return (query.sql.match(/instr\(/g) ?? []).length + phrases;
      }
      return (query.sql.match(/ ilike /g) ?? []).length;
    }

    /** Rows every plan node examined (returned plus filtered out), over all its loops. */
    function rowsExamined(plan: Record<string, unknown>): number {
      const own = (Number(plan['Actual Rows'] ?? 0) + Number(plan['Rows Removed by Filter'] ?? 0)) * Number(plan['Actual Loops'] ?? 1);
      const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
      return own + children.reduce((n, child) => n + rowsExamined(child), 0);
    }

    async function measure(url: string, expected: number): Promise<Work & { body: string }> {
      captured = [];
      udfCalls = 0;
      const res = await call(t, 'GET', url);
      const statements = captured;
      captured = null;
      assert.equal(res.statusCode, expected, `${url}: ${res.body}`);
      const searchStatements = statements.filter((q) => q.sql.includes('from "skills" as "s"'));
      const conditions = Math.max(0, ...searchStatements.map(conditionsIn));
      let work = udfCalls;
      if (backend.name === 'postgres') {
        work = 0;
        for (const query of searchStatements) {
          const explained = await t.runtime.database.db.executeQuery<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(
            CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
          );
          work += rowsExamined(explained.rows[0]!['QUERY PLAN'][0]!.Plan) * Math.max(1, conditionsIn(query));
        }
      }
      return { statements: searchStatements.map((q) => q.sql), conditions, work, body: res.body };
    }

    function assertBounded(what: string, measured: Work): void {
      assert.ok(measured.statements.length <= STATEMENTS_MAX, `${what}: ${measured.statements.length} statements`);
      assert.ok(measured.conditions <= CONDITIONS_MAX, `${what}: ${measured.conditions} word conditions in one statement`);
      assert.ok(measured.work <= WORK_MAX, `${what}: database work ${measured.work} > ${WORK_MAX}`);
    }

    it('uses a repeated word once: 99 copies of a one-letter word (the text limit) cost one word', async () => {
      const q = 'a '.repeat(99).trim();
      assert.ok(q.length <= SEARCH_TEXT_MAX);
      const measured = await measure(`/v1/skills?q=${encodeURIComponent(q)}`, 200);
      assertBounded('99 copies of one letter', measured);
      assert.ok(measured.conditions <= 2, `${measured.conditions} conditions`);
    });

    it('refuses a search text longer than the limit, such as 249 one-letter words, with 400 before any query runs', async () => {
      const measured = await measure(`/v1/skills?q=${encodeURIComponent(oneLetterWords(249))}`, 400);
      assert.equal(measured.statements.length, 0);
      for (const alias of ['q', 'keyword', 'query', 'search']) {
        expectProblem(await call(t, 'GET', `/v1/skills?${alias}=${'x'.repeat(SEARCH_TEXT_MAX + 1)}`), 400, 'validation_failed');
      }
    });

    it(`refuses more than ${SEARCH_WORDS_MAX} words with a 400 naming q, before any query runs`, async () => {
      const words = Array.from({ length: SEARCH_WORDS_MAX + 1 }, (_, i) => `w${i}`).join(' ');
      const measured = await measure(`/v1/skills?q=${encodeURIComponent(words)}`, 400);
      assert.equal(measured.statements.length, 0);
      const body = expectProblem(await call(t, 'GET', `/v1/skills?q=${encodeURIComponent(words)}`), 400, 'validation_failed');
      assert.deepEqual(
        (body.errors as { field: string }[]).map((e) => e.field),
        ['q'],
      );
      // 99 one-letter words hold 26 different ones.
      expectProblem(await call(t, 'GET', `/v1/skills?q=${encodeURIComponent(oneLetterWords(99))}`), 400, 'validation_failed');
      // A repeated word counts once, whatever its case.
      expectStatus(await call(t, 'GET', `/v1/skills?q=${encodeURIComponent(`${'pdf PDF '.repeat(8)}${oneLetterWords(5)}`)}`), 200);
    });

    const shapes: [string, string][] = [
      [`${SEARCH_WORDS_MAX} one-letter words (no index helps, each matches almost every skill)`, oneLetterWords(SEARCH_WORDS_MAX)],
      [`${SEARCH_WORDS_MAX} two-letter words (no index helps)`, 'ka zen to ix ve mo ra qu'],
      [`${SEARCH_WORDS_MAX} words that match almost everything`, 'is skill with and files support the a'],
      [
        `${SEARCH_WORDS_MAX} long words`,
        Array.from({ length: SEARCH_WORDS_MAX }, (_, i) => `${'converts'.repeat(3).slice(0, 22)}${i}`).join(' '),
      ],
      ['% and _ heavy words', '%% __ %_% _%_ %%%%%%%% ________ %a% _b_'],
      ['quotes and FTS syntax', '"a" "" NEAR(x) OR* ^st -- \\\\ \'\''],
      ['a mix of two-letter and common words', 'is ka skill mo with ra and qu'],
    ];
    for (const [what, q] of shapes) {
      it(`bounds the work of ${what}, on every sort`, async (context) => {
        assert.ok(searchWords(q).length <= SEARCH_WORDS_MAX, what);
        for (const sort of ['latest', 'downloads', 'featured']) {
          const measured = await measure(`/v1/skills?q=${encodeURIComponent(q)}&sort=${sort}&page_size=100`, 200);
          context.diagnostic(
            `${what}, sort=${sort}: ${measured.statements.length} statements, ${measured.conditions} conditions, work ${measured.work} (bound ${WORK_MAX})`,
          );
          assertBounded(`${what}, sort=${sort}`, measured);
        }
      });
    }

    it('bounds the depth of a page: the deepest page allowed stays within the work bound, one further is refused', async () => {
      assertBounded('deepest page', await measure('/v1/skills?page=100&page_size=100&sort=downloads', 200));
      assertBounded('deepest page of a search', await measure('/v1/skills?q=is&page=500&page_size=20', 200));
      for (const query of ['page=101&page_size=100', 'page=501', 'page=1000000', 'q=skill&page=10000&page_size=100']) {
        const measured = await measure(`/v1/skills?${query}`, 400);
        assert.equal(measured.statements.length, 0, query);
      }
    });

    it(`refuses more than ${TAG_FILTERS_MAX} tag filters, and bounds ${TAG_FILTERS_MAX} of them`, async () => {
      const tags = (n: number) => Array.from({ length: n }, (_, i) => `tag${i}`).join(',');
      const refused = await measure(`/v1/skills?tags=${tags(TAG_FILTERS_MAX + 1)}`, 400);
      assert.equal(refused.statements.length, 0);
      const body = expectProblem(await call(t, 'GET', `/v1/skills?tags=${tags(500).slice(0, 2000)}`), 400, 'validation_failed');
      assert.deepEqual(
        (body.errors as { field: string }[]).map((e) => e.field),
        ['tags'],
      );
      const allowed = await measure(`/v1/skills?tags=${tags(TAG_FILTERS_MAX)}&q=${encodeURIComponent('ka zen to ix ve mo ra qu')}`, 200);
      assertBounded(`${TAG_FILTERS_MAX} tags and ${SEARCH_WORDS_MAX} short words`, allowed);
      // Tags already in the right case and repeated count once.
      expectStatus(await call(t, 'GET', `/v1/skills?tags=${'cli,CLI,'.repeat(30)}`), 200);
    });
  });
}
