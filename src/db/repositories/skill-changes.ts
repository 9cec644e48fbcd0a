import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Database } from '../schema.js';

export interface SkillChange {
  seq: number;
  skillId: string;
}

/** Entries read at once: a node far behind catches up in several reads rather than one huge one. */
export const CHANGES_PAGE = 5_000;

/**
 * The change log the search index follows (written by triggers on `skills`, see migration 0006).
 */
export function skillChangesRepository(db: Kysely<Database>, dialect: DialectName) {
  return {
    /**
     * How far behind the newest entry a new one may still appear. On PostgreSQL an entry's number is taken when
     * its transaction writes it, not when it commits, so it may become visible behind entries already read; on
     * SQLite writes are serialised and entries appear in order.
     */
    lateWindow: dialect === 'postgres' ? 1_000 : 0,

    /** Entries after `seq`, oldest first, at most CHANGES_PAGE of them. */
    async since(seq: number): Promise<SkillChange[]> {
      const rows = await db
        .selectFrom('skill_changes')
        .select(['seq', 'skill_id'])
        .where('seq', '>', seq)
        .orderBy('seq')
        .limit(CHANGES_PAGE)
        .execute();
      return rows.map((row) => ({ seq: Number(row.seq), skillId: row.skill_id }));
    },

    /** The oldest and newest entry (0 for an empty log). */
    async horizon(): Promise<{ first: number; last: number }> {
      const row = await db
        .selectFrom('skill_changes')
        .select((eb) => [eb.fn.min('seq').as('first'), eb.fn.max('seq').as('last')])
        .executeTakeFirstOrThrow();
      // min() and max() over an empty table are null, whatever the column's type says.
      const { first, last } = row as { first: number | string | null; last: number | string | null };
      return { first: Number(first ?? 0), last: Number(last ?? 0) };
    },

    /** Drops the entries up to `seq`. */
    async prune(seq: number): Promise<void> {
      await db.deleteFrom('skill_changes').where('seq', '<=', seq).execute();
    },
  };
}

export type SkillChangesRepository = ReturnType<typeof skillChangesRepository>;
