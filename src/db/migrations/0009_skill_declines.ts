import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * A reviewer's decline of a draft: the reason its owner reads and when it was given. Kept on the skill row (the
 * latest decline only; every one is also in admin_audit), so the skill object carries it, the skill_changes
 * triggers log setting and clearing it like any other change of a skill, and the review queue tells waiting drafts
 * from those with changes requested without a join.
 */
export function skillDeclines(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('skills').addColumn('declined_at', ts).execute();
      await db.schema.alterTable('skills').addColumn('decline_reason', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('skills').dropColumn('decline_reason').execute();
      await db.schema.alterTable('skills').dropColumn('declined_at').execute();
    },
  };
}
