// The job runner on a real database: backoff after failures, one node at a time under a lease (two runners on one
// database, as two nodes), a lease taken over once it runs out, a stop that waits for its runs and writes the final
// flushes, queued jobs, and the metrics of each. Time is a manual clock: nothing here waits on the wall clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { jobsRepository, type JobsRepository } from '../../src/db/repositories/jobs.js';
import { backoffMs, jobRunner, type JobRunner } from '../../src/jobs/runner.js';
import { backends } from '../helpers/backends.js';
import { manualClock } from '../helpers/clock.js';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The value of one sample line of the Prometheus text, or 0 when there is none. */
async function sample(runner: JobRunner, line: string): Promise<number> {
  const found = (await runner.metrics()).split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

it('backs off by doubling from its base, up to its most', () => {
  const backoff = { baseMs: 1_000, maxMs: 5_000 };
  assert.deepEqual(
    [1, 2, 3, 4, 10].map((n) => backoffMs(n, backoff)),
    [1_000, 2_000, 4_000, 5_000, 5_000],
  );
});

for (const backend of backends()) {
  describe(`the job runner [${backend.name}]`, () => {
    let dispose: () => Promise<void>;
    // Two nodes: each its own connection to one database.
    let nodes: [DatabaseHandle, DatabaseHandle];
    const runners: JobRunner[] = [];
    before(async () => {
      const created = await backend.create();
      dispose = () => created.dispose();
      nodes = [openDatabase(created.database), openDatabase(created.database)];
      await nodes[0].migrate();
    });
    after(async () => {
      for (const runner of runners) await runner.stop().catch(() => undefined);
      for (const node of nodes) await node.close();
      await dispose();
    });

    function runner(options: { node?: 0 | 1; clock: ReturnType<typeof manualClock>; store?: JobsRepository; errors?: unknown[] }) {
      const made = jobRunner({
        store: options.store ?? jobsRepository(nodes[options.node ?? 0].db),
        clock: options.clock,
        onError: (_job, error) => options.errors?.push(error),
        queue: { pollMs: 1_000, batch: 10 },
      });
      runners.push(made);
      return made;
    }

    it('tries a failed run again with backoff, then keeps its interval again; runs, failures and durations are counted', async () => {
      const clock = manualClock();
      const errors: unknown[] = [];
      const jobs = runner({ clock, errors });
      const start = clock.now();
      const ranAt: number[] = [];
      let failures = 3;
      jobs.define({
        name: 'flaky',
        everyMs: 10_000,
        atStart: true,
        retry: { baseMs: 1_000, maxMs: 3_000 },
        run() {
          ranAt.push(clock.now() - start);
          if (failures > 0) {
            failures -= 1;
            return Promise.reject(new Error('the database is away'));
          }
          return Promise.resolve();
        },
      });
      jobs.start();
      await jobs.idle();
      for (const step of [999, 1, 2_000, 3_000, 9_999, 1]) {
        clock.advance(step);
        await jobs.idle();
      }
      // At start; 1 s, 2 s and 3 s (the most) after each failure; then the interval.
      assert.deepEqual(ranAt, [0, 1_000, 3_000, 6_000, 16_000]);
      assert.equal(errors.length, 3);
      assert.equal(await sample(jobs, 'background_job_runs_total{job="flaky",outcome="failure"}'), 3);
      assert.equal(await sample(jobs, 'background_job_runs_total{job="flaky",outcome="success"}'), 2);
      assert.equal(await sample(jobs, 'background_job_duration_seconds_count{job="flaky"}'), 5);
      await jobs.stop();
      clock.advance(60_000);
      await jobs.idle();
      assert.equal(ranAt.length, 5, 'no run after stop');
      assert.equal(clock.waiting, 0, 'no timer left behind');
    });

    it('runs an exclusive job on one of two nodes at a time; the other takes it over once the lease has run out', async () => {
      const clock = manualClock();
      const ran: string[] = [];
      const [a, b] = [runner({ node: 0, clock }), runner({ node: 1, clock })];
      for (const [name, jobs] of [
        ['a', a],
        ['b', b],
      ] as const) {
        jobs.define({
          name: 'collection',
          everyMs: 60_000,
          exclusive: { leaseMs: 60_000 },
          run: () => {
            ran.push(name);
            return Promise.resolve();
          },
        });
      }
      // Both ask at once: exactly one gets the lease.
      const outcomes = await Promise.all([a.runNow('collection'), b.runNow('collection')]);
      assert.deepEqual([...outcomes].sort(), ['skipped', 'success']);
      assert.equal(ran.length, 1);
      const [holder, other] = ran[0] === 'a' ? [a, b] : [b, a];
      assert.equal(await holder.runNow('collection'), 'success', 'the holder runs it again while it holds the lease');
      clock.advance(59_999);
      assert.equal(await other.runNow('collection'), 'skipped', 'not before the lease runs out');
      assert.equal(await sample(other, 'background_job_runs_total{job="collection",outcome="skipped"}'), 2);
      // The holder is gone (it never runs again); its lease runs out and the other node takes the job over.
      clock.advance(2);
      assert.equal(await other.runNow('collection'), 'success');
      assert.equal(await holder.runNow('collection'), 'skipped', 'the first node now finds it held');
      assert.equal(ran.length, 3);
    });

    it('renews the lease of a run longer than the lease, so no other node takes the job meanwhile', async () => {
      const clock = manualClock();
      const renewals: Promise<boolean>[] = [];
      const repository = jobsRepository(nodes[0].db);
      const store = {
        ...repository,
        renew: (...args: Parameters<JobsRepository['renew']>) => {
          const renewed = repository.renew(...args);
          renewals.push(renewed);
          return renewed;
        },
      };
      const a = runner({ clock, store });
      const b = runner({ node: 1, clock });
      const long = gate();
      const started = gate();
      a.define({
        name: 'long',
        everyMs: 60_000,
        exclusive: { leaseMs: 10_000 },
        run: async () => {
          started.open();
          await long.opened;
        },
      });
      b.define({ name: 'long', everyMs: 60_000, exclusive: { leaseMs: 10_000 }, run: () => Promise.resolve() });
      const running = a.runNow('long');
      await started.opened;
      for (let i = 0; i < 4; i += 1) {
        clock.advance(5_000);
        await Promise.all(renewals);
      }
      assert.deepEqual(await Promise.all(renewals), [true, true, true, true]);
      assert.equal(await b.runNow('long'), 'skipped', '20 s into a run under a 10 s lease, it is still held');
      long.open();
      assert.equal(await running, 'success');
    });

    it('stop waits for the run under way, then runs every final step, reporting the first that fails', async () => {
      const clock = manualClock();
      const jobs = runner({ clock });
      const steps: string[] = [];
      const release = gate();
      jobs.define({
        name: 'buffer',
        everyMs: 250,
        atStart: true,
        run: async () => {
          steps.push('run started');
          await release.opened;
          steps.push('run ended');
        },
        final: () => {
          steps.push('buffer written');
          return Promise.resolve();
        },
      });
      jobs.define({
        name: 'other-buffer',
        everyMs: 250,
        run: () => Promise.resolve(),
        final: () => {
          steps.push('other buffer failed');
          return Promise.reject(new Error('the database is away'));
        },
      });
      jobs.start();
      let stopped = false;
      const stopping = jobs.stop().finally(() => (stopped = true));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(stopped, false, 'stop waits for the run');
      assert.deepEqual(steps, ['run started']);
      release.open();
      await assert.rejects(stopping, /the database is away/);
      assert.deepEqual(steps, ['run started', 'run ended', 'buffer written', 'other buffer failed']);
      await assert.rejects(jobs.stop(), /the database is away/, 'a second stop answers as the first');
    });

    it('a stopping runner aborts the signal of a job that works in steps, which ends after its current one', async () => {
      const clock = manualClock();
      const jobs = runner({ clock });
      let steps = 0;
      const step = gate();
      const started = gate();
      jobs.define({
        name: 'drain',
        everyMs: 1_000,
        atStart: true,
        async run(signal) {
          started.open();
          while (!signal.aborted) {
            steps += 1;
            await step.opened;
          }
        },
      });
      jobs.start();
      await started.opened;
      const stopping = jobs.stop();
      step.open();
      await stopping;
      assert.equal(steps, 1);
    });

    it('runs a queued job once, on one of two nodes, with its payload; tries a failing one again with backoff, and gives it up after its last attempt', async () => {
      const clock = manualClock();
      const errors: unknown[] = [];
      const [a, b] = [runner({ node: 0, clock, errors }), runner({ node: 1, clock, errors })];
      const delivered: { node: string; payload: unknown }[] = [];
      const givenUp: { payload: unknown; error: unknown; state: string | undefined }[] = [];
      let failing = true;
      let down = '';
      for (const [node, jobs] of [
        ['a', a],
        ['b', b],
      ] as const) {
        jobs.defineQueued<{ url: string }>({
          kind: 'webhook',
          maxAttempts: 3,
          retry: { baseMs: 10_000, maxMs: 60_000 },
          run: (payload) => {
            if (payload.url === 'https://down.example') return failing ? Promise.reject(new Error('503 from the hook')) : Promise.resolve();
            delivered.push({ node, payload });
            return Promise.resolve();
          },
          onGiveUp: async (payload, error) => {
            givenUp.push({ payload, error: (error as Error).message, state: (await jobsRepository(nodes[0].db).find(down))?.state });
          },
        });
      }
      await assert.rejects(a.enqueue('no-such-kind', {}), /No queued job kind "no-such-kind"/);
      const later = await a.enqueue('webhook', { url: 'https://later.example' }, { delayMs: 5_000 });
      const now = await a.enqueue('webhook', { url: 'https://up.example' });
      a.start();
      b.start();
      await Promise.all([a.idle(), b.idle()]);
      assert.deepEqual(
        delivered.map((d) => d.payload),
        [{ url: 'https://up.example' }],
      );
      assert.equal(await jobsRepository(nodes[0].db).find(now), undefined, 'a job that ran leaves the queue');
      for (let i = 0; i < 5; i += 1) {
        clock.advance(1_000);
        await Promise.all([a.idle(), b.idle()]);
      }
      assert.deepEqual(
        delivered.map((d) => d.payload),
        [{ url: 'https://up.example' }, { url: 'https://later.example' }],
        'each job ran once, the delayed one when it was due',
      );
      assert.equal(await jobsRepository(nodes[0].db).find(later), undefined);

      down = await b.enqueue('webhook', { url: 'https://down.example' });
      const attemptsAt: number[] = [];
      const start = clock.now();
      for (let second = 1; second <= 60; second += 1) {
        clock.advance(1_000);
        await Promise.all([a.idle(), b.idle()]);
        const row = await jobsRepository(nodes[0].db).find(down);
        if (row && row.attempts > attemptsAt.length) attemptsAt.push(clock.now() - start);
        if (attemptsAt.length < 3) assert.deepEqual(givenUp, [], 'not given up before its last attempt');
      }
      // Tried at once, then 10 s and 20 s after each failure: failed for good after its third attempt.
      assert.deepEqual(attemptsAt, [1_000, 11_000, 31_000]);
      const failed = await jobsRepository(nodes[0].db).find(down);
      assert.deepEqual([failed?.state, failed?.attempts, failed?.last_error], ['failed', 3, '503 from the hook']);
      assert.deepEqual(
        givenUp,
        [{ payload: { url: 'https://down.example' }, error: '503 from the hook', state: 'queued' }],
        'given up once, with its payload and last error, before it is marked failed',
      );
      failing = false;
      clock.advance(3_600_000);
      await Promise.all([a.idle(), b.idle()]);
      assert.equal((await jobsRepository(nodes[0].db).find(down))?.state, 'failed', 'a failed job is not run again');
      assert.equal(errors.length, 3);
      const count = async (outcome: string) =>
        (await sample(a, `background_job_runs_total{job="webhook",outcome="${outcome}"}`)) +
        (await sample(b, `background_job_runs_total{job="webhook",outcome="${outcome}"}`));
      assert.deepEqual([await count('success'), await count('failure')], [2, 3]);
    });

    it('a run of the queue takes batch after batch while they come full', async () => {
      const clock = manualClock();
      const jobs = jobRunner({ store: jobsRepository(nodes[0].db), clock, queue: { batch: 2 } });
      runners.push(jobs);
      const ran: number[] = [];
      jobs.defineQueued<number>({ kind: 'count', run: (n) => Promise.resolve(ran.push(n)) });
      for (let n = 1; n <= 5; n += 1) await jobs.enqueue('count', n);
      assert.equal(await jobs.runNow('queue'), 'success');
      assert.deepEqual(ran.sort(), [1, 2, 3, 4, 5]);
    });
  });
}
