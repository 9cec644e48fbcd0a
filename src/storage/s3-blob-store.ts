import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type RandomAccessSource,
  type StagedBlob,
  type StageOptions,
} from './blob-store.js';
import { assertSha256, commitStaged, DEFAULT_SWEEP_AGE_MS, isSha256, keyedSerial, stagingLimit, sweepCutoff } from './blob-util.js';
import { SerialStagedBlob } from './staged-blob.js';
import { copySource, describeS3Error, isS3NotFound, isS3NotImplemented } from './s3-client.js';
import { blockCachedSource, objectSource } from './s3-source.js';

/**
 * The S3 blob store: package archives in an S3-compatible bucket, shared by every node of a deployment.
 *
 * Layout under the prefix:
 *   blobs/<sha256>                      committed blobs, written only by a server-side copy of a complete object
 *   tmp/<epoch ms>-<uuid>               uploads being written (as multipart uploads), or staged and not yet committed
 *
 * An upload streams into a temporary object while it is hashed and counted; nothing is known about its final name
 * until the last byte. commit() then copies it to blobs/<sha256> on the server (CopyObject, or a multipart copy above
 * 5 GiB) and deletes the temporary object. A copy either creates the whole object or nothing, so a committed key is
 * never half-written. Failed uploads abort their multipart upload and delete what they wrote; a crash leaves at most
 * objects and multipart uploads under tmp/, which sweep() removes once they are old enough that no node can still be
 * writing them.
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** S3's smallest multipart part (except the last) and its most parts per upload. */
const MIN_PART_SIZE = 5 * MiB;
const MAX_PARTS = 10_000;
/**
 * Parts sent at once: 2 lets one part travel while the next is read from the client. An upload holds at most
 * `(QUEUE_SIZE + 1) × part size` in memory, never the whole body.
 */
const QUEUE_SIZE = 2;

/** S3 copies at most 5 GiB with a single CopyObject; larger objects are copied part by part. */
const MAX_SINGLE_COPY = 5 * GiB;
const COPY_PART_SIZE = 512 * MiB;
const COPY_CONCURRENCY = 4;

