import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import { appliedMigrations, describeTables, TABLES, type TableSpec } from './tables.js';

/**
 * Copies every row of every registry table from one database to another (SQLite → PostgreSQL is the usual way;
 * any pair works), keeping ids, timestamps and counters as they are.
 *
 * - The target's schema is migrated first; the source must be at the same migration (it is only read).
 * - Tables go in foreign-key order, in batches paged by primary key; each batch is one transaction on the target.
 * - A row whose key is already in the target is left alone when equal and updated when it differs (the source is
 *   the truth), so a second run copies only what changed and a run cut short can simply be repeated.
 * - A target row whose key is not in the source means the target holds data that did not come from this source
 *   (or that the source has deleted since an earlier run): the copy refuses before writing anything, unless told to
 *   delete such rows.
 * - Afterwards the row counts of every table must match, and PostgreSQL identity sequences are moved past the
 *   copied values.
 */

type Row = Record<string, unknown>;

export interface TableResult {
  table: string;
  /** Rows in the source and (after the copy) in the target. */
  source: number;
  target: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Target rows not in the source that were deleted (deleteExtra). */
  deleted: number;
}

export type RowProgress =
  | { kind: 'check'; message: string }
  | { kind: 'table'; table: string; done: number; total: number; inserted: number; updated: number; unchanged: number }
  | { kind: 'table-done'; result: TableResult };

export interface RowCopyOptions {
  /** Rows per batch (and per target transaction). Default 500. */
  batchSize?: number;
  /** Delete target rows whose key is not in the source instead of refusing. */
  deleteExtra?: boolean;
  onProgress?: (event: RowProgress) => void;
}

/** The copy was refused or could not be verified; `details` says where, one line each. */
export class TransferError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(details.length === 0 ? message : `${message}\n${details.map((d) => `  - ${d}`).join('\n')}`);
    this.name = 'TransferError';
  }
}

const DEFAULT_BATCH = 500;

export async function copyRows(source: DatabaseHandle, target: DatabaseHandle, options: RowCopyOptions = {}): Promise<TableResult[]> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 5_000)
    throw new RangeError('batchSize must be a whole number from 1 to 5000.');
  const progress = options.onProgress ?? (() => undefined);

  progress({ kind: 'check', message: 'migrating the target schema' });
  await target.migrate();
  const columns = await checkSchemas(source, target);

  progress({ kind: 'check', message: 'looking for target rows that are not in the source' });
  const deleted = await handleExtraRows(source, target, batchSize, options.deleteExtra === true);

  const results: TableResult[] = [];
  for (const spec of TABLES) {
    const result = await copyTable(source, target, spec, columns.get(spec.name)!, batchSize, progress);
    result.deleted = deleted.get(spec.name) ?? 0;
    results.push(result);
  }
  if (target.dialect === 'postgres') await moveIdentitySequences(target);

  progress({ kind: 'check', message: 'verifying row counts' });
  const mismatches: string[] = [];
  for (const result of results) {
    const spec = TABLES.find((t) => t.name === result.table)!;
    result.source = await count(source.db, spec);
    result.target = await count(target.db, spec);
    if (result.source !== result.target)
      mismatches.push(`${result.table}: ${result.source} rows in the source, ${result.target} in the target`);
  }
  if (mismatches.length > 0) {
    throw new TransferError(
      'The row counts differ after the copy. If the source was being written to meanwhile, stop the registry that uses it and run migrate-data again.',
      mismatches,
    );
  }
  return results;
}

/**
 * Both schemas must be the one this version of the registry knows, at the same migration. Returns the columns to copy,
 * per table: the target's (the source has the same ones).
 */
async function checkSchemas(source: DatabaseHandle, target: DatabaseHandle): Promise<Map<string, string[]>> {
  const [sourceApplied, targetApplied] = await Promise.all([appliedMigrations(source), appliedMigrations(target)]);
  if (sourceApplied.length === 0) {
    throw new TransferError('The source database holds no registry schema (no applied migrations were found). Check --from.');
  }
  const unknown = sourceApplied.filter((name) => !targetApplied.includes(name));
  if (unknown.length > 0) {
    throw new TransferError(
      `The source database has migrations this version of skill-registry does not know (${unknown.join(', ')}); run migrate-data from the same or a newer version.`,
    );
  }
  const missing = targetApplied.filter((name) => !sourceApplied.includes(name));
  if (missing.length > 0) {
    throw new TransferError(
      `The source database's schema is older than this version's (missing ${missing.join(', ')}). Bring it up to date first: DATABASE_URL=<the --from value> skill-registry migrate`,
    );
  }
  const [sourceTables, targetTables] = await Promise.all([describeTables(source), describeTables(target)]);
  const known = new Set(TABLES.map((t) => t.name as string));
  const unlisted = [...targetTables.keys()].filter((name) => !known.has(name));
  if (unlisted.length > 0) {
    throw new TransferError(
      `migrate-data does not know the table(s) ${unlisted.join(', ')} of the current schema; it would not copy them.`,
    );
  }
  for (const spec of TABLES) {
    const wanted = targetTables.get(spec.name);
    const present = new Set(sourceTables.get(spec.name) ?? []);
    if (wanted === undefined) throw new TransferError(`The target has no table ${spec.name} after migrating.`);
    const absent = wanted.filter((column) => !present.has(column));
    if (absent.length > 0) throw new TransferError(`The source table ${spec.name} lacks the column(s) ${absent.join(', ')}.`);
  }
  return targetTables;
}

