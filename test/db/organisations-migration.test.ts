import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { registryMigrator } from '../../src/db/migrations/index.js';
import { skillsRepository } from '../../src/db/repositories/skills.js';
import { toSkill } from '../../src/domain/skills/skills.js';
import { backends } from '../helpers/backends.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * Migrations 0014 and 0015 bring organisations, scopes, private skills, transfers and old names to a registry that
 * has skills already: each stays unscoped, owned by its user and public, and the way back removes what they added.
 */
for (const backend of backends()) {
  describe(`migrations 0014_organisations and 0015_skill_transfers on a registry in use [${backend.name}]`, () => {
    let handle: DatabaseHandle;
    let dispose: (() => Promise<void>) | undefined;
    let schema: string | undefined;
    const db = () => handle.db as unknown as Kysely<unknown>;
    const migrateTo = async (name: string) => {
      const { error } = await registryMigrator(db(), handle.dialect, schema).migrateTo(name);
      assert.equal(error, undefined, String(error));
    };
    const at = new Date().toISOString();

    before(async () => {
      const created = await backend.create();
      dispose = () => created.dispose();
      handle = openDatabase(created.database);
      schema = created.database.kind === 'postgres' ? created.database.schema : undefined;
      await migrateTo('0013_name_allowances');
      await sql`insert into users (id, username, email, password_hash, created_at, updated_at)
        values ('u', 'alice', 'alice@example.com', 'x', ${at}, ${at})`.execute(db());
      await sql`insert into skills (id, slug, name, description, status, owner_id, created_at, updated_at)
        values ('s', 'pdf-tools', 'PDF Tools', 'PDF', 'published', 'u', ${at}, ${at})`.execute(db());
    });
    after(async () => {
      await ifSet(handle)?.close();
      await dispose?.();
    });

    it('keeps every existing skill unscoped, owned by its user and public', async () => {
      await migrateTo('0015_skill_transfers');
      const row = await skillsRepository(handle.db, handle.dialect).findBySlug('pdf-tools');
      assert.ok(row);
      const skill = toSkill(row);
      assert.deepEqual(
        { slug: skill.slug, scope: skill.scope, full_name: skill.full_name, owner: skill.owner, private: skill.private },
        {
          slug: 'pdf-tools',
          scope: null,
          full_name: 'pdf-tools',
          owner: { kind: 'user', id: 'u', handle: 'alice', username: 'alice' },
          private: false,
        },
      );
    });

    it('goes back down, leaving the skills as they were', async () => {
      await migrateTo('0013_name_allowances');
      const columns = Object.keys((await sql`select * from skills`.execute(db())).rows[0] ?? {});
      for (const gone of ['scope', 'org_id', 'private']) assert.ok(!columns.includes(gone), gone);
      // Another test's schema in the same database may hold these tables: only this one's are looked at.
      const tables = (await handle.db.introspection.getTables())
        .filter((t) => schema === undefined || t.schema === schema)
        .map((t) => t.name);
      for (const gone of ['organisations', 'org_members', 'org_invitations', 'skill_transfers', 'skill_aliases'])
        assert.ok(!tables.includes(gone), gone);
      await migrateTo('0015_skill_transfers');
    });
  });
}
