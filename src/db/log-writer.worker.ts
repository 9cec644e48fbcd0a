// A worker thread that owns a second SQLite connection and writes call-log batches, so that the inserts and
// the WAL checkpoints they trigger (an fsync every few megabytes) never block the event loop serving requests.
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

interface Job {
  id: number;
  rows: Array<Record<string, unknown>>;
}

const { file, sql } = workerData as { file: string; sql: string };
const connection = new SQLite(file);
connection.pragma('busy_timeout = 5000');
connection.pragma('synchronous = NORMAL');
const statement = connection.prepare(sql);
const insertAll = connection.transaction((rows: Job['rows']) => {
  for (const row of rows) {
    // Times travel as epoch milliseconds, so the request path never formats a date.
    if (typeof row.created_at === 'number') row.created_at = new Date(row.created_at).toISOString();
    statement.run(row);
  }
});

parentPort!.on('message', (job: Job | 'close') => {
  if (job === 'close') {
    connection.close();
    parentPort!.close();
    return;
  }
  try {
    insertAll(job.rows);
    parentPort!.postMessage({ id: job.id, ok: true });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
