// Package benchmarks: memory while uploading a 50 MiB package, and 1 MiB download throughput against a
// bare node:http server streaming the same file. Run with `npm run bench:packages` (builds first).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { load, type LoadResult } from './lib/client.js';
import { assetHeavyFiles, mixedFiles } from './lib/mixed-files.js';
import { rssOf, sampleRss, startCeiling, startRegistry, type Registry } from './lib/processes.js';
import { adminCookie, createSkill, publishSkill, SKILL_MD, streamUpload, zipOf } from './lib/registry-api.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/**
 * `BENCH_UPLOAD_CONTENT=mixed`: upload the text-heavy mixed set of bench/lib/mixed-files.ts; `assets`: a package made as
 * large skills are, 4 MiB of text and binary assets (assetHeavyFiles).
 */
const UPLOAD_CONTENT = process.env.BENCH_UPLOAD_CONTENT ?? 'random';

async function uploadScenario(registry: Registry, cookie: string, workDir: string) {
  const file = path.join(workDir, 'upload-50mib.zip');
  const mib = Number(process.env.BENCH_UPLOAD_MIB ?? 50);
  writeFileSync(
    file,
    // Random bytes (stored, nothing for the scanner to read), or the scanner benchmark's sets, deflated: the mixed set
    // (60% text) or the asset-heavy one (4 MiB of text).
    UPLOAD_CONTENT === 'mixed' || UPLOAD_CONTENT === 'assets'
      ? await zipOf(
          (UPLOAD_CONTENT === 'mixed' ? mixedFiles(mib) : assetHeavyFiles(mib)).map((f) => ({ path: f.path, content: f.bytes })),
          true,
        )
      : await zipOf([
          { path: 'SKILL.md', content: SKILL_MD },
          { path: 'data.bin', content: randomBytes(mib * 1024 * 1024) },
        ]),
  );
  await createSkill(registry.url, cookie, 'bench-upload');
  // One small upload first, so loading the upload code paths once is not counted as per-upload memory.
  const warmUp = path.join(workDir, 'warm-up.zip');
  writeFileSync(
    warmUp,
    await zipOf([
      { path: 'SKILL.md', content: SKILL_MD },
      { path: 'data.bin', content: randomBytes(1024 * 1024) },
    ]),
  );
  await streamUpload(`${registry.url}/v1/skills/bench-upload/versions`, cookie, '0.0.1', warmUp);
  const pid = registry.child.pid!;
  const runs: { baseline: number; peak: number; growth: number; status: number; seconds: number }[] = [];
  for (let i = 0; i < Number(process.env.BENCH_UPLOADS ?? 3); i += 1) {
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssOf(pid);
    const sampler = sampleRss(pid);
    const started = performance.now();
    const status = await streamUpload(`${registry.url}/v1/skills/bench-upload/versions`, cookie, `1.0.${i}`, file);
    const seconds = (performance.now() - started) / 1000;
    const peak = sampler.stop();
    runs.push({ baseline, peak, growth: peak - baseline, status, seconds });
  }
  return { size: statSync(file).size, runs, maxGrowth: Math.max(...runs.map((r) => r.growth)) };
}

async function downloadScenario(registry: Registry, cookie: string, workDir: string) {
  const pkg = await zipOf([
    { path: 'SKILL.md', content: SKILL_MD },
    { path: 'data.bin', content: randomBytes(1024 * 1024 - 200) },
  ]);
  const file = path.join(workDir, 'download-1mib.zip');
  writeFileSync(file, pkg);
  await createSkill(registry.url, cookie, 'bench-download');
  const status = await streamUpload(`${registry.url}/v1/skills/bench-download/versions`, cookie, '1.0.0', file);
  if (status !== 201) throw new Error(`upload of the download package failed: ${status}`);
  await publishSkill(registry.url, cookie, 'bench-download');
  const ceiling = await startCeiling('ceiling-file-server.ts', [file]);
  const registryUrl = `${registry.url}/v1/skills/bench-download/versions/1.0.0/download`;
  const ceilingUrl = `${ceiling.url}/`;
  try {
    await load(registryUrl, { connections: CONNECTIONS, seconds: 2 });
    await load(ceilingUrl, { connections: CONNECTIONS, seconds: 2 });
    const registryRuns: LoadResult[] = [];
    const ceilingRuns: LoadResult[] = [];
    // Alternating rounds spread the machine's drift over both sides.
    for (let round = 0; round < ROUNDS; round += 1) {
      ceilingRuns.push(await load(ceilingUrl, { connections: CONNECTIONS, seconds: SECONDS }));
      registryRuns.push(await load(registryUrl, { connections: CONNECTIONS, seconds: SECONDS }));
    }
    const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const reg = best(registryRuns);
    const ceil = best(ceilingRuns);
    return { size: pkg.length, registry: reg, ceiling: ceil, ratio: reg.rps / ceil.rps, registryPeakRss: rssOf(registry.child.pid!) };
  } finally {
    await ceiling.stop();
  }
}

async function main() {
  const workDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-work-'));
  const only = process.env.BENCH_ONLY;
  // Each scenario gets a registry process of its own, so one's leftovers (heap, page cache, disk
  // write-back of 150 MiB of uploads) do not weigh on the other.
  const withRegistry = async <T>(work: (registry: Registry, cookie: string) => Promise<T>): Promise<T> => {
    // The upload scenario sends a 50 MiB package, just over the default limit once zip framing is added.
    const registry = await startRegistry({ MAX_UPLOAD_BYTES: String(128 * 1024 * 1024) });
    try {
      return await work(registry, await adminCookie(registry.url));
    } finally {
      await registry.stop();
    }
  };
  {
    const upload = only === 'download' ? { size: 0, runs: [], maxGrowth: 0 } : await withRegistry((r, c) => uploadScenario(r, c, workDir));
    const download = only === 'upload' ? null : await withRegistry((r, c) => downloadScenario(r, c, workDir));
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${mib(os.totalmem())} MiB, Node ${process.version}`);
    console.log(`\nUpload of a 50 MiB package (${UPLOAD_CONTENT} content; server RSS):`);
    for (const r of upload.runs) {
      console.log(
        `  status ${r.status}  ${r.seconds.toFixed(2)} s  baseline ${mib(r.baseline)} MiB  peak ${mib(r.peak)} MiB  growth ${mib(r.growth)} MiB`,
      );
    }
    console.log(`  max growth ${mib(upload.maxGrowth)} MiB (target < 32 MiB) → ${upload.maxGrowth < 32 * 1024 * 1024 ? 'PASS' : 'FAIL'}`);
    if (download === null) return;
    console.log(
      `\nDownload of a ${mib(download.size)} MiB package, ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds (best round):`,
    );
    const row = (name: string, r: LoadResult) =>
      `  ${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  errors ${r.errors}`;
    console.log(row('registry', download.registry));
    console.log(row('bare node:http ceiling', download.ceiling));
    console.log(`  ratio ${download.ratio.toFixed(2)} (target ≥ 0.80) → ${download.ratio >= 0.8 ? 'PASS' : 'FAIL'}`);
    const out = path.join('bench', 'results');
    mkdirSync(out, { recursive: true });
    const file = path.join(out, 'packages.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          connections: CONNECTIONS,
          seconds: SECONDS,
          upload,
          download,
        },
        null,
        2,
      ),
    );
    console.log(`\nWritten to ${file}`);
  }
}

await main();
