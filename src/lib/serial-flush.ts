/**
 * One write at a time for an in-memory buffer written in batches: `flush` waits for a write in progress before
 * starting its own: a query asking for what is buffered, the runner's timer and a full buffer may all ask at once.
 */
export function serialFlush(options: { hasPending: () => boolean; writeOut: () => Promise<void> }) {
  let writing: Promise<void> | null = null;

  return async function flush(): Promise<void> {
    while (writing) await writing;
    if (!options.hasPending()) return;
    writing = options.writeOut().finally(() => {
      writing = null;
    });
    await writing;
  };
}
