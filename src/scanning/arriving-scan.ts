/**
 * Scanning an upload while it arrives, so that the scan ends about when the upload's own work does instead of adding
 * its time after it (docs/performance.md, "Scanning while the upload arrives").
 *
 * The blob store says which file the upload is written to and how far (storage/blob-store.ts, StagingWatch), with the
 * pieces it has just written. This reads that file as it grows, never ahead of what is written (taking those pieces as
 * they are while it keeps up, instead of reading them back), walks the archive in it (arriving.ts) and hands each file
 * to a scan session on a worker thread, as inspection would; the session's slots hold the walk back when the thread falls
 * behind, so nothing piles up here. It also notes the size and CRC-32 of each zip entry it inflated whole.
 *
 * Inspection then reads the package as always, but through the followed session (`session()`): it hands over each
 * file's path and span only, and takes an entry's size and CRC-32 from the walk instead of inflating the same bytes a
 * second time. The session's report is used when the walk met exactly the files inspection read, with the same spans,
 * in the same order: then the scanner was fed the same bytes. Otherwise inspection reads the package again and scans it
 * as it reads.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { CannotFollow, followArchive, type FollowTarget } from '@skill-registry/skill-package/arriving';
import type { InflatedData, Span } from '@skill-registry/skill-package/collector';
import type { FileSink } from '@skill-registry/skill-package/scan/scanner';
import type { ArrivingScan, FollowedSession, ScanSession } from '@skill-registry/skill-package/scan/session';
import type { RandomAccessSource } from '@skill-registry/skill-package/source';
import type { PackageLimits } from '@skill-registry/skill-package/types';
import { noteBufferedBytes, notingBytes } from '../lib/young-garbage.js';

/** Bytes read from the file at a time. */
const READ_BYTES = 256 * 1024;
/**
 * The pieces just written that are held for the walk, at most: a walk that keeps up takes them as they are instead of
 * reading them back from the file (a read per write, each a round trip through libuv's thread pool). One that has
 * fallen further behind reads the file.
 */
const HELD_BYTES = 1024 * 1024;
/** And at most this many pieces: a client sending a byte at a time would otherwise leave a million small objects held. */
const HELD_PIECES = 256;

const IGNORED: FileSink = { push() {}, end() {} };

/** How followed uploads ended: their scan used, or the package read again and scanned. */
export interface ArrivalCounts {
  followed: number;
  scannedAgain: number;
}

interface MetFile {
  path: string;
  at: number;
  length: number;
}

function spanOf(path: string, span: Span | undefined): MetFile {
  return { path, at: span?.at ?? -1, length: span?.length ?? -1 };
}

function sameFiles(met: MetFile[], read: MetFile[]): boolean {
  return (
    met.length === read.length && met.every((m, i) => m.path === read[i]!.path && m.at === read[i]!.at && m.length === read[i]!.length)
  );
}

/** Callers waiting for something to change: more of the file written, or the walk moved on. */
class Waits {
  private waiters: (() => void)[] = [];

  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

export class FollowingScan implements ArrivingScan {
  private writtenBytes = 0;
  private size: number | null = null;
  private stopped = false;
  /** Waits for more of the file, or for the walk to move on. */
  private readonly growth = new Waits();
  private readonly progress = new Waits();
  private walk: { session: ScanSession; walked: Promise<boolean> } | null = null;
  private walkOver = false;
  private readonly met: MetFile[] = [];
  /** The zip entries the walk inflated whole, by the offset of their local header. */
  private readonly inflatedAt = new Map<number, InflatedData & { length: number }>();
  /** Pieces just written, in order, and where each starts in the file (HELD_BYTES, HELD_PIECES). */
  private held: { at: number; bytes: Buffer }[] = [];
  private heldBytes = 0;

  constructor(
    private readonly sessions: () => ScanSession,
    private readonly limits: PackageLimits,
    private readonly counts: ArrivalCounts,
  ) {}

  file(path: string): void {
    if (this.walk !== null || this.stopped) return;
    const session = this.sessions();
    const target: FollowTarget = {
      file: (name, depth, span) => {
        this.met.push(spanOf(name, span));
        this.progress.wake();
        return session.file(name, depth);
      },
      ready: () => session.ready(),
      readWhole: (span, data) => {
        this.inflatedAt.set(span.at, { ...data, length: span.length });
        this.progress.wake();
      },
    };
    const walked = followArchive(
      { from: (at) => this.bytes(path, at), size: () => this.size, whole: () => this.whole(path) },
      target,
      this.limits,
    ).then(
      () => true,
      () => {
        // The session's thread is not needed for a package that is scanned again.
        session.abort();
        return false;
      },
    );
    this.walk = { session, walked };
    void walked.then(() => {
      this.walkOver = true;
      this.letHeldGo();
      this.progress.wake();
    });
  }

