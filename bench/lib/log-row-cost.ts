// What one call-log entry costs the registry, apart from HTTP: the entry and its hand-off on the event loop, and
// the insert on the writer thread, on a real migrated SQLite database through the registry's own recorder.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { callLogsRepository } from '../../src/db/repositories/call-logs.js';
import { jobsRepository } from '../../src/db/repositories/jobs.js';
import { callLogRecorder, LOG_FLUSH_INTERVAL_MS } from '../../src/domain/logs/recorder.js';
import { jobRunner } from '../../src/jobs/runner.js';
import { newId } from '../../src/lib/ids.js';

export interface RowCost {
  rows: number;
  /** CPU time of the event loop's thread per entry, µs. */
  mainMicros: number;
  /** CPU time of every other thread of the process per entry (the writer thread, GC helpers), µs. */
  otherMicros: number;
  rowsPerSecond: number;
}

/** CPU time (user + system) of each thread of this process, in µs, by thread id. */
function threadTimes(): Map<number, number> {
  const times = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks of 10 ms.
    times.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10_000);
  }
  return times;
}

export async function measureLogRowCost(rows = 300_000): Promise<RowCost> {
  const dir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-logrows-'));
  const file = path.join(dir, 'registry.db');
  const handle = openDatabase({ kind: 'sqlite', file });
  try {
    await handle.migrate();
    const logs = callLogsRepository(handle.db, file);
    const recorder = callLogRecorder({ logs });
    // Written as a server writes it: by the job runner, every LOG_FLUSH_INTERVAL_MS.
    const jobs = jobRunner({ store: jobsRepository(handle.db) });
    jobs.define({ name: 'call-logs', everyMs: LOG_FLUSH_INTERVAL_MS, run: () => recorder.flush(), final: () => recorder.close() });
    jobs.start();
    const user = newId();
    const key = newId();
    // One entry as a busy API client makes them, in slices of 1,000 with the event loop let go in between,
    // as requests would; never faster than the writer takes them, so that none is dropped.
    const record = (count: number) => {
      for (let i = 0; i < count; i += 1) {
        recorder.record({
          request_id: newId(),
          user_id: user,
          method: 'GET',
          path: '/v1/skills/bench-logs',
          route: '/v1/skills/:skillId',
          status_code: 200,
          duration_ms: 0.12,
          ip: '127.0.0.1',
          user_agent: 'bench',
          auth: 'api_key',
          api_key_id: key,
          created_at: Date.now(),
        });
      }
    };
    record(5_000);
    await recorder.flush();
    const before = threadTimes();
    const started = performance.now();
    for (let done = 0; done < rows; done += 1_000) {
      record(1_000);
      if (recorder.pendingCount >= 20_000) await recorder.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await jobs.stop();
    const seconds = (performance.now() - started) / 1000;
    const after = threadTimes();
    let main = 0;
    let other = 0;
    for (const [tid, time] of after) {
      const spent = time - (before.get(tid) ?? 0);
      if (tid === process.pid) main += spent;
      else other += spent;
    }
    const stored = (await logs.list({ userId: user, limit: 1, offset: 0 })).total;
    if (stored !== rows + 5_000) throw new Error(`expected ${rows + 5_000} stored entries, found ${stored}`);
    await logs.close();
    return { rows, mainMicros: main / rows, otherMicros: other / rows, rowsPerSecond: rows / seconds };
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
