import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { localInvalidationBus, redisInvalidationBus, type InvalidationBus } from './cluster/invalidation.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { createServices, type Services } from './services.js';
import { DEFAULT_SWEEP_AGE_MS } from './storage/blob-util.js';
import { openBlobStore } from './storage/index.js';

/** Call-log retention is enforced hourly (and at start-up). */
const LOG_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface Runtime {
  app: FastifyInstance;
  services: Services;
  database: DatabaseHandle;
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
    // Searches are answered from an in-memory index: it is filled before the node takes requests, and then looks
    // for changes other nodes made without a message reaching this one.
    await services.skills.searchReady();
    const searchSync = setInterval(() => {
      services.skills.catchUpSearch().catch((error: unknown) => {
        report(error);
      });
    }, config.searchSyncIntervalMs);
    searchSync.unref();
    if (config.admin) await services.accounts.ensureAdmin(config.admin);
    const app = await buildApp({ config, services });
    report = (error) => app.log.error({ err: error }, 'background write failed');
    connectionLost = (error) => app.log.warn({ err: error }, 'database connection lost; it is replaced when next needed');
    services.downloads.start();
    services.recorder.start();
    const pruneLogs = () =>
      services.logs.prune().then(
        (removed) => {
          if (removed > 0) app.log.info({ removed }, 'pruned call-log entries past retention');
        },
        (error: unknown) => app.log.error({ err: error }, 'call-log pruning failed'),
      );
    void pruneLogs();
    const pruneTimer = setInterval(() => void pruneLogs(), LOG_PRUNE_INTERVAL_MS);
    pruneTimer.unref();
    // Blobs no version references (deleted drafts, refused or crashed uploads), collected past their grace period:
    // once now in the background, so start-up does not wait, and then every hour.
    services.orphans.start({
      onRemoved: (removed) => app.log.info({ removed }, 'removed orphaned package blobs'),
      onError: (error) => app.log.error({ err: error }, 'orphaned blob collection failed'),
    });
    // Rescan jobs, which any node may have started: this node takes its share of their versions.
    services.rescans.start({ onError: (error) => app.log.error({ err: error }, 'rescan batch failed') });
    let closing: Promise<void> | undefined;
    return {
      app,
      services,
      database,
      close() {
        closing ??= (async () => {
          clearInterval(pruneTimer);
          clearInterval(searchSync);
          try {
            // Requests in flight finish first (their log entries are recorded as they do), then the buffers go out.
            await app.close();
            await services.orphans.close();
            await services.rescans.close();
            await services.scanThreads?.close();
            // Both buffers are tried even when the first cannot be written (the database away); the first
            // failure is reported once both have had their chance.
            const written = await Promise.allSettled([services.downloads.close(), services.recorder.close()]);
            for (const result of written) if (result.status === 'rejected') throw result.reason;
          } finally {
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
