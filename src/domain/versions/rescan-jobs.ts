import type { ClaimedItem, ScansRepository } from '../../db/repositories/scans.js';
import { newId } from '../../lib/ids.js';
import { toIso } from '../../lib/time.js';
import { PackageError } from '@skill-registry/skill-package/types';
import { BlobNotFoundError } from '../../storage/blob-store.js';
import { requireAdminSession, type Actor } from '../actor.js';
import { conflict, notFound } from '../errors.js';
import type { RescanOutcome, StoredVersion } from './rescans.js';

/** How long a node holds the versions it claimed before another node may take them over. */
export const RESCAN_LEASE_MS = 5 * 60 * 1000;

/** Claims of one version, after which a version whose scans keep failing unexpectedly is given up. */
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
 * Rescans of every version, started by an administrator when the rules change. The job and the versions it still
 * has to scan live in the database; every node's job runner calls `drain` every RESCAN_POLL_MS, which claims a batch
 * with a lease (see scansRepository.claim), renews the lease before each version, and settles each one as done or
 * failed. A node that dies leaves its batch leased until the lease runs out; then another node takes it over.
 * Scanning a version twice (a lease taken over from a node that was slow rather than dead) only writes the same
 * report twice.
 */
export function rescanJobs(deps: {
  scans: ScansRepository;
  /** Scans one stored version again (versionRescans.rescanStored). */
  rescan: (version: StoredVersion) => Promise<RescanOutcome>;
  /** The rules the scanner applies now. */
  rulesVersion: string;
  batchSize: number;
  /** Told of a version whose scan failed unexpectedly (it is handed back and tried again). */
  onError?: (error: unknown) => void;
  /** The clock leases are measured by (ms since the epoch). */
  now?: () => number;
  leaseMs?: number;
}) {
  const { scans } = deps;
  const now = deps.now ?? (() => Date.now());
  const leaseMs = deps.leaseMs ?? RESCAN_LEASE_MS;
  /** This node's name on the leases it writes. */
  const nodeId = newId();

  const at = (ms: number) => new Date(ms).toISOString();

  async function scanOne(item: ClaimedItem): Promise<void> {
    // Another node may have taken the item over while this one worked through the batch.
    if (!(await scans.renew(item, nodeId, at(now() + leaseMs)))) return;
    try {
      await deps.rescan({ id: item.versionId, skill_id: item.skillId, sha256: item.sha256 });
      await scans.settle(item, 'done', null);
    } catch (error) {
      if (error instanceof PackageError || error instanceof BlobNotFoundError) {
        // The rules of now refuse the package, or its bytes are gone: scanning it again will not help.
        await scans.settle(item, 'failed', error instanceof PackageError ? error.detail : 'The stored package is missing.');
        return;
      }
      // Anything else (the database or the store away a moment) may pass: the version is handed back, and given up
      // after RESCAN_MAX_ATTEMPTS claims. The rest of the batch goes on.
      await scans.release(item, nodeId, RESCAN_MAX_ATTEMPTS, error instanceof Error ? error.message : String(error));
      deps.onError?.(error);
    }
  }

  /** Claims one batch and scans it; the versions claimed, in order. */
  async function runOnce(): Promise<string[]> {
    const claimed = await scans.claim(nodeId, at(now()), at(now() + leaseMs), deps.batchSize);
    for (const item of claimed) await scanOne(item);
    await scans.finishJobs(at(now()));
    return claimed.map((item) => item.versionId);
  }

  /**
   * Works until no running job has a version this node can claim. Each batch is one claim, so other nodes take the
   * next ones meanwhile; a stopping node (`signal` aborted) ends after its batch.
   */
  async function drain(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && (await scans.anyRunning()) && (await runOnce()).length > 0);
  }

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
    nodeId,
    runOnce,
    drain,

    /** An administrator's session starts a rescan of every version there is now; 409 while another job runs. */
    async startJob(actor: Actor): Promise<RescanJob> {
      requireAdminSession(actor);
      const id = newId();
      const outcome = await scans.createJob({ id, rules_version: deps.rulesVersion, requested_by: actor.user.id, started_at: at(now()) });
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
