import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresDriver,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { DatabaseConfig } from '../config.js';
import type { DialectName } from './dialect.js';
import { migrateToLatest, type MigrationReport } from './migrations/index.js';
import { registryPool, type PostgresPoolSettings } from './postgres-pool.js';
import type { Database } from './schema.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The raw SQLite connection; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  /** The SQLite database file, for a second connection in a worker thread; null on PostgreSQL. */
  sqliteFile: string | null;
  migrate(): Promise<MigrationReport>;
  /** `select 1`, failing within PING_TIMEOUT_MS when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A readiness check must answer quickly, whatever the database does. */
export const PING_TIMEOUT_MS = 1_500;

/**
 * PostgreSQL's limits, for deployments and tests that need others than the defaults of postgres-pool.ts
 * (connect 2 s, statement 10 s).
 */
export interface PostgresTuning {
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
}

export interface DatabaseEvents {
  /** A PostgreSQL connection was lost outside a query; the pool replaces it on demand. */
  onConnectionLost?: (error: Error) => void;
}

export function openDatabase(config: DatabaseConfig & PostgresTuning, events: DatabaseEvents = {}): DatabaseHandle {
  if (config.kind === 'sqlite') return openSqlite(config.file);
  return openPostgres({
    url: config.url,
    schema: config.schema,
    connectTimeoutMs: config.connectTimeoutMs,
    statementTimeoutMs: config.statementTimeoutMs,
    onConnectionLost: events.onConnectionLost,
  });
}

function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(connection) }, connection) });
  return {
    db,
    dialect: 'sqlite',
    sqlite: connection,
    sqliteFile: file,
    migrate: () => migrateToLatest(db as Kysely<unknown>, 'sqlite'),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Transactions on SQLite begin IMMEDIATE, taking the write lock up front. A deferred transaction that reads and
 * then writes cannot wait for the lock: if another connection (the call-log writer's) committed in between,
 * SQLite refuses the upgrade at once with SQLITE_BUSY_SNAPSHOT. Taking the lock first lets busy_timeout wait.
 *
 * On some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, SQLITE_BUSY) SQLite may end the transaction itself;
 * a ROLLBACK after that fails with "cannot rollback - no transaction is active", and Kysely would throw that
 * instead of the error that ended the transaction. So the rollback runs only inside a transaction, and its own
 * failure never replaces the error the caller must see.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    settings: SqliteDialectConfig,
    private readonly connection: SQLite.Database,
  ) {
    super(settings);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // A rollback that failed (an I/O error) may have left a transaction open; this one must not run inside it.
    if (this.connection.inTransaction) this.rollbackQuietly();
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override rollbackTransaction(): Promise<void> {
    if (this.connection.inTransaction) this.rollbackQuietly();
    return Promise.resolve();
  }

  private rollbackQuietly(): void {
    try {
      this.connection.exec('rollback');
    } catch {
      // The error that ended the transaction is the one that matters; beginTransaction retries the rollback.
    }
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly connection: SQLite.Database,
  ) {
    super(settings);
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings, this.connection);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; on SQLite, preparing costs as much as a point lookup. The query
 * builder yields the same SQL text for the same query shape, so prepared statements are kept by their text,
 * the least recently used making room. Streaming queries, which would hold a statement open, are not used.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: STATEMENT_CACHE_SIZE });
  return {
    close: () => connection.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = connection.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

function openPostgres(settings: PostgresPoolSettings): DatabaseHandle {
  const pool = registryPool(settings);
  const db = new Kysely<Database>({ dialect: new QuietRollbackPostgresDialect({ pool: pool.kysely }) });
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    sqliteFile: null,
    async migrate() {
      // A migration may build an index over a large table: it runs on connections of its own, without the
      // statement limit that protects requests.
      const migrationPool = registryPool({ ...settings, max: 2, statementTimeoutMs: 0 });
      const migrationDb = new Kysely<unknown>({ dialect: new QuietRollbackPostgresDialect({ pool: migrationPool.kysely }) });
      try {
        // Kysely finds its bookkeeping tables by name in any schema; pinning them to ours keeps another
        // application's migrations in the same database from being mistaken for the registry's.
        const target = settings.schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(migrationDb)).rows[0]?.name;
        return await migrateToLatest(migrationDb, 'postgres', target);
      } finally {
        await migrationDb.destroy();
      }
    },
    ping: () => pool.ping(PING_TIMEOUT_MS),
    async close() {
      await db.destroy();
    },
  };
}

/**
 * A rollback on a connection that has just died fails too ("Client has encountered a connection error"); Kysely
 * would throw that instead of the error that ended the transaction. The failed rollback is dropped here, and
 * the pool closes that connection on release (postgres-pool.ts), so no session with an open transaction is reused.
 */
class QuietRollbackPostgresDriver extends PostgresDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch {
      // See above: the caller sees the error that ended the transaction.
    }
  }
}

class QuietRollbackPostgresDialect extends PostgresDialect {
  constructor(private readonly settings: ConstructorParameters<typeof PostgresDialect>[0]) {
    super(settings);
  }
  override createDriver(): Driver {
    return new QuietRollbackPostgresDriver(this.settings);
  }
}
