import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Names an administrator allowed although the look-alike rules would refuse them (packages/rules/src/names): a skill
 * slug or a handle, why, by whom and when. The grant is also written to admin_audit.
 */
export function nameAllowances(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('name_allowances')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('granted_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('name_allowances').execute();
    },
  };
}
