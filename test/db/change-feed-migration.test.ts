import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { registryMigrator } from '../../src/db/migrations/index.js';
import { backends } from '../helpers/backends.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * Migration 0017 brings the change feed's triggers and the webhooks' tables to a registry that has skills already: the
 * feed starts empty (nothing that happened before is told as news), records what changes from then on, and the way
 * back removes the triggers with the tables, leaving the skills writable as before.
 */
for (const backend of backends()) {
  describe(`migration 0017_change_feed on a registry in use [${backend.name}]`, () => {
    let handle: DatabaseHandle;
    let dispose: (() => Promise<void>) | undefined;
    let schema: string | undefined;
    const db = () => handle.db as unknown as Kysely<unknown>;
    const migrateTo = async (name: string) => {
      const { error } = await registryMigrator(db(), handle.dialect, schema).migrateTo(name);
      assert.equal(error, undefined, String(error));
    };
    const at = new Date().toISOString();
    const types = async () =>
      (await sql<{ type: string }>`select type from change_feed order by seq`.execute(db())).rows.map((r) => r.type);

    before(async () => {
      const created = await backend.create();
      dispose = () => created.dispose();
      handle = openDatabase(created.database);
      schema = created.database.kind === 'postgres' ? created.database.schema : undefined;
      await migrateTo('0016_clawhub');
      await sql`insert into users (id, username, email, password_hash, created_at, updated_at)
        values ('u', 'alice', 'alice@example.com', 'x', ${at}, ${at})`.execute(db());
      await sql`insert into skills (id, slug, name, description, status, owner_id, created_at, updated_at)
        values ('s', 'pdf-tools', 'PDF Tools', 'PDF', 'draft', 'u', ${at}, ${at})`.execute(db());
    });
    after(async () => {
      await ifSet(handle)?.close();
      await dispose?.();
    });

    it('starts an empty feed, then records changes, and only those a reader would care about', async () => {
      await migrateTo('0017_change_feed');
      assert.deepEqual(await types(), []);
      await sql`update skills set downloads = downloads + 5, updated_at = ${at} where id = 's'`.execute(db());
      assert.deepEqual(await types(), [], 'download totals are not changes');
      await sql`update skills set status = 'published', published_at = ${at} where id = 's'`.execute(db());
      await sql`update skills set status = 'deprecated' where id = 's'`.execute(db());
      assert.deepEqual(await types(), ['skill.published', 'skill.deprecated', 'skill.hidden']);
    });

    it('goes back down, leaving the skills writable without a feed', async () => {
      await migrateTo('0016_clawhub');
      await sql`update skills set status = 'published' where id = 's'`.execute(db());
      const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
      for (const gone of ['change_feed', 'webhooks', 'webhook_deliveries', 'webhook_attempts', 'webhook_dispatch']) {
        assert.ok(!tables.includes(gone), gone);
      }
      await migrateTo('0017_change_feed');
      await sql`update skills set status = 'deprecated' where id = 's'`.execute(db());
      assert.deepEqual(await types(), ['skill.deprecated', 'skill.hidden']);
    });
  });
}
