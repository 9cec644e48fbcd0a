/** The messages between a scan session (worker-scans.ts) and its task on a worker thread (scan-worker.ts). */
import type { SkillMdInfo } from '@skill-registry/skill-package/scan/scanner';

/** One step of a batch: the next file starts, `length` more bytes of it (the batch's next bytes), or it ends. */
export type BatchStep = { open: string; depth: number } | { length: number } | { end: true };

/** To the worker. */
export type SessionMessage =
  { type: 'batch'; bytes: Uint8Array; steps: BatchStep[] } | { type: 'finish'; skillMd: SkillMdInfo | null } | { type: 'abort' };

/** From the worker: a batch of `bytes` bytes has been scanned. (The report is the task's result.) */
export interface Ack {
  type: 'ack';
  bytes: number;
}
