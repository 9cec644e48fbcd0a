import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** Versions of skills, the file index of each package, and per-day download counts. */
export function versions(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const big = dialect === 'postgres' ? sql`bigint` : sql`integer`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('versions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('changelog', 'text')
        .addColumn('metadata', 'text')
        .addColumn('size', big, (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('archive_format', 'text', (c) => c.notNull().check(sql`archive_format in ('zip', 'tar.gz')`))
        .addColumn('file_count', 'integer', (c) => c.notNull())
        .addColumn('total_size', big, (c) => c.notNull())
        .addColumn('downloads', big, (c) => c.notNull().defaultTo(0))
        .addColumn('skill_md', 'text')
        .addColumn('skill_md_path', 'text')
        .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('uploader_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addUniqueConstraint('versions_skill_version', ['skill_id', 'version'])
        .execute();
      await db.schema.createIndex('versions_sha256').on('versions').column('sha256').execute();

      await db.schema
        .createTable('version_files')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('version_files_pk', ['version_id', 'path'])
        .execute();

      await db.schema
        .createTable('download_counts')
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('downloads', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('download_counts_pk', ['version_id', 'day'])
        .execute();
      await db.schema.createIndex('download_counts_skill_day').on('download_counts').columns(['skill_id', 'day']).execute();
    },
  };
}
