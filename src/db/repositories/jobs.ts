import { sql, type Expression, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A queued job as a node claims it. */
export interface QueuedJobRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The job runner's storage: named leases and the queue of one-off jobs. Times are milliseconds since the epoch,
 * written as ISO 8601 (text on SQLite, timestamptz on PostgreSQL), so they compare the same way on both.
 */
export function jobsRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes the lease `name` for `owner` until `until`, if no one else holds it past `now`: one statement (an insert
     * that updates the row only where the lease has run out or is already `owner`'s), so of two nodes asking at
     * once exactly one gets it. True when `owner` now holds it.
     */
    async acquire(name: string, owner: string, now: number, until: number): Promise<boolean> {
      const result = await db
        .insertInto('job_leases')
        .values({ name, owner, expires_at: iso(until) })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ owner, expires_at: iso(until) })
            .where((eb) => eb.or([eb('job_leases.expires_at', '<', iso(now)), eb('job_leases.owner', '=', owner)])),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Extends `owner`'s lease; false when it has run out and another owner took it. */
    async renew(name: string, owner: string, until: number): Promise<boolean> {
      const result = await db
        .updateTable('job_leases')
        .set({ expires_at: iso(until) })
        .where('name', '=', name)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Gives the lease up, if `owner` still holds it. */
    async release(name: string, owner: string): Promise<void> {
      await db.deleteFrom('job_leases').where('name', '=', name).where('owner', '=', owner).execute();
    },

    async enqueue(job: { id: string; kind: string; payload: string; runAt: number; now: number }): Promise<void> {
      await db
        .insertInto('queued_jobs')
        .values({ id: job.id, kind: job.kind, payload: job.payload, state: 'queued', run_at: iso(job.runAt), created_at: iso(job.now) })
        .execute();
    },

    /**
     * Queues a job of `kind` for each row of `rows` (its id, its payload as JSON, and when it is due, which is also when
     * it was queued), in one INSERT … SELECT: on a transaction's `db`, the jobs are queued together with what made them.
     */
    async enqueueAll(kind: string, rows: Expression<{ id: string; payload: string; run_at: Date | string }>): Promise<void> {
      await sql`
        insert into queued_jobs (id, kind, payload, state, run_at, created_at)
        select r.id, ${kind}, r.payload, 'queued', r.run_at, r.run_at from (${rows}) r
      `.execute(db);
    },

    /**
     * Up to `limit` queued jobs of `kinds` that are due at `now` and that no live lease (`leasePrefix` + id) holds, the
     * longest waiting first. The caller takes each one's lease before running it: two nodes may be handed the same job,
     * and only one gets its lease.
     */
    async due(kinds: readonly string[], leasePrefix: string, now: number, limit: number): Promise<QueuedJobRow[]> {
      if (kinds.length === 0) return [];
      const rows = await db
        .selectFrom('queued_jobs as q')
        .select(['q.id', 'q.kind', 'q.payload', 'q.attempts'])
        .where('q.state', '=', 'queued')
        .where('q.kind', 'in', kinds)
        .where('q.run_at', '<=', iso(now))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('job_leases as l')
                .select('l.name')
                .where(sql<boolean>`l.name = ${leasePrefix} || q.id`)
                .where('l.expires_at', '>=', iso(now)),
            ),
          ),
        )
        .orderBy('q.run_at')
        .orderBy('q.id')
        .limit(limit)
        .execute();
      return rows;
    },

    /** A job that ran: gone from the queue. */
    async complete(id: string): Promise<void> {
      await db.deleteFrom('queued_jobs').where('id', '=', id).execute();
    },

    /** A job that failed: tried again at `runAt`, or failed for good (`runAt` null), with its error either way. */
    async retry(id: string, attempts: number, runAt: number | null, error: string): Promise<void> {
      await db
        .updateTable('queued_jobs')
        .set(runAt === null ? { attempts, state: 'failed', last_error: error } : { attempts, run_at: iso(runAt), last_error: error })
        .where('id', '=', id)
        .execute();
    },

    /** A queued job as stored (what tests and operators look at). */
    find(id: string) {
      return db.selectFrom('queued_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;
