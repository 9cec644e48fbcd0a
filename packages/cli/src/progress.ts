import { formatBytes } from './output.js';
import type { Io } from './io.js';

export interface Progress {
  update(done: number, total: number | null): void;
  finish(): void;
}

const NONE: Progress = { update() {}, finish() {} };
const WIDTH = 24;
const INTERVAL_MS = 100;

/** A one-line progress bar on stderr, drawn only when stderr is a terminal (never into pipes or log files). */
export function progressBar(io: Io, label: string): Progress {
  if (!io.stderr.isTTY) return NONE;
  let last = 0;
  let drawn = false;
  const draw = (done: number, total: number | null) => {
    let line: string;
    if (total !== null && total > 0) {
      const share = Math.min(1, done / total);
      const filled = Math.round(share * WIDTH);
      line = `${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% ${formatBytes(done)}/${formatBytes(total)}`;
    } else {
      line = `${label} ${formatBytes(done)}`;
    }
    io.stderr.write(`\r${line}\x1b[K`);
    drawn = true;
  };
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < INTERVAL_MS && !(total !== null && done >= total)) return;
      last = now;
      draw(done, total);
    },
    finish() {
      if (drawn) io.stderr.write('\r\x1b[K');
    },
  };
}
