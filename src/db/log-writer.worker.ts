// A worker thread that owns a second SQLite connection and writes call-log batches, so that the inserts and
// the WAL checkpoints they trigger (an fsync every few megabytes) never block the event loop serving requests.
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

interface Job {
  id: number;
  /** Rows one after another, `width` values each: a flat array of primitives is the cheapest to pass over. */
  values: unknown[];
}

const { file, sql, width, timeColumns } = workerData as { file: string; sql: string; width: number; timeColumns: number[] };
const connection = new SQLite(file);
connection.pragma('busy_timeout = 5000');
connection.pragma('synchronous = NORMAL');
const statement = connection.prepare(sql);
const insertAll = connection.transaction((values: unknown[]) => {
  for (let start = 0; start < values.length; start += width) {
    const row = values.slice(start, start + width);
    // Times travel as epoch milliseconds, so the request path never formats a date.
    for (const column of timeColumns) row[column] = new Date(row[column] as number).toISOString();
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
    insertAll(job.values);
    parentPort!.postMessage({ id: job.id, ok: true });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
