import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A small tmpfs mounted for a test, to run out of room on for real. */
export interface SmallDisk {
  dir: string;
  unmount(): void;
}

/**
 * Mounts a `sizeMiB` tmpfs (the tests run as root). Mounting is not optional: a machine where it is refused fails
 * here, loudly, instead of skipping the test.
 */
export function mountSmallDisk(sizeMiB: number): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), 'skreg-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `The disk-full tests mount a ${sizeMiB} MiB tmpfs and need root (or CAP_SYS_ADMIN) to do it; mount failed: ` +
        String((error as { stderr?: Buffer }).stderr ?? error),
      { cause: error },
    );
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the disk holding `dir` until only about `leave` bytes are free; returns the filler's path. */
export function fillDisk(dir: string, leave: number, name = 'filler'): string {
  const info = statfsSync(dir);
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.alloc(Math.max(0, info.bavail * info.bsize - leave)));
  return file;
}
