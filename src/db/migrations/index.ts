import { Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { DialectName } from '../dialect.js';
import { initial } from './0001_initial.js';
import { versions } from './0002_versions.js';
import { feedbackAndLogs } from './0003_feedback_and_logs.js';
import { categorySortIndexes } from './0004_category_sort_indexes.js';
import { dropTextSearchIndexes } from './0005_drop_text_search_indexes.js';
import { skillChanges } from './0006_skill_changes.js';
import { versionScans } from './0007_version_scans.js';
import { reports } from './0008_reports.js';
import { skillDeclines } from './0009_skill_declines.js';
import { fileModes } from './0010_file_modes.js';
import { jobs } from './0011_jobs.js';
import { rescanQueue } from './0012_rescan_queue.js';
import { nameAllowances } from './0013_name_allowances.js';
import { organisations } from './0014_organisations.js';
import { skillTransfers } from './0015_skill_transfers.js';
import { clawhub } from './0016_clawhub.js';
import { changeFeed } from './0017_change_feed.js';
import { notifications } from './0018_notifications.js';

/**
 * Migrations live in code, keyed by a sortable version name, so a built package carries them and no
 * file-system scan is needed. Append new ones; never edit one that has shipped.
 */
function migrationsFor(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_initial': initial(dialect),
    '0002_versions': versions(dialect),
    '0003_feedback_and_logs': feedbackAndLogs(dialect),
    '0004_category_sort_indexes': categorySortIndexes(),
    '0005_drop_text_search_indexes': dropTextSearchIndexes(dialect),
    '0006_skill_changes': skillChanges(dialect),
    '0007_version_scans': versionScans(dialect),
    '0008_reports': reports(dialect),
    '0009_skill_declines': skillDeclines(dialect),
    '0010_file_modes': fileModes(),
    '0011_jobs': jobs(dialect),
    '0012_rescan_queue': rescanQueue(dialect),
    '0013_name_allowances': nameAllowances(dialect),
    '0014_organisations': organisations(dialect),
    '0015_skill_transfers': skillTransfers(dialect),
    '0016_clawhub': clawhub(dialect),
    '0017_change_feed': changeFeed(dialect),
    '0018_notifications': notifications(dialect),
  };
}

class InCodeProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrationsFor(this.dialect));
  }
}

export interface MigrationReport {
  applied: string[];
}

/**
 * The registry's migrator over `db`. With `schema` (PostgreSQL), its bookkeeping tables are looked for in that
 * schema only: Kysely otherwise looks across every schema unless told which one is ours.
 */
export function registryMigrator(db: Kysely<unknown>, dialect: DialectName, schema?: string): Migrator {
  return new RetryingMigrator({ db, provider: new InCodeProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) }, schema);
}

/**
 * Kysely's introspection reads every schema's tables in one catalog query; a schema that another client drops, or a
 * table or column another client changes, during that query makes it fail with "schema does not exist" (3F000),
 * "relation does not exist" (42P01) or "column does not exist" (42703) although ours is fine. Nothing is applied by
 * then (the answer holds no results), so each way of migrating looks again, up to three times.
 */
class RetryingMigrator extends Migrator {
  constructor(
    props: ConstructorParameters<typeof Migrator>[0],
    private readonly schema: string | undefined,
  ) {
    super(props);
  }

  private async retried(run: () => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
    let outcome = await run();
    for (let attempt = 1; attempt <= 3 && outcome.error && isCatalogRace(outcome, this.schema); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      outcome = await run();
    }
    return outcome;
  }

  override migrateToLatest(): Promise<MigrationResultSet> {
    return this.retried(() => super.migrateToLatest());
  }

  override migrateTo(target: Parameters<Migrator['migrateTo']>[0]): Promise<MigrationResultSet> {
    return this.retried(() => super.migrateTo(target));
  }

  override migrateUp(): Promise<MigrationResultSet> {
    return this.retried(() => super.migrateUp());
  }

  override migrateDown(): Promise<MigrationResultSet> {
    return this.retried(() => super.migrateDown());
  }
}

export interface MigrationReport {
  applied: string[];
}

/**
 * Brings the schema up to date. Kysely's migrator takes a lock (an advisory lock on PostgreSQL, a lock row on
 * SQLite) inside a transaction, so several nodes starting at once apply each migration exactly once.
 */
export async function migrateToLatest(db: Kysely<unknown>, dialect: DialectName, schema?: string): Promise<MigrationReport> {
  const { error, results } = await registryMigrator(db, dialect, schema).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

function isCatalogRace(outcome: MigrationResultSet, ours: string | undefined): boolean {
  const e = outcome.error as { code?: string; message?: string };
  if (e.code === '3F000') return ours === undefined || !String(e.message).includes(`"${ours}"`);
  // A failed migration answers with its results; without them the error came from looking, before anything ran.
  return (e.code === '42P01' || e.code === '42703') && outcome.results === undefined;
}
