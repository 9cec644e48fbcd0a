import type { RescanPayload, ScansRepository } from '../../db/repositories/scans.js';
import type { QueuedJobKind } from '../../jobs/runner.js';
import { newId } from '../../lib/ids.js';
import { toIso } from '../../lib/time.js';
import { PackageError } from '@skill-registry/skill-package/types';
import { BlobNotFoundError } from '../../storage/blob-store.js';
import { requireAdminSession, type Actor } from '../actor.js';
import { conflict, notFound } from '../errors.js';
import type { RescanOutcome, StoredVersion } from './rescans.js';

/** The job runner's queued jobs that rescan one version each. */
export const RESCAN_KIND = 'rescan-version';

/** Attempts at one version, after which a version whose scans keep failing unexpectedly is given up. */
export const RESCAN_MAX_ATTEMPTS = 3;

/** A rescan job as the API shows it. */
export interface RescanJob {
  id: string;
  state: 'running' | 'finished';
  rules_version: string;
  total: number;
  done: number;
  failed: number;
  pending: number;
  started_at: string;
  finished_at: string | null;
}

/**
 * Rescans of every version, started by an administrator when the rules change. The job and its versions live in the
 * database, and each version is a queued job of the job runner (`kind`, which every node defines): the runner's lease
 * keeps it to one node at a time, a node that dies is taken over once the lease runs out, and an unexpected failure
 * is tried again with backoff. Each run settles its version as done or failed, and the job finishes with its last
 * version. Scanning a version twice (a lease taken over from a node that was slow rather than dead) only writes the
 * same report twice.
 */
export function rescanJobs(deps: {
  scans: ScansRepository;
  /** Scans one stored version again (versionRescans.rescanStored). */
  rescan: (version: StoredVersion) => Promise<RescanOutcome>;
  /** The rules the scanner applies now. */
  rulesVersion: string;
  /** The clock of the jobs' times (ms since the epoch). */
  now?: () => number;
}) {
  const { scans } = deps;
  const now = () => new Date(deps.now?.() ?? Date.now()).toISOString();

  async function settle(item: RescanPayload, state: 'done' | 'failed', error: string | null): Promise<void> {
    await scans.settle(item, state, error);
    await scans.finishJobs(now());
  }

  const kind: QueuedJobKind<RescanPayload> = {
    kind: RESCAN_KIND,
    maxAttempts: RESCAN_MAX_ATTEMPTS,
    async run(item) {
      const version = await scans.pendingVersion(item);
      // Settled by a node that held it before, or deleted (which takes it out of the job, maybe its last version).
      if (version === undefined) return scans.finishJobs(now());
      try {
        await deps.rescan(version);
      } catch (error) {
        // The rules of now refuse the package, or its bytes are gone: scanning it again will not help. Anything else
        // (the database or the store away a moment) may pass, and is thrown for the runner to try again.
        if (!(error instanceof PackageError || error instanceof BlobNotFoundError)) throw error;
        return settle(item, 'failed', error instanceof PackageError ? error.detail : 'The stored package is missing.');
      }
      return settle(item, 'done', null);
    },
    onGiveUp: (item, error) => settle(item, 'failed', error instanceof Error ? error.message : String(error)),
  };

  async function view(id: string): Promise<RescanJob> {
    const job = await scans.job(id);
    if (!job) throw notFound('scan_job_not_found', `No rescan job "${id}".`);
    return toJob(job);
  }

  function toJob(job: NonNullable<Awaited<ReturnType<ScansRepository['job']>>>): RescanJob {
    return {
      id: job.id,
      state: job.state,
      rules_version: job.rules_version,
      total: job.total,
      done: job.done,
      failed: job.failed,
      pending: job.pending,
      started_at: toIso(job.started_at),
      finished_at: toIso(job.finished_at),
    };
  }

  return {
    /** The queued job that rescans one version, for the job runner. */
    kind,

    /** An administrator's session starts a rescan of every version there is now; 409 while another job runs. */
    async startJob(actor: Actor): Promise<RescanJob> {
      requireAdminSession(actor);
      const id = newId();
      const job = { id, rules_version: deps.rulesVersion, requested_by: actor.user.id, started_at: now() };
      const outcome = await scans.createJob(job, RESCAN_KIND);
      if ('running' in outcome) {
        throw conflict(
          'scan_job_running',
          `Rescan job ${outcome.running} is still running; follow it at /v1/admin/scans/${outcome.running}, and start another once it has finished.`,
        );
      }
      return view(id);
    },

    async job(actor: Actor, id: string): Promise<RescanJob> {
      requireAdminSession(actor);
      return view(id);
    },

    /** The rescan jobs, the latest started first, a page at a time. */
    async list(actor: Actor, page: { page: number; pageSize: number }): Promise<{ items: RescanJob[]; total: number }> {
      requireAdminSession(actor);
      const { items, total } = await scans.jobs(page.pageSize, (page.page - 1) * page.pageSize);
      return { items: items.map(toJob), total };
    },
  };
}

export type RescanJobs = ReturnType<typeof rescanJobs>;
