import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Transfers and renames. `skill_transfers` holds open offers of a skill to a user or an organisation (one per skill);
 * `skill_aliases` the names a skill had before it moved or was renamed, which keep resolving to it until an
 * administrator gives the name away.
 */
export function skillTransfers(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('skill_transfers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('skill_id', 'text', (c) => c.notNull().unique().references('skills.id').onDelete('cascade'))
        .addColumn('to_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('to_org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
        .addColumn('new_slug', 'text')
        .addColumn('offered_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addCheckConstraint('skill_transfers_one_receiver', sql`(to_user_id is null) <> (to_org_id is null)`)
        .execute();
      await db.schema.createIndex('skill_transfers_user').on('skill_transfers').column('to_user_id').execute();
      await db.schema.createIndex('skill_transfers_org').on('skill_transfers').column('to_org_id').execute();
      await db.schema
        .createTable('skill_aliases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('skill_aliases_skill').on('skill_aliases').column('skill_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('skill_aliases').execute();
      await db.schema.dropTable('skill_transfers').execute();
    },
  };
}
