// The scanner's cost in instructions, which a shared machine does not move: wall and CPU times of the same scan vary
// by 10 – 20% from minute to minute here (docs/performance.md, "Package scanner"), more than most single changes
// save. Runs the built scanner under valgrind's callgrind (Debian's valgrind) with V8's `--predictable` (one thread, no
// concurrent compilers or collectors, whose share of the work depends on timing), with FIRST scans and with FIRST + 2,
// and reports the difference halved: the instructions of one scan once the code is compiled. Each is counted twice and
// the fewer kept; runs of the same build then agree within about 1%. (Counted from the first scan instead, the
// difference still held the compiling of the scans after it: for 4 MiB of real skills' text, 729 million instructions
// per scan from the first, 441 million from the fifth; for 700 files of a few lines, 143 against 14 million.)
//
// `npm run bench:scan-instructions` (builds first). `BENCH_TEXT_MIB`: MiB of the scanner benchmark's mixed set to scan
// (8 by default, about 5 MiB of it text; each run takes about two minutes per MiB). `BENCH_TEXT_DIRS`: count real
// skills' text instead, `BENCH_TEXT_MIB` MiB of the text files under these directories (colon-separated; public
// collections checked out on the machine, see bench/lib/collection-text.ts). `BENCH_SCANNER_DIST`: another build of
// packages/skill-package (a copy of its dist folder, with its wasm folder beside it) to count instead.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { collectionText } from './lib/collection-text.js';
import { mixedFiles } from './lib/mixed-files.js';

const MIB = 1024 * 1024;
/** Scans run before those counted: by the fifth, the scanner's code is compiled for what it reads. */
const FIRST = 5;

function instructions(files: string, rounds: number): number {
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--predictable', 'bench/lib/scan-repeat.mjs'],
    { env: { ...process.env, SCAN_FILES: files, SCAN_ROUNDS: String(rounds) }, encoding: 'utf8' },
  );
  if (run.error) throw new Error(`valgrind could not be run (apt-get install valgrind): ${run.error.message}`);
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || collected === null) throw new Error(`the scan under valgrind failed:\n${run.stderr.slice(-2000)}`);
  return Number(collected[1]);
}

function main() {
  const mib = Number(process.env.BENCH_TEXT_MIB ?? 8);
  const dirs = process.env.BENCH_TEXT_DIRS?.split(':');
  const files = dirs === undefined ? mixedFiles(mib) : collectionText(dirs, mib);
  const what = dirs === undefined ? `The mixed set, ${mib} MiB` : `Real skills' text, ${mib} MiB`;
  const text = files.filter((f) => !f.path.endsWith('.png')).reduce((n, f) => n + f.bytes.length, 0);
  const workDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-instructions-'));
  try {
    const base = path.join(workDir, 'files');
    writeFileSync(`${base}.bin`, Buffer.concat(files.map((f) => f.bytes)));
    writeFileSync(`${base}.json`, JSON.stringify(files.map((f) => ({ path: f.path, length: f.bytes.length }))));
    console.log(`Machine: ${os.cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, ${new Date().toISOString()}`);
    // The fewest of two runs each: now and then a run does more, a collection or a compilation it did not need.
    const first = Math.min(instructions(base, FIRST), instructions(base, FIRST));
    const more = Math.min(instructions(base, FIRST + 2), instructions(base, FIRST + 2));
    const perScan = (more - first) / 2;
    console.log(
      `${what} (${(text / MIB).toFixed(1)} MiB of text): ${(perScan / 1e6).toFixed(1)} million instructions per scan, ` +
        `${(perScan / (text / MIB) / 1e6).toFixed(1)} million per MiB of text (start-up and the first ${FIRST} scans: ${(first / 1e6).toFixed(0)} million)`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/scan-instructions.json',
      JSON.stringify(
        {
          date: new Date().toISOString(),
          set: dirs === undefined ? 'mixed' : 'real',
          mib,
          textBytes: text,
          perScan,
          startAndFirstScans: first,
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main();
