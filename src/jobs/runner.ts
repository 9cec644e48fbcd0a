import { Counter, Histogram, Registry } from 'prom-client';
import type { JobsRepository, QueuedJobRow } from '../db/repositories/jobs.js';
import { newId } from '../lib/ids.js';
import { systemClock, type Clock } from './clock.js';

/** How long a failed job waits before its next try: doubling from `baseMs` with each failure in a row, at most `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export function backoffMs(failures: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, failures - 1));
}

/** A job run again and again: on every node, or on one node at a time under a lease. */
export interface PeriodicJob {
  /** Its name in the logs, the metrics and (for an exclusive job) the lease table. */
  name: string;
  /** The wait from the end of one run to the start of the next. */
  everyMs: number;
  /** Runs as soon as the runner starts, rather than one interval later. */
  atStart?: boolean;
  /**
   * One node at a time: a run first takes the lease `job:<name>` for `leaseMs` (renewed while it runs), and a node
   * that finds it held skips its turn. The lease is kept after the run, so the nodes together run the job about once
   * per `leaseMs`; one that stopped holding it (killed, cut off) is taken over once it runs out.
   */
  exclusive?: { leaseMs: number };
  /** The waits after failures (by default doubling from `everyMs` up to 30 s, or `everyMs` when that is longer). */
  retry?: Backoff;
  /** One run; `signal` is aborted when the runner stops, for a job that works in steps to end after its current one. */
  run(signal: AbortSignal): Promise<unknown>;
  /** Once, when the runner stops, after the last run has ended: a buffer's last write. */
  final?: () => Promise<unknown>;
}

/** A kind of one-off job, enqueued with a payload, run once by one node, and tried again with backoff when it fails. */
export interface QueuedJobKind<P> {
  kind: string;
  /** Runs before it is marked failed for good (5). */
  maxAttempts?: number;
  /** The waits between attempts (from 10 s, doubling, up to an hour). */
  retry?: Backoff;
  /** How long one node holds a job it runs, renewed while it does (5 minutes). */
  leaseMs?: number;
  run(payload: P): Promise<unknown>;
  /** Once, when its last attempt has failed, before it is marked failed: for what waits on the job to learn of it. */
  onGiveUp?(payload: P, error: unknown): Promise<unknown>;
}

export type RunOutcome = 'success' | 'failure' | 'skipped';

const QUEUED_LEASE_PREFIX = 'queued:';
const QUEUED_DEFAULTS = { maxAttempts: 5, retry: { baseMs: 10_000, maxMs: 60 * 60 * 1000 }, leaseMs: 5 * 60 * 1000 };

interface Scheduled {
  job: PeriodicJob;
  /** Failures in a row: what the next wait backs off by. */
  failures: number;
  cancel: (() => void) | null;
  /** The run under way or the last one; runs of one job never overlap. */
  last: Promise<RunOutcome>;
}

/**
 * The one place background work runs: named jobs on timers (every node's own, or one node's at a time under a lease
 * in the database), and one-off jobs queued in the database. Each run is counted and timed (`metrics`); a failed run
 * is reported and tried again after a backoff; `stop` waits for the runs under way, then runs each job's final step.
 * Every wait goes through `clock`, so tests move time by hand.
 */
