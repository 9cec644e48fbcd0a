import type { Insertable, Kysely } from 'kysely';
import type { AdminAuditTable, Database, ReportResolution, ReportState, SkillReportsTable, SkillStatus, SkillUpdate } from '../schema.js';
import { isUniqueViolation } from './unique-violation.js';

export type { ReportReason, ReportResolution, ReportState } from '../schema.js';

export interface ReportPage {
  state: ReportState;
  limit: number;
  offset: number;
}

/** How an administrator's resolution is written: the reports' closing, the skill's change and the audit rows. */
export interface Resolution {
  skillId: string;
  resolution: ReportResolution;
  note: string | null;
  resolvedBy: string;
  at: string;
  /** The change to the skill row (the hidden mark cleared, a status moved), applied only while its status is `fromStatus`. */
  skill: SkillUpdate;
  fromStatus: SkillStatus;
  audits: Insertable<AdminAuditTable>[];
}

export function reportsRepository(db: Kysely<Database>) {
  /** Distinct users with an open report of the skill. */
  const openReporters = (skillId: string) =>
    db
      .selectFrom('skill_reports')
      .select((eb) => eb.fn.count<number>('reporter_id').distinct().as('n'))
      .where('skill_id', '=', skillId)
      .where('state', '=', 'open');

  return {
    /** Files a report; 'already_open', writing nothing, when the reporter has an open report of the skill. */
    async insert(row: Insertable<SkillReportsTable>): Promise<'inserted' | 'already_open'> {
      try {
        await db.insertInto('skill_reports').values(row).execute();
        return 'inserted';
      } catch (error) {
        if (isUniqueViolation(error)) return 'already_open';
        throw error;
      }
    },

    /**
     * Marks the skill hidden when at least `threshold` distinct users hold open reports of it and it is not hidden
     * yet, with its audit row; true when this call hid it. One statement counts and marks, so of several reports
     * filed at once, the last to commit sees them all.
     */
    async hideIfReported(skillId: string, threshold: number, at: string, audit: Insertable<AdminAuditTable>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('skills')
          .set({ hidden_at: at })
          .where('id', '=', skillId)
          .where('hidden_at', 'is', null)
          .where(openReporters(skillId), '>=', threshold)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx.insertInto('admin_audit').values(audit).execute();
        return true;
      });
    },

    /**
     * Closes every open report of a skill and applies the skill's change with its audit rows, in one transaction.
     * 'none_open' when there was nothing to resolve; 'status_changed' when the skill's status moved meanwhile
     * (nothing is written then).
     */
    async resolve(
      resolution: Resolution,
    ): Promise<{ outcome: 'resolved'; count: number } | { outcome: 'none_open' } | { outcome: 'status_changed' }> {
      return db
        .transaction()
        .execute(async (trx) => {
          const closed = await trx
            .updateTable('skill_reports')
            .set({
              state: 'resolved',
              resolution: resolution.resolution,
              resolution_note: resolution.note,
              resolved_by: resolution.resolvedBy,
              resolved_at: resolution.at,
            })
            .where('skill_id', '=', resolution.skillId)
            .where('state', '=', 'open')
            .executeTakeFirst();
          const count = Number(closed.numUpdatedRows);
          if (count === 0) return { outcome: 'none_open' as const };
          const updated = await trx
            .updateTable('skills')
            .set(resolution.skill)
            .where('id', '=', resolution.skillId)
            .where('status', '=', resolution.fromStatus)
            .executeTakeFirst();
          // Thrown to roll the reports' closing back too; answered below.
          if (Number(updated.numUpdatedRows) === 0) throw new StatusMoved();
          await trx.insertInto('admin_audit').values(resolution.audits).execute();
          return { outcome: 'resolved' as const, count };
        })
        .catch((error: unknown) => {
          if (error instanceof StatusMoved) return { outcome: 'status_changed' as const };
          throw error;
        });
    },

    /** Skills with reports in `state`, most reporters first, then the longest waiting; with their skill's facts. */
    async queue(page: ReportPage) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('skill_reports as r')
          .innerJoin('skills as s', 's.id', 'r.skill_id')
          .innerJoin('users as u', 'u.id', 's.owner_id')
          .where('r.state', '=', page.state)
          .groupBy(['r.skill_id', 's.slug', 's.name', 's.status', 's.hidden_at', 's.owner_id', 'u.username'])
          .select((eb) => [
            'r.skill_id',
            's.slug',
            's.name',
            's.status',
            's.hidden_at',
            's.owner_id',
            'u.username as owner_username',
            eb.fn.count<number>('r.reporter_id').distinct().as('reporters'),
            eb.fn.countAll<number>().as('reports'),
            eb.fn.min<Date | string>('r.created_at').as('first_reported_at'),
            eb.fn.max<Date | string>('r.created_at').as('last_reported_at'),
          ])
          .orderBy('reporters', 'desc')
          .orderBy('first_reported_at', 'asc')
          .orderBy('r.skill_id', 'asc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        db
          .selectFrom('skill_reports')
          .where('state', '=', page.state)
          .select((eb) => eb.fn.count<number>('skill_id').distinct().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      const ids = rows.map((row) => row.skill_id);
      const reasons =
        ids.length === 0
          ? []
          : await db
              .selectFrom('skill_reports')
              .where('state', '=', page.state)
              .where('skill_id', 'in', ids)
              .groupBy(['skill_id', 'reason'])
              .select((eb) => ['skill_id', 'reason', eb.fn.countAll<number>().as('count')])
              .execute();
      return { rows, reasons, total: total.n };
    },

    /** A skill's reports in `state`, newest first, with the reporter's and resolver's names. */
    async listForSkill(skillId: string, page: ReportPage) {
      const filtered = db.selectFrom('skill_reports as r').where('r.skill_id', '=', skillId).where('r.state', '=', page.state);
      const [rows, total] = await Promise.all([
        filtered
          .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
          .leftJoin('users as resolver', 'resolver.id', 'r.resolved_by')
          .select([
            'r.id',
            'r.skill_id',
            'r.reason',
            'r.details',
            'r.state',
            'r.created_at',
            'r.reporter_id',
            'reporter.username as reporter_username',
            'r.resolution',
            'r.resolution_note',
            'r.resolved_by',
            'resolver.username as resolver_username',
            'r.resolved_at',
          ])
          .orderBy('r.created_at', 'desc')
          .orderBy('r.id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: total.n };
    },
  };
}

class StatusMoved extends Error {}

export type ReportsRepository = ReturnType<typeof reportsRepository>;
export type ReportRow = Awaited<ReturnType<ReportsRepository['listForSkill']>>['rows'][number];
export type ReportQueueRow = Awaited<ReturnType<ReportsRepository['queue']>>['rows'][number];
