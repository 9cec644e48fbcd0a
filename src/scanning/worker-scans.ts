/**
 * Scan sessions on worker threads, so a package is scanned while it is being inflated rather than after: the thread
 * reading the archive hands each file's bytes over in batches and reads on, and the scan costs an upload little
 * more than its slowest part. It also keeps the scanner's work off the thread that answers requests.
 *
 * The threads are a piscina pool; a session is one task, given a MessagePort. A task stays open for as long as its
 * package is read, so each thread takes many sessions at once (they interleave batch by batch).
 *
 * Batches are copies (a reader reuses its buffers) moved to the worker without a second copy. A session keeps at most
 * IN_FLIGHT bytes sent and not yet scanned: past that, `ready()` makes the reader wait, so a package is never held in
 * memory because its scan fell behind. A worker that dies (out of memory, a fault) fails its sessions, and the pool
 * starts another for the next.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { FileSink, SkillMdInfo } from '@skill-registry/skill-package/scan/scanner';
import { ScanFailed, type ScanSession, type Scans } from '@skill-registry/skill-package/scan/session';
import type { ScanReport } from '@skill-registry/skill-package/scan/types';
import type { Ack, BatchStep, SessionMessage } from './worker-messages.js';

/** Sessions one thread takes at once; more wait for a place. */
const SESSIONS_PER_THREAD = 64;

type Balancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

/**
 * Where a new session goes: an idle thread, else a new thread while there are fewer than `threads`, else the least
 * busy one. (Piscina's own balancer gives a busy thread more sessions before starting another: packages arriving
 * together would then be scanned one after another on one core.)
 */
function spreading(threads: number): Balancer {
  return (_task, workers) => {
    let least: (typeof workers)[number] | null = null;
    for (const worker of workers) {
      if (worker.currentUsage === 0) return worker;
      if (least === null || worker.currentUsage < least.currentUsage) least = worker;
    }
    if (workers.length < threads || least === null || least.currentUsage >= SESSIONS_PER_THREAD) return null;
    return least;
  };
}

/** Bytes a batch holds before it is sent. */
const BATCH_BYTES = 512 * 1024;
/** Bytes sent and not yet scanned, per session, past which its reader waits. */
const IN_FLIGHT = 4 * 1024 * 1024;

/** The worker's module: built JavaScript beside this one, or the TypeScript source when run from it. */
const WORKER_FILE = new URL(import.meta.url.endsWith('.ts') ? './scan-worker.ts' : './scan-worker.js', import.meta.url).href;

export interface WorkerScanOptions {
  /** Worker threads: by default one fewer than the cores the process may use, and at least one. */
  threads?: number;
  /** For tests: batch and in-flight sizes. */
  batchBytes?: number;
  inFlightBytes?: number;
}

export interface WorkerScans extends Scans {
  /** The pool's threads, for tests that take one away. */
  readonly threads: readonly { terminate(): Promise<number> }[];
  /** Sessions whose task has not ended yet. */
  readonly open: number;
  /** Settles once every session started so far has ended on its thread. */
  settled(): Promise<void>;
  /** Ends the threads; sessions still open fail. */
  close(): Promise<void>;
}

class WorkerSession implements ScanSession {
  private readonly port: MessagePort;
  private readonly result: Promise<ScanReport | null>;
  private batch: Buffer;
  private used = 0;
  private steps: BatchStep[] = [];
  private inFlight = 0;
  private failure: Error | null = null;
  private waiter: { resolve(): void; reject(error: Error): void } | null = null;
  private done = false;
  /** Settles (never rejects) when the session's task has ended on its thread. */
  readonly ended: Promise<void>;

  constructor(
    pool: Piscina,
    private readonly batchBytes: number,
    private readonly inFlightBytes: number,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.batch = Buffer.allocUnsafeSlow(batchBytes);
    this.result = pool.run({ port: port2 }, { transferList: [port2] }) as Promise<ScanReport | null>;
    this.ended = this.result.then(
      () => undefined,
      (error: unknown) => this.fail(new ScanFailed(error)),
    );
    port1.on('message', (message: Ack) => {
      this.inFlight -= message.bytes;
      const waiter = this.waiter;
      if (waiter !== null && this.inFlight <= this.inFlightBytes / 2) {
        this.waiter = null;
        waiter.resolve();
      }
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(error);
  }

  private post(message: SessionMessage, transfer: ArrayBuffer[] = []): void {
    this.port.postMessage(message, transfer);
  }

  private flush(): void {
    if (this.steps.length === 0) return;
    const bytes = this.used === this.batch.length ? this.batch : this.batch.subarray(0, this.used);
    this.post({ type: 'batch', bytes, steps: this.steps }, [this.batch.buffer as ArrayBuffer]);
    this.inFlight += this.used;
    this.batch = Buffer.allocUnsafeSlow(this.batchBytes);
    this.used = 0;
    this.steps = [];
  }

  private write(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.used === this.batch.length) this.flush();
      const length = Math.min(chunk.length - at, this.batch.length - this.used);
      this.batch.set(chunk.subarray(at, at + length), this.used);
      this.used += length;
      at += length;
      const last = this.steps.at(-1);
      if (last !== undefined && 'length' in last) last.length += length;
      else this.steps.push({ length });
    }
  }

  file(path: string, depth: number): FileSink {
    this.steps.push({ open: path, depth });
    return {
      push: (chunk) => this.write(chunk),
      end: () => {
        this.steps.push({ end: true });
      },
    };
  }

  ready(): Promise<void> | undefined {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.used >= this.batch.length) this.flush();
    if (this.inFlight <= this.inFlightBytes) return undefined;
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  async finish(skillMd: SkillMdInfo | null): Promise<ScanReport> {
    if (this.failure !== null) throw this.failure;
    this.flush();
    this.post({ type: 'finish', skillMd });
    this.done = true;
    try {
      const report = await this.result;
      if (report === null) throw new ScanFailed('it ended without a report');
      return report;
    } finally {
      this.port.close();
    }
  }

  abort(): void {
    if (this.done) return;
    this.done = true;
    this.post({ type: 'abort' });
    this.port.close();
  }
}

export function workerScans(options: WorkerScanOptions = {}): WorkerScans {
  const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
  const pool = new Piscina({
    filename: WORKER_FILE,
    // Started with the first package, so a registry that receives none runs no thread for them.
    minThreads: 0,
    maxThreads: threads,
    // A session waits on its port between batches: many share a thread, and the thread's event loop must stay free.
    concurrentTasksPerWorker: SESSIONS_PER_THREAD,
    loadBalancer: spreading(threads),
    atomics: 'disabled',
    // A thread idle for an hour ends; the next package starts another.
    idleTimeout: 60 * 60 * 1000,
    // The scanner's memory is bounded by design (capped lines, findings and nested archives); a thread that
    // outgrows this is stopped and its sessions fail, rather than the process running out.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  const batchBytes = options.batchBytes ?? BATCH_BYTES;
  const inFlightBytes = options.inFlightBytes ?? IN_FLIGHT;
  const open = new Set<Promise<unknown>>();
  return {
    session() {
      const session = new WorkerSession(pool, batchBytes, inFlightBytes);
      const ended = session.ended;
      open.add(ended);
      void ended.then(() => open.delete(ended));
      return session;
    },
    get threads() {
      return pool.threads;
    },
    get open() {
      return open.size;
    },
    async settled() {
      await Promise.all(open);
    },
    close: () => pool.destroy(),
  };
}
