// The benchmark suite: a registry of 100,000 published skills, each read scenario driven at 50 connections and
// compared with a ceiling measured in the same run (a bare node:http server answering the same bytes, in a
// process of its own), uploads with the server's memory, and a table of the results against the targets.
// Run with `npm run bench` (builds first); see docs/performance.md for what it measures and its knobs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { cannon } from './lib/autocannon.js';
import { load, type LoadResult } from './lib/client.js';
import { CATEGORIES, generateSkills, generator, searchWords, TAGS, type GeneratedSkill } from './lib/generate.js';
import { buildFtsDatabase } from './lib/fts-database.js';
import { rssOf, sampleRss, startCeiling, startRegistry, type Ceiling, type Registry } from './lib/processes.js';
import { queryLog } from './lib/query-log.js';
import { adminCookie, createApiKey, getRaw, packageOf, streamUpload, zipOf } from './lib/registry-api.js';
import { benchDatabase, seedSkills, type BenchDatabase } from './lib/seed.js';
import { openDatabase } from '../src/db/database.js';
import { runRelevance, type RelevanceResult } from './relevance.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Distinct searches and filtered lists are driven as a search box is: fewer connections, every request new. */
const DISTINCT_CONNECTIONS = Number(process.env.BENCH_DISTINCT_CONNECTIONS ?? 16);
/** Distinct search queries in the log (bench/lib/query-log.ts). */
const DISTINCT_QUERIES = Number(process.env.BENCH_DISTINCT_QUERIES ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Rounds per side, alternating ceiling and registry; the best round of each side is reported. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const SKILLS = Number(process.env.BENCH_SKILLS ?? 100_000);
const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 200);
const UPLOAD_CONNECTIONS = Number(process.env.BENCH_UPLOAD_CONNECTIONS ?? 4);
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
/**
 * `BENCH_RATE_LIMIT=on` measures the registry with its rate limits counted, as it runs by default; the read
 * allowance is raised to the largest accepted so that counting, never refusing, is what is measured.
 */
const RATE_LIMIT_ENV: Record<string, string> =
  process.env.BENCH_RATE_LIMIT === 'on' ? { RATE_LIMIT: 'on', RATE_LIMIT_READS: '1000000000' } : {};
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
const MIB = 1024 * 1024;

/** The scenarios, in the order they run. */
const SCENARIOS = [
  'list',
  'filtered',
  'filtered-distinct',
  'search-selective',
  'search-common',
  'search-distinct',
  'detail',
  'auth',
  'versions',
  'download',
  'mixed',
  'upload-50mib',
  'upload',
  'relevance',
] as const;
type ScenarioId = (typeof SCENARIOS)[number];

const matchesOnly = (id: string, o: string) => id === o || id.startsWith(`${o}-`);

/** `BENCH_ONLY=list,search` runs `list` and every scenario whose name starts with `search-`. */
function selected(id: ScenarioId): boolean {
  return ONLY.length === 0 || ONLY.some((o) => matchesOnly(id, o));
}

const unknown = ONLY.filter((o) => !SCENARIOS.some((id) => matchesOnly(id, o)));
if (unknown.length > 0) throw new Error(`BENCH_ONLY names no scenario: ${unknown.join(', ')} (scenarios: ${SCENARIOS.join(', ')})`);

interface Side {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  seconds: number;
  /** Peak RSS of the measured process during the measured run, bytes. */
  peakRss: number;
}

interface Target {
  /** e.g. "ratio ≥ 0.6" or "p99 ≤ 15 ms". */
  text: string;
  pass: boolean;
}

interface ScenarioResult {
  id: ScenarioId;
  title: string;
  registry: Side;
  /** What the ratio is taken against: a ceiling server, or (authenticated detail) the anonymous detail. */
  ceiling?: Side & { what: string };
  ratio?: number;
  target?: Target;
  /** Shown in the target column when there is no target. */
  note?: string;
  details?: Record<string, unknown>;
}

function sideOf(result: LoadResult, peakRss: number): Side {
  const { rps, p50, p99, errors, requests, seconds } = result;
  return { rps, p50, p99, errors, requests, seconds, peakRss };
}

/** A warm-up run, then the measured run while the process's RSS is sampled every 5 ms. */
async function measure(pid: number, drive: (seconds: number) => Promise<LoadResult>, warmUp = true): Promise<Side> {
  if (warmUp && WARMUP > 0) await drive(WARMUP);
  const sampler = sampleRss(pid);
  const result = await drive(SECONDS);
  return sideOf(result, sampler.stop());
}

