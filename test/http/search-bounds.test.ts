import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { generateSkills } from '../../bench/lib/generate.js';
import { SEARCH_TEXT_MAX, SEARCH_WORDS_MAX, TAG_FILTERS_MAX, searchWords } from '../../src/domain/skills/search-terms.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { call, expectProblem, expectStatus, registerUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * What one list or search request may ask, and what it costs the database: every shape allowed is answered by the
 * search index without a statement on the skills table (its cost in time is measured by bench/search-engine.ts,
 * not here), and every shape beyond the limits is refused with a 400 before anything runs.
 */

const N = 4_000;

const oneLetterWords = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ');

for (const backend of apiBackends()) {
  describe(`search bounds over ${N.toLocaleString('en')} skills [${backend.name}]`, { timeout: 240_000 }, () => {
    let t: TestApp;
    let captured: CompiledQuery[] | null = null;

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
      }
      // Written behind the registry's back, as another node would: the index follows them through the change log.
      await t.runtime.services.skills.catchUpSearch();
      // Every statement the services run goes through this one executor.
      const executor = db.getExecutor() as unknown as { executeQuery: (query: CompiledQuery, id: unknown) => Promise<unknown> };
      const original = executor.executeQuery.bind(executor);
      executor.executeQuery = (query, id) => {
        captured?.push(query);
        return original(query, id);
      };
    });
    after(() => ifSet(t)?.close());

    /** The answer's status and total, and the statements run on the skills table while it was made. */
    async function measure(url: string, expected: number): Promise<{ statements: string[]; total: number | undefined }> {
      captured = [];
      const res = await call(t, 'GET', url);
      const statements = captured;
      captured = null;
      assert.equal(res.statusCode, expected, `${url}: ${res.body}`);
      const total = expected === 200 ? (JSON.parse(res.body) as { total: number }).total : undefined;
      return { statements: statements.filter((q) => q.sql.includes('from "skills"')).map((q) => q.sql), total };
    }

    function assertFromIndex(what: string, measured: { statements: string[] }): void {
      assert.deepEqual(measured.statements, [], `${what}: statements on the skills table`);
    }

    it('uses a repeated word once: 99 copies of a one-letter word (the text limit) cost one word', async () => {
      const q = 'a '.repeat(99).trim();
      assert.ok(q.length <= SEARCH_TEXT_MAX);
      const measured = await measure(`/v1/skills?q=${encodeURIComponent(q)}`, 200);
      assertFromIndex('99 copies of one letter', measured);
      assert.equal(measured.total, (await measure('/v1/skills?q=a', 200)).total);
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
      it(`answers ${what} from the index, on every sort`, async (context) => {
        assert.ok(searchWords(q).length <= SEARCH_WORDS_MAX, what);
        for (const sort of ['relevance', 'latest', 'downloads', 'featured']) {
          const measured = await measure(`/v1/skills?q=${encodeURIComponent(q)}&sort=${sort}&page_size=100`, 200);
          context.diagnostic(`${what}, sort=${sort}: ${measured.total} matches`);
          assertFromIndex(`${what}, sort=${sort}`, measured);
        }
      });
    }

    it('answers the deepest page allowed from the index, and refuses one further', async () => {
      const deepest = await measure('/v1/skills?page=100&page_size=100&sort=downloads', 200);
      assertFromIndex('deepest page', deepest);
      assert.equal(deepest.total, N);
      assertFromIndex('deepest page of a search', await measure('/v1/skills?q=is&page=500&page_size=20', 200));
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
      assertFromIndex(`${TAG_FILTERS_MAX} tags and ${SEARCH_WORDS_MAX} short words`, allowed);
      assert.equal(allowed.total, 0);
      // Tags already in the right case and repeated count once.
      expectStatus(await call(t, 'GET', `/v1/skills?tags=${'cli,CLI,'.repeat(30)}`), 200);
    });
  });
}
