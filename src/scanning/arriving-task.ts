/**
 * A worker thread's side of a scan that follows an upload (arriving-scan.ts): it reads the file the upload is being
 * written to as it grows, walks the archive in it (arriving.ts) and scans each file it meets. On `finish` it compares
 * the files it met with those inspection read: the same paths and spans in the same order mean the same bytes, and its
 * report is the result; anything else is `again`. It reads nothing the writer has not reported written, and stops at
 * `abort` or when the port closes.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { CannotFollow, followArchive } from '@skill-registry/skill-package/arriving';
import type { ScanTarget } from '@skill-registry/skill-package/collector';
import { openNestedArchives } from '@skill-registry/skill-package/nested';
import { PackageScanner } from '@skill-registry/skill-package/scan/scanner';
import type { RandomAccessSource } from '@skill-registry/skill-package/source';
import type { ArrivingMessage, ArrivingResult, ArrivingTask, CannotFollowNotice, SpannedFile } from './worker-messages.js';

/** Bytes read from the file at a time. */
const READ_BYTES = 256 * 1024;

/** How much of the file is written, as the writer reports it, for the reader to wait on. */
class Growth {
  written = 0;
  complete: number | null = null;
  stopped = false;
  private waiters: (() => void)[] = [];

  changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The file's bytes from the first, as they are written. */
  async *bytes(file: string): AsyncGenerator<Buffer> {
    const handle = await open(file, 'r');
    try {
      let at = 0;
      for (;;) {
        if (this.stopped) throw new CannotFollow('the upload was let go');
        if (at < this.written) {
          const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, this.written - at));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
          if (bytesRead === 0) throw new CannotFollow('the file is shorter than written');
          at += bytesRead;
          yield buffer.subarray(0, bytesRead);
        } else if (this.complete !== null && at >= this.complete) return;
        else await this.next();
      }
    } finally {
      await handle.close();
    }
  }

  /** The whole file, once it is all written. */
  async whole(file: string): Promise<RandomAccessSource> {
    while (this.complete === null) {
      if (this.stopped) throw new CannotFollow('the upload was let go');
      await this.next();
    }
    const size = this.complete;
    return {
      size,
      read: (range) => createReadStream(file, range === undefined ? {} : { start: range.start, end: range.end }),
    };
  }
}

function sameFiles(met: SpannedFile[], read: SpannedFile[]): boolean {
  return (
    met.length === read.length && met.every((m, i) => m.path === read[i]!.path && m.at === read[i]!.at && m.length === read[i]!.length)
  );
}

export default function arrivingTask({ port, file, limits }: ArrivingTask): Promise<ArrivingResult> {
  const scanner = new PackageScanner();
  const met: SpannedFile[] = [];
  const target: ScanTarget = {
    file(path, depth, span) {
      met.push({ path, at: span?.at ?? -1, length: span?.length ?? -1 });
      return scanner.file(path, depth);
    },
  };
  const growth = new Growth();
  const walked = followArchive(
    { bytes: growth.bytes(file), size: () => growth.complete, whole: () => growth.whole(file) },
    target,
    limits,
  ).then(
    () => true,
    () => {
      if (!growth.stopped) port.postMessage({ type: 'cannot-follow' } satisfies CannotFollowNotice);
      return false;
    },
  );
  return new Promise((resolve, reject) => {
    const stop = () => {
      growth.stopped = true;
      growth.changed();
      port.removeAllListeners();
      port.close();
    };
    port.on('close', () => {
      growth.stopped = true;
      growth.changed();
      resolve(null);
    });
    port.on('message', (message: ArrivingMessage) => {
      if (message.type === 'written') growth.written = message.bytes;
      else if (message.type === 'complete') growth.written = growth.complete = message.bytes;
      else if (message.type === 'finish') {
        const { skillMd, files } = message;
        void walked
          .then(async (followed): Promise<ArrivingResult> => {
            if (!followed || !sameFiles(met, files)) return { again: true };
            await openNestedArchives(scanner);
            return { report: scanner.finish(skillMd) };
          })
          .then(resolve, reject)
          .finally(stop);
        return;
      } else {
        stop();
        resolve(null);
        return;
      }
      growth.changed();
    });
  });
}