/**
 * Target rows whose key is not in the source. Refused (with every table's count and a few keys) unless
 * `deleteExtra`, which deletes them, children before parents. Returns how many were deleted per table.
 */
async function handleExtraRows(
  source: DatabaseHandle,
  target: DatabaseHandle,
  batchSize: number,
  deleteExtra: boolean,
): Promise<Map<string, number>> {
  const found: string[] = [];
  const deleted = new Map<string, number>();
  for (const spec of [...TABLES].reverse()) {
    let extra = 0;
    const samples: string[] = [];
    let after: Row | null = null;
    for (;;) {
      const keys = await selectPage(target.db, spec, spec.key, after, batchSize);
      if (keys.length === 0) break;
      after = keys[keys.length - 1]!;
      const present = new Set((await selectByKeys(source.db, spec, spec.key, keys)).map((row) => keyString(spec, row)));
      const missing = keys.filter((row) => !present.has(keyString(spec, row)));
      extra += missing.length;
      for (const row of missing.slice(0, 3 - samples.length)) samples.push(describeKey(spec, row));
      if (deleteExtra && missing.length > 0) await deleteByKeys(target.db, spec, missing);
    }
    if (extra === 0) continue;
    if (deleteExtra) deleted.set(spec.name, extra);
    else found.push(`${spec.name}: ${extra} row(s) not in the source, e.g. ${samples.join('; ')}`);
  }
  if (found.length > 0) {
    throw new TransferError(
      'The target already holds data that is not in the source, so copying could mix two registries. Migrate into an empty database; ' +
        'or, if these rows were copied by an earlier run and the source has deleted them since, run again with --delete-extra.',
      found,
    );
  }
  return deleted;
}

