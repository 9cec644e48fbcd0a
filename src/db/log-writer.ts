import { Worker } from 'node:worker_threads';

/** Writes batches of rows with one prepared statement, in a worker thread with its own SQLite connection. */
export interface BackgroundWriter {
  /** `values` holds the rows one after another, as many values each as the statement has parameters. */
  write(values: unknown[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * `sql` takes `width` positional parameters; those at `timeColumns` arrive as epoch milliseconds and are stored
 * as ISO 8601 text. The worker starts with the first batch, so processes that never write (the CLI, short
 * tests) never start one.
 */
export function sqliteBackgroundWriter(file: string, sql: string, width: number, timeColumns: number[]): BackgroundWriter {
  let next = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let running: { worker: Worker; exited: Promise<void> } | null = null;

  const failAll = (error: Error) => {
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  };

  function start(): Worker {
    if (running) return running.worker;
    // Under tsx (tests, `npm run dev`) this module is TypeScript, and so is its worker.
    const worker = import.meta.url.endsWith('.ts')
      ? // Workers do not inherit tsx's loader; the TypeScript worker registers it before loading itself.
        new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./log-writer.worker.ts', import.meta.url).href)}); })`,
          { eval: true, workerData: { file, sql, width, timeColumns } },
        )
      : new Worker(new URL('./log-writer.worker.js', import.meta.url), { workerData: { file, sql, width, timeColumns } });
    worker.unref();
    worker.on('message', (reply: { id: number; ok: boolean; message?: string }) => {
      const job = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0) worker.unref();
      if (reply.ok) job?.resolve();
      else job?.reject(new Error(reply.message ?? 'call-log write failed'));
    });
    worker.on('error', failAll);
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        failAll(new Error('the call-log writer stopped'));
        running = null;
        resolve();
      }),
    );
    running = { worker, exited };
    return worker;
  }

  return {
    write(values) {
      if (values.length === 0) return Promise.resolve();
      const worker = start();
      const id = (next += 1);
      return new Promise<void>((resolve, reject) => {
        // While a batch is on its way the worker keeps the process alive, so a shutdown waits for it.
        if (waiting.size === 0) worker.ref();
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, values });
      });
    },
    async close() {
      if (!running) return;
      const { worker, exited } = running;
      // Unreferenced so an idle writer never keeps the process alive; referenced again until it has closed.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
