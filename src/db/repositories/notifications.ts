import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, NotificationsTable, OrgRole } from '../schema.js';

export type NotificationRow = Selectable<NotificationsTable>;
export type NewNotification = Insertable<NotificationsTable>;

/**
 * Users' notifications (migration 0018). Built over the database or over a transaction: a notification is written in
 * the transaction of what it tells (a webhook disabled), so it exists exactly when that happened.
 */
export function notificationsRepository(db: Kysely<Database>) {
  return {
    /** Writes notifications, then keeps at most `keep` per recipient: the oldest beyond go, read or not. */
    async insert(rows: readonly NewNotification[], keep: number): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto('notifications')
        .values([...rows])
        .execute();
      for (const userId of new Set(rows.map((r) => r.user_id))) {
        const kept = db
          .selectFrom('notifications')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(keep);
        await db.deleteFrom('notifications').where('user_id', '=', userId).where('id', 'not in', kept).execute();
      }
    },

    /** A page of a user's notifications, the newest first, with their total and how many are unread. */
    async list(userId: string, limit: number, offset: number): Promise<{ rows: NotificationRow[]; total: number; unread: number }> {
      const rows = await db
        .selectFrom('notifications')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const counts = await db
        .selectFrom('notifications')
        .select((eb) => [
          eb.fn.countAll<string | number>().as('total'),
          eb.fn.count<string | number>('id').filterWhere('read_at', 'is', null).as('unread'),
        ])
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { rows, total: Number(counts.total), unread: Number(counts.unread) };
    },

    find(userId: string, id: string): Promise<NotificationRow | undefined> {
      return db.selectFrom('notifications').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    },

    /** Marks one of a user's notifications read (kept as first read if it was already). Whether it is theirs. */
    async markRead(userId: string, id: string, at: string): Promise<boolean> {
      const row = await this.find(userId, id);
      if (row === undefined) return false;
      await db.updateTable('notifications').set({ read_at: at }).where('id', '=', id).where('read_at', 'is', null).execute();
      return true;
    },

    /** Marks every unread notification of a user read; how many were. */
    async markAllRead(userId: string, at: string): Promise<number> {
      const result = await db
        .updateTable('notifications')
        .set({ read_at: at })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Removes the notifications read before `before`; how many. */
    async pruneRead(before: string): Promise<number> {
      const result = await db.deleteFrom('notifications').where('read_at', 'is not', null).where('read_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The members of an organisation now, with their roles; disabled accounts left out. */
    orgMembers(orgId: string): Promise<{ user_id: string; role: OrgRole }[]> {
      return db
        .selectFrom('org_members')
        .innerJoin('users', 'users.id', 'org_members.user_id')
        .select(['org_members.user_id', 'org_members.role'])
        .where('org_members.org_id', '=', orgId)
        .where('users.disabled', '=', 0)
        .execute();
    },

    async orgHandle(orgId: string): Promise<string | undefined> {
      const row = await db.selectFrom('organisations').select('handle').where('id', '=', orgId).executeTakeFirst();
      return row?.handle;
    },

    /** An account's role, or undefined when it is gone or disabled. */
    async activeRole(userId: string): Promise<string | undefined> {
      const row = await db.selectFrom('users').select('role').where('id', '=', userId).where('disabled', '=', 0).executeTakeFirst();
      return row?.role;
    },

    /** The administrators whose accounts are not disabled. */
    async admins(): Promise<string[]> {
      const rows = await db.selectFrom('users').select('id').where('role', '=', 'admin').where('disabled', '=', 0).execute();
      return rows.map((r) => r.id);
    },
  };
}

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