async function copyTable(
  source: DatabaseHandle,
  target: DatabaseHandle,
  spec: TableSpec,
  columns: string[],
  batchSize: number,
  progress: (event: RowProgress) => void,
): Promise<TableResult> {
  const total = await count(source.db, spec);
  const result: TableResult = { table: spec.name, source: total, target: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
  let done = 0;
  let after: Row | null = null;
  for (;;) {
    const rows: Row[] = (await selectPage(source.db, spec, columns, after, batchSize)).map((row) => canonicalRow(spec, row));
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!;
    const existing = new Map(
      (await selectByKeys(target.db, spec, columns, rows)).map((row) => {
        const canonical = canonicalRow(spec, row);
        return [keyString(spec, canonical), canonical] as const;
      }),
    );
    const inserts: Row[] = [];
    const updates: { row: Row; changed: string[] }[] = [];
    for (const row of rows) {
      const current = existing.get(keyString(spec, row));
      if (current === undefined) {
        inserts.push(row);
        continue;
      }
      const changed = columns.filter((column) => !spec.key.includes(column) && current[column] !== row[column]);
      if (changed.length === 0) {
        result.unchanged += 1;
        continue;
      }
      if (spec.identity !== undefined && changed.includes(spec.identity)) {
        throw new TransferError(
          `${spec.name} row ${describeKey(spec, row)} has ${spec.identity} ${String(row[spec.identity])} in the source and ${String(current[spec.identity])} in the target; it cannot be renumbered.`,
        );
      }
      updates.push({ row, changed });
    }
    try {
      await target.db.transaction().execute(async (trx) => {
        if (inserts.length > 0) await insertRows(trx, target.dialect, spec, columns, inserts);
        for (const { row, changed } of updates) await updateRow(trx, spec, row, changed);
      });
    } catch (error) {
      const first = inserts[0] ?? updates[0]?.row;
      throw new TransferError(
        `Writing ${spec.name} to the target failed near ${first ? describeKey(spec, first) : 'the start'}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    result.inserted += inserts.length;
    result.updated += updates.length;
    done += rows.length;
    progress({
      kind: 'table',
      table: spec.name,
      done,
      total,
      inserted: result.inserted,
      updated: result.updated,
      unchanged: result.unchanged,
    });
  }
  result.target = await count(target.db, spec);
  progress({ kind: 'table-done', result });
  return result;
}

/** One value as both databases can bind and compare it: timestamps as ISO 8601 UTC text, big integers as numbers. */
function canonical(value: unknown, timestamp: boolean): unknown {
  if (value instanceof Date) return value.toISOString();
  if (timestamp && typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : new Date(ms).toISOString();
  }
  if (typeof value === 'bigint') return Number(value);
  return value;
}

function canonicalRow(spec: TableSpec, row: Row): Row {
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) out[column] = canonical(value, spec.timestamps.includes(column));
  return out;
}

function keyString(spec: TableSpec, row: Row): string {
  return JSON.stringify(spec.key.map((column) => row[column]));
}

function describeKey(spec: TableSpec, row: Row): string {
  return spec.key.map((column) => `${column}=${String(row[column])}`).join(', ');
}

function columnList(columns: readonly string[]): RawBuilder<unknown> {
  return sql.join(columns.map((column) => sql.ref(column)));
}

function keyTuple(spec: TableSpec): RawBuilder<unknown> {
  return spec.key.length === 1 ? sql.ref(spec.key[0]!) : sql`(${columnList(spec.key)})`;
}

function keyValues(spec: TableSpec, row: Row): RawBuilder<unknown> {
  return spec.key.length === 1 ? sql`${row[spec.key[0]!]}` : sql`(${sql.join(spec.key.map((column) => row[column]))})`;
}

/** One page of `columns` in primary-key order, after the row `after` (keyset paging: no OFFSET scans). */
async function selectPage(
  db: QueryExecutorProvider,
  spec: TableSpec,
  columns: readonly string[],
  after: Row | null,
  limit: number,
): Promise<Row[]> {
  const where = after === null ? sql`` : sql`where ${keyTuple(spec)} > ${keyValues(spec, after)}`;
  const query = sql<Row>`select ${columnList(columns)} from ${sql.table(spec.name)} ${where} order by ${columnList(spec.key)} limit ${limit}`;
  return (await query.execute(db)).rows;
}

async function selectByKeys(db: QueryExecutorProvider, spec: TableSpec, columns: readonly string[], keys: Row[]): Promise<Row[]> {
  if (keys.length === 0) return [];
  const list = sql.join(keys.map((row) => keyValues(spec, row)));
  const query = sql<Row>`select ${columnList(columns)} from ${sql.table(spec.name)} where ${keyTuple(spec)} in (${list})`;
  return (await query.execute(db)).rows;
}

async function deleteByKeys(db: QueryExecutorProvider, spec: TableSpec, keys: Row[]): Promise<void> {
  const list = sql.join(keys.map((row) => keyValues(spec, row)));
  await sql`delete from ${sql.table(spec.name)} where ${keyTuple(spec)} in (${list})`.execute(db);
}

async function insertRows(
  db: QueryExecutorProvider,
  dialect: DatabaseHandle['dialect'],
  spec: TableSpec,
  columns: readonly string[],
  rows: Row[],
): Promise<void> {
  // PostgreSQL refuses a value for an identity column GENERATED ALWAYS unless told that it is meant.
  const overriding = dialect === 'postgres' && spec.identity !== undefined ? sql`overriding system value` : sql``;
  const values = sql.join(rows.map((row) => sql`(${sql.join(columns.map((column) => row[column]))})`));
  await sql`insert into ${sql.table(spec.name)} (${columnList(columns)}) ${overriding} values ${values}`.execute(db);
}

async function updateRow(db: QueryExecutorProvider, spec: TableSpec, row: Row, changed: readonly string[]): Promise<void> {
  const assignments = sql.join(changed.map((column) => sql`${sql.ref(column)} = ${row[column]}`));
  const match = sql.join(
    spec.key.map((column) => sql`${sql.ref(column)} = ${row[column]}`),
    sql` and `,
  );
  await sql`update ${sql.table(spec.name)} set ${assignments} where ${match}`.execute(db);
}

async function count(db: QueryExecutorProvider, spec: TableSpec): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(spec.name)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** After explicit ids were copied into an identity column, the next generated one must come after them. */
async function moveIdentitySequences(target: DatabaseHandle): Promise<void> {
  for (const spec of TABLES) {
    if (spec.identity === undefined) continue;
    const column = spec.identity;
    await sql`select setval(pg_get_serial_sequence(${spec.name}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(spec.name)}`.execute(
      target.db,
    );
  }
}
