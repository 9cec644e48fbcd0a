import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

const LEASE_COLUMNS = ['lease_owner', 'lease_until', 'attempts'] as const;

/**
 * The versions of a rescan job become queued jobs of the job runner (kind `rescan-version`, one per version), which
 * holds the runner's lease while it scans one: scan_job_items lose the lease columns of their own. The versions still
 * pending in a running job are queued here, as starting a job queues them. Columns are dropped: nodes of the previous
 * version are stopped before the first node of this one starts (docs/deployment.md, "Migrations when several nodes start at once").
 */
export function rescanQueue(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const payload =
    dialect === 'postgres'
      ? sql`json_build_object('job', i.job_id, 'version', i.version_id)::text`
      : sql`json_object('job', i.job_id, 'version', i.version_id)`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`
        insert into queued_jobs (id, kind, payload, state, run_at, created_at)
        select i.job_id || ':' || i.version_id, 'rescan-version', ${payload}, 'queued', j.started_at, j.started_at
        from scan_job_items i join scan_jobs j on j.id = i.job_id
        where j.state = 'running' and i.state = 'pending'
      `.execute(db);
      // One column a statement: SQLite drops no more at a time.
      for (const column of LEASE_COLUMNS) await db.schema.alterTable('scan_job_items').dropColumn(column).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('scan_job_items').addColumn('lease_owner', 'text').execute();
      await db.schema.alterTable('scan_job_items').addColumn('lease_until', ts).execute();
      await db.schema
        .alterTable('scan_job_items')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`delete from queued_jobs where kind = 'rescan-version'`.execute(db);
    },
  };
}
