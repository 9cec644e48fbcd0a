// How the bare-server ceiling responds to work: the same body answered by a bare node:http server that first
// spends 0, 2, 5, 10 and 20 µs of CPU on each request, every variant in its own process, the variants run in
// turn and then in reverse order. On a machine where the load generator shares the server's cores, each
// microsecond a server spends on a request costs it far more than a microsecond's worth of throughput: the
// client is idle more often, and every answer has to wake it. Run with `npx tsx bench/ceiling-work.ts`.
import os from 'node:os';
import { cannon } from './lib/autocannon.js';
import { startCeiling } from './lib/processes.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WORK_US = [0, 2, 5, 10, 20];

async function measure(workUs: number): Promise<number> {
  const server = await startCeiling('ceiling-work-server.ts', [String(workUs)]);
  try {
    await cannon({ url: server.url, connections: CONNECTIONS, seconds: 1 });
    return (await cannon({ url: server.url, connections: CONNECTIONS, seconds: SECONDS })).rps;
  } finally {
    await server.stop();
  }
}

async function main() {
  const best = new Map<number, number>();
  for (const order of [WORK_US, [...WORK_US].reverse()]) {
    for (const workUs of order) best.set(workUs, Math.max(best.get(workUs) ?? 0, await measure(workUs)));
  }
  const ceiling = best.get(0) ?? 1;
  console.log(
    `${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? 'unknown'}; ${CONNECTIONS} connections, autocannon, best of 2 × ${SECONDS} s`,
  );
  console.log('| work per request | req/s | ratio to the bare server |');
  console.log('|--:|--:|--:|');
  for (const workUs of WORK_US) {
    const rps = best.get(workUs) ?? 0;
    console.log(`| ${workUs} µs | ${Math.round(rps).toLocaleString('en-US')} | ${(rps / ceiling).toFixed(2)} |`);
  }
}

await main();