type Driver = (seconds: number) => Promise<LoadResult>;

/**
 * Both sides of a comparison: each warmed up once, then `BENCH_ROUNDS` alternating rounds (the reference
 * first); the best round of each side (its peak RSS the highest of its rounds).
 */
async function compare(
  reference: { pid: number; drive: Driver },
  registry: { pid: number; drive: Driver },
): Promise<{ reference: Side; registry: Side }> {
  const refRounds: Side[] = [];
  const regRounds: Side[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    refRounds.push(await measure(reference.pid, reference.drive, round === 0));
    regRounds.push(await measure(registry.pid, registry.drive, round === 0));
  }
  const best = (rounds: Side[]): Side => ({
    ...rounds.reduce((a, b) => (b.rps > a.rps ? b : a)),
    peakRss: Math.max(...rounds.map((r) => r.peakRss)),
  });
  return { reference: best(refRounds), registry: best(regRounds) };
}

function ratioTarget(ratio: number, min: number, errors: number): Target {
  return { text: `ratio ≥ ${min.toFixed(1)}`, pass: ratio >= min && errors === 0 };
}

function p99Target(side: Side, maxMs: number): Target {
  return { text: `p99 ≤ ${maxMs} ms`, pass: side.p99 <= maxMs && side.errors === 0 };
}

interface Fixture {
  registry: Registry;
  cookie: string;
  apiKey: string;
  workDir: string;
  paths: {
    list: string;
    filtered: string;
    searchSelective: string;
    searchCommon: string;
    detail: string;
    versions: string;
    download: string;
    upload: string;
  };
  downloadFile: string;
}

/**
 * A JSON read scenario: the registry's response to each path is captured once and written to a file; a bare
 * node:http server in its own process answers those exact bytes with the same content type (by path, so a
 * rotation of several requests gets each its own body); both are driven alike by autocannon.
 */
