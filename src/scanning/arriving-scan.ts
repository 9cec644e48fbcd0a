/**
 * A scan that follows an upload on a worker thread (arriving-task.ts), so that a package is scanned while its bytes
 * arrive rather than once it is inspected: the scan then ends about when the upload's own work does instead of adding
 * its time after it (docs/performance.md, "Scanning while the upload arrives").
 *
 * The blob store tells it the file the upload is written to and how far it is written (storage/blob-store.ts,
 * StagingWatch); the thread reads that file itself, so nothing is copied or held here, however far the scan falls
 * behind. Inspection then reads the package as always and gives the session each file's path and span only; the
 * thread's report is used when it met the same files with the same spans, and the package is scanned again otherwise.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { FileSink } from '@skill-registry/skill-package/scan/scanner';
import type { ArrivingScan, FollowedSession } from '@skill-registry/skill-package/scan/session';
import type { PackageLimits } from '@skill-registry/skill-package/types';
import type { ArrivingMessage, ArrivingResult, ArrivingTask, CannotFollowNotice, SpannedFile } from './worker-messages.js';

/** How many more written bytes are worth telling the thread of (the last ones always are, with `complete`). */
const NOTICE_BYTES = 256 * 1024;

const IGNORED: FileSink = { push() {}, end() {} };

/** How followed uploads ended: their scan used, or the package read again and scanned. */
export interface ArrivalCounts {
  followed: number;
  scannedAgain: number;
}

/** Starts a task on the scan threads. */
export type RunTask = (task: ArrivingTask, transferList: MessagePort[]) => Promise<unknown>;

export class ThreadArrivingScan implements ArrivingScan {
  private port: MessagePort | null = null;
  private result: Promise<ArrivingResult> | null = null;
  /** False once the thread has said it cannot follow the package, or its task failed. */
  private following = true;
  private stopped = false;
  private told = 0;

  constructor(
    private readonly run: RunTask,
    private readonly limits: PackageLimits,
    private readonly counts: ArrivalCounts,
  ) {}

  file(path: string): void {
    if (this.port !== null || this.stopped) return;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // The only message a followed upload's task sends.
    port1.on('message', (_notice: CannotFollowNotice) => {
      this.following = false;
    });
    this.result = (this.run({ port: port2, file: path, limits: this.limits }, [port2]) as Promise<ArrivingResult>).catch(() => {
      // A thread that ended (a fault, the pool closing): the package is scanned as it is read instead.
      this.following = false;
      return null;
    });
  }

  private post(message: ArrivingMessage): void {
    if (!this.stopped) this.port?.postMessage(message);
  }

  written(bytes: number): void {
    if (bytes - this.told < NOTICE_BYTES) return;
    this.told = bytes;
    this.post({ type: 'written', bytes });
  }

  complete(bytes: number): void {
    this.told = bytes;
    this.post({ type: 'complete', bytes });
  }

  session(): FollowedSession | null {
    const result = this.result;
    if (result === null || !this.following || this.stopped) return null;
    const files: SpannedFile[] = [];
    return {
      file: (path, _depth, span) => {
        files.push({ path, at: span?.at ?? -1, length: span?.length ?? -1 });
        return IGNORED;
      },
      ready: () => undefined,
      finish: async (skillMd) => {
        this.post({ type: 'finish', skillMd, files });
        const outcome = await result;
        if (outcome !== null && 'report' in outcome) {
          this.counts.followed += 1;
          return outcome.report;
        }
        this.counts.scannedAgain += 1;
        return null;
      },
      abort: () => this.abort(),
    };
  }

  abort(): void {
    if (this.stopped) return;
    this.post({ type: 'abort' });
    this.stopped = true;
    this.port?.close();
  }
}
