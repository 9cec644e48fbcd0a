import type { S3Settings, StorageConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { createFsBlobStore } from './fs-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';
import { createS3Client } from './s3-client.js';

/** Opens the blob store the configuration names; `s3` (Config.s3) is how to reach S3-compatible storage. */
export async function openBlobStore(config: StorageConfig, s3: S3Settings): Promise<BlobStore> {
  if (config.kind === 'file') return createFsBlobStore(config.dir);
  return new S3BlobStore({ client: createS3Client(s3), bucket: config.bucket, prefix: config.prefix });
}
