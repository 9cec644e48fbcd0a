import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AdminAuditTable, Database, NameAllowancesTable } from '../schema.js';

export type NameAllowanceRow = Selectable<NameAllowancesTable>;

/** Names administrators allowed past the look-alike rules. */
export function nameAllowancesRepository(db: Kysely<Database>) {
  return {
    async isAllowed(name: string): Promise<boolean> {
      return (await db.selectFrom('name_allowances').select('name').where('name', '=', name).executeTakeFirst()) !== undefined;
    },

    find(name: string): Promise<NameAllowanceRow | undefined> {
      return db.selectFrom('name_allowances').selectAll().where('name', '=', name).executeTakeFirst();
    },

    /** A page of allowances, the newest first, and how many there are. */
    async list(limit: number, offset: number): Promise<{ rows: NameAllowanceRow[]; total: number }> {
      const rows = await db
        .selectFrom('name_allowances')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('name')
        .limit(limit)
        .offset(offset)
        .execute();
      const counted = await db
        .selectFrom('name_allowances')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(counted.n) };
    },

    /** Records an allowance (a name allowed again takes the new reason, grantor and time) with its audit row, in one transaction. */
    async grant(row: Insertable<NameAllowancesTable> & { created_at: string }, audit: Insertable<AdminAuditTable>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('name_allowances')
          .values(row)
          .onConflict((oc) => oc.column('name').doUpdateSet({ reason: row.reason, granted_by: row.granted_by, created_at: row.created_at }))
          .execute();
        await trx.insertInto('admin_audit').values(audit).execute();
      });
    },

    /** Withdraws an allowance with its audit row; false when the name had none. */
    async delete(name: string, audit: Insertable<AdminAuditTable>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('name_allowances').where('name', '=', name).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx.insertInto('admin_audit').values(audit).execute();
        return true;
      });
    },
  };
}

export type NameAllowancesRepository = ReturnType<typeof nameAllowancesRepository>;
