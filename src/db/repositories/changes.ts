import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** One change-feed entry as stored (migration 0017). */
export interface ChangeRow {
  seq: number;
  type: string;
  occurred_at: Date | string;
  skill_id: string;
  skill_name: string;
  owner_id: string;
  org_id: string | null;
  prev_owner_id: string | null;
  prev_org_id: string | null;
  version: string | null;
  was_public: number;
  is_public: number;
}

/**
 * Whose changes a read may return: every one (an administrator, the webhooks' dispatcher), or a viewer's: the changes
 * of skills public now, the entries that tell of a public skill leaving (`dropTypes` with `was_public`), and, for a
 * signed-in viewer, the changes of skills they or their organisations own now or owned when the change was made.
 */
export type ChangeAudience = { all: true } | { all: false; userId: string | null; orgIds: readonly string[]; dropTypes: readonly string[] };

/**
 * The change feed. Entries are written only by the triggers of migration 0017, which on PostgreSQL take their numbers
 * in commit order (see there): whatever a read sees is every entry up to the highest number it sees.
 */
export function changesRepository(db: Kysely<Database>) {
  return {
    /** The newest entry's number (0 for an empty feed). */
    async head(): Promise<number> {
      const row = await db
        .selectFrom('change_feed')
        .select((eb) => eb.fn.max('seq').as('last'))
        .executeTakeFirstOrThrow();
      return Number((row as { last: number | string | null }).last ?? 0);
    },

    /** Up to `limit` entries after `since` and at most `upTo`, oldest first, that `audience` may see. */
    async page(since: number, upTo: number, limit: number, audience: ChangeAudience): Promise<ChangeRow[]> {
      let query = db.selectFrom('change_feed as f').selectAll('f').where('f.seq', '>', since).where('f.seq', '<=', upTo);
      if (!audience.all) {
        const { userId, orgIds, dropTypes } = audience;
        query = query.leftJoin('skills as s', 's.id', 'f.skill_id').where((eb) => {
          const mine = (owner: 'f.owner_id' | 'f.prev_owner_id' | 's.owner_id', org: 'f.org_id' | 'f.prev_org_id' | 's.org_id') => {
            const own = userId === null ? [] : [eb.and([eb(owner, '=', userId), eb(org, 'is', null)])];
            const orgs = orgIds.length === 0 ? [] : [eb(org, 'in', orgIds)];
            return [...own, ...orgs];
          };
          return eb.or([
            eb.and([eb('s.status', '=', 'published'), eb('s.hidden_at', 'is', null), eb('s.private', '=', 0)]),
            eb.and([eb('f.type', 'in', dropTypes), eb('f.was_public', '=', 1)]),
            ...mine('s.owner_id', 's.org_id'),
            ...mine('f.owner_id', 'f.org_id'),
            ...mine('f.prev_owner_id', 'f.prev_org_id'),
          ]);
        });
      }
      const rows = await query.orderBy('f.seq').limit(limit).execute();
      return rows;
    },

    /** Every entry after `since`, oldest first, at most `limit`: what the webhooks' dispatcher reads. */
    async after(since: number, limit: number): Promise<ChangeRow[]> {
      const rows = await db.selectFrom('change_feed').selectAll().where('seq', '>', since).orderBy('seq').limit(limit).execute();
      return rows;
    },

    /** Entries of one skill, oldest first (tests and operators). */
    async ofSkill(skillId: string): Promise<ChangeRow[]> {
      const rows = await db
        .selectFrom('change_feed')
        .selectAll()
        .where('skill_id', '=', skillId)
        .orderBy(sql`seq`)
        .execute();
      return rows;
    },
  };
}

export type ChangesRepository = ReturnType<typeof changesRepository>;
