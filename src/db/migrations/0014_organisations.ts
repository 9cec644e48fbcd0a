import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Organisations, their members and invitations, and skills owned by one or named in a scope.
 *
 * A scoped skill keeps its whole name (`@acme/pdf-tools`) in `skills.slug`, whose unique index then says both rules at
 * once: an unscoped slug is unique among unscoped skills (none starts with `@`), a scoped one within its scope. `scope`
 * holds the handle, `org_id` the owning organisation (null: the skill's user owns it), `private` whether only the
 * organisation's members see it. Every existing skill stays unscoped and owned by its user.
 */
export function organisations(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('organisations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('org_members')
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'publisher')`))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('org_members_pk', ['org_id', 'user_id'])
        .execute();
      await db.schema.createIndex('org_members_user').on('org_members').columns(['user_id', 'org_id']).execute();
      await db.schema
        .createTable('org_invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'publisher')`))
        .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .execute();
      // One open invitation per person and organisation: inviting again replaces it.
      await db.schema.createIndex('org_invitations_invitee').on('org_invitations').columns(['org_id', 'user_id']).unique().execute();
      await db.schema.createIndex('org_invitations_user').on('org_invitations').columns(['user_id', 'expires_at']).execute();

      await db.schema.alterTable('skills').addColumn('scope', 'text').execute();
      // No foreign key: SQLite could not drop the column again. An organisation that owns skills is not deleted
      // (domain/orgs), which keeps the reference good.
      await db.schema.alterTable('skills').addColumn('org_id', 'text').execute();
      await db.schema
        .alterTable('skills')
        .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index skills_org on skills (org_id, updated_at desc, id desc)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`drop index skills_org`.execute(db);
      for (const column of ['private', 'org_id', 'scope']) await db.schema.alterTable('skills').dropColumn(column).execute();
      await db.schema.dropTable('org_invitations').execute();
      await db.schema.dropTable('org_members').execute();
      await db.schema.dropTable('organisations').execute();
    },
  };
}
