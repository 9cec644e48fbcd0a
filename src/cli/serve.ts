import type { Config } from '../config.js';
import { inFlightOf, type InFlightRequest } from '../http/in-flight.js';
import { createRuntime } from '../server.js';

/**
 * After the grace period the connections still open are cut, and the shutdown goes on (download counts and call
 * logs are written, the database closed). Should even that not end the process, it exits this much later.
 */
const AFTER_GRACE_MS = 5_000;

/** At most this many requests are named one by one in the log line of a cut; the counts cover them all. */
const NAMED_IN_LOG = 50;

export async function runServe(config: Config): Promise<number> {
  const runtime = await createRuntime(config);
  const { app } = runtime;
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ url: config.publicUrl, database: config.database.kind }, 'skill registry ready');
  if (config.logLevel === 'silent') console.log(`Skill Registry listening on ${config.publicUrl}`);
  const inFlight = inFlightOf(app);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      const waiting = inFlight?.list() ?? [];
      app.log.info({ signal, graceMs: config.shutdownGraceMs, ...summary(waiting) }, 'shutting down');
      let closed = false;
      const giveUp = () => {
        app.log.error({ resources: process.getActiveResourcesInfo() }, 'still running after shutdown; exiting');
        process.exit(1);
      };
      // Unref'd, so it never delays a clean exit; it stays armed after the close, because a handle left open
      // (a connection, a timer) would otherwise keep a stopped server's process alive for ever.
      const grace = setTimeout(() => {
        if (closed) return giveUp();
        const cut = inFlight?.list() ?? [];
        app.log.warn(
          { graceMs: config.shutdownGraceMs, ...summary(cut), cut: cut.slice(0, NAMED_IN_LOG) },
          'grace period over: cutting the requests still in flight',
        );
        // The cut requests end at once; closing then carries on and writes what is buffered.
        app.server.closeAllConnections();
        setTimeout(giveUp, AFTER_GRACE_MS).unref();
      }, config.shutdownGraceMs);
      grace.unref();
      runtime.close().then(
        () => {
          closed = true;
          resolve(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          closed = true;
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/** How many requests, and how many of them package downloads, with the bytes sent so far. */
function summary(requests: InFlightRequest[]): { inFlight: number; downloads: number; bytesSent: number } {
  return {
    inFlight: requests.length,
    downloads: requests.filter((r) => r.route.endsWith('/download')).length,
    bytesSent: requests.reduce((sum, r) => sum + r.bytesSent, 0),
  };
}
