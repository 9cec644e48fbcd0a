import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { createServices, type Services } from './services.js';
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
  const database = openDatabase(config.database);
  try {
    await database.migrate();
    const blobs = await openBlobStore(config.storage);
    // Temporary files of uploads cut short by a crash: no upload in flight is older than this process.
    await blobs.sweep(0);
    // Background writers (download counts, call logs) report failures to the app's logger once it exists.
    let report: (error: unknown) => void = () => undefined;
    const services = createServices(database, blobs, config, (error) => report(error));
    if (config.admin) await services.accounts.ensureAdmin(config.admin);
    const app = await buildApp({ config, services });
    report = (error) => app.log.error({ err: error }, 'background write failed');
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
    // Blobs a crash stranded between storage and database; in the background, so start-up does not wait.
    services.versions.collectOrphans().then(
      (removed) => {
        if (removed > 0) app.log.info({ removed }, 'removed orphaned package blobs');
      },
      (error: unknown) => app.log.error({ err: error }, 'orphaned blob collection failed'),
    );
    let closing: Promise<void> | undefined;
    return {
      app,
      services,
      database,
      close() {
        closing ??= (async () => {
          clearInterval(pruneTimer);
          try {
            // Requests in flight finish first (their log entries are recorded as they do), then the buffers go out.
            await app.close();
            await services.downloads.close();
            await services.recorder.close();
          } finally {
            await services.repositories.callLogs.close();
            await database.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}
