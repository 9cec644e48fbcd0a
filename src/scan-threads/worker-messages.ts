/** The messages between a scan session (worker-scans.ts) and its task on a worker thread (scan-worker.ts). */
import type { SkillMdInfo } from '@skill-registry/skill-package/scan/scanner';

/** What a session's task is given: its port, and the slots (shared memory) its batches are written to. */
export interface SessionTask {
  port: import('node:worker_threads').MessagePort;
  ring: SharedArrayBuffer;
  slotBytes: number;
}

/** One step of a batch: the next file starts, `length` more bytes of it (the batch's next bytes), or it ends. */
export type BatchStep = { open: string; depth: number } | { length: number } | { end: true };

/** To the worker: a batch in a slot (its first `length` bytes), or in bytes of its own; the end; or an abort. */
export type SessionMessage =
  | { type: 'batch'; slot: number; length: number; steps: BatchStep[] }
  | { type: 'batch'; bytes: Uint8Array; steps: BatchStep[] }
  | { type: 'finish'; skillMd: SkillMdInfo | null }
  | { type: 'abort' };

/** From the worker: a batch has been scanned (`slot`: it was in a slot, which is free again). */
export interface Ack {
  type: 'ack';
  slot: boolean;
}
