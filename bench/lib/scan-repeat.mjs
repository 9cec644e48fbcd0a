// The child of bench/scan-instructions.ts: scans the files written to `SCAN_FILES` (their bytes, then an index of
// paths and lengths) `SCAN_ROUNDS` times with the built scanner, and nothing else, so that the instructions counted
// around it differ between round counts by the scans alone. Plain JavaScript run by plain Node: a TypeScript loader
// would run on a thread of its own, whose share of the instructions varies from run to run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The package's build, or another one (`BENCH_SCANNER_DIST`: a saved copy of its dist folder, to compare two builds).
const dist = process.env.BENCH_SCANNER_DIST ?? fileURLToPath(new globalThis.URL('../../packages/skill-package/dist', import.meta.url));
const { scanFiles } = await import(path.join(dist, 'scan/scan-files.js'));

const base = process.env.SCAN_FILES;
if (base === undefined) throw new Error('SCAN_FILES names the files to scan');
const bytes = readFileSync(`${base}.bin`);
const index = JSON.parse(readFileSync(`${base}.json`, 'utf8'));
let at = 0;
const files = index.map(({ path: name, length }) => {
  const file = { path: name, bytes: bytes.subarray(at, at + length) };
  at += length;
  return file;
});
for (let round = 0; round < Number(process.env.SCAN_ROUNDS ?? 1); round++) await scanFiles(files);
