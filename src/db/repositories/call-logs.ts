import { sql, type Kysely } from 'kysely';
import { sqliteBackgroundWriter, type BackgroundWriter } from '../log-writer.js';
import type { CallLogRow, Database, PendingCallLog } from '../schema.js';

export type { CallLogRow, PendingCallLog };

export interface CallLogFilter {
  userId?: string;
  from?: string;
  to?: string;
  status?: { min: number; max: number };
  method?: string;
  limit: number;
  offset: number;
}

const INSERT_BATCH = 1000;
const PRUNE_BATCH = 5000;

const COLUMNS = [
  'request_id',
  'user_id',
  'method',
  'path',
  'route',
  'status_code',
  'duration_ms',
  'ip',
  'user_agent',
  'auth',
  'api_key_id',
  'created_at',
] as const;

/**
 * The call log is the busiest write in the registry (one row per authenticated request), so its batch insert
 * skips the query builder. On SQLite a worker thread with its own connection runs one prepared statement per
 * row (positional parameters, which bind faster than named ones) inside one transaction, keeping the inserts and
 * the checkpoints they cause off the event loop; on PostgreSQL one statement per batch unpacks a JSON array. A
 * request id already stored is skipped, so a retried batch is safe.
 */
function batchInserter(
  db: Kysely<Database>,
  sqliteFile: string | null,
): { insert: (entries: readonly PendingCallLog[]) => Promise<void>; writer: BackgroundWriter | null } {
  if (sqliteFile !== null) {
    const writer = sqliteBackgroundWriter(
      sqliteFile,
      `insert into call_logs (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')}) on conflict (request_id) do nothing`,
      COLUMNS.length,
      [COLUMNS.indexOf('created_at')],
    );
    const insert = (entries: readonly PendingCallLog[]) => {
      const values: unknown[] = [];
      for (const entry of entries) for (const column of COLUMNS) values.push(entry[column] ?? null);
      return writer.write(values);
    };
    return { insert, writer };
  }
  const insert = async (entries: readonly PendingCallLog[]) => {
    for (let i = 0; i < entries.length; i += INSERT_BATCH) {
      // One JSON text per batch: serialised natively and unpacked by the server, where building one array per
      // column and escaping every element in JavaScript cost the event loop four times as much.
      const batch = JSON.stringify(entries.slice(i, i + INSERT_BATCH));
      await sql`
        insert into call_logs (${sql.raw(COLUMNS.join(', '))})
        select request_id, user_id, method, path, route, status_code, duration_ms, ip, user_agent, auth, api_key_id,
               to_timestamp(created_at / 1000.0)
        from json_to_recordset(${batch}::json) as r(
          request_id text, user_id text, method text, path text, route text, status_code int, duration_ms float8,
          ip text, user_agent text, auth text, api_key_id text, created_at float8
        )
        on conflict (request_id) do nothing
      `.execute(db);
    }
  };
  return { insert, writer: null };
}

/** The smallest UUIDv7 of the given millisecond: every id made at or after it sorts at or above it. */
export function uuidv7Floor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

export function callLogsRepository(db: Kysely<Database>, sqliteFile: string | null) {
  const { insert, writer } = batchInserter(db, sqliteFile);
  return {
    insertMany: insert,

    /** Stops the background writer, if there is one; call after the last batch. */
    async close(): Promise<void> {
      await writer?.close();
    },

    async list(filter: CallLogFilter): Promise<{ rows: CallLogRow[]; total: number }> {
      let query = db.selectFrom('call_logs');
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
      if (filter.status !== undefined) {
        query = query.where('status_code', '>=', filter.status.min).where('status_code', '<=', filter.status.max);
      }
      if (filter.method !== undefined) query = query.where('method', '=', filter.method);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('created_at', 'desc').orderBy('request_id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: count.n };
    },

    find(requestId: string): Promise<CallLogRow | undefined> {
      return db.selectFrom('call_logs').selectAll().where('request_id', '=', requestId).executeTakeFirst();
    },

    /**
     * Deletes entries older than `before`, a batch at a time so no statement holds the table for long.
     * Request ids are UUIDv7, whose leading 48 bits are the arrival time in milliseconds, so "older than"
     * is a range of the primary key and needs no index of its own.
     */
    async prune(before: string): Promise<number> {
      const boundary = uuidv7Floor(Date.parse(before));
      let removed = 0;
      for (;;) {
        const batch = db.selectFrom('call_logs').select('request_id').where('request_id', '<', boundary).limit(PRUNE_BATCH);
        const result = await db.deleteFrom('call_logs').where('request_id', 'in', batch).executeTakeFirst();
        const n = Number(result.numDeletedRows);
        removed += n;
        if (n < PRUNE_BATCH) return removed;
      }
    },

    /** For tests and operators: how many entries there are in all. */
    async count(): Promise<number> {
      const row = await db
        .selectFrom('call_logs')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}

export type CallLogsRepository = ReturnType<typeof callLogsRepository>;