/** How long a readiness check waits for the bucket to answer. */
const PING_TIMEOUT_MS = 5_000;

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
  /** Committed blobs larger than this are copied part by part. Default 5 GiB (S3's CopyObject limit). */
  multipartCopyThreshold?: number;
  /** Bytes per part of a multipart copy (at least 5 MiB). Default 512 MiB. */
  copyPartSize?: number;
}

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  /** '' or '<prefix>/': what every key of this store starts with. */
  readonly keyPrefix: string;
  readonly tempPrefix: string;
  readonly blobPrefix: string;
  private readonly multipartCopyThreshold: number;
  private readonly copyPartSize: number;
  /** Temporary keys this process is writing or holds staged: sweep() leaves them (and their multipart uploads) alone. */
  private readonly activeKeys = new Set<string>();
  /** Multipart copies this process has under way (upload ids): sweep() leaves them alone too. */
  private readonly activeCopies = new Set<string>();
  /** Commits and collections of one sha256 by this process, one at a time. */
  private readonly exclusively = keyedSerial();

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    const prefix = options.prefix.replace(/^\/+|\/+$/g, '');
    this.keyPrefix = prefix === '' ? '' : `${prefix}/`;
    this.tempPrefix = `${this.keyPrefix}tmp/`;
    this.blobPrefix = `${this.keyPrefix}blobs/`;
    this.multipartCopyThreshold = options.multipartCopyThreshold ?? MAX_SINGLE_COPY;
    this.copyPartSize = Math.max(MIN_PART_SIZE, options.copyPartSize ?? COPY_PART_SIZE);
  }

  /** The key of the committed blob `sha256` (whether or not it exists). Throws a TypeError on a bad sha256. */
  keyOf(sha256: string): string {
    assertSha256(sha256);
    return `${this.blobPrefix}${sha256}`;
  }

  async stage(body: Readable, options: StageOptions = {}): Promise<StagedBlob> {
    const maxBytes = stagingLimit(body, options.maxBytes);
    const key = `${this.tempPrefix}${Date.now()}-${randomUUID()}`;
    this.activeKeys.add(key);
    const hash = createHash('sha256');
    let size = 0;
    // The first failure on the body's side (its own error, or too many bytes): what stage() rejects with.
    let bodyFailure: { error: unknown } | null = null;
    async function* hashed(): AsyncGenerator<Buffer> {
      try {
        // Leaving this loop early (an error here or downstream) destroys the body, so the rest is never read.
        for await (const chunk of body) {
          const bytes = asBuffer(chunk);
          if (size + bytes.length > maxBytes) throw new BlobTooLargeError(maxBytes);
          size += bytes.length;
          hash.update(bytes);
          yield bytes;
        }
      } catch (error) {
        bodyFailure ??= { error };
        throw error;
      }
    }
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: Readable.from(hashed(), { objectMode: false }),
        ContentType: 'application/octet-stream',
      },
      partSize: partSizeFor(maxBytes),
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      if (!body.destroyed) body.destroy();
      await this.cleanUpFailedUpload(key, upload.uploadId);
      this.activeKeys.delete(key);
      const failure = bodyFailure as { error: unknown } | null;
      if (failure !== null) throw failure.error;
      throw new Error(`Storing an upload in s3://${this.bucket}/${key} failed: ${describeS3Error(error)}`, { cause: error });
    }
    return new S3StagedBlob(this, hash.digest('hex'), size, key);
  }

  async put(body: Readable, options: StageOptions = {}): Promise<{ sha256: string; size: number }> {
    return commitStaged(await this.stage(body, options));
  }

  async stat(sha256: string): Promise<{ size: number } | null> {
    const head = await this.head(this.keyOf(sha256));
    return head === null ? null : { size: head.ContentLength ?? 0 };
  }

  /** The object's metadata, or null when there is no such object. */
  private async head(key: string): Promise<HeadObjectCommandOutput | null> {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isS3NotFound(error)) return null;
      throw new Error(`Looking up s3://${this.bucket}/${key} failed: ${describeS3Error(error)}`, { cause: error });
    }
  }

  async source(sha256: string): Promise<RandomAccessSource> {
    const found = await this.stat(sha256);
    if (found === null) throw new BlobNotFoundError(sha256);
    return blockCachedSource(this.objectSource(this.keyOf(sha256), found.size, sha256));
  }

  known(sha256: string, size: number): RandomAccessSource {
    // Downloads: whole-object and ranged reads stream straight from the bucket, no cache in between.
    return this.objectSource(this.keyOf(sha256), size, sha256);
  }

  async delete(sha256: string): Promise<void> {
    const key = this.keyOf(sha256);
    // S3 answers a DELETE of a missing key with success, as this method promises.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * A look at the object's date, then the delete, one at a time with this process's commits of the same sha256.
   * S3 has no delete conditional on a date, so a commit of the same content by another node that lands in the
   * milliseconds between the two is deleted with it. Orphan collection closes that gap in the database: it deletes
   * holding the blob's lock there, and an upload, under the same lock, checks that its blob is still stored before
   * writing its version (and fails, writing nothing, when it is not).
   */
  async deleteIfOlder(sha256: string, cutoff: number): Promise<boolean> {
    const key = this.keyOf(sha256);
    return this.exclusively(sha256, () => this.deleteKeyIfOlder(key, cutoff));
  }

  private async deleteKeyIfOlder(key: string, cutoff: number): Promise<boolean> {
    const head = await this.head(key);
    if (head === null) return false;
    // Without a date an object counts as new, as in list().
    const modified = head.LastModified?.getTime();
    if (modified === undefined || modified > cutoff) return false;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    return true;
  }

  async *list(): AsyncIterable<{ sha256: string; writtenAt: number }> {
    for await (const object of this.listObjects(this.blobPrefix)) {
      const name = object.key.slice(this.blobPrefix.length);
      if (!isSha256(name)) continue;
      // Without a date an object counts as new, so orphan collection never takes it for an old one.
      yield { sha256: name, writtenAt: object.lastModified ?? Date.now() };
    }
  }

  /**
   * Removes temporary objects and abandoned multipart uploads at least `olderThanMs` old (by the bucket's clock),
   * except this process's own. Nodes sharing a bucket must not pass 0: another node's upload may be in flight.
   */
  async sweep(olderThanMs: number = DEFAULT_SWEEP_AGE_MS): Promise<number> {
    const cutoff = sweepCutoff(olderThanMs);
    const oldEnough = (time: number | undefined) => olderThanMs === 0 || (time !== undefined && time <= cutoff);
    let removed = 0;
    for await (const object of this.listObjects(this.tempPrefix)) {
      if (this.activeKeys.has(object.key) || !oldEnough(object.lastModified)) continue;
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.key }));
      removed += 1;
    }
    for await (const upload of this.listMultipartUploads()) {
      if (this.activeKeys.has(upload.key) || this.activeCopies.has(upload.uploadId) || !oldEnough(upload.initiated)) continue;
      await this.abortMultipart(upload.key, upload.uploadId);
      removed += 1;
    }
    return removed;
  }

  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    } catch (error) {
      throw new Error(`The bucket "${this.bucket}" cannot be used: ${describeS3Error(error)}`, { cause: error });
    }
  }

  /** Reads an object (internal: staged blobs read their temporary key through this). */
  objectSource(key: string | (() => string), size: number, sha256: string): RandomAccessSource {
    return objectSource(
      {
        client: this.client,
        bucket: this.bucket,
        key: typeof key === 'string' ? () => key : key,
        missing: () => new BlobNotFoundError(sha256),
      },
      size,
    );
  }

  /** A staged object's small reads go through the block cache: the inspector reads a zip by many small ranges. */
  cachedObjectSource(key: () => string, size: number, sha256: string): RandomAccessSource {
    return blockCachedSource(this.objectSource(key, size, sha256));
  }

  /**
   * Copies a complete temporary object to the blob's key (internal: called by S3StagedBlob.commit). The copy is
   * made even when the blob exists: it is the same content, the write is atomic, and the fresh date keeps orphan
   * collection on another node from taking the blob away before this upload's version row is written.
   */
  commitTemp(tempKey: string, sha256: string, size: number): Promise<void> {
    const target = this.keyOf(sha256);
    return this.exclusively(sha256, () => this.copyIntoPlace(tempKey, target, sha256, size));
  }

  private async copyIntoPlace(tempKey: string, target: string, sha256: string, size: number): Promise<void> {
    if (size > this.multipartCopyThreshold) {
      await this.copyInParts(tempKey, target, sha256, size);
    } else {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: target,
          CopySource: copySource(this.bucket, tempKey),
          MetadataDirective: 'REPLACE',
          ContentType: 'application/octet-stream',
          Metadata: { sha256 },
        }),
      );
    }
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: tempKey }));
    } catch {
      // The blob is committed; a temporary object that could not be deleted now is an old leftover for sweep().
    }
  }

  /** Deletes a temporary object (internal: called by S3StagedBlob.discard). */
  async deleteTemp(tempKey: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: tempKey }));
  }

  /** Forgets a temporary key once it has been committed or discarded (internal). */
  release(tempKey: string): void {
    this.activeKeys.delete(tempKey);
  }

  /** A copy above the single-copy limit: parts copied on the server, the target appearing only on completion. */
  private async copyInParts(sourceKey: string, target: string, sha256: string, size: number): Promise<void> {
    const partSize = Math.max(this.copyPartSize, Math.ceil(size / MAX_PARTS));
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: target, ContentType: 'application/octet-stream', Metadata: { sha256 } }),
    );
    const uploadId = created.UploadId;
    if (uploadId === undefined) throw new Error(`The object store started a multipart copy to ${target} without an upload id.`);
    this.activeCopies.add(uploadId);
    try {
      const ranges: { partNumber: number; start: number; end: number }[] = [];
      for (let start = 0, partNumber = 1; start < size; start += partSize, partNumber += 1) {
        ranges.push({ partNumber, start, end: Math.min(size, start + partSize) - 1 });
      }
      const parts: { PartNumber: number; ETag: string }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < ranges.length) {
          const range = ranges[next]!;
          next += 1;
          const copied = await this.client.send(
            new UploadPartCopyCommand({
              Bucket: this.bucket,
              Key: target,
              UploadId: uploadId,
              PartNumber: range.partNumber,
              CopySource: copySource(this.bucket, sourceKey),
              CopySourceRange: `bytes=${range.start}-${range.end}`,
            }),
          );
          const etag = copied.CopyPartResult?.ETag;
          if (etag === undefined) throw new Error(`The object store copied part ${range.partNumber} of ${target} without an ETag.`);
          parts.push({ PartNumber: range.partNumber, ETag: etag });
        }
      };
      await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, ranges.length) }, worker));
      parts.sort((a, b) => a.PartNumber - b.PartNumber);
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: target, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await this.abortMultipart(target, uploadId).catch(() => undefined);
      throw error;
    } finally {
      this.activeCopies.delete(uploadId);
    }
  }

  /** After a failed upload: abort its multipart upload (if the SDK did not) and delete whatever object it left. */
  private async cleanUpFailedUpload(key: string, uploadId: string | undefined): Promise<void> {
    if (uploadId !== undefined) await this.abortMultipart(key, uploadId).catch(() => undefined);
    await this.deleteTemp(key).catch(() => undefined);
  }

  private async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      // Already completed or aborted (by the SDK, or by another node's sweep): nothing is left to remove.
      if (!isS3NotFound(error)) throw error;
    }
  }

  private async *listObjects(prefix: string): AsyncGenerator<{ key: string; lastModified: number | undefined }> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      } catch (error) {
        throw new Error(`Listing s3://${this.bucket}/${prefix} failed: ${describeS3Error(error)}`, { cause: error });
      }
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) yield { key: object.Key, lastModified: object.LastModified?.getTime() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** Multipart uploads under this store's prefix (temporary uploads, and copies to blobs/ cut short by a crash). */
  private async *listMultipartUploads(): AsyncGenerator<{ key: string; uploadId: string; initiated: number | undefined }> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            ...(this.keyPrefix !== '' ? { Prefix: this.keyPrefix } : {}),
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
      } catch (error) {
        // A server without this listing cannot show abandoned uploads; its own expiry (or a lifecycle rule) has to.
        if (isS3NotImplemented(error)) return;
        throw new Error(`Listing the multipart uploads of s3://${this.bucket}/${this.keyPrefix} failed: ${describeS3Error(error)}`, {
          cause: error,
        });
      }
      for (const upload of page.Uploads ?? []) {
        if (upload.Key === undefined || upload.UploadId === undefined) continue;
        if (!upload.Key.startsWith(this.tempPrefix) && !upload.Key.startsWith(this.blobPrefix)) continue;
        yield { key: upload.Key, uploadId: upload.UploadId, initiated: upload.Initiated?.getTime() };
      }
      const truncated = page.IsTruncated === true;
      keyMarker = truncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = truncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker !== undefined);
  }
}

/** The smallest part size that keeps an upload of `maxBytes` within S3's 10,000 parts. */
function partSizeFor(maxBytes: number): number {
  if (!Number.isFinite(maxBytes)) return MIN_PART_SIZE;
  return Math.max(MIN_PART_SIZE, Math.ceil(maxBytes / MAX_PARTS));
}

function asBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError(`A blob body must yield bytes or strings, not ${typeof chunk}.`);
}

class S3StagedBlob extends SerialStagedBlob {
  readonly source: RandomAccessSource;

  constructor(
    private readonly store: S3BlobStore,
    sha256: string,
    size: number,
    private readonly tempKey: string,
  ) {
    super(sha256, size);
    // After commit the temporary object is gone, but the same bytes are under the blob's key.
    this.source = store.cachedObjectSource(() => (this.committed ? store.keyOf(sha256) : tempKey), size, sha256);
  }

  protected moveIntoPlace(): Promise<void> {
    return this.store.commitTemp(this.tempKey, this.sha256, this.size);
  }

  protected removeStaged(): Promise<void> {
    return this.store.deleteTemp(this.tempKey);
  }

  protected released(): void {
    this.store.release(this.tempKey);
  }
}
