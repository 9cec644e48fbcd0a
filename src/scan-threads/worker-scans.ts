/**
 * Scan sessions on worker threads, so a package is scanned while it is being inflated rather than after it: the
 * thread reading the archive hands each file's bytes over in batches and reads on, so an upload waits for the longer
 * of inflating and scanning rather than their sum. (Other requests gain nothing measurable: a scan on the request
 * thread already yields between chunks; docs/performance.md, "On worker threads".)
 *
 * The threads are a piscina pool; a session is one task, given a MessagePort. A task stays open for as long as its
 * package is read, so each thread takes many sessions at once (they interleave batch by batch).
 *
 * Memory is fixed per session: batches are written into its slots, shared memory of IN_FLIGHT bytes that the thread
 * reads in place, and a slot is written again once the thread has scanned it. While few slots are free the reader
 * waits (`ready()`), so a package never piles up because its scan fell behind, and no batch is garbage to collect.
 * (Moving a fresh buffer per batch instead left a package's worth of them to the thread's collector: a 50 MiB upload
 * grew the process by 85 MiB.) Bytes the scanner will not read (a binary file past its first HEAD_BYTES) are not
 * handed over. A thread that dies (out of memory, a fault) fails its sessions with ScanFailed, and the pool starts
 * another for the next.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { HEAD_BYTES, readsPastHead } from '@skill-registry/skill-package/scan/magic';
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

/**
 * Bytes a batch holds before it is sent: one slot. A session's slots together (IN_FLIGHT) are what it holds for as long
 * as its package is read, per upload in flight: 1 MiB scanned as fast as 4 MiB did (inspection of the 50 MiB mixed set,
 * 351 – 358 ms against 373 – 385 ms), and 64 KiB slots no faster.
 */
const BATCH_BYTES = 128 * 1024;
const IN_FLIGHT = 1024 * 1024;

/** The worker's module: built JavaScript beside this one, or the TypeScript source when run from it. */
const WORKER_FILE = new URL(import.meta.url.endsWith('.ts') ? './scan-worker.ts' : './scan-worker.js', import.meta.url).href;

export interface WorkerScanOptions {
  /** Worker threads: by default one fewer than the cores the process may use, and at least one. */
  threads?: number;
  /**
   * Node options for the threads; by default the process's own. The scanner benchmark runs the built threads without
   * the TypeScript loader it runs under itself.
   */
  execArgv?: string[];
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
  /** Ends the threads; sessions still open fail, and so do those asked for later. */
  close(): Promise<void>;
}

/**
 * Slot memory handed from ended sessions to new ones: a session's slots are allocated once and then reused, rather
 * than left for the collector after every package. At most `keep` are held back unused.
 */
class Rings {
  private readonly free: SharedArrayBuffer[] = [];

  constructor(
    readonly slots: number,
    private readonly bytes: number,
    private readonly keep: number,
  ) {}

  take(): SharedArrayBuffer {
    return this.free.pop() ?? new SharedArrayBuffer(this.bytes);
  }

  give(ring: SharedArrayBuffer): void {
    if (this.free.length < this.keep) this.free.push(ring);
  }
}

class WorkerSession implements ScanSession {
  private readonly port: MessagePort;
  private readonly result: Promise<ScanReport | null>;
  /** The session's slots, shared with its thread: batch n is written to slot n % slots. */
  private readonly ring: Buffer;
  private readonly slots: number;
  /** Batches posted in slots, and those the thread has scanned (it scans in order, so slots free up in order). */
  private posted = 0;
  private acked = 0;
  /** Bytes in the slot being filled, and the steps that go with them. */
  private used = 0;
  private steps: BatchStep[] = [];
  private failure: Error | null = null;
  private waiter: { resolve(): void; reject(error: Error): void } | null = null;
  private done = false;
  /** Settles (never rejects) when the session's task has ended on its thread. */
  readonly ended: Promise<void>;

