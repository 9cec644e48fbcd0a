/**
 * The messages between a scan session (worker-scans.ts) and its task on a worker thread (scan-worker.ts), and between a
 * scan that follows an upload (arriving-scan.ts) and its task (arriving-task.ts).
 */
import type { SkillMdInfo } from '@skill-registry/skill-package/scan/scanner';
import type { ScanReport } from '@skill-registry/skill-package/scan/types';
import type { PackageLimits } from '@skill-registry/skill-package/types';

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

/** What a followed upload's task is given: its port, the file the upload is written to, and the package limits. */
export interface ArrivingTask {
  port: import('node:worker_threads').MessagePort;
  file: string;
  limits: PackageLimits;
}

/** A file as a read of the package met it: its path and where its data lies. */
export interface SpannedFile {
  path: string;
  at: number;
  length: number;
}

/**
 * To a followed upload's task: more bytes are written, all are, inspection is over (with the files it read, in
 * order), or the upload is let go.
 */
export type ArrivingMessage =
  | { type: 'written'; bytes: number }
  | { type: 'complete'; bytes: number }
  | { type: 'finish'; skillMd: SkillMdInfo | null; files: SpannedFile[] }
  | { type: 'abort' };

/** From a followed upload's task, as soon as it knows: it cannot follow this package. */
export interface CannotFollowNotice {
  type: 'cannot-follow';
}

/** A followed upload's result: the report, `again` when inspection read other files, null when it was let go. */
export type ArrivingResult = { report: ScanReport } | { again: true } | null;
