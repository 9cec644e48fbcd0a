import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type SqliteDatabase, type SqliteDialectConfig } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { DialectName } from './dialect.js';
import { migrateToLatest, type MigrationReport } from './migrations/index.js';
import type { Database } from './schema.js';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The raw SQLite connection, for the few hot reads that skip the query builder; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  /** The SQLite database file, for a second connection in a worker thread; null on PostgreSQL. */
  sqliteFile: string | null;
  migrate(): Promise<MigrationReport>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'sqlite') return openSqlite(config.file);
  return openPostgres(config.url, config.schema);
}

function openSqlite(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // SQLite's own lower() and LIKE fold ASCII only; search needs Unicode case folding for short words.
  connection.function('unicode_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(connection) }) });
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
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; on SQLite, preparing costs as much as a point lookup. The query
 * builder yields the same SQL text for the same query shape, so prepared statements are kept by their text
 * (least recently used first out). Streaming queries, which would hold a statement open, are not used.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = connection.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

function openPostgres(url: string, schema: string | undefined): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Each test run may live in its own schema; pg_trgm stays in public, so public stays on the path.
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    types: {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        // Counts and bigint counters fit comfortably in a double; strings would leak into the API.
        if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
        return pg.types.getTypeParser(oid, format);
      },
    } as pg.CustomTypesConfig,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    sqliteFile: null,
    async migrate() {
      // Kysely finds its bookkeeping tables by name in any schema; pinning them to ours keeps another
      // application's migrations in the same database from being mistaken for the registry's.
      const target = schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
      return migrateToLatest(db as Kysely<unknown>, 'postgres', target);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/** True when an error is a unique-constraint violation, on either database. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string; message?: string; constraint?: string; detail?: string };
  const unique = e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique || column === undefined) return unique;
  const text = `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`;
  return text.includes(column);
}
