/**
 * A worker thread's side of scan sessions (worker-scans.ts): each session is one task, given the port its batches
 * arrive on and the slots (shared memory) they are written to. Batches are scanned as they come and acknowledged,
 * which frees their slot; on `finish` the archives found are opened and the report is the task's result; on `abort`
 * (or the port closing) the task ends without one. The scanner reads each chunk before push() returns and copies
 * what it keeps, so a slot may be written again as soon as it is acknowledged.
 */
import { openNestedArchives } from '@skill-registry/skill-package/nested';
import { PackageScanner, type FileSink } from '@skill-registry/skill-package/scan/scanner';
import type { ScanReport } from '@skill-registry/skill-package/scan/types';
import type { Ack, SessionMessage, SessionTask } from './worker-messages.js';

export default function scanTask({ port, ring, slotBytes }: SessionTask): Promise<ScanReport | null> {
  const slots = new Uint8Array(ring);
  return new Promise((resolve, reject) => {
    const scanner = new PackageScanner();
    let sink: FileSink | null = null;
    const stop = () => {
      port.removeAllListeners();
      port.close();
    };
    port.on('close', () => resolve(null));
    port.on('message', (message: SessionMessage) => {
      try {
        if (message.type === 'batch') {
          const inSlot = 'slot' in message;
          const bytes = inSlot ? slots.subarray(message.slot * slotBytes, message.slot * slotBytes + message.length) : message.bytes;
          let at = 0;
          for (const step of message.steps) {
            if ('open' in step) sink = scanner.file(step.open, step.depth);
            else if ('length' in step) {
              sink?.push(bytes.subarray(at, at + step.length));
              at += step.length;
            } else {
              sink?.end();
              sink = null;
            }
          }
          port.postMessage({ type: 'ack', slot: inSlot } satisfies Ack);
        } else if (message.type === 'finish') {
          stop();
          openNestedArchives(scanner).then(() => resolve(scanner.finish(message.skillMd)), reject);
        } else {
          stop();
          resolve(null);
        }
      } catch (error) {
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
