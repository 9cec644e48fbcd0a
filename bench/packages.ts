// Package benchmarks: memory while uploading a 50 MiB package, and 1 MiB download throughput against a
// bare node:http server streaming the same file. Run with `npm run bench:packages` (builds first).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { load, type LoadResult } from './lib/client.js';
import { collectionText } from './lib/collection-text.js';
import { assetHeavyFiles, mixedFiles, withAssets } from './lib/mixed-files.js';
import { rssOf, sampleRss, startCeiling, startRegistry, type Registry } from './lib/processes.js';
import { scanNothingBuild } from './lib/scan-nothing-build.js';
import { adminCookie, createSkill, curlUpload, publishSkill, SKILL_MD, streamUpload, zipOf } from './lib/registry-api.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/**
 * `BENCH_UPLOAD_CONTENT=mixed`: upload the text-heavy mixed set of bench/lib/mixed-files.ts; `assets`: a package made as
 * large skills are, 4 MiB of text and binary assets (assetHeavyFiles).
 */
const UPLOAD_CONTENT = process.env.BENCH_UPLOAD_CONTENT ?? 'random';

/**
 * The asset-heavy package: `BENCH_UPLOAD_TEXT_MIB` of text (4 by default) and binary assets. The text is generated, or
 * drawn from real skills under `BENCH_TEXT_DIRS` (directories separated by `:`, checked-out collections), whose text
 * costs the scanner more per MiB.
 */
function assetHeavyPackage(mib: number): { path: string; bytes: Buffer }[] {
  const textMib = Number(process.env.BENCH_UPLOAD_TEXT_MIB ?? 4);
  const dirs = process.env.BENCH_TEXT_DIRS;
  if (dirs === undefined) return assetHeavyFiles(mib, textMib);
  const text = collectionText(dirs.split(':'), textMib).map((f) => ({ path: `references/${f.path}`, bytes: f.bytes }));
  return withAssets([{ path: 'SKILL.md', bytes: SKILL_MD }, ...text], mib);
}

/**
 * The package the upload scenarios send, written to `workDir`: random bytes (stored, nothing for the scanner to read), or
 * the scanner benchmark's sets, deflated: the mixed set (60% text) or the asset-heavy one (assetHeavyPackage).
 */
async function writeUploadPackage(workDir: string): Promise<string> {
  const file = path.join(workDir, 'upload-50mib.zip');
  const mib = Number(process.env.BENCH_UPLOAD_MIB ?? 50);
  writeFileSync(
    file,
    UPLOAD_CONTENT === 'mixed' || UPLOAD_CONTENT === 'assets'
      ? await zipOf(
          (UPLOAD_CONTENT === 'mixed' ? mixedFiles(mib) : assetHeavyPackage(mib)).map((f) => ({ path: f.path, content: f.bytes })),
          true,
        )
      : await zipOf([
          { path: 'SKILL.md', content: SKILL_MD },
          { path: 'data.bin', content: randomBytes(mib * 1024 * 1024) },
        ]),
  );
  return file;
}

