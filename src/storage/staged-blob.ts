import type { RandomAccessSource, StagedBlob } from './blob-store.js';

type StagedState = 'staged' | 'committed' | 'discarded';

/**
 * The life of a staged blob, the same for every store: commit moves it into place once, discard removes it
 * once, neither after the other, and both run one after the other so concurrent or repeated calls see a settled
 * state. A store says how to move, remove and forget its temporary copy.
 */
export abstract class SerialStagedBlob implements StagedBlob {
  abstract readonly source: RandomAccessSource;
  private state: StagedState = 'staged';
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly sha256: string,
    readonly size: number,
  ) {}

  /** Makes the staged bytes visible under the sha256 (the temporary copy is gone afterwards). */
  protected abstract moveIntoPlace(): Promise<void>;
  /** Removes the temporary copy. */
  protected abstract removeStaged(): Promise<void>;
  /** Tells the store the temporary copy is no longer in flight (so a sweep may treat it as any other). */
  protected abstract released(): void;

  /** True once the bytes are under the sha256: reads must go there, the temporary copy is gone. */
  protected get committed(): boolean {
    return this.state === 'committed';
  }

  commit(): Promise<void> {
    return this.serially(async () => {
      if (this.state === 'committed') return;
      if (this.state === 'discarded') throw new Error(`The staged blob ${this.sha256} was discarded; it cannot be committed.`);
      await this.moveIntoPlace();
      this.state = 'committed';
      this.released();
    });
  }

  /** Removes the staged bytes; a no-op once committed or discarded. */
  discard(): Promise<void> {
    return this.serially(async () => {
      if (this.state !== 'staged') return;
      await this.removeStaged();
      this.state = 'discarded';
      this.released();
    });
  }

  private serially(operation: () => Promise<void>): Promise<void> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
