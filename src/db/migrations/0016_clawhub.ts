import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * The ClawHub protocol (`clawhub` command line): `clawhub_device_codes` holds device logins waiting for a signed-in
 * user's approval; `clawhub_upload_tickets` the files of a publish, one ticket per file, each bound to its uploader,
 * its declared size and sha256, until it expires; `clawhub_version_digests` each version's content fingerprint and
 * per-file sha256s as the client computes them, worked out once from the stored package. The index on skills finds a
 * skill by its bare slug (`pdf-tools` of `@acme/pdf-tools`), which is how the client names skills.
 */
export function clawhub(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const position = dialect === 'postgres' ? sql`strpos(slug, '/')` : sql`instr(slug, '/')`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('clawhub_device_codes')
        .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_code', 'text', (c) => c.notNull().unique())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('api_key_id', 'text', (c) => c.references('api_keys.id').onDelete('set null'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('polled_at', ts)
        .execute();
      await db.schema.createIndex('clawhub_device_codes_expiry').on('clawhub_device_codes').column('expires_at').execute();
      await db.schema
        .createTable('clawhub_upload_tickets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('uploaded_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('clawhub_upload_tickets_expiry').on('clawhub_upload_tickets').column('expires_at').execute();
      await db.schema
        .createTable('clawhub_version_digests')
        .addColumn('version_id', 'text', (c) => c.primaryKey().references('versions.id').onDelete('cascade'))
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('files', 'text', (c) => c.notNull())
        .execute();
      await sql`create index clawhub_skills_bare_slug on skills ((substr(slug, ${position} + 1)))`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql`drop index clawhub_skills_bare_slug`.execute(db);
      await db.schema.dropTable('clawhub_version_digests').execute();
      await db.schema.dropTable('clawhub_upload_tickets').execute();
      await db.schema.dropTable('clawhub_device_codes').execute();
    },
  };
}
