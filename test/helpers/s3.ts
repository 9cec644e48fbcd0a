import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * A real S3-compatible server for tests: s3rver 3.7.1 in this process, on 127.0.0.1 and a free port, keeping its
 * buckets in a temporary directory, silent.
 *
 * s3rver lacks three operations that real S3 (and MinIO, Ceph, R2…) have and the registry uses: AbortMultipartUpload,
 * ListMultipartUploads and UploadPartCopy. This helper answers those itself, over s3rver's own files, so that the
 * code paths that abort, sweep and copy in parts run against a server instead of being skipped.
 *
 * It also gives s3rver two properties of real S3 that its files lack. Replacing an object is atomic: S3 readers see
 * the old or the new object, never a half-written one, and concurrent writes of one key do not fail (s3rver's copy
 * unlinks the target first, so two at once fail with ENOENT); here requests on one key take a reader-writer lock.
 * And deleting a key does not remove the directories s3rver keeps it in, which races with a write into the same
 * directory (or another delete) and fails those requests with ENOENT.
 */

export interface S3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The bucket `env` points at (created at start). */
  bucket: string;
  /** The key prefix `env` points at. */
  prefix: string;
  region: string;
  /** Where s3rver keeps its buckets. */
  directory: string;
  /** What a registry needs to use the bucket: STORAGE_URL, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and credentials. */
  env: Record<string, string>;
  /** The same variables for another bucket or prefix of this server. */
  envFor(bucket: string, prefix?: string): Record<string, string>;
  /** A client of this server, for tests that look into a bucket. */
  client: S3Client;
  createBucket(name: string): Promise<void>;
  /** Removes a bucket and everything in it (as if an operator deleted it), so requests to it fail with NoSuchBucket. */
  removeBucket(name: string): Promise<void>;
  /** Every object key in a bucket (default: `bucket`) under a prefix, sorted. */
  listKeys(prefix?: string, bucketName?: string): Promise<string[]>;
  /** Multipart uploads started and neither completed nor aborted, in a bucket (default: `bucket`). */
  pendingUploads(bucketName?: string): Promise<{ key: string; uploadId: string }[]>;
  /** The file holding an object's bytes (to damage it on purpose in a test). */
  objectFile(key: string, bucketName?: string): string;
  /** Stops the server, closes every connection to it and removes its directory. Safe to call twice. */
  close(): Promise<void>;
}

export interface S3ServerOptions {
  bucket?: string;
  prefix?: string;
}

// The suite runs on Node 20 on purpose (the registry supports it); the SDK's notice that its 2027 releases will need
// Node 22 would otherwise repeat in every test process and child registry.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** s3rver's fixed credentials: it checks signatures against them. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
const REGION = 'us-east-1';

/** s3rver's file naming: `<bucket>/<key's directories>/<last segment>._S3rver_<resource>`. */
function resourcePath(directory: string, bucket: string, key: string, resource: string): string {
  const parts = key.split('/');
  const last = parts.pop() ?? '';
  return path.join(directory, bucket, ...parts, `${last}._S3rver_${resource}`);
}

