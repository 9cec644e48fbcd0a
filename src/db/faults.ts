/**
 * Database failures that are not the caller's doing, told apart from bugs so the HTTP layer can say what happened
 * (503 while the database is away, 507 when it has no room) instead of a bare 500.
 */

/** PostgreSQL SQLSTATE classes and codes that mean "the server is not there or not taking work right now". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a restart, a failover
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '53300', // too_many_connections
  '57014', // query_canceled: the statement outlived the statement timeout (a database too busy or locked)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** Socket errors a driver passes through when the database's address does not answer. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * pg reports a lost connection, a pool that could not get one in time and a statement left unanswered by
 * message alone ("Connection terminated unexpectedly", "… due to connection timeout", "Query read timeout").
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'terminating connection due to administrator command',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
  // A host name with several addresses fails with one AggregateError holding each address's refusal.
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable)) return true;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/** SQLite's "database or disk is full", PostgreSQL's disk_full and the file system's own codes. */
export function isDatabaseFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT';
}
