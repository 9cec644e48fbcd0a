import type { Insertable, Kysely } from 'kysely';
import type { AdminAuditTable, Database } from '../schema.js';
import { isUniqueViolation } from './unique-violation.js';

type Audit = Insertable<AdminAuditTable>;

export interface TransferRow {
  id: string;
  skill_id: string;
  skill_name: string;
  to_user_id: string | null;
  to_org_id: string | null;
  to_handle: string;
  new_slug: string | null;
  offered_by_username: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

/** Where an accepted skill goes: its new whole name and scope, and who owns it there. */
export interface Arrival {
  slug: string;
  scope: string | null;
  org_id: string | null;
  owner_id: string;
  private: number;
}

/** Offers of skills to other owners, and the names skills had before they moved or were renamed. */
export function transfersRepository(db: Kysely<Database>) {
  const offers = (executor: Kysely<Database>) =>
    executor
      .selectFrom('skill_transfers as t')
      .innerJoin('skills as s', 's.id', 't.skill_id')
      .leftJoin('users as u', 'u.id', 't.to_user_id')
      .leftJoin('organisations as o', 'o.id', 't.to_org_id')
      .leftJoin('users as b', 'b.id', 't.offered_by')
      .select([
        't.id',
        't.skill_id',
        's.slug as skill_name',
        't.to_user_id',
        't.to_org_id',
        (eb) => eb.fn.coalesce('u.username', 'o.handle').$castTo<string>().as('to_handle'),
        't.new_slug',
        'b.username as offered_by_username',
        't.created_at',
        't.expires_at',
      ]);

  return {
    /** Offers the skill (replacing an offer still open for it). */
    async offer(row: Insertable<Database['skill_transfers']>, audit: Audit): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('skill_transfers').where('skill_id', '=', row.skill_id).execute();
        await trx.insertInto('skill_transfers').values(row).execute();
        await trx.insertInto('admin_audit').values(audit).execute();
      });
    },

    find(id: string): Promise<TransferRow | undefined> {
      return offers(db).where('t.id', '=', id).executeTakeFirst();
    },

    /** Open offers to a user or to any of the organisations given, of one skill, or made by one user. */
    open(
      to: { userId: string; orgIds: readonly string[] } | { skillId: string } | { offeredBy: string },
      now: string,
    ): Promise<TransferRow[]> {
      const query = offers(db).where('t.expires_at', '>', now).orderBy('t.created_at', 'desc').orderBy('t.id');
      if ('skillId' in to) return query.where('t.skill_id', '=', to.skillId).execute();
      if ('offeredBy' in to) return query.where('t.offered_by', '=', to.offeredBy).execute();
      return query
        .where((eb) =>
          to.orgIds.length === 0
            ? eb('t.to_user_id', '=', to.userId)
            : eb.or([eb('t.to_user_id', '=', to.userId), eb('t.to_org_id', 'in', to.orgIds)]),
        )
        .execute();
    },

    async withdraw(id: string, audit: Audit): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('skill_transfers').where('id', '=', id).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return false;
        await trx.insertInto('admin_audit').values(audit).execute();
        return true;
      });
    },

    /**
     * Moves the skill as an accepted offer says, in one transaction: its whole name, scope and owner change, its old
     * name becomes an alias, the offer is gone. 'gone' when the offer was answered or withdrawn meanwhile; 'name_taken'
     * when a skill or an alias holds the new name (nothing changes then).
     */
    async accept(
      id: string,
      skillId: string,
      oldName: string,
      arrival: Arrival,
      now: string,
      audit: Audit,
    ): Promise<'moved' | 'gone' | 'name_taken'> {
      try {
        return await db.transaction().execute(async (trx) => {
          const removed = await trx.deleteFrom('skill_transfers').where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
          if (Number(removed.numDeletedRows) === 0) return 'gone' as const;
          if (arrival.slug !== oldName) {
            const alias = await trx.selectFrom('skill_aliases').select('skill_id').where('name', '=', arrival.slug).executeTakeFirst();
            if (alias !== undefined && alias.skill_id !== skillId) return 'name_taken' as const;
            await trx.deleteFrom('skill_aliases').where('name', '=', arrival.slug).execute();
            await trx
              .insertInto('skill_aliases')
              .values({ name: oldName, skill_id: skillId, created_at: now })
              .onConflict((oc) => oc.column('name').doNothing())
              .execute();
          }
          await trx
            .updateTable('skills')
            .set({ ...arrival, updated_at: now })
            .where('id', '=', skillId)
            .execute();
          await trx.insertInto('admin_audit').values(audit).execute();
          return 'moved' as const;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'name_taken';
        throw error;
      }
    },

    /** Renames a skill within its scope: its old whole name becomes an alias. */
    async rename(skillId: string, oldName: string, newName: string, now: string, audit: Audit): Promise<'renamed' | 'name_taken'> {
      try {
        return await db.transaction().execute(async (trx) => {
          const alias = await trx.selectFrom('skill_aliases').select('skill_id').where('name', '=', newName).executeTakeFirst();
          if (alias !== undefined && alias.skill_id !== skillId) return 'name_taken' as const;
          await trx.deleteFrom('skill_aliases').where('name', '=', newName).execute();
          await trx.insertInto('skill_aliases').values({ name: oldName, skill_id: skillId, created_at: now }).execute();
          await trx.updateTable('skills').set({ slug: newName, updated_at: now }).where('id', '=', skillId).execute();
          await trx.insertInto('admin_audit').values(audit).execute();
          return 'renamed' as const;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'name_taken';
        throw error;
      }
    },

    /** The skill an old name now leads to, if any. */
    async aliasOf(name: string): Promise<string | undefined> {
      return (await db.selectFrom('skill_aliases').select('skill_id').where('name', '=', name).executeTakeFirst())?.skill_id;
    },

    async aliasesOf(skillId: string): Promise<{ name: string; created_at: Date | string }[]> {
      return db
        .selectFrom('skill_aliases')
        .select(['name', 'created_at'])
        .where('skill_id', '=', skillId)
        .orderBy('created_at', 'desc')
        .execute();
    },

    /** Gives an old name away (an administrator's decision); false when no skill had it. */
    async releaseAlias(name: string, audit: Audit): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('skill_aliases').where('name', '=', name).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return false;
        await trx.insertInto('admin_audit').values(audit).execute();
        return true;
      });
    },
  };
}

export type TransfersRepository = ReturnType<typeof transfersRepository>;