function uploadsDir(directory: string, bucket: string): string {
  return path.join(directory, bucket, '._S3rver_uploads');
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function sendXml(res: ServerResponse, status: number, body: string): void {
  const payload = `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendXml(res, status, `<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`);
}

interface UploadRecord {
  key: string;
  uploadId: string;
  initiated: Date;
}

async function readUploads(directory: string, bucket: string): Promise<UploadRecord[]> {
  const dir = uploadsDir(directory, bucket);
  let ids: string[];
  try {
    ids = await readdir(dir);
  } catch {
    return [];
  }
  const uploads: UploadRecord[] = [];
  for (const uploadId of ids) {
    try {
      const keyFile = path.join(dir, uploadId, 'key');
      const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]);
      uploads.push({ key, uploadId, initiated: info.mtime });
    } catch {
      // Completed or aborted while listing.
    }
  }
  return uploads.sort((a, b) => (a.key === b.key ? a.uploadId.localeCompare(b.uploadId) : a.key < b.key ? -1 : 1));
}

/** The operations s3rver lacks, answered over its files; null when the request is s3rver's to answer. */
function extension(directory: string, req: IncomingMessage, res: ServerResponse): Promise<void> | null {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const [bucket, ...segments] = url.pathname.slice(1).split('/').map(decodeURIComponent);
  if (bucket === undefined || bucket === '') return null;
  const key = segments.join('/');
  const query = url.searchParams;

  // ListMultipartUploads: GET /<bucket>?uploads[&prefix=…]
  if (req.method === 'GET' && key === '' && query.has('uploads')) {
    return (async () => {
      const prefix = query.get('prefix') ?? '';
      const uploads = (await readUploads(directory, bucket)).filter((u) => u.key.startsWith(prefix));
      const items = uploads
        .map(
          (u) =>
            `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
        )
        .join('');
      sendXml(
        res,
        200,
        `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xmlEscape(bucket)}</Bucket>` +
          `<Prefix>${xmlEscape(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${items}</ListMultipartUploadsResult>`,
      );
    })();
  }

  const uploadId = query.get('uploadId');
  if (uploadId === null || key === '' || !/^[0-9a-f]+$/.test(uploadId)) return null;
  const uploadDir = path.join(uploadsDir(directory, bucket), uploadId);

  // AbortMultipartUpload: DELETE /<bucket>/<key>?uploadId=…
  if (req.method === 'DELETE') {
    return (async () => {
      const recorded = await readFile(path.join(uploadDir, 'key'), 'utf8').catch(() => null);
      if (recorded !== key) {
        sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
        return;
      }
      await rm(uploadDir, { recursive: true, force: true });
      res.writeHead(204).end();
    })();
  }

  // UploadPartCopy: PUT /<bucket>/<key>?partNumber=…&uploadId=… with x-amz-copy-source (and a range)
  const copySource = req.headers['x-amz-copy-source'];
  const partNumber = Number(query.get('partNumber'));
  if (req.method === 'PUT' && typeof copySource === 'string' && Number.isInteger(partNumber) && partNumber >= 1) {
    return (async () => {
      const recorded = await readFile(path.join(uploadDir, 'key'), 'utf8').catch(() => null);
      if (recorded !== key) {
        sendError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
        return;
      }
      const [sourceBucket, ...sourceKey] = decodeURIComponent(copySource.replace(/^\//, '').split('?')[0] ?? '').split('/');
      const sourceFile = resourcePath(directory, sourceBucket ?? '', sourceKey.join('/'), 'object');
      const size = (await stat(sourceFile).catch(() => null))?.size;
      if (size === undefined) {
        sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        return;
      }
      const rangeHeader = req.headers['x-amz-copy-source-range'];
      const match = typeof rangeHeader === 'string' ? /^bytes=(\d+)-(\d+)$/.exec(rangeHeader) : null;
      const start = match ? Number(match[1]) : 0;
      const end = match ? Number(match[2]) : size - 1;
      if (start > end || end >= size) {
        sendError(res, 416, 'InvalidRange', 'The requested range is not satisfiable.');
        return;
      }
      const partFile = path.join(uploadDir, String(partNumber));
      const md5 = createHash('md5');
      const source = createReadStream(sourceFile, { start, end });
      source.on('data', (chunk) => md5.update(chunk));
      await pipeline(source, createWriteStream(partFile));
      const etag = md5.digest('hex');
      await writeFile(`${partFile}.md5`, etag);
      sendXml(res, 200, `<CopyPartResult><LastModified>${new Date().toISOString()}</LastModified><ETag>"${etag}"</ETag></CopyPartResult>`);
    })();
  }
  return null;
}

/**
 * Reader-writer locks by object: reads of a key run together, a write of it runs alone, in arrival order (so a
 * stream of reads cannot starve a write).
 */
class KeyLocks {
  private readonly locks = new Map<string, { readers: number; writer: boolean; waiting: { write: boolean; grant: () => void }[] }>();

  acquire(key: string, write: boolean): Promise<() => void> {
    let lock = this.locks.get(key);
    if (lock === undefined) {
      lock = { readers: 0, writer: false, waiting: [] };
      this.locks.set(key, lock);
    }
    const state = lock;
    const release = () => {
      if (write) state.writer = false;
      else state.readers -= 1;
      this.admit(key, state);
    };
    return new Promise((resolve) => {
      state.waiting.push({ write, grant: () => resolve(release) });
      this.admit(key, state);
    });
  }

  private admit(key: string, state: { readers: number; writer: boolean; waiting: { write: boolean; grant: () => void }[] }): void {
    while (state.waiting.length > 0 && !state.writer) {
      const next = state.waiting[0]!;
      if (next.write && state.readers > 0) break;
      state.waiting.shift();
      if (next.write) state.writer = true;
      else state.readers += 1;
      next.grant();
    }
    if (!state.writer && state.readers === 0 && state.waiting.length === 0) this.locks.delete(key);
  }
}

/** The object a request reads or writes (null for bucket-level requests and multipart parts), and whether it writes. */
function objectAccess(req: IncomingMessage): { key: string; write: boolean } | null {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const [bucket, ...segments] = url.pathname.slice(1).split('/');
  if (bucket === undefined || bucket === '' || segments.join('/') === '' || url.searchParams.has('partNumber')) return null;
  const key = `${bucket}/${segments.join('/')}`;
  if (req.method === 'GET' || req.method === 'HEAD') return { key, write: false };
  if (req.method === 'PUT' || req.method === 'DELETE') return url.searchParams.has('uploadId') ? null : { key, write: true };
  if (req.method === 'POST' && url.searchParams.has('uploadId')) return { key, write: true };
  return null;
}

interface S3rverInternals {
  store: { deleteObject(bucket: string, key: string): Promise<void> };
}

export async function startS3Server(options: S3ServerOptions = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'skill-registry';
  const prefix = options.prefix ?? 'packages';
  const directory = await mkdtemp(path.join(tmpdir(), 'skreg-s3-'));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3rver.configureBuckets();

  // Deleting a key removes its files only; see the comment at the top of this file.
  (s3rver as unknown as S3rverInternals).store.deleteObject = async (bucketName, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        unlink(resourcePath(directory, bucketName, key, resource)).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }),
      ),
    );
  };

  const handle = s3rver.callback();
  const locks = new KeyLocks();
  const server: Server = createServer((req, res) => {
    const handled = extension(directory, req, res);
    if (handled === null) {
      const access = objectAccess(req);
      if (access === null) {
        handle(req, res);
        return;
      }
      void locks.acquire(access.key, access.write).then((release) => {
        res.once('close', release);
        handle(req, res);
      });
      return;
    }
    handled.catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'InternalError', error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
  });

  const envFor = (bucketName: string, keyPrefix = prefix): Record<string, string> => ({
    STORAGE_URL: `s3://${bucketName}${keyPrefix ? `/${keyPrefix}` : ''}`,
    S3_ENDPOINT: endpoint,
    S3_REGION: REGION,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: SECRET_KEY,
  });

  let closing: Promise<void> | undefined;
  return {
    endpoint,
    bucket,
    prefix,
    region: REGION,
    directory,
    env: envFor(bucket),
    envFor,
    client,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async removeBucket(name) {
      await rm(path.join(directory, name), { recursive: true, force: true });
    },
    async listKeys(keyPrefix = '', bucketName = bucket) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: keyPrefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return keys.sort();
    },
    async pendingUploads(bucketName = bucket) {
      return (await readUploads(directory, bucketName)).map(({ key, uploadId }) => ({ key, uploadId }));
    },
    objectFile(key, bucketName = bucket) {
      return resourcePath(directory, bucketName, key, 'object');
    },
    close() {
      closing ??= (async () => {
        client.destroy();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await rm(directory, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
