import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { ByteRange, RandomAccessSource } from './blob-store.js';
import { assertByteRange } from './blob-util.js';
import { describeS3Error, isS3NotFound } from './s3-client.js';

/** Where an object is: `key()` is asked at every read, so a staged blob can move to its final key meanwhile. */
export interface ObjectRef {
  client: S3Client;
  bucket: string;
  key(): string;
  /** The error a read reports when the object is not there (for committed blobs: BlobNotFoundError). */
  missing(): Error;
}

/**
 * Random access to one object by GETs: the whole object, or one inclusive range of it (`Range: bytes=a-b`).
 * Each read is one request, started when the stream is first read.
 */
export function objectSource(ref: ObjectRef, size: number): RandomAccessSource {
  return {
    size,
    read(range?: ByteRange): Readable {
      if (range !== undefined) assertByteRange(range, size);
      const expected = range === undefined ? size : range.end - range.start + 1;
      return new ObjectReadStream(ref, range, expected);
    },
  };
}

/** Fetching 1 MiB per GET turns a zip's thousands of small header and entry reads into a few dozen requests. */
const BLOCK_SIZE = 1024 * 1024;
/** Blocks a cached source keeps. */
const MAX_BLOCKS = 4;

/**
 * A source whose small reads are served from a few aligned blocks kept in memory (least recently used first out).
 *
 * The package inspector reads a zip by many small random reads (the end record, the central directory, each local
 * header and small entry); against object storage each would be a round trip. Reads up to one block long are served
 * from whole blocks, fetched once; longer reads and whole-object reads stream straight through, so memory stays at
 * `BLOCK_SIZE × MAX_BLOCKS` whatever the object's size.
 */
export function blockCachedSource(inner: RandomAccessSource): RandomAccessSource {
  const blocks = new Map<number, Promise<Buffer>>();

  function block(index: number): Promise<Buffer> {
    const cached = blocks.get(index);
    if (cached !== undefined) {
      blocks.delete(index);
      blocks.set(index, cached);
      return cached;
    }
    const start = index * BLOCK_SIZE;
    const end = Math.min(inner.size, start + BLOCK_SIZE) - 1;
    const loading = readFully(inner.read({ start, end }), end - start + 1);
    blocks.set(index, loading);
    // A failed fetch is not remembered: the next read asks again.
    loading.catch(() => {
      if (blocks.get(index) === loading) blocks.delete(index);
    });
    while (blocks.size > MAX_BLOCKS) blocks.delete(blocks.keys().next().value!);
    return loading;
  }

  async function* slices(start: number, endExclusive: number): AsyncGenerator<Buffer> {
    for (let index = Math.floor(start / BLOCK_SIZE); index * BLOCK_SIZE < endExclusive; index += 1) {
      const bytes = await block(index);
      const offset = index * BLOCK_SIZE;
      yield bytes.subarray(Math.max(start - offset, 0), Math.min(endExclusive - offset, bytes.length));
    }
  }

  return {
    size: inner.size,
    read(range?: ByteRange): Readable {
      if (range === undefined) return inner.read();
      assertByteRange(range, inner.size);
      if (range.end - range.start + 1 > BLOCK_SIZE) return inner.read(range);
      return Readable.from(slices(range.start, range.end + 1), { objectMode: false });
    },
  };
}

/** Reads a stream of exactly `length` bytes into one buffer. */
async function readFully(stream: Readable, length: number): Promise<Buffer> {
  const out = Buffer.allocUnsafe(length);
  let offset = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    if (offset + bytes.length > length) {
      stream.destroy();
      throw new Error(`The object store sent more than the ${length} bytes asked for.`);
    }
    bytes.copy(out, offset);
    offset += bytes.length;
  }
  if (offset !== length) throw new Error(`Short read from the object store: asked for ${length} bytes, got ${offset}.`);
  return out;
}

/**
 * One GET as a Readable: the request starts on the first read, follows the consumer's pace (the response is paused
 * while the consumer's buffer is full), and is aborted when the stream is destroyed. A response that ends early or
 * runs long is an error, never a silently short blob.
 */
class ObjectReadStream extends Readable {
  private started = false;
  private body: Readable | null = null;
  private received = 0;
  private readonly controller = new AbortController();

  constructor(
    private readonly ref: ObjectRef,
    private readonly range: ByteRange | undefined,
    private readonly expected: number,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  override _read(): void {
    if (this.started) {
      this.body?.resume();
      return;
    }
    this.started = true;
    const key = this.ref.key();
    const command = new GetObjectCommand({
      Bucket: this.ref.bucket,
      Key: key,
      Range: this.range === undefined ? undefined : `bytes=${this.range.start}-${this.range.end}`,
    });
    this.ref.client.send(command, { abortSignal: this.controller.signal }).then(
      (output) => {
        const body = output.Body;
        if (!(body instanceof Readable)) {
          this.destroy(new Error(`The object store answered GET ${key} without a body stream.`));
          return;
        }
        if (this.destroyed) {
          body.destroy();
          return;
        }
        this.attach(body);
      },
      (error: unknown) => {
        if (this.destroyed) return;
        if (isS3NotFound(error)) this.destroy(this.ref.missing());
        else this.destroy(new Error(`Reading s3://${this.ref.bucket}/${key} failed: ${describeS3Error(error)}`, { cause: error }));
      },
    );
  }

  private attach(body: Readable): void {
    this.body = body;
    body.on('data', (chunk: Buffer) => {
      this.received += chunk.length;
      if (this.received > this.expected) {
        this.destroy(new Error(`The object store sent more than the ${this.expected} bytes expected.`));
        return;
      }
      if (!this.push(chunk)) body.pause();
    });
    body.once('end', () => {
      if (this.received !== this.expected) {
        this.destroy(new Error(`The object store ended the body after ${this.received} of ${this.expected} bytes.`));
        return;
      }
      this.push(null);
    });
    body.once('error', (error) => this.destroy(error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.controller.abort();
    const body = this.body;
    this.body = null;
    if (body !== null && !body.destroyed) {
      // The response is abandoned: its socket is closed rather than returned, half-read, to the pool.
      body.on('error', () => undefined);
      body.destroy();
    }
    callback(error);
  }
}
