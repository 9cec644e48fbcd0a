import assert from 'node:assert/strict';
import type { TestApp } from './app.js';

/** The runner's jobs that write what the registry buffers in memory (see defineJobs in src/server.ts). */
const BUFFER_JOBS = ['download-counts', 'call-logs'] as const;

/**
 * Brings to the database every write the registry holds back or makes off the response path: the API keys'
 * `last_used_at` writes under way, then one run of each buffer's job (call-log entries, download counts). After
 * a request has been answered, its writes are there once this settles, so a test asserts once instead of polling.
 * Download totals in cached public answers may still lag (the counter announces its writes within a second).
 */
export async function flushBackgroundWrites(t: TestApp): Promise<void> {
  await t.runtime.services.authenticate.touchesWritten();
  for (const job of BUFFER_JOBS) assert.equal(await t.runtime.jobs.runNow(job), 'success', `the ${job} job failed`);
}
