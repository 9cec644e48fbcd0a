import { ConfigError, readS3Settings, type S3Settings, type StorageConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { createFsBlobStore } from './fs-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';
import { createS3Client } from './s3-client.js';

/**
 * Opens the blob store the configuration names. `s3` is how to reach S3-compatible storage (Config.s3); without it
 * the settings are read from the process environment, which is where the configuration comes from anyway.
 */
export async function openBlobStore(config: StorageConfig, s3?: S3Settings): Promise<BlobStore> {
  if (config.kind === 'file') return createFsBlobStore(config.dir);
  return new S3BlobStore({ client: createS3Client(s3 ?? s3SettingsFromProcess()), bucket: config.bucket, prefix: config.prefix });
}

function s3SettingsFromProcess(): S3Settings {
  const problems: string[] = [];
  const settings = readS3Settings(process.env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
