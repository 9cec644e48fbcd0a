// The scanner's cost in instructions, which a shared machine does not move: wall and CPU times of the same scan vary
// by 10 – 20% from minute to minute here (docs/performance.md, "Package scanner"), more than most single changes
// save. Runs the built scanner under valgrind's callgrind (Debian's valgrind) with V8's `--predictable` (one thread, no
// concurrent compilers or collectors, whose share of the work depends on timing), with one scan and with three, and
// reports the difference halved: the instructions of one scan after the first, once the code is compiled. Each is
// counted twice and the fewer kept; runs of the same build then agree within about 1%.
//
// `npm run bench:scan-instructions` (builds first). `BENCH_TEXT_MIB`: MiB of the scanner benchmark's mixed set to scan
// (8 by default, about 5 MiB of it text; each run takes about a minute per MiB). `BENCH_SCANNER_DIST`: another build of
// packages/skill-package (a copy of its dist folder, with its wasm folder beside it) to count instead.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { mixedFiles } from './lib/mixed-files.js';

const MIB = 1024 * 1024;

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
  const files = mixedFiles(mib);
  const text = files.filter((f) => !f.path.endsWith('.png')).reduce((n, f) => n + f.bytes.length, 0);
  const workDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-instructions-'));
  try {
    const base = path.join(workDir, 'files');
    writeFileSync(`${base}.bin`, Buffer.concat(files.map((f) => f.bytes)));
    writeFileSync(`${base}.json`, JSON.stringify(files.map((f) => ({ path: f.path, length: f.bytes.length }))));
    console.log(`Machine: ${os.cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, ${new Date().toISOString()}`);
    // The fewest of two runs each: now and then a run does more, a collection or a compilation it did not need.
    const one = Math.min(instructions(base, 1), instructions(base, 1));
    const three = Math.min(instructions(base, 3), instructions(base, 3));
    const perScan = (three - one) / 2;
    console.log(
      `The mixed set, ${mib} MiB (${(text / MIB).toFixed(1)} MiB of text): ${(perScan / 1e6).toFixed(1)} million instructions per scan, ` +
        `${(perScan / (text / MIB) / 1e6).toFixed(1)} million per MiB of text (first scan and start-up: ${(one / 1e6).toFixed(0)} million)`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/scan-instructions.json',
      JSON.stringify({ date: new Date().toISOString(), mib, textBytes: text, perScan, firstScanAndStart: one }, null, 2),
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main();