async function jsonScenario(
  f: Fixture,
  id: ScenarioId,
  title: string,
  paths: string[],
  target?: (registry: Side, ratio: number) => Target,
  headers: Record<string, string> = {},
): Promise<ScenarioResult> {
  const manifest: Record<string, { file: string; contentType: string }> = {};
  const sizes: number[] = [];
  for (const [i, p] of paths.entries()) {
    const res = await getRaw(`${f.registry.url}${p}`, headers);
    if (res.status !== 200) throw new Error(`${id}: GET ${p} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    const file = path.join(f.workDir, `${id}-${i}.body`);
    writeFileSync(file, res.body);
    manifest[p] = { file, contentType: res.headers['content-type'] ?? 'application/json' };
    sizes.push(res.body.length);
  }
  const manifestFile = path.join(f.workDir, `${id}.manifest.json`);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const drive = (origin: string) => (seconds: number) =>
    cannon({
      url: `${origin}${paths[0]}`,
      connections: CONNECTIONS,
      seconds,
      headers,
      ...(paths.length > 1 ? { paths } : {}),
    });
  const ceilingServer = await startCeiling('ceiling-body-server.ts', [manifestFile]);
  try {
    const { reference: ceiling, registry } = await compare(
      { pid: ceilingServer.child.pid!, drive: drive(ceilingServer.url) },
      { pid: f.registry.child.pid!, drive: drive(f.registry.url) },
    );
    const ratio = registry.rps / ceiling.rps;
    return {
      id,
      title,
      registry,
      ceiling: { ...ceiling, what: 'bare node:http, same body' },
      ratio,
      ...(target ? { target: target(registry, ratio) } : {}),
      details: { paths, bodyBytes: sizes },
    };
  } finally {
    await ceilingServer.stop();
  }
}

/**
 * Many distinct queries of one kind, a path drawn at random for every request, so that no answer is asked for
 * twice in quick succession: what the registry costs when no cache can help. Driven at `DISTINCT_CONNECTIONS`;
 * with a ceiling (a server answering the same paths its own way, in its own process), compared with it round by
 * round.
 */
async function distinctScenario(
  f: Fixture,
  id: ScenarioId,
  title: string,
  paths: string[],
  maxP99Ms: number,
  ceiling?: { server: Ceiling; what: string; minRatio: number },
): Promise<ScenarioResult> {
  for (const p of [paths[0]!, paths[paths.length - 1]!]) {
    const res = await getRaw(`${f.registry.url}${p}`);
    if (res.status !== 200) throw new Error(`${id}: GET ${p} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  }
  const drive = (origin: string) => {
    const rnd = generator(7);
    const pick = () => paths[Math.floor(rnd() * paths.length)]!;
    return (seconds: number) => cannon({ url: `${origin}${paths[0]}`, connections: DISTINCT_CONNECTIONS, seconds, pick });
  };
  const details = { distinctPaths: paths.length, connections: DISTINCT_CONNECTIONS, examples: paths.slice(0, 5) };
  if (ceiling === undefined) {
    const registry = await measure(f.registry.child.pid!, drive(f.registry.url));
    return { id, title, registry, target: p99Target(registry, maxP99Ms), details };
  }
  const { reference, registry } = await compare(
    { pid: ceiling.server.child.pid!, drive: drive(ceiling.server.url) },
    { pid: f.registry.child.pid!, drive: drive(f.registry.url) },
  );
  const ratio = registry.rps / reference.rps;
  const pass = registry.p99 <= maxP99Ms && ratio >= ceiling.minRatio && registry.errors === 0;
  return {
    id,
    title,
    registry,
    ceiling: { ...reference, what: ceiling.what },
    ratio,
    target: { text: `p99 ≤ ${maxP99Ms} ms, ratio ≥ ${ceiling.minRatio.toFixed(1)}`, pass },
    details,
  };
}

async function downloadScenario(f: Fixture): Promise<ScenarioResult> {
  const ceilingServer = await startCeiling('ceiling-file-server.ts', [f.downloadFile]);
  // autocannon's own parser is the bottleneck at 1 MiB per response; a minimal keep-alive client that discards
  // the bodies drives both sides.
  const drive = (url: string) => (seconds: number) => load(url, { connections: CONNECTIONS, seconds });
  try {
    const { reference: ceiling, registry } = await compare(
      { pid: ceilingServer.child.pid!, drive: drive(`${ceilingServer.url}/`) },
      { pid: f.registry.child.pid!, drive: drive(`${f.registry.url}${f.paths.download}`) },
    );
    const ratio = registry.rps / ceiling.rps;
    return {
      id: 'download',
      title: '1 MiB download',
      registry,
      ceiling: { ...ceiling, what: 'bare node:http streaming the same file' },
      ratio,
      target: ratioTarget(ratio, 0.8, registry.errors),
      details: { path: f.paths.download, driver: 'keep-alive node:http client (bench/lib/client.ts)' },
    };
  } finally {
    await ceilingServer.stop();
  }
}

async function authScenario(f: Fixture, anonymous: Side | undefined): Promise<ScenarioResult> {
  const drive = (headers: Record<string, string>) => (seconds: number) =>
    cannon({ url: `${f.registry.url}${f.paths.detail}`, connections: CONNECTIONS, seconds, headers });
  const pid = f.registry.child.pid!;
  const authenticated = { pid, drive: drive({ authorization: `Bearer ${f.apiKey}` }) };
  // The anonymous detail of the detail scenario, measured just before, unless it did not run.
  const { reference: anon, registry: logged } =
    anonymous && ROUNDS === 1
      ? { reference: anonymous, registry: await measure(pid, authenticated.drive) }
      : await compare({ pid, drive: drive({}) }, authenticated);
  const ratio = logged.rps / anon.rps;
  return {
    id: 'auth',
    title: 'authenticated detail (API key, logged)',
    registry: logged,
    ceiling: { ...anon, what: 'anonymous detail, same registry' },
    ratio,
    target: ratioTarget(ratio, 0.9, logged.errors),
    details: { path: f.paths.detail },
  };
}

/**
 * Waits until the registry is idle again (two health checks in a row answered within 50 ms): a scenario that
 * overloads it leaves requests queued after the load generator has stopped, which would weigh on the next one.
 */
async function settle(f: Fixture, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  let fast = 0;
  while (fast < 2 && performance.now() - started < timeoutMs) {
    const t0 = performance.now();
    const ok = await getRaw(`${f.registry.url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    fast = ok && performance.now() - t0 < 50 ? fast + 1 : 0;
    if (fast < 2) await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - started) / 1000;
}

/**
 * The upload scenarios run on a fresh registry process over the same data (as `npm run bench:packages` does),
 * after one 1 MiB warm-up upload: the first large upload after start is the one whose memory counts.
 */
async function restartForUploads(f: Fixture, start: () => Promise<Registry>): Promise<void> {
  await f.registry.stop();
  f.registry = await start();
  f.cookie = await adminCookie(f.registry.url);
  const status = await streamUpload(`${f.registry.url}${f.paths.upload}`, f.cookie, '0.9.0', await packageOf(MIB));
  if (status !== 201) throw new Error(`warm-up upload failed: ${status}`);
}

/** The RSS growth of the process `pid` while one upload of `file` to `url` runs; and the upload's status and time. */
async function uploadGrowth(pid: number, url: string, cookie: string, version: string, file: string) {
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssOf(pid);
  const sampler = sampleRss(pid);
  const started = performance.now();
  const status = await streamUpload(url, cookie, version, file);
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  return { status, seconds, baseline, peak, growth: peak - baseline };
}

/**
 * One 50 MiB package, streamed from disk, while the server's RSS is sampled; then the same upload to a bare
 * `node:http` server that streams bodies to disk (after the same 1 MiB warm-up), for Node's own share.
 */
async function upload50Scenario(f: Fixture): Promise<ScenarioResult> {
  const file = path.join(f.workDir, 'upload-50mib.zip');
  writeFileSync(file, await packageOf(50 * MIB));
  const measured = await uploadGrowth(f.registry.child.pid!, `${f.registry.url}${f.paths.upload}`, f.cookie, '50.0.0', file);
  const ceilingServer = await startCeiling('ceiling-upload-server.ts', []);
  let bare: Awaited<ReturnType<typeof uploadGrowth>>;
  try {
    await streamUpload(`${ceilingServer.url}/upload`, '', '0.9.0', await packageOf(MIB));
    bare = await uploadGrowth(ceilingServer.child.pid!, `${ceilingServer.url}/upload`, '', '50.0.0', file);
  } finally {
    await ceilingServer.stop();
  }
  rmSync(file, { force: true });
  const { status, seconds, peak, growth } = measured;
  const ms = seconds * 1000;
  return {
    id: 'upload-50mib',
    title: '50 MiB upload (1 connection)',
    registry: { rps: 1 / seconds, p50: ms, p99: ms, errors: status === 201 ? 0 : 1, requests: 1, seconds, peakRss: peak },
    target: {
      text: `RSS growth ${(growth / MIB).toFixed(1)} ≤ 32 MiB (bare node:http ${(bare.growth / MIB).toFixed(1)})`,
      pass: growth <= 32 * MIB && status === 201,
    },
    details: { status, baselineRss: measured.baseline, growth, bareGrowth: bare.growth, bareStatus: bare.status },
  };
}

/**
 * 5 MiB packages at 4 connections for a fixed duration: each worker streams uploads of distinct versions
 * back to back. The package bytes are the same each time (the registry stores the blob once).
 */
async function uploadScenario(f: Fixture): Promise<ScenarioResult> {
  const file = path.join(f.workDir, 'upload-5mib.zip');
  writeFileSync(file, await packageOf(5 * MIB));
  const url = `${f.registry.url}${f.paths.upload}`;
  const run = async (major: number, seconds: number): Promise<LoadResult> => {
    const latencies: number[] = [];
    let errors = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const worker = async (w: number) => {
      for (let n = 0; performance.now() < deadline; n += 1) {
        const t0 = performance.now();
        const status = await streamUpload(url, f.cookie, `${major}.${w}.${n}`, file).catch(() => 0);
        if (status === 201) latencies.push(performance.now() - t0);
        else errors += 1;
      }
    };
    await Promise.all(Array.from({ length: UPLOAD_CONNECTIONS }, (_, w) => worker(w)));
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
    return { requests: latencies.length, errors, seconds: elapsed, rps: latencies.length / elapsed, p50: at(50), p99: at(99), bytes: 0 };
  };
  const pid = f.registry.child.pid!;
  if (WARMUP > 0) await run(60, WARMUP);
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssOf(pid);
  const sampler = sampleRss(pid);
  const result = await run(61, SECONDS);
  const peak = sampler.stop();
  rmSync(file, { force: true });
  const growth = peak - baseline;
  return {
    id: 'upload',
    title: `5 MiB upload, ${UPLOAD_CONNECTIONS} connections`,
    registry: sideOf(result, peak),
    note: `RSS growth ${(growth / MIB).toFixed(1)} MiB`,
    details: { baselineRss: baseline, growth, mibPerSecond: result.rps * 5 },
  };
}

/** Small real packages for a sample of the skills, a 1 MiB one for downloads, through the registry's API. */
async function uploadPackages(registry: Registry, cookie: string, rows: readonly GeneratedSkill[], workDir: string) {
  const step = Math.max(1, Math.floor(rows.length / PACKAGES));
  const sample = Array.from({ length: Math.min(PACKAGES, rows.length) }, (_, i) => rows[i * step]!);
  const jobs: { slug: string; version: string; body: Promise<Buffer> }[] = [];
  sample.forEach((row, i) => {
    // The first sample skill carries a longer history, for the version list.
    const count = i === 0 ? 12 : 1 + (i % 3);
    for (let v = 0; v < count; v += 1) {
      const version = `1.${v}.${i % 5}`;
      const skillMd = `---\nname: ${row.slug}\ndescription: ${row.description.split('.')[0]}.\n---\n# ${row.name}\n\n${row.description}\n`;
      jobs.push({
        slug: row.slug,
        version,
        body: zipOf(
          [
            { path: 'SKILL.md', content: Buffer.from(skillMd) },
            { path: 'README.md', content: Buffer.from(`# ${row.name}\n\n${row.description}\n\nVersion ${version}.\n`.repeat(4)) },
            { path: 'scripts/run.py', content: Buffer.from(`#!/usr/bin/env python3\nprint(${JSON.stringify(row.name)})\n`) },
          ],
          true,
        ),
      });
    }
  });
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const status = await streamUpload(`${registry.url}/v1/skills/${job.slug}/versions`, cookie, job.version, await job.body);
      if (status !== 201) failures.push(`${job.slug}@${job.version}: ${status}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  if (failures.length > 0) throw new Error(`package uploads failed: ${failures.slice(0, 5).join(', ')}`);

  // The download scenario's package: 1 MiB, on a published skill outside the sample.
  const downloadSkill = rows[Math.min(rows.length - 1, step >> 1)]!;
  const downloadFile = path.join(workDir, 'download-1mib.zip');
  writeFileSync(downloadFile, await packageOf(MIB));
  const status = await streamUpload(`${registry.url}/v1/skills/${downloadSkill.slug}/versions`, cookie, '1.0.0', downloadFile);
  if (status !== 201) throw new Error(`upload of the download package failed: ${status}`);
  return { sample, uploads: jobs.length + 1, downloadSkill, downloadFile };
}

/** The commit measured, and how many files under src/ differ from it (the build includes them). */
function sourceState(): { commit: string; changedSrcFiles: number } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--', 'src'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() !== '');
    return { commit, changedSrcFiles: changed.length };
  } catch {
    return { commit: 'unknown', changedSrcFiles: 0 };
  }
}

/** The share of CPU time the whole machine spent busy over one second (Linux /proc/stat). */
async function cpuBusy(): Promise<number> {
  const sample = () => {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3]! + (fields[4] ?? 0);
    return { idle, total: fields.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = sample();
    await new Promise((r) => setTimeout(r, 1000));
    const b = sample();
    return 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
  } catch {
    return 0;
  }
}

const fmt = {
  n: (v: number | undefined, digits = 0) =>
    v === undefined ? '—' : v.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }),
  mib: (v: number) => (v / MIB).toFixed(0),
};

function table(results: ScenarioResult[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'ceiling req/s', 'ratio', 'target', 'result', 'peak RSS MiB'];
  const rows = results.map((r) => [
    r.title,
    fmt.n(r.registry.rps, r.registry.rps < 100 ? 1 : 0),
    fmt.n(r.registry.p50, r.registry.p50 < 100 ? 1 : 0),
    fmt.n(r.registry.p99, r.registry.p99 < 100 ? 1 : 0),
    String(r.registry.errors),
    r.ceiling ? fmt.n(r.ceiling.rps) : '—',
    r.ratio === undefined ? '—' : r.ratio.toFixed(2),
    r.target?.text ?? r.note ?? '—',
    r.target ? (r.target.pass ? 'PASS' : 'FAIL') : '',
    fmt.mib(r.registry.peakRss),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 || i === 7 || i === 8 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 || i === 7 || i === 8 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/**
 * How long a change takes to show in search: made through the API on the node searched (visible before the
 * write is answered), and written straight into the database as another node would, which the node searched
 * finds in the change log (read every second). Each time is from the start of the write to the first search
 * answer holding the change, polled every 10 ms.
 */
async function freshness(f: Fixture, database: BenchDatabase): Promise<{ sameNodeMs: number; otherNodeMs: number }> {
  const detail = JSON.parse((await getRaw(`${f.registry.url}${f.paths.detail}`)).body.toString()) as { id: string };
  const until = async (word: string, started: number): Promise<number> => {
    for (;;) {
      const res = await getRaw(`${f.registry.url}/v1/skills?q=${word}`);
      if ((JSON.parse(res.body.toString()) as { total: number }).total > 0) return performance.now() - started;
      if (performance.now() - started > 30_000) throw new Error(`"${word}" never showed in search`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const word = () => `fresh${Math.random().toString(36).slice(2, 10).replace(/\d/g, 'x')}`;
  const here = word();
  let started = performance.now();
  const res = await fetch(`${f.registry.url}/v1/skills/${detail.id}`, {
    method: 'PATCH',
    headers: { cookie: f.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ description: `Now also about ${here}.` }),
  });
  if (!res.ok) throw new Error(`PATCH answered ${res.status}: ${await res.text()}`);
  const sameNodeMs = await until(here, started);
  const elsewhere = word();
  const handle = openDatabase(database.config);
  try {
    started = performance.now();
    await handle.db
      .updateTable('skills')
      .set({ description: `Written by another node about ${elsewhere}.`, updated_at: new Date().toISOString() })
      .where('id', '=', detail.id)
      .execute();
    return { sameNodeMs, otherNodeMs: await until(elsewhere, started) };
  } finally {
    await handle.close();
  }
}

async function main() {
  const started = performance.now();
  const workDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-work-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skreg-bench-'));
  const database = await benchDatabase(dataDir, process.env.DATABASE_URL);
  let registry: Registry | undefined;
  try {
    const machine = {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? 'cpu',
      memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    };
    const busyBefore = await cpuBusy();
    console.log(`Machine: ${machine.cpus} × ${machine.model}, ${machine.memoryGiB} GiB, Node ${machine.node}`);
    // Everything here shares the machine's cores: other work running at the same time skews every figure.
    if (busyBefore > 0.1) console.warn(`WARNING: the CPUs were ${(busyBefore * 100).toFixed(0)}% busy in the second before the run`);
    const source = sourceState();
    console.log(`Database: ${database.label}`);
    console.log(`Source: ${source.commit}${source.changedSrcFiles ? ` + ${source.changedSrcFiles} changed files under src/` : ''}`);
    console.log(
      `Rate limits ${RATE_LIMIT_ENV.RATE_LIMIT ?? 'off'}; ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${ROUNDS} × ${SECONDS} s per side${ONLY.length ? `, only ${ONLY.join(',')}` : ''}\n`,
    );

    // Seeding: generate, bulk insert, start, then real packages over HTTP.
    const seedStarted = performance.now();
    let t = performance.now();
    const rows = generateSkills(SKILLS);
    const generateSeconds = (performance.now() - t) / 1000;
    const seed = await seedSkills(database, rows);
    console.log(
      `Seeded ${seed.skills.toLocaleString('en')} skills and ${seed.tags.toLocaleString('en')} tags in ${seed.seconds.toFixed(1)} s (generated in ${generateSeconds.toFixed(1)} s)`,
    );
    t = performance.now();
    // A 50 MiB package is just over the default upload limit once zip framing is added.
    // A registry indexes every skill before it answers: about a minute more per 200,000 skills on a slow machine.
    const start = () =>
      startRegistry({ ...database.env, MAX_UPLOAD_BYTES: String(128 * MIB), ...RATE_LIMIT_ENV }, NODE_ARGS, {
        dataDir,
        startTimeoutMs: 60_000 + SKILLS * 0.3,
      });
    registry = await start();
    const cookie = await adminCookie(registry.url);
    const apiKey = await createApiKey(registry.url, cookie);
    const startSeconds = (performance.now() - t) / 1000;
    t = performance.now();
    const packages = await uploadPackages(registry, cookie, rows, workDir);
    const packagesSeconds = (performance.now() - t) / 1000;
    const seedingSeconds = (performance.now() - seedStarted) / 1000;
    console.log(
      `Registry started in ${startSeconds.toFixed(1)} s; ${packages.uploads} packages uploaded over HTTP in ${packagesSeconds.toFixed(1)} s`,
    );
    console.log(`Seeding took ${seedingSeconds.toFixed(1)} s in all\n`);

    // The queries: words and filters chosen from the generated data, their expected totals from the JS model.
    t = performance.now();
    const words = searchWords(rows);
    const filter = { category: 'documents', tags: ['cli', 'python'] };
    const filteredCount = rows.filter((r) => r.category === filter.category && filter.tags.every((tag) => r.tags.includes(tag))).length;
    const detailSkill = packages.sample[1] ?? packages.sample[0]!;
    const f: Fixture = {
      registry,
      cookie,
      apiKey,
      workDir,
      downloadFile: packages.downloadFile,
      paths: {
        list: '/v1/skills',
        filtered: `/v1/skills?category=${filter.category}&tags=${filter.tags.join(',')}&sort=downloads`,
        searchSelective: `/v1/skills?q=${words.selective.word}`,
        searchCommon: `/v1/skills?q=${words.common.word}`,
        detail: `/v1/skills/${detailSkill.slug}`,
        versions: `/v1/skills/${packages.sample[0]!.slug}/versions`,
        download: `/v1/skills/${packages.downloadSkill.slug}/versions/1.0.0/download`,
        upload: `/v1/skills/${packages.sample[2]?.slug ?? packages.sample[0]!.slug}/versions`,
      },
    };
    const totalOf = async (p: string) => (JSON.parse((await getRaw(`${registry!.url}${p}`)).body.toString()) as { total: number }).total;
    const queries = {
      selective: { ...words.selective, share: words.selective.count / rows.length, registryTotal: await totalOf(f.paths.searchSelective) },
      common: { ...words.common, share: words.common.count / rows.length, registryTotal: await totalOf(f.paths.searchCommon) },
      filtered: { ...filter, count: filteredCount, registryTotal: await totalOf(f.paths.filtered) },
    };
    const pct = (share: number) => `${(share * 100).toFixed(2)}%`;
    console.log(
      `Selective search word "${queries.selective.word}": ${queries.selective.count} matches (${pct(queries.selective.share)}), registry total ${queries.selective.registryTotal}`,
    );
    console.log(
      `Common search word "${queries.common.word}": ${queries.common.count} matches (${pct(queries.common.share)}), registry total ${queries.common.registryTotal}`,
    );
    console.log(
      `Filtered list category=${filter.category} tags=${filter.tags.join(',')}: ${filteredCount} matches, registry total ${queries.filtered.registryTotal}`,
    );
    for (const [name, q] of Object.entries(queries)) {
      // A word typed last stands for at most 48 of the words it starts (the most frequent): a rare fragment that
      // starts more words than that matches somewhat fewer skills than the plain model counts.
      const expected = name === 'filtered' ? q.registryTotal === q.count : q.registryTotal <= q.count && q.registryTotal >= q.count * 0.9;
      if (!expected) console.warn(`WARNING: ${name}: the registry reports ${q.registryTotal}, the generated data holds ${q.count}`);
    }
    console.log(`(chosen in ${((performance.now() - t) / 1000).toFixed(1)} s)\n`);

    const results: ScenarioResult[] = [];
    const run = async (id: ScenarioId, work: () => Promise<ScenarioResult>) => {
      if (!selected(id)) return;
      const waited = await settle(f);
      if (waited > 1) console.log(`(waited ${waited.toFixed(1)} s for the registry to finish the previous scenario's requests)`);
      const begun = performance.now();
      const result = await work();
      results.push(result);
      const r = result.registry;
      console.log(
        `${result.title}: ${fmt.n(r.rps, r.rps < 100 ? 1 : 0)} req/s, p50 ${fmt.n(r.p50, 1)} ms, p99 ${fmt.n(r.p99, 1)} ms, errors ${r.errors}` +
          (result.ceiling ? `; ${result.ceiling.what} ${fmt.n(result.ceiling.rps)} req/s, ratio ${result.ratio!.toFixed(2)}` : '') +
          (result.target ? `; ${result.target.text} → ${result.target.pass ? 'PASS' : 'FAIL'}` : '') +
          ` (${((performance.now() - begun) / 1000).toFixed(0)} s)`,
      );
    };
    const ratioOf = (min: number) => (side: Side, ratio: number) => ratioTarget(ratio, min, side.errors);
    const p99Of = (maxMs: number) => (side: Side) => p99Target(side, maxMs);
    await run('list', () => jsonScenario(f, 'list', 'default list page (20 records)', [f.paths.list], ratioOf(0.6)));
    await run('filtered', () =>
      jsonScenario(f, 'filtered', 'filtered list (category + tags, sort=downloads)', [f.paths.filtered], p99Of(15)),
    );
    const distinctFilters = CATEGORIES.flatMap((category) =>
      TAGS.flatMap((tag) =>
        (['latest', 'downloads', 'featured'] as const).flatMap((sort) =>
          [1, 2, 3].map((page) => `/v1/skills?category=${category}&tags=${tag}&sort=${sort}&page=${page}`),
        ),
      ),
    );
    await run('filtered-distinct', () =>
      distinctScenario(
        f,
        'filtered-distinct',
        `filtered list, ${distinctFilters.length.toLocaleString('en')} distinct category + tag + sort + page queries`,
        distinctFilters,
        15,
      ),
    );
    await run('search-selective', () =>
      jsonScenario(f, 'search-selective', `search, selective word "${words.selective.word}"`, [f.paths.searchSelective]),
    );
    await run('search-common', () =>
      jsonScenario(f, 'search-common', `search, common word "${words.common.word}"`, [f.paths.searchCommon], p99Of(15)),
    );
    let fresh: { sameNodeMs: number; otherNodeMs: number } | null = null;
    if (selected('search-distinct')) {
      const log = queryLog(rows, DISTINCT_QUERIES);
      const distinctSearches = log.map((q) => `/v1/skills?q=${encodeURIComponent(q)}`);
      t = performance.now();
      const ftsFile = path.join(workDir, 'ceiling-fts.db');
      buildFtsDatabase(ftsFile, rows);
      console.log(`(search ceiling's FTS5 database built in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
      const server = await startCeiling('ceiling-fts-server.ts', [ftsFile]);
      try {
        await run('search-distinct', () =>
          distinctScenario(
            f,
            'search-distinct',
            `search, ${distinctSearches.length.toLocaleString('en')} distinct queries (1–3 words, prefixes as typed)`,
            distinctSearches,
            15,
            { server, what: 'bare node:http + SQLite FTS5 bm25', minRatio: 1 },
          ),
        );
      } finally {
        await server.stop();
      }
      fresh = await freshness(f, database);
      console.log(
        `A change showed in search ${fresh.sameNodeMs.toFixed(0)} ms after a write through the API, ${fresh.otherNodeMs.toFixed(0)} ms after one written by another node`,
      );
    }
    let anonymousDetail: Side | undefined;
    await run('detail', async () => {
      const result = await jsonScenario(f, 'detail', 'skill detail (anonymous)', [f.paths.detail], ratioOf(0.6));
      anonymousDetail = result.registry;
      return result;
    });
    await run('auth', () => authScenario(f, anonymousDetail));
    await run('versions', () => jsonScenario(f, 'versions', 'version list (12 versions)', [f.paths.versions]));
    await run('download', () => downloadScenario(f));
    await run('mixed', () =>
      jsonScenario(f, 'mixed', 'mixed reads (list, filtered, 2 searches, detail, versions)', [
        f.paths.list,
        f.paths.filtered,
        f.paths.searchSelective,
        f.paths.searchCommon,
        f.paths.detail,
        f.paths.versions,
      ]),
    );
    if (selected('upload-50mib') || selected('upload')) {
      await restartForUploads(f, start);
      registry = f.registry;
    }
    await run('upload-50mib', () => upload50Scenario(f));
    await run('upload', () => uploadScenario(f));

    console.log(`\n${table(results)}\n`);
    const failed = results.filter((r) => r.target && !r.target.pass).map((r) => r.id);
    console.log(failed.length === 0 ? 'Every target met.' : `Targets missed: ${failed.join(', ')}`);
    // How well search finds the right skill, on a corpus of its own (bench/relevance.ts), on the same database.
    let relevance: RelevanceResult | undefined;
    if (selected('relevance')) {
      console.log('\nRelevance: judged queries over the relevance corpus');
      relevance = await runRelevance(process.env.DATABASE_URL);
    }

    const date = new Date();
    const report = {
      date: date.toISOString(),
      command: 'npm run bench',
      relevance: relevance === undefined ? null : { overall: relevance.overall, kinds: relevance.kinds },
      machine,
      database: database.label,
      source,
      cpuBusyBefore: busyBefore,
      settings: {
        rateLimit: RATE_LIMIT_ENV.RATE_LIMIT ?? 'off',
        connections: CONNECTIONS,
        seconds: SECONDS,
        warmup: WARMUP,
        rounds: ROUNDS,
        skills: SKILLS,
        packages: PACKAGES,
        uploadConnections: UPLOAD_CONNECTIONS,
        nodeArgs: NODE_ARGS,
        only: ONLY,
      },
      seeding: {
        seconds: seedingSeconds,
        generateSeconds,
        bulkInsertSeconds: seed.seconds,
        skills: seed.skills,
        tags: seed.tags,
        packages: packages.uploads,
        packagesSeconds,
      },
      queries,
      paths: f.paths,
      freshness: fresh,
      scenarios: results,
      failed,
      totalSeconds: (performance.now() - started) / 1000,
    };
    const out = path.join(import.meta.dirname, 'results');
    mkdirSync(out, { recursive: true });
    const file = path.join(out, `${date.toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `Written to ${path.relative(process.cwd(), file)} and bench/results/latest.json (${report.totalSeconds.toFixed(0)} s in all)`,
    );
  } finally {
    await registry?.stop();
    await database.dispose().catch((error: unknown) => console.error('could not drop the benchmark schema:', error));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
