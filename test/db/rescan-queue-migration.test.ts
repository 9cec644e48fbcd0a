import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { registryMigrator } from '../../src/db/migrations/index.js';
import { jobsRepository } from '../../src/db/repositories/jobs.js';
import { scansRepository } from '../../src/db/repositories/scans.js';
import { rescanJobs } from '../../src/domain/versions/rescan-jobs.js';
import { jobRunner } from '../../src/jobs/runner.js';
import { backends } from '../helpers/backends.js';
import { manualClock } from '../helpers/clock.js';
import { ifSet } from '../helpers/hooks.js';

/**
 * Migration 0012 moves rescans onto the job runner's queue: the versions a running job still has pending when it is
 * applied are queued as a job started after it queues them, so the job goes on, and the lease columns go.
 */
for (const backend of backends()) {
  describe(`migration 0012_rescan_queue [${backend.name}]`, () => {
    let handle: DatabaseHandle;
    let dispose: (() => Promise<void>) | undefined;
    let schema: string | undefined;
    const db = () => handle.db as unknown as Kysely<unknown>;
    const migrateTo = async (name: string) => {
      const { error } = await registryMigrator(db(), handle.dialect, schema).migrateTo(name);
      assert.equal(error, undefined, String(error));
    };
    const at = new Date().toISOString();

    before(async () => {
      const created = await backend.create();
      dispose = () => created.dispose();
      handle = openDatabase(created.database);
      schema = created.database.kind === 'postgres' ? created.database.schema : undefined;
      await migrateTo('0011_jobs');
    });
    after(async () => {
      await ifSet(handle)?.close();
      await dispose?.();
    });

    const itemColumns = async () => Object.keys((await sql`select * from scan_job_items`.execute(db())).rows[0] ?? {}).sort();

    it('queues the pending versions of a running job, drops the lease columns, and the job then runs to its end', async () => {
      await sql`insert into users (id, username, email, password_hash, created_at, updated_at)
        values ('u', 'u', 'u@example.com', 'x', ${at}, ${at})`.execute(db());
      await sql`insert into skills (id, slug, name, description, owner_id, created_at, updated_at)
        values ('s', 's', 'S', 'S', 'u', ${at}, ${at})`.execute(db());
      for (const v of ['v1', 'v2', 'v3']) {
        await sql`insert into versions (id, skill_id, version, size, sha256, archive_format, file_count, total_size, warnings, created_at)
          values (${v}, 's', ${`1.0.${v.slice(1)}`}, 1, 'x', 'zip', 1, 1, '[]', ${at})`.execute(db());
      }
      await sql`insert into scan_jobs (id, rules_version, state, total, started_at) values ('old', 'r', 'finished', 1, ${at})`.execute(
        db(),
      );
      await sql`insert into scan_jobs (id, rules_version, state, total, started_at) values ('job', 'r', 'running', 3, ${at})`.execute(db());
      await sql`insert into scan_job_items (job_id, version_id, state, lease_owner, lease_until, attempts)
        values ('old', 'v1', 'done', null, null, 1), ('job', 'v1', 'done', null, null, 1),
               ('job', 'v2', 'pending', 'a-node', ${at}, 2), ('job', 'v3', 'pending', null, null, 0)`.execute(db());

      await handle.migrate();
      const queued = await sql<{ id: string; kind: string; payload: string; state: string }>`
        select id, kind, payload, state from queued_jobs order by id`.execute(db());
      assert.deepEqual(
        queued.rows.map((row): unknown[] => [row.id, row.kind, JSON.parse(row.payload), row.state]),
        ['v2', 'v3'].map((version) => [`job:${version}`, 'rescan-version', { job: 'job', version }, 'queued']),
      );
      assert.deepEqual(await itemColumns(), ['error', 'job_id', 'state', 'version_id']);

      const scans = scansRepository(handle.db, handle.dialect);
      const runner = jobRunner({ store: jobsRepository(handle.db), clock: manualClock(Date.now()) });
      const scanned: string[] = [];
      const rescan = (version: { id: string }) => {
        scanned.push(version.id);
        return Promise.resolve('written' as const);
      };
      runner.defineQueued(rescanJobs({ scans, rulesVersion: 'r', rescan }).kind);
      await runner.runNow('queue');
      assert.deepEqual(scanned, ['v2', 'v3']);
      assert.deepEqual([(await scans.job('job'))?.state, (await scans.job('job'))?.done], ['finished', 3]);
    });

    it('down gives the items their lease columns back and takes the rescans off the queue', async () => {
      await sql`insert into queued_jobs (id, kind, payload, state, run_at, created_at)
        values ('left', 'rescan-version', '{}', 'queued', ${at}, ${at})`.execute(db());
      await migrateTo('0011_jobs');
      assert.deepEqual(await itemColumns(), ['attempts', 'error', 'job_id', 'lease_owner', 'lease_until', 'state', 'version_id']);
      assert.deepEqual((await sql`select id from queued_jobs`.execute(db())).rows, []);
    });
  });
}
