import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';

/** What the registry's sessions are called in pg_stat_activity, unless the URL (or PGAPPNAME) names another. */
export const APPLICATION_NAME = 'skill-registry';
/** How long a request waits for a connection (a new one, or a free one of the pool) before it is told 503. */
export const CONNECT_TIMEOUT_MS = 2_000;
/** The server cancels a statement running longer than this; 0 turns the limit off (migrations). */
export const STATEMENT_TIMEOUT_MS = 10_000;
/**
 * A statement the server has not answered this long after its own limit ran out is on a connection that no
 * longer reaches it (a network partition, a failed-over address that swallows packets): given up client-side.
 */
const DEAD_CONNECTION_GRACE_MS = 2_000;

export interface PostgresPoolSettings {
  url: string;
  schema?: string | undefined;
  max?: number;
  connectTimeoutMs?: number | undefined;
  statementTimeoutMs?: number | undefined;
  /** Told when a connection is lost outside a query (a restart, a failover, pg_terminate_backend). */
  onConnectionLost?: ((error: Error) => void) | undefined;
}

export interface RegistryPool {
  /** What Kysely runs its queries through. */
  kysely: PostgresPool;
  /** `select 1` that gives up after `timeoutMs`, for readiness checks. */
  ping(timeoutMs: number): Promise<void>;
  end(): Promise<void>;
}

/**
 * A pg pool that survives its connections dying. pg reports a connection lost while idle as an `error` event
 * of the pool, and one lost while checked out between two queries (inside a transaction) as an `error` event
 * of the client; unheard, either ends the process. Here both are heard, and a client whose connection failed,
 * whose statement went unanswered or whose rollback failed is closed on release instead of going back into
 * the pool, so the next request gets a fresh connection (or, while the database is away, a quick error).
 */
export function registryPool(settings: PostgresPoolSettings): RegistryPool {
  const statementTimeoutMs = settings.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const lost = settings.onConnectionLost ?? (() => undefined);
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.max ?? 10,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    fallback_application_name: APPLICATION_NAME,
    ...(statementTimeoutMs > 0
      ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + DEAD_CONNECTION_GRACE_MS }
      : {}),
    // Each test run may live in its own schema; public stays on the path for pg_trgm, which lives there and
    // which migration 0001 needs for the trigram indexes it builds (0005 drops them).
    ...(settings.schema ? { options: `-c search_path=${settings.schema},public` } : {}),
    types: {
      getTypeParser(oid, format) {
        // Counts and bigint counters fit comfortably in a double; strings would leak into the API.
        if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
        return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
      },
    },
  });
  // The pool removes an idle client that failed and then re-emits the error; the client's own listener
  // below has already reported it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', lost));

  return {
    kysely: {
      async connect() {
        return new GuardedClient(await pool.connect());
      },
      end: () => pool.end(),
    },
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Query read timeout: the database did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const answer = (async () => {
        const client = await pool.connect();
        let failure: Error | undefined;
        try {
          // pg honours a per-query query_timeout that its type declarations do not list.
          const ping: pg.QueryConfig & { query_timeout: number } = { text: 'select 1', query_timeout: timeoutMs };
          await client.query(ping);
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
          throw error;
        } finally {
          client.release(failure);
        }
      })();
      // A late answer (or failure) of a ping already given up on is of no interest.
      answer.catch(() => undefined);
      try {
        await Promise.race([answer, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    end: () => pool.end(),
  };
}

/** A statement error reported by a working server leaves its connection usable; anything else does not. */
function leavesConnectionUsable(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}

class GuardedClient implements PostgresPoolClient {
  #broken: Error | undefined;

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: readonly unknown[]): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') throw new Error('cursors are not used by the registry');
    return this.run<R>(sqlOrCursor, parameters ?? []);
  }

  private async run<R>(text: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    try {
      return (await this.client.query(text, [...parameters])) as unknown as PostgresQueryResult<R>;
    } catch (error) {
      // A failed rollback leaves the session in a state nobody knows: it is not handed to anyone else.
      if (!leavesConnectionUsable(error) || text === 'rollback') this.#broken ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  release(): void {
    this.client.release(this.#broken);
  }
}
