import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** Feedback on skills, and the per-user call log. */
export function feedbackAndLogs(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const real = dialect === 'postgres' ? sql`double precision` : sql`real`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('feedback')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
        .addColumn('version', 'text')
        .addColumn('rating', 'integer', (c) => c.check(sql`rating between 1 and 5`))
        .addColumn('comment', 'text')
        .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await sql`create index feedback_skill on feedback (skill_id, created_at desc, id desc)`.execute(db);

      // The log takes a row per authenticated request, so every index is paid for on the busiest write path:
      // the primary key (request ids are UUIDv7, so it is also the time order that pruning walks) and the one
      // index the list query needs. On SQLite the table is clustered on its key (WITHOUT ROWID), one B-tree
      // fewer. No foreign keys: a batch must not fail (or slow down) over the users table.
      let table = db.schema
        .createTable('call_logs')
        .addColumn('request_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('route', 'text')
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', real, (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('created_at', ts, (c) => c.notNull());
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
      await sql`create index call_logs_user_time on call_logs (user_id, created_at desc, request_id desc)`.execute(db);
    },
  };
}
