import { sql, type Kysely, type Selectable } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Database, ScanItemState, ScanJobsTable, SkillUpdate } from '../schema.js';
import { jobsRepository } from './jobs.js';
import { isUniqueViolation } from './unique-violation.js';
import { existingVersions, type ExistingVersion, type ScanWrite } from './versions.js';

/** What writing a scan did: wrote it, or nothing because the version was deleted meanwhile. */
export type ScanRecordWrite = 'written' | 'version_gone';

/** The queued job that rescans one version of a rescan job: its payload. */
export interface RescanPayload {
  job: string;
  version: string;
}

/**
 * Scans of versions and rescan jobs. A job's versions are rows of scan_job_items, each rescanned by a queued job of
 * the job runner (kind given to createJob, payload a RescanPayload), which holds the runner's lease while it runs.
 * Everything a job knows is in these rows: any node answers its progress, and a job survives the nodes that started it.
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
     * Starts a job listing every version there is now, its total their number, and queues a job of `kind` for each in
     * the same transaction, so no job is left without its work. Only one job runs at a time (a partial unique index
     * decides between two started at once): `{ running }` names the one that does.
     */
    async createJob(
      job: { id: string; rules_version: string; requested_by: string; started_at: string },
      kind: string,
    ): Promise<{ created: number } | { running: string }> {
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
            insert into scan_job_items (job_id, version_id, state)
            select ${job.id}, id, 'pending' from versions
          `.execute(trx);
          const total = Number(listed.numAffectedRows ?? 0);
          const payload =
            dialect === 'postgres'
              ? sql<string>`json_build_object('job', i.job_id, 'version', i.version_id)::text`
              : sql<string>`json_object('job', i.job_id, 'version', i.version_id)`;
          await jobsRepository(trx).enqueueAll(
            kind,
            trx
              .selectFrom('scan_job_items as i')
              .innerJoin('scan_jobs as j', 'j.id', 'i.job_id')
              .select([sql<string>`i.job_id || ':' || i.version_id`.as('id'), payload.as('payload'), 'j.started_at as run_at'])
              .where('i.job_id', '=', job.id),
          );
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

    /** The version a job's item rescans, while the item is pending; undefined once settled, or the version deleted. */
    pendingVersion(item: RescanPayload) {
      return db
        .selectFrom('scan_job_items as i')
        .innerJoin('versions as v', 'v.id', 'i.version_id')
        .select(['v.id', 'v.skill_id', 'v.sha256'])
        .where('i.job_id', '=', item.job)
        .where('i.version_id', '=', item.version)
        .where('i.state', '=', 'pending')
        .executeTakeFirst();
    },

    /** Marks an item scanned or failed, if it is still pending (a node that took it over may have finished it). */
    async settle(item: RescanPayload, state: 'done' | 'failed', error: string | null): Promise<void> {
      await db
        .updateTable('scan_job_items')
        .set({ state, error })
        .where('job_id', '=', item.job)
        .where('version_id', '=', item.version)
        .where('state', '=', 'pending')
        .execute();
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
