// What one request costs the server in CPU: the registry (built, in its own process, rate limits on as by default)
// and a bare node:http server sending the same bytes, each driven in turn by autocannon with 50 connections while
// the server process's user + system time is read from /proc. Requests per second move with everything else the
// machine does; CPU time per request moves far less, so a change to the request pipeline is judged by it, and the
// ratio of requests per second is printed beside it. Run with `npm run bench:request-cost`
// (BENCH_ROUNDS, BENCH_SECONDS; BENCH_RATE_LIMIT=off to measure without the limiter).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cannon } from './lib/autocannon.js';
import { startCeiling, startRegistry } from './lib/processes.js';
import { adminCookie, createApiKey, createSkill, getRaw, publishSkill, uploadSkillMdVersion } from './lib/registry-api.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT ?? 'on';
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in µs. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
}

interface Side {
  name: string;
  origin: string;
  pid: number;
}

interface Sample {
  rps: number;
  cpuPerRequest: number;
}

async function drive(side: Side, urlPath: string, headers: Record<string, string>, seconds: number): Promise<Sample> {
  const before = cpuMicros(side.pid);
  const result = await cannon({ url: `${side.origin}${urlPath}`, connections: CONNECTIONS, seconds, headers });
  if (result.errors > 0) throw new Error(`${side.name} ${urlPath}: ${result.errors} errors`);
  return { rps: result.rps, cpuPerRequest: (cpuMicros(side.pid) - before) / result.requests };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'skreg-request-cost-'));
  const registry = await startRegistry({ RATE_LIMIT, RATE_LIMIT_READS: '1000000000' }, [], { dataDir: path.join(workDir, 'data') });
  try {
    const cookie = await adminCookie(registry.url);
    for (const slug of ['request-cost-skill', 'request-cost-other']) {
      await createSkill(registry.url, cookie, slug);
      await uploadSkillMdVersion(registry.url, cookie, slug);
      await publishSkill(registry.url, cookie, slug);
    }
    const key = await createApiKey(registry.url, cookie);
    const scenarios: { title: string; path: string; headers: Record<string, string> }[] = [
      { title: 'skill detail, anonymous', path: '/v1/skills/request-cost-skill', headers: {} },
      { title: 'skill detail, API key', path: '/v1/skills/request-cost-skill', headers: { authorization: `Bearer ${key}` } },
      { title: 'first page of the list', path: '/v1/skills', headers: {} },
    ];
    console.log(
      `${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? 'unknown'}, Node ${process.version}; rate limits ${RATE_LIMIT}; ` +
        `${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per side, medians`,
    );
    console.log('| request | registry req/s | bare req/s | ratio | registry CPU µs/request | bare CPU µs/request |');
    console.log('|:--|--:|--:|--:|--:|--:|');
    for (const [index, scenario] of scenarios.entries()) {
      // The bare server answers with the registry's own bytes and content type for this request.
      const answer = await getRaw(`${registry.url}${scenario.path}`, scenario.headers);
      if (answer.status !== 200) throw new Error(`${scenario.path} answered ${answer.status}`);
      const body = path.join(workDir, `${index}.body`);
      writeFileSync(body, answer.body);
      const manifest = path.join(workDir, `${index}.json`);
      writeFileSync(manifest, JSON.stringify({ [scenario.path]: { file: body, contentType: answer.headers['content-type'] } }));
      const ceiling = await startCeiling('ceiling-body-server.ts', [manifest]);
      try {
        const sides: Side[] = [
          { name: 'registry', origin: registry.url, pid: registry.child.pid! },
          { name: 'bare', origin: ceiling.url, pid: ceiling.child.pid! },
        ];
        for (const side of sides) await drive(side, scenario.path, scenario.headers, 2);
        const samples = new Map<string, Sample[]>(sides.map((side) => [side.name, []]));
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
            samples.get(side.name)!.push(await drive(side, scenario.path, scenario.headers, SECONDS));
          }
        }
        const reg = samples.get('registry')!;
        const bare = samples.get('bare')!;
        const regRps = median(reg.map((s) => s.rps));
        const bareRps = median(bare.map((s) => s.rps));
        console.log(
          `| ${scenario.title} | ${Math.round(regRps).toLocaleString('en-US')} | ${Math.round(bareRps).toLocaleString('en-US')} | ` +
            `${(regRps / bareRps).toFixed(2)} | ${median(reg.map((s) => s.cpuPerRequest)).toFixed(1)} | ${median(bare.map((s) => s.cpuPerRequest)).toFixed(1)} |`,
        );
      } finally {
        await ceiling.stop();
      }
    }
  } finally {
    await registry.stop();
  }
}

await main();
