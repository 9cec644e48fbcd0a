import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * The first schema. Column types differ only where the databases do (timestamps, the integer row key,
 * the search index); everything the query code touches has the same name and meaning on both.
 */
export function initial(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const big = dialect === 'postgres' ? sql`bigint` : sql`integer`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) =>
          c
            .notNull()
            .defaultTo('user')
            .check(sql`role in ('user', 'admin')`),
        )
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await sql`create unique index users_email_lower on users (lower(email))`.execute(db);

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_used_at', ts)
        .addColumn('expires_at', ts)
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'created_at']).execute();

      let skills = db.schema.createTable('skills');
      skills =
        dialect === 'postgres'
          ? skills.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
          : skills.addColumn('seq', 'integer', (c) => c.primaryKey());
      await skills
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('category', 'text')
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('status', 'text', (c) =>
          c
            .notNull()
            .defaultTo('draft')
            .check(sql`status in ('draft', 'published', 'deprecated')`),
        )
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('source_type', 'text', (c) => c.check(sql`source_type in ('original', 'github', 'external')`))
        .addColumn('source_url', 'text')
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('latest_version', 'text')
        .addColumn('downloads', big, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addColumn('published_at', ts)
        .execute();
      // One index per sort order, led by status because every public listing filters on it.
      await sql`create index skills_latest on skills (status, updated_at desc, id desc)`.execute(db);
      await sql`create index skills_downloads on skills (status, downloads desc, id desc)`.execute(db);
      await sql`create index skills_featured on skills (status, featured desc, updated_at desc, id desc)`.execute(db);
      await sql`create index skills_category on skills (category, status, updated_at desc)`.execute(db);
      await sql`create index skills_owner on skills (owner_id, updated_at desc, id desc)`.execute(db);

      await db.schema
        .createTable('skill_tags')
        .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('skill_tags_pk', ['skill_id', 'tag'])
        .execute();
      await db.schema.createIndex('skill_tags_tag').on('skill_tags').columns(['tag', 'skill_id']).execute();

      await db.schema
        .createTable('admin_audit')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('from_value', 'text')
        .addColumn('to_value', 'text')
        .addColumn('reason', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('admin_audit_target').on('admin_audit').columns(['target_type', 'target_id', 'created_at']).execute();

      if (dialect === 'sqlite') {
        // Trigram FTS5 answers substring queries of three or more characters from the index; it mirrors
        // the skills table (external content) and is kept in step by triggers.
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
      } else {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index skills_name_trgm on skills using gin (name gin_trgm_ops)`.execute(db);
        await sql`create index skills_description_trgm on skills using gin (description gin_trgm_ops)`.execute(db);
      }
    },
  };
}
