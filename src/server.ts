import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { localInvalidationBus, redisInvalidationBus, type InvalidationBus } from './cluster/invalidation.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { jobsRepository } from './db/repositories/jobs.js';
import { LOG_FLUSH_INTERVAL_MS } from './domain/logs/recorder.js';
import { FLUSH_INTERVAL_MS } from './domain/versions/download-counter.js';
import { jobRunner, type JobRunner } from './jobs/runner.js';
import { createServices, type Services } from './services.js';
import { DEFAULT_SWEEP_AGE_MS } from './storage/blob-util.js';
import { openBlobStore } from './storage/index.js';

const HOUR = 60 * 60 * 1000;
/** A buffer's write that failed is tried again sooner than this, however long the database has been away. */
const BUFFER_RETRY = { baseMs: 250, maxMs: 5_000 };
/** An hourly job that failed is tried again after a minute, then two, … up to its hour. */
const HOURLY_RETRY = { baseMs: 60_000, maxMs: HOUR };

export interface Runtime {
  app: FastifyInstance;
  services: Services;
  database: DatabaseHandle;
  /** The node's background jobs (see defineJobs). */
  jobs: JobRunner;
  /** Stops accepting, lets requests in flight finish, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/** Opens the database, brings its schema up to date, makes sure the bootstrap admin exists, and builds the app. */
export async function createRuntime(config: Config): Promise<Runtime> {
  // A PostgreSQL connection lost between queries (a restart, a failover) is reported once the logger exists;
  // the pool opens a new one when it is next needed.
  let connectionLost: (error: Error) => void = () => undefined;
  const database = openDatabase(config.database, { onConnectionLost: (error) => connectionLost(error) });
  let bus: InvalidationBus | undefined;
  try {
    await database.migrate();
    const blobs = await openBlobStore(config.storage, config.s3);
    // Temporary files of uploads cut short by a crash. A local directory is this process's alone, so nothing in it
    // is in flight; a bucket is shared by every node, so only what is older than any upload in flight (an hour) goes.
    await blobs.sweep(config.storage.kind === 'file' ? 0 : DEFAULT_SWEEP_AGE_MS);
    // Background writers (download counts, call logs) report failures to the app's logger once it exists.
    let report: (error: unknown) => void = () => undefined;
    // Several nodes on one database tell each other what to forget from their caches; one node has no one to tell.
    bus = config.redisUrl ? await redisInvalidationBus(config.redisUrl, { onError: (error) => report(error) }) : localInvalidationBus();
    const services = createServices(database, blobs, config, (error) => report(error), bus);
    const runningBus = bus;
    // Searches are answered from an in-memory index: it is filled before the node takes requests, and then a job
    // looks for changes other nodes made without a message reaching this one.
    await services.skills.searchReady();
    if (config.admin) await services.accounts.ensureAdmin(config.admin);
    // The jobs start once the app (and its logger) exists; the app shows their metrics.
    const jobs = jobRunner({
      store: jobsRepository(database.db),
      onError: (job, error) => app.log.error({ err: error, job }, 'background job failed'),
      queue: { pollMs: config.queuePollMs },
    });
    const app = await buildApp({ config, services, moreMetrics: jobs.metrics });
    report = (error) => app.log.error({ err: error }, 'background write failed');
    connectionLost = (error) => app.log.warn({ err: error }, 'database connection lost; it is replaced when next needed');
    defineJobs(jobs, services, config, app.log);
    jobs.start();
    let closing: Promise<void> | undefined;
    return {
      app,
      services,
      database,
      jobs,
      close() {
        closing ??= (async () => {
          try {
            // Requests in flight finish first (their log entries are recorded as they do); then the jobs' runs under
            // way, and last the buffers' final writes (each tried even when another cannot be written).
            await app.close();
            await jobs.stop();
          } finally {
            await services.scanThreads?.close();
            await runningBus.close();
            await services.repositories.callLogs.close();
            await database.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await bus?.close();
    await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The node's background work. Per node: its buffers' writes, its search index's catch-up, its share of the queued
 * jobs (the versions of rescans). One node at a time (under a lease): pruning the call log and collecting orphaned
 * blobs, hourly and at start-up, so that several nodes do not all read the whole store each hour.
 */
function defineJobs(jobs: JobRunner, services: Services, config: Config, log: FastifyInstance['log']): void {
  jobs.define({
    name: 'download-counts',
    everyMs: FLUSH_INTERVAL_MS,
    retry: BUFFER_RETRY,
    run: () => services.downloads.write(),
    final: () => services.downloads.flush(),
  });
  jobs.define({
    name: 'call-logs',
    everyMs: LOG_FLUSH_INTERVAL_MS,
    retry: BUFFER_RETRY,
    run: () => services.recorder.flush(),
    final: () => services.recorder.close(),
  });
  jobs.define({ name: 'search-sync', everyMs: config.searchSyncIntervalMs, run: () => services.skills.catchUpSearch() });
  // The versions of rescan jobs, which any node may have started: this node takes its share of them.
  jobs.defineQueued(services.rescans.kind);
  // Webhooks: new feed entries become deliveries, and every node sends its share of them. Every node may dispatch: the
  // dispatcher's position is locked and moved in the transaction that queues the deliveries, so an entry is dispatched
  // once, and a node that finds nothing new only reads (no lease written every poll).
  jobs.defineQueued(services.webhooks.kind);
  jobs.define({ name: 'webhook-dispatch', everyMs: config.queuePollMs, run: () => services.webhooks.dispatch() });
  jobs.define({
    name: 'log-pruning',
    everyMs: HOUR,
    atStart: true,
    exclusive: { leaseMs: HOUR },
    retry: HOURLY_RETRY,
    async run() {
      const removed = await services.logs.prune();
      if (removed > 0) log.info({ removed }, 'pruned call-log entries past retention');
      // Read notifications past their retention go with the same hourly pass (each user also keeps a bounded number).
      const notifications = await services.notifications.prune();
      if (notifications > 0) log.info({ removed: notifications }, 'pruned read notifications past retention');
    },
  });
  // Blobs no version references (deleted drafts, refused or crashed uploads), collected past their grace period.
  jobs.define({
    name: 'blob-collection',
    everyMs: HOUR,
    atStart: true,
    exclusive: { leaseMs: HOUR },
    retry: HOURLY_RETRY,
    async run() {
      const removed = await services.versions.collectOrphans();
      if (removed > 0) log.info({ removed }, 'removed orphaned package blobs');
    },
  });
}
