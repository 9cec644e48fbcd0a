import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Users' reports of skills, and the mark a skill carries while enough of them wait for review (`hidden_at`).
 * The mark lives on the skill row, so setting or clearing it is logged in skill_changes like any other change of
 * a skill, and every node's search index and caches follow it.
 */
export function reports(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('skills').addColumn('hidden_at', ts).execute();
      await db.schema
        .createTable('skill_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('skill_id', 'text', (c) => c.notNull().references('skills.id').onDelete('cascade'))
        .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('reason', 'text', (c) =>
          c
            .notNull()
            .check(sql`reason in ('malware', 'security', 'spam', 'impersonation', 'inappropriate', 'copyright', 'broken', 'other')`),
        )
        .addColumn('details', 'text')
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('open', 'resolved')`))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('resolution', 'text', (c) => c.check(sql`resolution in ('dismissed', 'actioned')`))
        .addColumn('resolution_note', 'text')
        .addColumn('resolved_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('resolved_at', ts)
        .execute();
      // One open report per user and skill: the index decides when two reports race.
      await sql`create unique index skill_reports_open on skill_reports (skill_id, reporter_id) where state = 'open'`.execute(db);
      // The administrators' queue groups a state's reports by skill.
      await sql`create index skill_reports_state on skill_reports (state, skill_id, created_at)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('skill_reports').execute();
      await db.schema.alterTable('skills').dropColumn('hidden_at').execute();
    },
  };
}
