import type { Config } from '../config.js';
import { createRuntime } from '../server.js';

const SHUTDOWN_GRACE_MS = 10_000;

export async function runServe(config: Config): Promise<number> {
  const runtime = await createRuntime(config);
  const { app } = runtime;
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ url: config.publicUrl, database: config.database.kind }, 'skill registry ready');
  if (config.logLevel === 'silent') console.log(`Skill Registry listening on ${config.publicUrl}`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal }, 'shutting down');
      let closed = false;
      // Unref'd, so it never delays a clean exit; it stays armed after the close, because a handle left open
      // (a connection, a timer) would otherwise keep a stopped server's process alive for ever.
      const timer = setTimeout(() => {
        if (closed) app.log.error({ resources: process.getActiveResourcesInfo() }, 'still running after shutdown; exiting');
        else app.log.error('requests still in flight after the grace period; exiting');
        process.exit(1);
      }, SHUTDOWN_GRACE_MS);
      timer.unref();
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
