/**
 * The timer and serialisation shared by the in-memory buffers that write in batches: one write at a time,
 * `flush` waits for a write in progress before starting its own, `start` writes every `intervalMs` without
 * keeping the process alive, `idle` waits for the write in progress (if any), and `close` stops the timer and
 * writes what is left.
 */
export function periodicFlush(options: {
  intervalMs: number;
  hasPending: () => boolean;
  writeOut: () => Promise<void>;
  onError?: ((error: unknown) => void) | undefined;
}) {
  let writing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function flush(): Promise<void> {
    while (writing) await writing;
    if (!options.hasPending()) return;
    writing = options.writeOut().finally(() => {
      writing = null;
    });
    await writing;
  }

  return {
    flush,
    async idle(): Promise<void> {
      while (writing) await writing.catch(() => undefined);
    },
    start(): void {
      timer ??= setInterval(() => {
        flush().catch((error: unknown) => options.onError?.(error));
      }, options.intervalMs);
      timer.unref();
    },
    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}