  constructor(
    pool: Piscina,
    private readonly slotBytes: number,
    rings: Rings,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.slots = rings.slots;
    const shared = rings.take();
    this.ring = Buffer.from(shared);
    this.result = pool.run({ port: port2, ring: shared, slotBytes }, { transferList: [port2] }) as Promise<ScanReport | null>;
    this.ended = this.result.then(
      () => undefined,
      (error: unknown) => this.fail(new ScanFailed(error)),
    );
    // Once the task has ended its thread reads the slots no more: the next session may have them.
    void this.ended.then(() => rings.give(shared));
    port1.on('message', (message: Ack) => {
      if (!message.slot) return;
      this.acked += 1;
      const waiter = this.waiter;
      if (waiter !== null && this.posted - this.acked <= this.slots / 2) {
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

  /** Sends the slot being filled (with its steps) and moves to the next. */
  private flush(): void {
    if (this.steps.length === 0) return;
    this.post({ type: 'batch', slot: this.posted % this.slots, length: this.used, steps: this.steps });
    this.posted += 1;
    this.used = 0;
    this.steps = [];
  }

  private addLength(length: number): void {
    const last = this.steps.at(-1);
    if (last !== undefined && 'length' in last) last.length += length;
    else this.steps.push({ length });
  }

  private write(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.used === this.slotBytes) this.flush();
      // The slot to fill is still being read (one push overran every free slot): the rest goes in a copy of its own.
      if (this.used === 0 && this.posted - this.acked >= this.slots) {
        // A buffer of its own (not a slice of Node's pool), so that moving it to the thread moves nothing else.
        const rest = Buffer.allocUnsafeSlow(chunk.length - at);
        rest.set(chunk.subarray(at));
        this.addLength(rest.length);
        this.post({ type: 'batch', bytes: rest, steps: this.steps }, [rest.buffer]);
        this.steps = [];
        return;
      }
      const length = Math.min(chunk.length - at, this.slotBytes - this.used);
      this.ring.set(chunk.subarray(at, at + length), (this.posted % this.slots) * this.slotBytes + this.used);
      this.used += length;
      at += length;
      this.addLength(length);
    }
  }

  /**
   * A file's first HEAD_BYTES decide how the scanner reads it (magic.ts): past them, a binary file that is neither an
   * executable's head nor an archive is not read at all, so its bytes are not handed over either.
   */
  file(path: string, depth: number): FileSink {
    this.steps.push({ open: path, depth });
    let head: Buffer[] | null = [];
    let headLength = 0;
    let skip = false;
    const decide = (bytes: Uint8Array): void => {
      head = null;
      this.write(bytes);
      skip = !readsPastHead(bytes, path);
    };
    return {
      push: (chunk) => {
        if (skip) return;
        if (head === null) {
          this.write(chunk);
          return;
        }
        // A first chunk holding the whole head is written as it is: keeping a copy and joining it copied most of each
        // text file's first piece twice on the request thread.
        if (headLength === 0 && chunk.length >= HEAD_BYTES) {
          decide(chunk);
          return;
        }
        head.push(Buffer.from(chunk));
        headLength += chunk.length;
        if (headLength >= HEAD_BYTES) decide(Buffer.concat(head));
      },
      end: () => {
        if (head !== null) decide(Buffer.concat(head));
        this.steps.push({ end: true });
      },
    };
  }

  ready(): Promise<void> | undefined {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.used === this.slotBytes) this.flush();
    // Two slots are kept free: the next push, whatever its size up to a slot, then never needs a copy of its own.
    if (this.posted - this.acked <= this.slots - 2) return undefined;
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

/** A session asked for once the threads have been closed: it takes files and fails with ScanFailed. */
class StoppedSession implements ScanSession {
  private readonly failure = new ScanFailed('the scan threads have stopped');

  file(): FileSink {
    return { push() {}, end() {} };
  }

  ready(): Promise<void> {
    return Promise.reject(this.failure);
  }

  finish(): Promise<ScanReport> {
    return Promise.reject(this.failure);
  }

  abort(): void {}
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
    // A small young generation: a scan's garbage is short-lived, and a thread's heap then grows by less per package
    // (later 50 MiB uploads grew the process by 4–9 MiB instead of up to 26 with the default; 4 MiB instead of 8 takes
    // 2–4 MiB off the first text-heavy upload and costs no measurable time; docs/performance.md, "Package scanner").
    resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 4 },
    ...(options.execArgv === undefined ? {} : { execArgv: options.execArgv }),
  });
  const batchBytes = options.batchBytes ?? BATCH_BYTES;
  const inFlightBytes = options.inFlightBytes ?? IN_FLIGHT;
  const open = new Set<Promise<unknown>>();
  let closed = false;
  const slots = Math.max(4, Math.floor(inFlightBytes / batchBytes));
  const rings = new Rings(slots, slots * batchBytes, threads * 2);
  const session = (): ScanSession => {
    if (closed) return new StoppedSession();
    const started = new WorkerSession(pool, batchBytes, rings);
    const ended = started.ended;
    open.add(ended);
    void ended.then(() => open.delete(ended));
    return started;
  };
  return {
    session,
    get threads() {
      return pool.threads;
    },
    get open() {
      return open.size;
    },
    async settled() {
      await Promise.all(open);
    },
    async close() {
      closed = true;
      await pool.destroy();
    },
  };
}
