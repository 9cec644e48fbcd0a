import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { skillSearch } from '../../src/domain/skills/skill-search.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { adminSession, createSkill, registerUser, setStatus } from '../helpers/client.js';

for (const backend of backends()) {
  describe(`filling the search index a page at a time [${backend.name}]`, () => {
    let t: TestApp;
    const ids: string[] = [];

    before(async () => {
      t = await startApp(backend);
      const owner = await registerUser(t);
      const admin = await adminSession(t);
      for (let i = 0; i < 12; i += 1) {
        const skill = await createSkill(t, owner.session, { name: `Fill ${i}`, slug: `fill-${i}` });
        if (i % 3 === 0) await setStatus(t, admin, skill.id, 'published');
        ids.push(skill.id);
      }
    });
    after(() => t.close());

    for (const readPage of [1, 4, 5, 12, 100]) {
      it(`holds every skill, each once, when read ${readPage} at a time`, async () => {
        const { skills, skillChanges } = t.runtime.services.repositories;
        const search = skillSearch(skills, skillChanges, { readPage });
        const everything = await search.search({ text: '', statuses: 'all', tags: [], sort: 'latest', offset: 0, limit: 100 });
        assert.equal(everything.total, ids.length);
        assert.deepEqual(everything.hits.map((hit) => hit.row.id).sort(), [...ids].sort());
        const published = await search.search({
          text: 'fill',
          statuses: ['published'],
          tags: [],
          sort: 'relevance',
          offset: 0,
          limit: 100,
        });
        assert.deepEqual(published.hits.map((hit) => hit.row.slug).sort(), ['fill-0', 'fill-3', 'fill-6', 'fill-9']);
      });
    }
  });
}
