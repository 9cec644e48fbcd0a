import type { StorageConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { createFsBlobStore } from './fs-blob-store.js';

/** Opens the blob store the configuration names. */
export async function openBlobStore(config: StorageConfig): Promise<BlobStore> {
  if (config.kind === 'file') return createFsBlobStore(config.dir);
  throw new Error('STORAGE_URL s3:// is not supported by this version of the registry; use file:// (the default).');
}
