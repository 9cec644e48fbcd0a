// Call-log overhead: authenticated (logged) reads against anonymous reads of the same endpoint, same run; then
// the CPU one call-log entry costs, apart from HTTP. Run with `npm run bench:logs` (builds first).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, type LoadResult } from './lib/client.js';
import { measureLogRowCost } from './lib/log-row-cost.js';
import { startRegistry } from './lib/processes.js';
import { adminCookie, createApiKey, createSkill, json, publishSkill, uploadSkillMdVersion } from './lib/registry-api.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

async function main() {
  const registry = await startRegistry();
  try {
    const cookie = await adminCookie(registry.url);
    await createSkill(registry.url, cookie, 'bench-logs', {
      name: 'Bench Logs',
      description: 'A skill read by the call-log benchmark.',
      tags: ['bench', 'logs'],
    });
    await uploadSkillMdVersion(registry.url, cookie, 'bench-logs');
    await publishSkill(registry.url, cookie, 'bench-logs');
    const key = await createApiKey(registry.url, cookie);

    const url = `${registry.url}/v1/skills/bench-logs`;
    const authenticated = { authorization: `Bearer ${key}` };
    await load(url, { connections: CONNECTIONS, seconds: 2 });
    await load(url, { connections: CONNECTIONS, seconds: 2, headers: authenticated });
    const anonymousRuns: LoadResult[] = [];
    const loggedRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      anonymousRuns.push(await load(url, { connections: CONNECTIONS, seconds: SECONDS }));
      loggedRuns.push(await load(url, { connections: CONNECTIONS, seconds: SECONDS, headers: authenticated }));
    }
    const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const anonymous = best(anonymousRuns);
    const logged = best(loggedRuns);
    const ratio = logged.rps / anonymous.rps;

    // The logged calls are really there: the key's own call log holds them.
    const logs = await json<{ total: number }>(await fetch(`${registry.url}/v1/logs?page_size=1`, { headers: authenticated }));

    console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`);
    console.log(`GET /v1/skills/:skillId, ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds (best round):`);
    const row = (name: string, r: LoadResult) =>
      `  ${name.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  errors ${r.errors}`;
    console.log(row('anonymous', anonymous));
    console.log(row('API key (logged)', logged));
    console.log(
      `  rounds: anonymous ${anonymousRuns.map((r) => r.rps.toFixed(0)).join(', ')}; logged ${loggedRuns.map((r) => r.rps.toFixed(0)).join(', ')}`,
    );
    console.log(
      `  ratio ${ratio.toFixed(2)} (target ≥ 0.90) → ${ratio >= 0.9 ? 'PASS' : 'FAIL'}; call-log entries for the key: ${logs.total}`,
    );
    await registry.stop();

    // With the registry stopped, so that nothing else competes for the cores.
    const rowCost = await measureLogRowCost();
    console.log(
      `\nOne call-log entry, apart from HTTP (${rowCost.rows.toLocaleString('en')} entries through the recorder into SQLite): ` +
        `event loop ${rowCost.mainMicros.toFixed(1)} µs, other threads (the writer's insert, GC helpers) ${rowCost.otherMicros.toFixed(1)} µs, ` +
        `${Math.round(rowCost.rowsPerSecond).toLocaleString('en')} entries/s`,
    );
    mkdirSync(path.join('bench', 'results'), { recursive: true });
    writeFileSync(
      path.join('bench', 'results', 'logs.json'),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          connections: CONNECTIONS,
          seconds: SECONDS,
          anonymous,
          logged,
          ratio,
          logEntries: logs.total,
          rowCost,
        },
        null,
        2,
      ),
    );
  } finally {
    await registry.stop();
  }
}

await main();
