import type { ArrivingScan } from '@skill-registry/skill-package/scan/session';
import type { StagedBlob } from '../../storage/blob-store.js';

/**
 * An uploaded package, staged and not yet inspected, with the scan that followed its bytes as they arrived (null when
 * none could: scanning on this thread, or a store that writes no local file).
 */
export class StagedPackage {
  constructor(
    readonly blob: StagedBlob,
    readonly arrived: ArrivingScan | null,
  ) {}

  /** Removes the staged bytes and lets the scan go; a no-op once committed. */
  async discard(): Promise<void> {
    this.arrived?.abort();
    await this.blob.discard();
  }
}
