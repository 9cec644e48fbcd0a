import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * The background job runner's two tables. `job_leases`: a named lease (an owner and an expiry) that several nodes
 * on one database take in turn; a job that must run on one node at a time runs under one, and a queued job is
 * worked under one while it runs. `queued_jobs`: one-off jobs with a payload, each run by one node, tried again
 * later when it fails and marked failed after its last attempt.
 */
export function jobs(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('job_leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('queued_jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('run_at', ts, (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('queued_jobs_due').on('queued_jobs').columns(['state', 'run_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('queued_jobs').execute();
      await db.schema.dropTable('job_leases').execute();
    },
  };
}
