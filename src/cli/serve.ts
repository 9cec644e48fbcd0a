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
      const timer = setTimeout(() => {
        app.log.error('requests still in flight after the grace period; exiting');
        process.exit(1);
      }, SHUTDOWN_GRACE_MS);
      timer.unref();
      runtime.close().then(
        () => {
          clearTimeout(timer);
          resolve(0);
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          clearTimeout(timer);
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
