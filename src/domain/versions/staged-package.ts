import type { ArrivingScan } from '@skill-registry/skill-package/scan/session';
import type { RandomAccessSource } from '@skill-registry/skill-package/source';
import { notingBytes } from '../../lib/young-garbage.js';
import type { StagedBlob } from '../../storage/blob-store.js';

/**
 * An uploaded package, staged and not yet inspected, with the scan that followed its bytes as they arrived (null when
 * none could: scanning on this thread, or a store that writes no local file).
 */
export class StagedPackage {
  /** The blob's bytes for inspection, whose read buffers are freed every few MiB as inspection goes through them. */
  readonly source: RandomAccessSource;

  constructor(
    readonly blob: StagedBlob,
    readonly arrived: ArrivingScan | null,
  ) {
    const { source } = blob;
    this.source = { size: source.size, read: (range) => notingBytes(source.read(range)) };
  }

  /** Removes the staged bytes and lets the scan go; a no-op once committed. */
  async discard(): Promise<void> {
    this.arrived?.abort();
    await this.blob.discard();
  }
}
