import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { registryMigrator } from '../../src/db/migrations/index.js';
import { newId } from '../../src/lib/ids.js';
import { backends } from '../helpers/backends.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * Lists and searches are answered by the in-memory index, so migration 0005 drops the database's own text
 * search structures: SQLite's FTS5 table and its triggers, PostgreSQL's trigram indexes. Its `down` builds them
 * again (the FTS5 table filled from the skills already there), and migrating up once more drops them again.
 */

const BEFORE_DROP = '0004_category_sort_indexes';
const DROP = '0005_drop_text_search_indexes';

/** What 0001_initial created for text search, and 0005 drops. */
const CREATED_BY_INITIAL = {
  // The FTS5 table, the shadow tables FTS5 keeps for it, and the three triggers that fill it.
  sqlite: [
    'skills_fts',
    'skills_fts_config',
    'skills_fts_data',
    'skills_fts_delete',
    'skills_fts_docsize',
    'skills_fts_idx',
    'skills_fts_insert',
    'skills_fts_update',
  ],
  postgres: [
    'CREATE INDEX skills_description_trgm ON skills USING gin (description gin_trgm_ops)',
    'CREATE INDEX skills_name_trgm ON skills USING gin (name gin_trgm_ops)',
  ],
};

for (const backend of backends()) {
  describe(`text search indexes dropped by ${DROP} [${backend.name}]`, () => {
    let handle: DatabaseHandle;
    let schema: string | undefined;
    let dispose: (() => Promise<void>) | undefined;
    const db = () => handle.db as unknown as Kysely<unknown>;
    const migrator = () => registryMigrator(db(), handle.dialect, schema);

    before(async () => {
      const created = await backend.create();
      dispose = () => created.dispose();
      schema = created.database.kind === 'postgres' ? created.database.schema : undefined;
      handle = openDatabase(created.database);
    });
    after(async () => {
      await ifSet(handle)?.close();
      await dispose?.();
    });

    /**
     * The text search objects present, sorted: on SQLite every schema object named skills_fts…, on PostgreSQL the
     * definition (without its schema) of every trigram index on skills.
     */
    async function textSearchObjects(): Promise<string[]> {
      if (handle.dialect === 'sqlite') {
        const rows = await sql<{ name: string }>`
          select name from sqlite_master where substr(name, 1, 10) = 'skills_fts' order by name
        `.execute(db());
        return rows.rows.map((r) => r.name);
      }
      const rows = await sql<{ definition: string }>`
        select replace(indexdef, schemaname || '.', '') as definition from pg_indexes
        where schemaname = current_schema() and tablename = 'skills' and indexdef like '%gin_trgm_ops%'
        order by indexname
      `.execute(db());
      return rows.rows.map((r) => r.definition);
    }

    async function insertSkill(name: string, description: string): Promise<string> {
      const at = new Date().toISOString();
      const owner = newId();
      await sql`insert into users (id, username, email, password_hash, created_at, updated_at)
        values (${owner}, ${`u${owner.slice(-12)}`}, ${`${owner}@example.com`}, 'x', ${at}, ${at})`.execute(db());
      const id = newId();
      await sql`insert into skills (id, slug, name, description, owner_id, created_at, updated_at)
        values (${id}, ${`s-${id.slice(-12)}`}, ${name}, ${description}, ${owner}, ${at}, ${at})`.execute(db());
      return id;
    }

    /** SQLite: the skills the FTS5 table finds for `word`. */
    async function ftsMatches(word: string): Promise<string[]> {
      const rows = await sql<{ id: string }>`
        select id from skills where seq in (select rowid from skills_fts where skills_fts match ${`"${word}"`}) order by id
      `.execute(db());
      return rows.rows.map((r) => r.id);
    }

    it('leaves no text search index after migrating a fresh database', async () => {
      const { applied } = await handle.migrate();
      assert.ok(applied.includes(DROP), `applied: ${applied.join(', ')}`);
      assert.deepEqual(await textSearchObjects(), []);
      if (handle.dialect === 'postgres') {
        // The extension belongs to the whole database and is left in place.
        const extension = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db());
        assert.equal(extension.rows[0]?.n, 1);
      }
    });

    it(`builds them again when migrated down to ${BEFORE_DROP}, indexing the skills already stored`, async () => {
      const stored = await insertSkill('Quokkaflux Reports', 'Turns spreadsheets into charts');
      const { error, results } = await migrator().migrateTo(BEFORE_DROP);
      assert.equal(error, undefined, String(error));
      assert.ok(results?.some((r) => r.migrationName === DROP && r.direction === 'Down' && r.status === 'Success'));
      assert.deepEqual(await textSearchObjects(), CREATED_BY_INITIAL[handle.dialect]);
      if (handle.dialect !== 'sqlite') return;

      // The rebuilt FTS5 table holds the skill stored before it, and its triggers follow every change after.
      assert.deepEqual(await ftsMatches('quokkaflux'), [stored]);
      const added = await insertSkill('Chart Helper', 'Draws quokkaflux diagrams');
      assert.deepEqual(await ftsMatches('quokkaflux'), [stored, added].sort());
      await sql`update skills set name = 'Plain Reports' where id = ${stored}`.execute(db());
      assert.deepEqual(await ftsMatches('quokkaflux'), [added]);
      await sql`delete from skills where id = ${added}`.execute(db());
      assert.deepEqual(await ftsMatches('quokkaflux'), []);
      // FTS5 compares its index with the skills table, and fails if they disagree.
      await sql`insert into skills_fts(skills_fts, rank) values ('integrity-check', 1)`.execute(db());
    });

    it('drops them again when migrated up, keeping every skill', async () => {
      const skillsBefore = await sql<{ n: number }>`select count(*) as n from skills`.execute(db());
      const { error, results } = await migrator().migrateToLatest();
      assert.equal(error, undefined, String(error));
      const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
      assert.ok(applied.includes(DROP), `applied: ${applied.join(', ')}`);
      assert.deepEqual(await textSearchObjects(), []);
      const skillsAfter = await sql<{ n: number }>`select count(*) as n from skills`.execute(db());
      assert.equal(Number(skillsAfter.rows[0]?.n), Number(skillsBefore.rows[0]?.n));
      const { applied: again } = await handle.migrate();
      assert.deepEqual(again, [], 'nothing is left to apply');
    });
  });
}
