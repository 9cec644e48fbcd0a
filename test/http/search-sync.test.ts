import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createRuntime, type Runtime } from '../../src/server.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { adminSession, call, createSkill, expectStatus, json, registerUser, setStatus, type TestUser } from '../helpers/client.js';

/** A word no other skill holds. */
const word = () => `q${randomBytes(8).toString('hex').replace(/\d/g, 'x')}`;

for (const backend of apiBackends()) {
  describe(`search on a node that was not told of a change [${backend.name}]`, () => {
    let t: TestApp;
    let other: Runtime;
    let owner: TestUser;
    let admin: { cookie: string };

    before(async () => {
      t = await startApp(backend);
      // A second node on the same database, with no message bus between the two, whose own timer never fires
      // during the test: each catch-up is one the test asks for, so "not yet" can be asserted before it.
      other = await createRuntime({ ...t.config, searchSyncIntervalMs: 86_400_000 });
      owner = await registerUser(t);
      admin = await adminSession(t);
    });
    after(async () => {
      await other.close();
      await t.close();
    });

    async function slugsOn(runtime: Runtime, q: string, extra = ''): Promise<string[]> {
      const res = await runtime.app.inject({
        method: 'GET',
        url: `/v1/skills?q=${encodeURIComponent(q)}${extra}`,
        headers: { cookie: `session_token=${admin.cookie}` },
      });
      return json<{ items: { slug: string }[] }>(expectStatus(res, 200)).items.map((s) => s.slug);
    }

    it('finds new, edited and re-statused skills, and drops deleted ones, after one catch-up', async () => {
      const first = word();
      const created = await createSkill(t, owner.session, { name: `Sync ${first}`, slug: `${first}-sync` });
      await setStatus(t, admin, created.id, 'published');
      assert.deepEqual(await slugsOn(other, first), []);
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, first), [created.slug]);

      const second = word();
      expectStatus(await call(t, 'PATCH', `/v1/skills/${created.id}`, owner.session, { description: `Now about ${second}` }), 200);
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, second), [created.slug]);
      await setStatus(t, admin, created.id, 'deprecated');
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, second), []);

      const third = word();
      const draft = await createSkill(t, owner.session, { name: `Draft ${third}`, slug: `${third}-draft` });
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, third, '&status=all'), [draft.slug]);
      expectStatus(await call(t, 'DELETE', `/v1/skills/${draft.id}`, owner.session), 204);
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, third, '&status=all'), []);
    });

    it('follows featuring and download totals, which leave the change time as it was', async () => {
      const name = word();
      const plain = await createSkill(t, owner.session, { name: `Plain ${name}`, slug: `${name}-plain` });
      const starred = await createSkill(t, owner.session, { name: `Starred ${name}`, slug: `${name}-starred` });
      for (const skill of [plain, starred]) await setStatus(t, admin, skill.id, 'published');
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, name, '&featured=true'), []);
      expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${starred.id}`, admin, { featured: true }), 200);
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, name, '&featured=true'), [starred.slug]);

      // A download total written by another node (here straight into the table, as its flush does).
      await t.runtime.database.db.updateTable('skills').set({ downloads: 500 }).where('id', '=', plain.id).execute();
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, name, '&sort=downloads'), [plain.slug, starred.slug]);
    });

    it('reads every skill again when the change log no longer reaches back to what it last applied', async () => {
      const name = word();
      const skill = await createSkill(t, owner.session, { name: `Pruned ${name}`, slug: `${name}-pruned` });
      await setStatus(t, admin, skill.id, 'published');
      const changes = t.runtime.services.repositories.skillChanges;
      await changes.prune((await changes.horizon()).last);
      // One more change after the pruning, so the log holds entries, none reaching back far enough.
      await createSkill(t, owner.session, { name: `After ${word()}` });
      await other.services.skills.catchUpSearch();
      assert.deepEqual(await slugsOn(other, name), [skill.slug]);
    });
  });
}