async function uploadScenario(registry: Registry, cookie: string, workDir: string) {
  const file = await writeUploadPackage(workDir);
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

/** CPU time of a process, all its threads, in ms (Linux; NaN elsewhere). */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // utime and stime, after the parenthesised name, in clock ticks of 10 ms.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

/** `BENCH_LINK_MBITS`: the upload-time scenario's client sends at this rate (Mbit/s) instead of as fast as loopback takes. */
const LINK_MBITS = process.env.BENCH_LINK_MBITS === undefined ? undefined : Number(process.env.BENCH_LINK_MBITS);
/**
 * `BENCH_UPLOAD_CLIENT=curl`: the upload-time scenario's client is curl rather than this process (registry-api.ts,
 * curlUpload), which takes less of the two cores the registry runs on.
 */
const UPLOAD_CLIENT = process.env.BENCH_UPLOAD_CLIENT === 'curl' ? 'curl' : 'node';

/**
 * `BENCH_BASELINE_BUILD=<dir>`: the upload-time scenario compares the registry with that build (a copy of another one,
 * laid out as lib/scan-nothing-build.ts lays out its copy) instead of with a build whose scanner reads nothing.
 */
const BASELINE_BUILD = process.env.BENCH_BASELINE_BUILD;

/**
 * What scanning adds to an upload's time: the registry as built, and beside it a copy of the build whose file scanners
 * read nothing (lib/scan-nothing-build.ts). Each round uploads the package to both, in an order that alternates, and compares the two times of the
 * round: the machine's drift moves whole rounds, so a ratio within one moves less than medians of whole runs do.
 */
async function uploadTimeScenario(workDir: string) {
  const file = await writeUploadPackage(workDir);
  const env = { MAX_UPLOAD_BYTES: String(128 * 1024 * 1024) };
  const sides = [
    { name: 'scanned', registry: await startRegistry(env) },
    {
      name: BASELINE_BUILD === undefined ? 'without scanning' : 'baseline build',
      registry: await startRegistry(env, undefined, {
        cwd: BASELINE_BUILD ?? scanNothingBuild(path.join(workDir, 'scan-nothing')),
      }),
    },
  ].map((side) => ({ ...side, cookie: '', ms: [] as number[], cpu: [] as number[], clientCpu: [] as number[] }));
  try {
    for (const side of sides) {
      side.cookie = await adminCookie(side.registry.url);
      await createSkill(side.registry.url, side.cookie, 'bench-upload');
    }
    const rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 15);
    for (let round = -1; round < rounds; round += 1) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const pid = side.registry.child.pid!;
        const cpuBefore = processCpu(pid);
        const url = `${side.registry.url}/v1/skills/bench-upload/versions`;
        const pace = LINK_MBITS === undefined ? {} : { bitsPerSecond: LINK_MBITS * 1e6 };
        let upload: { status: number; ms: number; cpuMs: number };
        if (UPLOAD_CLIENT === 'curl') upload = await curlUpload(url, side.cookie, `1.0.${round + 1}`, file, pace);
        else {
          const clientBefore = process.cpuUsage();
          const started = performance.now();
          const status = await streamUpload(url, side.cookie, `1.0.${round + 1}`, file, pace);
          const client = process.cpuUsage(clientBefore);
          upload = { status, ms: performance.now() - started, cpuMs: (client.user + client.system) / 1000 };
        }
        if (upload.status !== 201) throw new Error(`upload to the registry ${side.name} answered ${upload.status}`);
        // The first round warms both up (code loaded, heaps grown) and is not counted.
        if (round < 0) continue;
        side.ms.push(upload.ms);
        side.cpu.push(processCpu(pid) - cpuBefore);
        side.clientCpu.push(upload.cpuMs);
      }
    }
    const [scanned, unscanned] = sides as [(typeof sides)[0], (typeof sides)[0]];
    const added = scanned.ms.map((ms, i) => ms / unscanned.ms[i]! - 1).sort((a, b) => a - b);
    const median = (list: number[]) =>
      quantile(
        [...list].sort((a, b) => a - b),
        0.5,
      );
    return {
      size: statSync(file).size,
      rounds,
      sides: sides.map(({ name, ms, cpu, clientCpu }) => ({
        name,
        medianMs: median(ms),
        registryCpuMs: median(cpu),
        clientCpuMs: median(clientCpu),
      })),
      added: { median: quantile(added, 0.5), lowerQuartile: quantile(added, 0.25), upperQuartile: quantile(added, 0.75) },
    };
  } finally {
    for (const side of sides) await side.registry.stop();
  }
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
  if (only === 'upload-time') {
    const result = await uploadTimeScenario(workDir);
    const textMib =
      UPLOAD_CONTENT === 'assets'
        ? `, ${process.env.BENCH_UPLOAD_TEXT_MIB ?? 4} MiB of ${process.env.BENCH_TEXT_DIRS === undefined ? 'generated' : "real skills'"} text`
        : '';
    console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString()}`);
    console.log(
      `Upload time of a ${(result.size / 1024 / 1024).toFixed(1)} MiB zip (${UPLOAD_CONTENT} content${textMib}), ` +
        `${LINK_MBITS === undefined ? 'over loopback' : `paced to ${LINK_MBITS} Mbit/s`}, ${UPLOAD_CLIENT === 'curl' ? 'sent by curl' : 'sent by Node'}, ${result.rounds} rounds:`,
    );
    for (const side of result.sides) {
      console.log(
        `  ${side.name.padEnd(17)} median ${side.medianMs.toFixed(0).padStart(5)} ms  registry CPU ${side.registryCpuMs.toFixed(0)} ms  client CPU ${side.clientCpuMs.toFixed(0)} ms`,
      );
    }
    const pct = (n: number) => `${n >= 0 ? '+' : ''}${(100 * n).toFixed(1)}%`;
    console.log(
      `  ${BASELINE_BUILD === undefined ? 'scanning adds' : 'against the baseline build:'} ${pct(result.added.median)} (median of the rounds; quartiles ${pct(result.added.lowerQuartile)} to ${pct(result.added.upperQuartile)}; target ≤ +10%)`,
    );
    mkdirSync(path.join('bench', 'results'), { recursive: true });
    writeFileSync(
      path.join('bench', 'results', 'upload-time.json'),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          content: UPLOAD_CONTENT,
          linkMbits: LINK_MBITS ?? null,
          client: UPLOAD_CLIENT,
          ...result,
        },
        null,
        2,
      ),
    );
    return;
  }
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