export function jobRunner(deps: {
  store: Pick<JobsRepository, 'acquire' | 'renew' | 'release' | 'enqueue' | 'due' | 'complete' | 'retry' | 'find'>;
  clock?: Clock;
  /** This node's name on the leases it takes (a fresh id). */
  nodeId?: string;
  /** Told of every failed run, and of a lease lost while its job ran. */
  onError?: (job: string, error: unknown) => void;
  /** How often this node looks for queued jobs that are due, and how many it takes at a time. */
  queue?: { pollMs?: number; batch?: number };
}) {
  const clock = deps.clock ?? systemClock;
  const nodeId = deps.nodeId ?? newId();
  const { store } = deps;
  const report = (job: string, error: unknown) => deps.onError?.(job, error);
  const jobs = new Map<string, Scheduled>();
  const kinds = new Map<string, QueuedJobKind<unknown>>();
  const aborting = new AbortController();
  let started = false;
  let stopping: Promise<void> | null = null;

  const registry = new Registry();
  const runs = new Counter({
    name: 'background_job_runs_total',
    help: 'Runs of background jobs, by job and outcome (skipped: another node held the lease).',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'background_job_duration_seconds',
    help: 'Time background jobs took, by job.',
    labelNames: ['job'],
    buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120, 600],
    registers: [registry],
  });

  function measured(job: string, since: number, outcome: RunOutcome): RunOutcome {
    runs.inc({ job, outcome });
    if (outcome !== 'skipped') durations.observe({ job }, (clock.now() - since) / 1000);
    return outcome;
  }

  /** Renews a lease every half of its length until the answer is called; a lease found taken is reported. */
  function keepRenewed(job: string, lease: string, leaseMs: number): () => void {
    let cancel: (() => void) | null = null;
    const next = () => {
      cancel = clock.after(leaseMs / 2, () => {
        store.renew(lease, nodeId, clock.now() + leaseMs).then(
          (held) => {
            if (cancel === null) return;
            if (held) next();
            else report(job, new Error(`The lease ${lease} ran out and another node took it while this one ran.`));
          },
          (error: unknown) => {
            report(job, error);
            if (cancel !== null) next();
          },
        );
      });
    };
    next();
    return () => {
      cancel?.();
      cancel = null;
    };
  }

  async function attempt(entry: Scheduled): Promise<RunOutcome> {
    const { job } = entry;
    const since = clock.now();
    let renewal = () => {};
    try {
      if (job.exclusive) {
        const lease = `job:${job.name}`;
        const { leaseMs } = job.exclusive;
        if (!(await store.acquire(lease, nodeId, since, since + leaseMs))) return measured(job.name, since, 'skipped');
        renewal = keepRenewed(job.name, lease, leaseMs);
      }
      await job.run(aborting.signal);
      entry.failures = 0;
      return measured(job.name, since, 'success');
    } catch (error) {
      entry.failures += 1;
      report(job.name, error);
      return measured(job.name, since, 'failure');
    } finally {
      renewal();
    }
  }

  /** Runs the job after its run under way, if any. */
  function runAfterLast(entry: Scheduled): Promise<RunOutcome> {
    entry.last = entry.last.then(() => attempt(entry));
    return entry.last;
  }

  /** The interval after a success, the backoff after failures. */
  function nextWait({ job, failures }: Scheduled): number {
    if (failures === 0) return job.everyMs;
    return backoffMs(failures, job.retry ?? { baseMs: job.everyMs, maxMs: Math.max(job.everyMs, 30_000) });
  }

  function runThenSchedule(entry: Scheduled): void {
    void runAfterLast(entry).then(() => schedule(entry, nextWait(entry)));
  }

  function schedule(entry: Scheduled, ms: number): void {
    if (stopping !== null) return;
    entry.cancel = clock.after(ms, () => {
      entry.cancel = null;
      runThenSchedule(entry);
    });
  }

  function begin(entry: Scheduled): void {
    if (entry.job.atStart) runThenSchedule(entry);
    else schedule(entry, entry.job.everyMs);
  }

  /** Settles once no run is under way. */
  async function idle(): Promise<void> {
    for (;;) {
      const pending = [...jobs.values()].map((entry) => entry.last);
      await Promise.all(pending);
      if ([...jobs.values()].every((entry, i) => entry.last === pending[i])) return;
    }
  }

  function define(job: PeriodicJob): void {
    if (jobs.has(job.name)) throw new Error(`A job named "${job.name}" is defined already.`);
    const entry: Scheduled = { job, failures: 0, cancel: null, last: Promise.resolve('success') };
    jobs.set(job.name, entry);
    if (started && stopping === null) begin(entry);
  }

  /** One queued job, if this node gets its lease and it is still waiting as it was read. */
  async function runQueued(row: QueuedJobRow): Promise<void> {
    const kind = kinds.get(row.kind);
    if (kind === undefined) return;
    const lease = `${QUEUED_LEASE_PREFIX}${row.id}`;
    const leaseMs = kind.leaseMs ?? QUEUED_DEFAULTS.leaseMs;
    const since = clock.now();
    if (!(await store.acquire(lease, nodeId, since, since + leaseMs))) return;
    const renewal = keepRenewed(kind.kind, lease, leaseMs);
    try {
      // Another node may have run it between this node's read and its lease.
      const current = await store.find(row.id);
      if (current?.state !== 'queued' || current.attempts !== row.attempts) return;
      const payload: unknown = JSON.parse(row.payload);
      try {
        await kind.run(payload);
      } catch (error) {
        report(kind.kind, error);
        const attempts = row.attempts + 1;
        const last = attempts >= (kind.maxAttempts ?? QUEUED_DEFAULTS.maxAttempts);
        // Told before the job is marked failed: should telling fail, the job is tried (and given up) again.
        if (last) await kind.onGiveUp?.(payload, error);
        const retryAt = last ? null : clock.now() + backoffMs(attempts, kind.retry ?? QUEUED_DEFAULTS.retry);
        await store.retry(row.id, attempts, retryAt, error instanceof Error ? error.message : String(error));
        measured(kind.kind, since, 'failure');
        return;
      }
      await store.complete(row.id);
      measured(kind.kind, since, 'success');
    } finally {
      renewal();
      await store.release(lease, nodeId);
    }
  }

  return {
    nodeId,
    define,

    /** Declares a kind of queued job; this node then runs the jobs of that kind that are due. */
    defineQueued<P>(kind: QueuedJobKind<P>): void {
      if (kinds.has(kind.kind)) throw new Error(`A queued job kind "${kind.kind}" is defined already.`);
      kinds.set(kind.kind, kind);
      if (!jobs.has('queue')) {
        const { pollMs = 1_000, batch = 10 } = deps.queue ?? {};
        define({
          name: 'queue',
          everyMs: pollMs,
          atStart: true,
          // A full batch is followed by the next one at once, so a long queue (a rescan of every version) is worked
          // through without waiting a poll between batches.
          async run(signal) {
            let due: QueuedJobRow[];
            do {
              due = await store.due([...kinds.keys()], QUEUED_LEASE_PREFIX, clock.now(), batch);
              for (const row of due) if (!signal.aborted) await runQueued(row);
            } while (due.length === batch && !signal.aborted);
          },
        });
      }
    },

    /** Queues a job of a defined kind to run once, `delayMs` from now (at once by default); its id. */
    async enqueue(kind: string, payload: unknown, options: { delayMs?: number } = {}): Promise<string> {
      if (!kinds.has(kind)) throw new Error(`No queued job kind "${kind}" is defined.`);
      const id = newId();
      const now = clock.now();
      await store.enqueue({ id, kind, payload: JSON.stringify(payload), runAt: now + (options.delayMs ?? 0), now });
      return id;
    },

    /** Starts every job's timer (and runs those that run at start). */
    start(): void {
      if (started) return;
      started = true;
      for (const entry of jobs.values()) begin(entry);
    },

    /**
     * Runs a job now, after its run under way if any, whatever its timer; the timer is left as it is. `queue` runs
     * every queued job that is due and that no other node holds.
     */
    runNow(name: string): Promise<RunOutcome> {
      const entry = jobs.get(name);
      if (entry === undefined) throw new Error(`No job named "${name}".`);
      return runAfterLast(entry);
    },

    idle,

    /**
     * Stops the timers, waits for the runs under way (a job working in steps ends after its current one), then runs
     * every job's final step; each is tried even when another fails, and the first failure is thrown once all have
     * had their chance. Safe to call twice.
     */
    stop(): Promise<void> {
      stopping ??= (async () => {
        for (const entry of jobs.values()) entry.cancel?.();
        aborting.abort();
        await idle();
        const finals = await Promise.allSettled([...jobs.values()].flatMap((entry) => (entry.job.final ? [entry.job.final()] : [])));
        for (const result of finals) if (result.status === 'rejected') throw result.reason;
      })();
      return stopping;
    },

    /** The jobs' runs and durations in the Prometheus text format. */
    metrics: () => registry.metrics(),
  };
}

export type JobRunner = ReturnType<typeof jobRunner>;
