/**
 * A streamed multipart/form-data body: text fields first, then the package, read chunk by chunk as the
 * connection takes it, so a package of any size is sent with flat memory and its progress can be reported.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { UploadSourceError } from './errors.js';

/**
 * A package to upload: its bytes, a Blob, a file on disk, or a stream (give `size` when known, so the
 * request carries a Content-Length and progress has a total).
 */
export type PackageInput =
  | Uint8Array
  | Blob
  | { path: string; filename?: string }
  | { stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>; size?: number; filename?: string };

/** Called as the body is sent: bytes sent so far, and the body's total size when it is known. */
export type ProgressCallback = (sent: number, total: number | null) => void;

interface ResolvedPackage {
  filename: string;
  size: number | null;
  chunks(): AsyncIterable<Uint8Array>;
}

async function* blobChunks(blob: Blob): AsyncIterable<Uint8Array> {
  const reader = (blob.stream() as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function* streamChunks(stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  if (stream instanceof ReadableStream) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    for await (const chunk of stream) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  }
}

export async function resolvePackage(input: PackageInput): Promise<ResolvedPackage> {
  if (input instanceof Uint8Array) {
    return {
      filename: 'package',
      size: input.byteLength,
      // An async generator because callers iterate every source alike; this one has its bytes at hand.
      // eslint-disable-next-line @typescript-eslint/require-await
      chunks: async function* () {
        yield input;
      },
    };
  }
  if (input instanceof Blob) {
    const name = 'name' in input && typeof input.name === 'string' ? input.name : 'package';
    return { filename: name, size: input.size, chunks: () => blobChunks(input) };
  }
  if ('path' in input) {
    const size = await stat(input.path).then(
      (stats) => stats.size,
      (error: unknown) => {
        const cause = error instanceof Error ? error : new Error(String(error));
        throw new UploadSourceError(`The package could not be read: ${cause.message}`, cause);
      },
    );
    return {
      filename: input.filename ?? basename(input.path),
      size,
      chunks: () => createReadStream(input.path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>,
    };
  }
  return { filename: input.filename ?? 'package', size: input.size ?? null, chunks: () => streamChunks(input.stream) };
}

/** Keeps a header parameter on one line and inside its quotes. */
function quoted(value: string): string {
  return value.replace(/[\r\n"]/g, (c) => (c === '"' ? '%22' : ' '));
}

export interface MultipartBody {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** Null when the package's size is not known in advance (the body is then sent chunked). */
  contentLength: number | null;
}

/** Builds the body. Fields whose value is undefined are left out. */
export function multipartBody(
  fields: Record<string, string | undefined>,
  file: ResolvedPackage,
  onProgress?: ProgressCallback,
): MultipartBody {
  const boundary = `----skill-registry-${randomBytes(12).toString('hex')}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    Object.entries(fields)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.filename)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const contentLength = file.size === null ? null : head.byteLength + file.size + tail.byteLength;

  async function* parts(): AsyncGenerator<Uint8Array, void, undefined> {
    yield head;
    let fileBytes = 0;
    try {
      for await (const chunk of file.chunks()) {
        fileBytes += chunk.byteLength;
        yield chunk;
      }
    } catch (error) {
      throw new UploadSourceError(`The package could not be read: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if (file.size !== null && fileBytes !== file.size) {
      throw new UploadSourceError(`The package changed while it was being sent: expected ${file.size} bytes, read ${fileBytes}.`);
    }
    yield tail;
  }

  const iterator = parts();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) {
        controller.close();
        return;
      }
      controller.enqueue(value);
      sent += value.byteLength;
      onProgress?.(sent, contentLength);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, contentLength };
}
