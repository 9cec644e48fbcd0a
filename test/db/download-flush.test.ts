// Download counts are buffered per node and added to shared rows. Two nodes flushing overlapping batches at the
// same moment must not deadlock (they lock rows in one order), and no count may be lost or doubled.
import assert from 'node:assert/strict';
import { after, before, describe, mock, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { JobsRepository } from '../../src/db/repositories/jobs.js';
import { versionsRepository, type DownloadTally, type VersionsRepository } from '../../src/db/repositories/versions.js';
import { ANNOUNCE_INTERVAL_MS, downloadCounter, FLUSH_INTERVAL_MS } from '../../src/domain/versions/download-counter.js';
import { jobRunner } from '../../src/jobs/runner.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { manualClock } from '../helpers/clock.js';
import { ifSet } from '../helpers/hooks.js';
import { adminSession, authHeaders, createKey, createSkill, expectStatus } from '../helpers/client.js';

for (const backend of backends()) {
  describe(`download flushes of two nodes at once [${backend.name}]`, { timeout: 180_000 }, () => {
    let t: TestApp;
    let nodes: DatabaseHandle[] = [];
    const versions: { versionId: string; skillId: string }[] = [];

    before(async () => {
      t = await startApp(backend);
      const key = (await createKey(t, await adminSession(t))).key;
      const archive = await zip([{ path: 'SKILL.md', content: skillMd() }]);
      for (let s = 0; s < 4; s += 1) {
        const skill = await createSkill(t, { key });
        for (let v = 0; v < 6; v += 1) {
          const body = multipart({ version: `1.0.${v}` }, { content: archive });
          expectStatus(
            await t.request({
              method: 'POST',
              url: `/v1/skills/${skill.slug}/versions`,
              headers: { ...authHeaders({ key }), ...body.headers },
              payload: body.payload,
            }),
            201,
          );
        }
        const rows = await t.runtime.database.db.selectFrom('versions').select('id').where('skill_id', '=', skill.id).execute();
        for (const row of rows) versions.push({ versionId: row.id, skillId: skill.id });
      }
      assert.equal(versions.length, 24);
      // Two more "nodes": their own connections to the same database. SQLite serves one node (a second
      // connection in the same thread would wait on the first while blocking it), so there both share the app's.
      nodes = backend.name === 'postgres' ? [openDatabase(t.config.database), openDatabase(t.config.database)] : [];
    });
    const flushers = () => (nodes.length > 0 ? nodes : [t.runtime.database, t.runtime.database]);
    after(async () => {
      for (const node of nodes) await node.close();
      await ifSet(t)?.close();
    });

    test('overlapping tallies in opposite orders, many rounds: no deadlock, exact totals', async () => {
      const [a, b] = flushers().map((node) => versionsRepository(node.db, node.dialect)) as [VersionsRepository, VersionsRepository];
      const expected = new Map<string, number>();
      const failures: unknown[] = [];
      for (let round = 0; round < 40; round += 1) {
        // Each node's map holds the versions in its own order of first download; both hold every version, on two days.
        const tallies: DownloadTally[] = versions.flatMap(({ versionId, skillId }, i) =>
          ['2026-01-01', '2026-01-02'].map((day) => ({ versionId, skillId, day, count: ((i + round) % 3) + 1 })),
        );
        for (const tally of tallies) expected.set(tally.versionId, (expected.get(tally.versionId) ?? 0) + 2 * tally.count);
        const results = await Promise.allSettled([a.addDownloads(tallies), b.addDownloads([...tallies].reverse())]);
        for (const result of results) if (result.status === 'rejected') failures.push(result.reason);
      }
      assert.deepEqual(
        failures.map((e) => `${(e as { code?: string }).code ?? ''} ${String(e)}`),
        [],
        'no flush failed (40P01 is a deadlock)',
      );
      const db = t.runtime.database.db;
      const rows = await db
        .selectFrom('versions')
        .select(['id', 'skill_id', 'downloads'])
        .where(
          'id',
          'in',
          versions.map((v) => v.versionId),
        )
        .execute();
      assert.equal(rows.length, versions.length);
      for (const row of rows) assert.equal(row.downloads, expected.get(row.id), `version ${row.id}`);
      const perSkill = new Map<string, number>();
      for (const { versionId, skillId } of versions) perSkill.set(skillId, (perSkill.get(skillId) ?? 0) + expected.get(versionId)!);
      for (const [skillId, total] of perSkill) {
        const skill = await db.selectFrom('skills').select('downloads').where('id', '=', skillId).executeTakeFirstOrThrow();
        assert.equal(skill.downloads, total, `skill ${skillId}`);
        const days = await db
          .selectFrom('download_counts')
          .select((eb) => eb.fn.sum<number>('downloads').as('n'))
          .where('skill_id', '=', skillId)
          .executeTakeFirstOrThrow();
        assert.equal(days.n, total, `daily rows of skill ${skillId}`);
      }
    });

    test('tallies of a version deleted meanwhile are dropped, the rest are written', async () => {
      const repo = versionsRepository(flushers()[0]!.db, flushers()[0]!.dialect);
      const [first] = versions;
      const before = await t.runtime.database.db
        .selectFrom('versions')
        .select('downloads')
        .where('id', '=', first!.versionId)
        .executeTakeFirstOrThrow();
      await repo.addDownloads([
        { versionId: 'gone-version', skillId: first!.skillId, day: '2026-01-03', count: 5 },
        { versionId: first!.versionId, skillId: first!.skillId, day: '2026-01-03', count: 2 },
      ]);
      const afterwards = await t.runtime.database.db
        .selectFrom('versions')
        .select('downloads')
        .where('id', '=', first!.versionId)
        .executeTakeFirstOrThrow();
      assert.equal(afterwards.downloads, before.downloads + 2);
    });
  });
}

describe('the download counter writes within its interval', () => {
  function recordingRepository() {
    const batches: DownloadTally[][] = [];
    let failNext = false;
    const repository = {
      addDownloads(tallies: readonly DownloadTally[]) {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('database away'));
        }
        batches.push(tallies.map((t) => ({ ...t })));
        return Promise.resolve();
      },
    } as unknown as VersionsRepository;
    return { repository, batches, failOnce: () => (failNext = true) };
  }

  const total = (batches: DownloadTally[][]) => batches.flat().reduce((n, t) => n + t.count, 0);

  // The bound docs/deployment.md promises for a process killed outright.
  const DOCUMENTED_BOUND_MS = 250;

  /** The counter and the job that writes it, as a server defines it, on a clock the test moves. */
  function counterOnRunner(options: Omit<Parameters<typeof downloadCounter>[0], 'now'>) {
    const clock = manualClock();
    const errors: unknown[] = [];
    const counter = downloadCounter({ ...options, now: clock.now });
    // A job of this node only: the runner's store (leases, queue) is never read.
    const jobs = jobRunner({ store: {} as JobsRepository, clock, onError: (_job, error) => errors.push(error) });
    jobs.define({
      name: 'download-counts',
      everyMs: FLUSH_INTERVAL_MS,
      retry: { baseMs: FLUSH_INTERVAL_MS, maxMs: 5_000 },
      run: () => counter.write(),
      final: () => counter.flush(),
    });
    jobs.start();
    const advance = async (ms: number) => {
      clock.advance(ms);
      await jobs.idle();
    };
    return { counter, jobs, errors, advance };
  }

  test(`a download is written at most ${DOCUMENTED_BOUND_MS} ms after it is counted`, async () => {
    const { repository, batches } = recordingRepository();
    const { counter, jobs, advance } = counterOnRunner({ versions: repository });
    // Counted just after a write: the worst case waits one whole interval.
    counter.record('v1', 's1', new Date('2026-01-01T12:00:00Z'));
    counter.record('v1', 's1', new Date('2026-01-01T12:00:00Z'));
    await advance(DOCUMENTED_BOUND_MS - 1);
    assert.equal(total(batches), 0, 'not before the interval is over');
    await advance(1);
    assert.equal(total(batches), 2, 'written once the interval is over');
    assert.equal(counter.pendingCount, 0);
    await jobs.stop();
  });

  test('a failed write keeps its counts for the next try; stopping writes what is left', async () => {
    const { repository, batches, failOnce } = recordingRepository();
    const { counter, jobs, errors, advance } = counterOnRunner({ versions: repository });
    counter.record('v1', 's1');
    failOnce();
    await advance(FLUSH_INTERVAL_MS);
    assert.equal(errors.length, 1);
    assert.equal(counter.pendingCount, 1, 'kept after the failure');
    counter.record('v1', 's1');
    await advance(FLUSH_INTERVAL_MS);
    assert.equal(total(batches), 2);
    counter.record('v2', 's1');
    await jobs.stop();
    assert.equal(total(batches), 3, 'stopping (SIGTERM) writes the rest');
  });

  test(`written counts are announced at most every ${ANNOUNCE_INTERVAL_MS} ms, and at once after an explicit flush`, async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { repository, batches } = recordingRepository();
      let announced = 0;
      const { counter, jobs, advance } = counterOnRunner({ versions: repository, onWritten: () => (announced += 1) });
      counter.record('v1', 's1');
      await advance(FLUSH_INTERVAL_MS);
      assert.equal(announced, 1, 'the first write is announced at once');
      counter.record('v1', 's1');
      await advance(FLUSH_INTERVAL_MS);
      assert.equal(total(batches), 2);
      assert.equal(announced, 1, 'a write soon after is announced later');
      mock.timers.tick(ANNOUNCE_INTERVAL_MS - FLUSH_INTERVAL_MS);
      assert.equal(announced, 2, 'within the announcement interval');
      counter.record('v1', 's1');
      await counter.flush();
      assert.equal(announced, 3, 'an explicit flush announces at once');
      await jobs.stop();
    } finally {
      mock.timers.reset();
    }
  });
});
