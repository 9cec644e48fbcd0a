import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * In-app notifications: what the registry tells a user about their things when there is nobody to mail (a webhook it
 * disabled). One row per recipient, so each reads and keeps their own; a deleted user's go with them. The index serves
 * a user's list (newest first) and the count of the unread.
 */
export function notifications(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('subject_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('read_at', ts)
        .execute();
      await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('notifications').execute();
    },
  };
}
