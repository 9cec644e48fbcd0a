import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * What the package scanner found in each version (one row per scanned version; versions uploaded before the
 * scanner have none until they are scanned again), whether a skill is quarantined (it has versions and every one
 * of them is malicious), and the rescan jobs with the versions each still has to scan, which nodes claim in
 * leased batches.
 */
export function versionScans(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('version_scans')
        .addColumn('version_id', 'text', (c) => c.primaryKey().references('versions.id').onDelete('cascade'))
        .addColumn('rules_version', 'text', (c) => c.notNull())
        .addColumn('verdict', 'text', (c) => c.notNull().check(sql`verdict in ('clean', 'notice', 'suspicious', 'malicious')`))
        .addColumn('critical', 'integer', (c) => c.notNull())
        .addColumn('high', 'integer', (c) => c.notNull())
        .addColumn('medium', 'integer', (c) => c.notNull())
        .addColumn('low', 'integer', (c) => c.notNull())
        .addColumn('info', 'integer', (c) => c.notNull())
        .addColumn('findings', 'text', (c) => c.notNull())
        .addColumn('urls', 'text', (c) => c.notNull())
        .addColumn('domains', 'text', (c) => c.notNull())
        .addColumn('scanned_at', ts, (c) => c.notNull())
        .addColumn('explanation', 'text')
        .addColumn('explained_at', ts)
        .execute();

      await db.schema
        .alterTable('skills')
        .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('scan_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('rules_version', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'finished')`))
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .execute();
      // One job runs at a time, so no version is in two running jobs (and scanned by two nodes at once).
      await sql`create unique index scan_jobs_one_running on scan_jobs (state) where state = 'running'`.execute(db);

      await db.schema
        .createTable('scan_job_items')
        .addColumn('job_id', 'text', (c) => c.notNull().references('scan_jobs.id').onDelete('cascade'))
        .addColumn('version_id', 'text', (c) => c.notNull().references('versions.id').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'done', 'failed')`))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', ts)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('scan_job_items_pk', ['job_id', 'version_id'])
        .execute();
      await db.schema.createIndex('scan_job_items_state').on('scan_job_items').columns(['job_id', 'state']).execute();
      await db.schema.createIndex('scan_job_items_version').on('scan_job_items').column('version_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('scan_job_items').execute();
      await db.schema.dropTable('scan_jobs').execute();
      await db.schema.alterTable('skills').dropColumn('quarantined').execute();
      await db.schema.dropTable('version_scans').execute();
    },
  };
}