  written(bytes: number, pieces?: readonly Buffer[]): void {
    if (pieces !== undefined && this.walk !== null && !this.walkOver && !this.stopped) this.hold(bytes, pieces);
    this.writtenBytes = bytes;
    this.growth.wake();
  }

  private hold(end: number, pieces: readonly Buffer[]): void {
    let at = end;
    for (const piece of pieces) at -= piece.length;
    for (const piece of pieces) {
      this.held.push({ at, bytes: piece });
      this.heldBytes += piece.length;
      at += piece.length;
    }
    while (this.heldBytes > HELD_BYTES || this.held.length > HELD_PIECES) this.dropOldest();
  }

  private dropOldest(): { at: number; bytes: Buffer } {
    const oldest = this.held.shift()!;
    this.heldBytes -= oldest.bytes.length;
    return oldest;
  }

  /** The held bytes from offset `at` on, up to the end of the piece holding it; null when none holds it. */
  private takeHeld(at: number): Buffer | null {
    while (this.held.length > 0 && this.held[0]!.at + this.held[0]!.bytes.length <= at) this.dropOldest();
    const first = this.held[0];
    if (first === undefined || first.at > at) return null;
    return this.dropOldest().bytes.subarray(at - first.at);
  }

  private letHeldGo(): void {
    this.held = [];
    this.heldBytes = 0;
  }

  complete(bytes: number): void {
    this.writtenBytes = bytes;
    this.size = bytes;
    this.growth.wake();
  }

  /** The file's bytes from offset `from`, as they are written. */
  private async *bytes(file: string, from: number): AsyncGenerator<Buffer> {
    const handle = await open(file, 'r');
    try {
      let at = from;
      for (;;) {
        if (this.stopped) throw new CannotFollow('the upload was let go');
        if (at < this.writtenBytes) {
          const held = this.takeHeld(at);
          if (held !== null) {
            at += held.length;
            yield held;
            // Noted again, though it was where it was received: the note stands for the entries inflated from it too.
            noteBufferedBytes(held.length);
            continue;
          }
          const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, this.writtenBytes - at));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
          if (bytesRead === 0) throw new CannotFollow('the file is shorter than written');
          at += bytesRead;
          yield buffer.subarray(0, bytesRead);
          // The walk is done with the piece and the entries it inflated from it once it asks for the next.
          noteBufferedBytes(bytesRead);
        } else if (this.size !== null && at >= this.size) return;
        else await this.growth.next();
      }
    } finally {
      await handle.close();
    }
  }

  /** The whole file, once it is all written. */
  private async whole(file: string): Promise<RandomAccessSource> {
    let size = this.size;
    while (size === null) {
      if (this.stopped) throw new CannotFollow('the upload was let go');
      await this.growth.next();
      size = this.size;
    }
    return {
      size,
      read: (range) => notingBytes(createReadStream(file, range === undefined ? {} : { start: range.start, end: range.end })),
    };
  }

  /** What the walk found in the zip entry at `span`, once it has passed it; null when it did not read it whole. */
  private async inflated(span: Span): Promise<InflatedData | null> {
    for (;;) {
      const found = this.inflatedAt.get(span.at);
      if (found !== undefined) return found.length === span.length ? { count: found.count, crc: found.crc } : null;
      // The walk meets entries in the order of their offsets: once it is at a later one, this one was not read whole.
      if (this.walkOver || this.stopped || (this.met.at(-1)?.at ?? -1) > span.at) return null;
      await this.progress.next();
    }
  }

  session(): FollowedSession | null {
    const walk = this.walk;
    if (walk === null || this.stopped) return null;
    const read: MetFile[] = [];
    return {
      file: (path, _depth, span) => {
        read.push(spanOf(path, span));
        return IGNORED;
      },
      ready: () => undefined,
      inflated: (span) => this.inflated(span),
      finish: async (skillMd) => {
        if (!(await walk.walked) || !sameFiles(this.met, read)) {
          this.counts.scannedAgain += 1;
          return null;
        }
        const report = await walk.session.finish(skillMd);
        this.counts.followed += 1;
        return report;
      },
      abort: () => this.abort(),
    };
  }

  abort(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.letHeldGo();
    this.growth.wake();
    this.progress.wake();
    this.walk?.session.abort();
  }
}
