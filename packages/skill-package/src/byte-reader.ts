/**
 * A pull reader over a stream of chunks: the zip reader walks the archive body and the tar reader the
 * decompressed tar with it, front to back, so every byte is either accounted for by a record or refused.
 */
import zlib from 'node:zlib';

/** Thrown when the stream ends before the bytes asked for; readers turn it into a refusal naming the entry. */
export class EndOfStream extends Error {
  constructor(
    readonly wanted: number,
    readonly got: number,
  ) {
    super(`the data ends early (${got} of ${wanted} bytes)`);
    this.name = 'EndOfStream';
  }
}

/** Bytes a skip must pass over before it reopens the stream further on rather than read them. */
const REOPEN_BYTES = 1024 * 1024;

function buffers(chunks: AsyncIterable<Buffer | Uint8Array>): AsyncIterator<Buffer> {
  const inner = chunks[Symbol.asyncIterator]();
  return {
    next: async () => {
      const r = await inner.next();
      if (r.done) return r;
      const value = r.value;
      return { done: false, value: Buffer.isBuffer(value) ? value : Buffer.from(value) };
    },
    return: async () => {
      await inner.return?.();
      return { done: true, value: undefined };
    },
  };
}

export class ByteReader {
  private iterator: AsyncIterator<Buffer>;
  private pending: Buffer = Buffer.alloc(0);
  private done = false;
  /** Bytes handed out (or skipped) so far. */
  position = 0;

  /** `reopen`, when given, starts the stream again at a position: a long skip then reads nothing. */
  constructor(
    chunks: AsyncIterable<Buffer | Uint8Array>,
    private readonly reopen?: (at: number) => AsyncIterable<Buffer | Uint8Array>,
  ) {
    this.iterator = buffers(chunks);
  }

  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.iterator.next();
    if (r.done) {
      this.done = true;
      return false;
    }
    this.pending = this.pending.length === 0 ? r.value : Buffer.concat([this.pending, r.value]);
    return true;
  }

  /** Exactly `n` bytes (meant for headers: small `n`), or EndOfStream. */
  async take(n: number): Promise<Buffer> {
    while (this.pending.length < n) {
      if (!(await this.fill())) throw new EndOfStream(n, this.pending.length);
    }
    const out = this.pending.subarray(0, n);
    this.pending = this.pending.subarray(n);
    this.position += n;
    return out;
  }

  /** Up to `n` bytes as they arrive (at least one), without copying more than needed; EndOfStream at the end. */
  private async next(n: number): Promise<Buffer> {
    if (this.pending.length === 0 && !(await this.fill())) throw new EndOfStream(n, 0);
    const out = this.pending.length > n ? this.pending.subarray(0, n) : this.pending;
    this.pending = this.pending.subarray(out.length);
    this.position += out.length;
    return out;
  }

  /** Exactly `n` bytes, in chunks as they arrive; EndOfStream when the stream is shorter. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      let chunk: Buffer;
      try {
        chunk = await this.next(left);
      } catch (err) {
        if (err instanceof EndOfStream) throw new EndOfStream(n, n - left);
        throw err;
      }
      left -= chunk.length;
      yield chunk;
    }
  }

  /** Passes over exactly `n` bytes without keeping them; EndOfStream when the stream is shorter. */
  async skip(n: number): Promise<void> {
    if (this.reopen !== undefined && !this.done && n - this.pending.length >= REOPEN_BYTES) {
      const at = this.position + n;
      await this.iterator.return?.();
      this.iterator = buffers(this.reopen(at));
      this.pending = Buffer.alloc(0);
      this.position = at;
      return;
    }
    let left = n;
    while (left > 0) left -= (await this.next(left)).length;
  }

  /** True when no byte is left. */
  async atEnd(): Promise<boolean> {
    if (this.pending.length > 0) return false;
    return !(await this.fill());
  }

  /** Everything left, in chunks. */
  async *rest(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.pending.length === 0 && !(await this.fill())) return;
      const out = this.pending;
      this.pending = Buffer.alloc(0);
      this.position += out.length;
      yield out;
    }
  }

  async close(): Promise<void> {
    this.done = true;
    await this.iterator.return?.();
  }
}

/**
 * Bytes zlib inflates into at a time. Each output buffer is a round trip to libuv's thread pool and back: with zlib's
 * default of 16 KiB, inflating a large entry took about 5 ms per MiB, and a 50 MiB upload of assets spent a third of its
 * time there; with 64 KiB, about 2 ms. With 256 KiB (1.3 ms), the first upload of a text-heavy package grew the process
 * by 31 – 37 MiB instead of 20 – 25 MiB, over the upload's memory target (docs/performance.md, "Inflating in larger
 * pieces"). Readers of entries (the scanner's blocks, a scan session's slots) are sized for pieces of up to 64 KiB too.
 */
const INFLATE_CHUNK = 64 * 1024;

/** The result of inflating: how many input bytes the deflate stream used, and whether it reached its end. */
export interface InflateEnd {
  consumed: number;
}

/**
 * Inflates raw deflate data fed from `input`, yielding the output. Once the input is all written, returns how
 * many input bytes the deflate stream took (zlib ignores what follows the end of a deflate stream; callers
 * refuse such leftovers). A deflate stream that has not ended when the input does is an error.
 */
export async function* inflateRaw(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer, InflateEnd> {
  const inflater = zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK });
  let failure: unknown = null;
  const feed = (async () => {
    try {
      for await (const chunk of input) {
        if (inflater.destroyed) return;
        if (!inflater.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              inflater.off('drain', done);
              inflater.off('close', done);
              resolve();
            };
            inflater.on('drain', done);
            inflater.on('close', done);
          });
        }
      }
      if (!inflater.destroyed) inflater.end();
    } catch (err) {
      failure = err;
      inflater.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  try {
    for await (const out of inflater as AsyncIterable<Buffer>) yield out;
  } catch (err) {
    // An input (storage) error is rethrown as itself, not as zlib's.
    throw failure ?? err;
  } finally {
    if (!inflater.destroyed) inflater.destroy();
    await feed;
  }
  // What the feeding side threw, rethrown as it was (a source fault keeps its mark).
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  if (failure !== null) throw failure;
  return { consumed: inflater.bytesWritten };
}
