import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * Every table of the registry's schema, in an order that respects foreign keys (a table comes after every table it
 * references), with what a copy needs to know about it. A migration that adds a table must add it here: the copy
 * refuses a schema holding a table this list does not name, and a test checks the list against the migrations.
 */
export interface TableSpec {
  name: keyof Database;
  /** The primary key: rows are matched, ordered and paged by it. */
  key: readonly string[];
  /** Timestamp columns: ISO text on SQLite, timestamptz on PostgreSQL; compared as instants. */
  timestamps: readonly string[];
  /** An integer column the database generates (PostgreSQL identity): copied as it is, then the sequence moved past it. */
  identity?: string;
}

export const TABLES: readonly TableSpec[] = [
  { name: 'users', key: ['id'], timestamps: ['created_at', 'updated_at'] },
  { name: 'sessions', key: ['id'], timestamps: ['created_at', 'expires_at'] },
  { name: 'api_keys', key: ['id'], timestamps: ['created_at', 'last_used_at', 'expires_at', 'revoked_at'] },
  { name: 'organisations', key: ['id'], timestamps: ['created_at', 'updated_at'] },
  { name: 'org_members', key: ['org_id', 'user_id'], timestamps: ['created_at'] },
  { name: 'org_invitations', key: ['id'], timestamps: ['created_at', 'expires_at'] },
  { name: 'skills', key: ['id'], timestamps: ['created_at', 'updated_at', 'published_at', 'hidden_at'], identity: 'seq' },
  { name: 'skill_tags', key: ['skill_id', 'tag'], timestamps: [] },
  { name: 'skill_transfers', key: ['id'], timestamps: ['created_at', 'expires_at'] },
  { name: 'skill_aliases', key: ['name'], timestamps: ['created_at'] },
  { name: 'admin_audit', key: ['id'], timestamps: ['created_at'] },
  { name: 'versions', key: ['id'], timestamps: ['created_at'] },
  { name: 'version_files', key: ['version_id', 'path'], timestamps: [] },
  { name: 'version_scans', key: ['version_id'], timestamps: ['scanned_at', 'explained_at'] },
  { name: 'download_counts', key: ['version_id', 'day'], timestamps: [] },
  { name: 'feedback', key: ['id'], timestamps: ['created_at'] },
  { name: 'skill_reports', key: ['id'], timestamps: ['created_at', 'resolved_at'] },
  { name: 'call_logs', key: ['request_id'], timestamps: ['created_at'] },
  { name: 'scan_jobs', key: ['id'], timestamps: ['started_at', 'finished_at'] },
  { name: 'scan_job_items', key: ['job_id', 'version_id'], timestamps: [] },
  { name: 'queued_jobs', key: ['id'], timestamps: ['run_at', 'created_at'] },
  { name: 'name_allowances', key: ['name'], timestamps: ['created_at'] },
  { name: 'webhooks', key: ['id'], timestamps: ['created_at', 'updated_at', 'disabled_at'] },
  { name: 'webhook_deliveries', key: ['id'], timestamps: ['created_at', 'finished_at'] },
  { name: 'webhook_attempts', key: ['delivery_id', 'attempt'], timestamps: ['attempted_at'] },
  { name: 'notifications', key: ['id'], timestamps: ['created_at', 'read_at'] },
  { name: 'clawhub_device_codes', key: ['device_code_hash'], timestamps: ['created_at', 'expires_at', 'polled_at'] },
  { name: 'clawhub_upload_tickets', key: ['id'], timestamps: ['uploaded_at', 'created_at', 'expires_at'] },
  { name: 'clawhub_version_digests', key: ['version_id'], timestamps: [] },
];

/**
 * Tables that are not the registry's data: the migrator's bookkeeping, SQLite's own tables, the former FTS5
 * search table (skills_fts and its shadow tables), which SQLite databases not yet migrated to 0005 still hold,
 * the change log of skills (written by triggers as the skills are copied in, so it is not copied itself), and the job
 * runner's leases (held by the nodes of the source, which the copy's nodes never were).
 */
function isBookkeeping(name: string): boolean {
  return (
    name.startsWith('kysely_migration') ||
    name.startsWith('skills_fts') ||
    name.startsWith('sqlite_') ||
    name === 'skill_changes' ||
    // The change feed is written by triggers as the rows are copied in, like skill_changes: a copy's feed starts
    // afresh, and the webhooks' dispatcher starts at its end (migration 0017).
    name === 'change_feed' ||
    name === 'webhook_dispatch' ||
    name === 'job_leases'
  );
}

/** The data tables of a database and their columns, as the database itself describes them. */
export async function describeTables(handle: DatabaseHandle): Promise<Map<string, string[]>> {
  let schema: string | undefined;
  if (handle.dialect === 'postgres') {
    schema = (await sql<{ name: string }>`select current_schema() as name`.execute(handle.db)).rows[0]?.name;
  }
  const tables = await handle.db.introspection.getTables();
  const described = new Map<string, string[]>();
  for (const table of tables) {
    if (table.isView || isBookkeeping(table.name)) continue;
    if (schema !== undefined && table.schema !== schema) continue;
    described.set(
      table.name,
      table.columns.map((c) => c.name),
    );
  }
  return described;
}

/** The migrations a database has applied, by name, in order. */
export async function appliedMigrations(handle: DatabaseHandle): Promise<string[]> {
  try {
    const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
    return result.rows.map((r) => r.name);
  } catch (error) {
    // No bookkeeping table: a database the registry has never migrated. Anything else (unreachable…) is a failure.
    const e = error as { code?: string; message?: string };
    if (e.code === '42P01' || /no such table/i.test(String(e.message))) return [];
    throw error;
  }
}
