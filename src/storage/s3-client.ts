import { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.js';

/**
 * Sockets per node to the S3 endpoint. Every download streams from S3 for as long as the client takes to read it,
 * so the SDK's default of 50 would make the 51st concurrent download wait for a socket.
 */
const MAX_SOCKETS = 256;

/** A connection that cannot be set up in this time fails (and is retried by the SDK) instead of hanging a request. */
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * The S3 client for the registry's settings. Credentials left null are found by the SDK's default chain
 * (environment, shared config files, container and instance roles, web identity).
 */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint !== null ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials !== null ? { credentials: settings.credentials } : {}),
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
    },
  });
}

/** The HTTP status an S3 error carries, when it carries one. */
function s3Status(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null | undefined)?.$metadata?.httpStatusCode;
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

/**
 * True for "no such key / upload" answers (HEAD answers a bare 404 named NotFound). A missing bucket is not a
 * missing blob: it is a failure of the store, and reported as one wherever the answer says so.
 */
export function isS3NotFound(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'NoSuchBucket') return false;
  return name === 'NotFound' || name === 'NoSuchKey' || name === 'NoSuchUpload' || s3Status(error) === 404;
}

/** True when the server does not implement the operation (some S3-compatible servers lack a few). */
export function isS3NotImplemented(error: unknown): boolean {
  return errorName(error) === 'NotImplemented' || s3Status(error) === 501;
}

/** A one-line description of an S3 failure for operators: the error name, the status and the message. */
export function describeS3Error(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = s3Status(error);
  const message = error.message && error.message !== error.name && error.message !== 'UnknownError' ? `: ${error.message}` : '';
  return `${error.name}${status !== undefined ? ` (HTTP ${status})` : ''}${message}`;
}

/** The `CopySource` value for an object: bucket and key, each path segment URL-encoded as S3 expects. */
export function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}
