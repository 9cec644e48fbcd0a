import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { relevanceCorpus } from '../../bench/lib/relevance-corpus.js';
import { relevanceQueries } from '../../bench/lib/relevance-queries.js';
import { seedSkills } from '../../bench/lib/seed.js';
import { measureRelevance, missList, relevanceTable } from '../../bench/relevance.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';

/**
 * The relevance set (bench/relevance.ts) through a real registry: what `npm run bench:relevance` measures at 5,000
 * skills, here at 2,000, with floors well under today's numbers (every kind at 100% success@10; MRR 0.97 at 5,000)
 * so that a change that makes search find the wrong skill fails here rather than in a user's hands.
 */
const SKILLS = 2_000;
const OVERALL_SUCCESS_FLOOR = 0.95;
const OVERALL_MRR_FLOOR = 0.85;
const KIND_SUCCESS_FLOOR = 0.8;

for (const backend of backends()) {
  describe(`relevance floor [${backend.name}]`, () => {
    let t: TestApp;
    let base: string;

    before(async () => {
      t = await startApp(backend);
      const corpus = relevanceCorpus(SKILLS);
      await seedSkills(
        {
          kind: backend.name === 'postgres' ? 'postgres' : 'sqlite',
          config: t.config.database,
          env: {},
          label: backend.name,
          dispose: () => Promise.resolve(),
        },
        corpus,
      );
      // Written behind the app's back, as another node would: the index catches up as it would then.
      await t.runtime.services.skills.catchUpSearch();
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t.close());

    it('finds the judged answers: success@10 and MRR above their floors, overall and for every kind of query', async () => {
      const queries = relevanceQueries(relevanceCorpus(SKILLS));
      assert.ok(queries.length >= 150, `${queries.length} judged queries`);
      const result = await measureRelevance(base, queries);
      const report = `${relevanceTable(result)}\n${missList(result.misses)}`;
      assert.ok(result.overall.successAt10 >= OVERALL_SUCCESS_FLOOR, report);
      assert.ok(result.overall.mrr >= OVERALL_MRR_FLOOR, report);
      for (const kind of result.kinds) assert.ok(kind.successAt10 >= KIND_SUCCESS_FLOOR, `${kind.kind}\n${report}`);
    });
  });
}
