import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Lists and searches are answered by the in-memory search index (src/search/), so the database keeps no text
 * index of its own: this drops SQLite's FTS5 table with the triggers that filled it, and PostgreSQL's trigram
 * indexes. The pg_trgm extension stays: it belongs to the whole database, where others may use it.
 * `down` builds them again as 0001_initial did, and fills the FTS5 table from the skills it mirrors.
 */
export function dropTextSearchIndexes(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        await sql`drop trigger if exists skills_fts_insert`.execute(db);
        await sql`drop trigger if exists skills_fts_delete`.execute(db);
        await sql`drop trigger if exists skills_fts_update`.execute(db);
        await sql`drop table if exists skills_fts`.execute(db);
        return;
      }
      await sql`drop index if exists skills_name_trgm`.execute(db);
      await sql`drop index if exists skills_description_trgm`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        await sql`create virtual table skills_fts using fts5(
          name, description, content='skills', content_rowid='seq', tokenize='trigram'
        )`.execute(db);
        await sql`create trigger skills_fts_insert after insert on skills begin
          insert into skills_fts(rowid, name, description) values (new.seq, new.name, new.description);
        end`.execute(db);
        await sql`create trigger skills_fts_delete after delete on skills begin
          insert into skills_fts(skills_fts, rowid, name, description) values ('delete', old.seq, old.name, old.description);
        end`.execute(db);
        await sql`create trigger skills_fts_update after update of name, description on skills begin
          insert into skills_fts(skills_fts, rowid, name, description) values ('delete', old.seq, old.name, old.description);
          insert into skills_fts(rowid, name, description) values (new.seq, new.name, new.description);
        end`.execute(db);
        // An external-content table starts empty: index the rows already in skills.
        await sql`insert into skills_fts(skills_fts) values('rebuild')`.execute(db);
        return;
      }
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index skills_name_trgm on skills using gin (name gin_trgm_ops)`.execute(db);
      await sql`create index skills_description_trgm on skills using gin (description gin_trgm_ops)`.execute(db);
    },
  };
}
