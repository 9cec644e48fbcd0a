import { sql, type Kysely, type Selectable } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Database, ScanItemState, ScanJobsTable, SkillUpdate } from '../schema.js';
import { isUniqueViolation } from './unique-violation.js';
import { existingVersions, type ExistingVersion, type ScanWrite } from './versions.js';

/** What writing a scan did: wrote it, or nothing because the version was deleted meanwhile. */
export type ScanRecordWrite = 'written' | 'version_gone';

/** A version a node has claimed for a rescan job, with what reading its package needs. */
export interface ClaimedItem {
  jobId: string;
  versionId: string;
  skillId: string;
  sha256: string;
  size: number;
}

/**
 * Scans of versions and rescan jobs. A job's versions are rows of scan_job_items; a node claims a batch of pending
 * ones by writing its lease on them (a node id and an expiry) in one transaction, so two nodes never hold the same
 * version, and a batch whose node died is claimed again once its lease has run out. Everything a job knows is in
 * these rows: any node answers its progress, and a job survives the nodes that started it.
 */
export function scansRepository(db: Kysely<Database>, dialect: DialectName) {
  /** The jobs with their items counted by state, in one grouped read. */
  async function withCounts(jobs: Selectable<ScanJobsTable>[]) {
    const counts =
      jobs.length === 0
        ? []
        : await db
            .selectFrom('scan_job_items')
            .select(['job_id', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
            .where(
              'job_id',
              'in',
              jobs.map((job) => job.id),
            )
            .groupBy(['job_id', 'state'])
            .execute();
    return jobs.map((job) => {
      const by = (state: ScanItemState) => Number(counts.find((c) => c.job_id === job.id && c.state === state)?.n ?? 0);
      return { ...job, pending: by('pending'), done: by('done'), failed: by('failed') };
    });
  }

  return {
    find(versionId: string) {
      return db.selectFrom('version_scans').selectAll().where('version_id', '=', versionId).executeTakeFirst();
    },

    /**
     * Writes the scan of a version (replacing an earlier one; its explanation too with `explanation` 'replace', else
     * keeping the one it has)
     * and the skill's summary computed from every version's verdict, in one transaction that holds the skill's row:
     * a version written or deleted meanwhile waits, so the summary matches the versions as they are.
     */
    async record(
      versionId: string,
      skillId: string,
      scan: ScanWrite,
      skillChanges: (existing: ExistingVersion[]) => SkillUpdate,
      explanation: 'keep' | 'replace',
    ): Promise<ScanRecordWrite> {
      return db.transaction().execute(async (trx): Promise<ScanRecordWrite> => {
        let query = trx.selectFrom('skills').select(['latest_version', 'quarantined']).where('id', '=', skillId);
        // SQLite's transactions begin IMMEDIATE and so hold the write lock already.
        if (dialect === 'postgres') query = query.forUpdate();
        const skill = await query.executeTakeFirst();
        if (skill === undefined) return 'version_gone';
        const version = await trx.selectFrom('versions').select('id').where('id', '=', versionId).executeTakeFirst();
        if (version === undefined) return 'version_gone';
        const { explanation: text, explained_at, ...report } = scan;
        const explained = explanation === 'replace' ? { explanation: text ?? null, explained_at: explained_at ?? null } : {};
        await trx
          .insertInto('version_scans')
          .values({ ...scan, version_id: versionId })
          .onConflict((oc) => oc.column('version_id').doUpdateSet({ ...report, ...explained }))
          .execute();
        const changes = skillChanges(await existingVersions(trx, skillId));
        // Most rescans change nothing of the skill: leaving its row alone spares every node re-reading it for search.
        const same = Object.entries(changes).every(([key, value]) => skill[key as keyof typeof skill] === value);
        if (!same) await trx.updateTable('skills').set(changes).where('id', '=', skillId).execute();
        return 'written';
      });
    },

    /**
     * Starts a job listing every version there is now; its total is their number. Only one job runs at a time (a
     * partial unique index decides between two started at once): `{ running }` names the one that does.
     */
    async createJob(job: {
      id: string;
      rules_version: string;
      requested_by: string;
      started_at: string;
    }): Promise<{ created: number } | { running: string }> {
      const running = async () => {
        const row = await db.selectFrom('scan_jobs').select('id').where('state', '=', 'running').executeTakeFirst();
        return row === undefined ? undefined : { running: row.id };
      };
      const already = await running();
      if (already) return already;
      try {
        return await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('scan_jobs')
            .values({ ...job, state: 'running', total: 0, finished_at: null })
            .execute();
          const listed = await sql`
            insert into scan_job_items (job_id, version_id, state, attempts)
            select ${job.id}, id, 'pending', 0 from versions
          `.execute(trx);
          const total = Number(listed.numAffectedRows ?? 0);
          await trx
            .updateTable('scan_jobs')
            .set(total === 0 ? { total, state: 'finished', finished_at: job.started_at } : { total })
            .where('id', '=', job.id)
            .execute();
          return { created: total };
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const winner = await running();
        if (winner) return winner;
        throw error;
      }
    },

    /** A job and its items counted by state; undefined when there is no such job. */
    async job(id: string) {
      const job = await db.selectFrom('scan_jobs').selectAll().where('id', '=', id).executeTakeFirst();
      if (job === undefined) return undefined;
      return (await withCounts([job]))[0];
    },

    /** A page of jobs, the latest started first, each with its items counted by state; and how many there are. */
    async jobs(limit: number, offset: number) {
      const rows = await db
        .selectFrom('scan_jobs')
        .selectAll()
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await db
        .selectFrom('scan_jobs')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return { items: await withCounts(rows), total: Number(total.n) };
    },

    /** Whether any job still has versions to scan: the cheap question every node asks between batches. */
    async anyRunning(): Promise<boolean> {
      return (await db.selectFrom('scan_jobs').select('id').where('state', '=', 'running').limit(1).executeTakeFirst()) !== undefined;
    },

    /**
     * Claims up to `limit` pending versions of running jobs that no live lease holds, writing `owner`'s lease until
     * `leaseUntil`. PostgreSQL skips rows another transaction is claiming (FOR UPDATE SKIP LOCKED); SQLite's
     * transactions hold the database's write lock from their start, so claims run one after the other.
     */
    async claim(owner: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedItem[]> {
      return db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom('scan_job_items as i')
          .innerJoin('scan_jobs as j', 'j.id', 'i.job_id')
          .innerJoin('versions as v', 'v.id', 'i.version_id')
          .select(['i.job_id as jobId', 'i.version_id as versionId', 'v.skill_id as skillId', 'v.sha256', 'v.size'])
          .where('j.state', '=', 'running')
          .where('i.state', '=', 'pending')
          .where((eb) => eb.or([eb('i.lease_until', 'is', null), eb('i.lease_until', '<', now)]))
          .orderBy('j.started_at')
          .orderBy('i.version_id')
          .limit(limit);
        if (dialect === 'postgres') query = query.forUpdate('i').skipLocked();
        const claimed = await query.execute();
        for (const item of claimed) {
          await trx
            .updateTable('scan_job_items')
            .set((eb) => ({ lease_owner: owner, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
            .where('job_id', '=', item.jobId)
            .where('version_id', '=', item.versionId)
            .execute();
        }
        return claimed;
      });
    },

    /** Extends `owner`'s lease on an item it still holds; false when another node has taken it over. */
    async renew(item: { jobId: string; versionId: string }, owner: string, leaseUntil: string): Promise<boolean> {
      const result = await db
        .updateTable('scan_job_items')
        .set({ lease_until: leaseUntil })
        .where('job_id', '=', item.jobId)
        .where('version_id', '=', item.versionId)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Marks an item scanned or failed, if it is still pending (a node that took it over may have finished it). */
    async settle(item: { jobId: string; versionId: string }, state: 'done' | 'failed', error: string | null): Promise<void> {
      await db
        .updateTable('scan_job_items')
        .set({ state, error, lease_owner: null, lease_until: null })
        .where('job_id', '=', item.jobId)
        .where('version_id', '=', item.versionId)
        .where('state', '=', 'pending')
        .execute();
    },

    /** Hands an item back to be claimed again, or fails it for good once it has been claimed `maxAttempts` times. */
    async release(item: { jobId: string; versionId: string }, owner: string, maxAttempts: number, error: string): Promise<void> {
      const held = db
        .updateTable('scan_job_items')
        .where('job_id', '=', item.jobId)
        .where('version_id', '=', item.versionId)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'pending');
      await held.set({ state: 'failed', error, lease_owner: null, lease_until: null }).where('attempts', '>=', maxAttempts).execute();
      await held.set({ error, lease_owner: null, lease_until: null }).where('attempts', '<', maxAttempts).execute();
    },

    /** Finishes every running job that has no pending item left. */
    async finishJobs(now: string): Promise<void> {
      await db
        .updateTable('scan_jobs')
        .set({ state: 'finished', finished_at: now })
        .where('state', '=', 'running')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('scan_job_items')
                .select('version_id')
                .whereRef('scan_job_items.job_id', '=', 'scan_jobs.id')
                .where('scan_job_items.state', '=', 'pending'),
            ),
          ),
        )
        .execute();
    },
  };
}

export type ScansRepository = ReturnType<typeof scansRepository>;
export type VersionScanRecord = NonNullable<Awaited<ReturnType<ScansRepository['find']>>>;
