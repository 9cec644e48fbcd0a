// The package scanner against the labelled corpus: precision and recall per rule family, verdict shares, and the
// targets (every malicious sample at least suspicious, at least 95% malicious, at most 1% of benign samples
// suspicious or worse). Then the same tables for the held-out set (bench/scan-heldout), which no rule is tuned
// to, and its verdicts per behaviour. Run with `npm run bench:scan-eval` (builds first); BENCH_VERBOSE=1 lists
// every miss.
import { byBehaviour, evaluate, type Evaluation, type SampleResult } from './lib/scan-evaluation.js';
import { loadHeldOut, HELD_OUT_BEHAVIOURS } from './scan-heldout/index.js';

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const verbose = process.env.BENCH_VERBOSE === '1';

function describe(r: SampleResult): string {
  const top = r.report.findings
    .slice(0, 3)
    .map((f) => `${f.rule}(${f.severity})`)
    .join(', ');
  return `  ${r.sample.id} → ${r.report.verdict} [${top}] — ${r.sample.note}`;
}

function printTables(e: Evaluation, seconds: number): void {
  console.log(
    `${e.results.length} samples (${e.counts.malicious} malicious, ${e.counts.benign} benign), scanned in ${seconds.toFixed(1)} s\n`,
  );
  console.log('| family | labelled | flagged (high or critical) | precision | recall |');
  console.log('|---|---|---|---|---|');
  for (const f of e.families) console.log(`| ${f.family} | ${f.labelled} | ${f.flagged} | ${pct(f.precision)} | ${pct(f.recall)} |`);
  console.log('\n| label | clean | notice | suspicious | malicious |');
  console.log('|---|---|---|---|---|');
  for (const label of ['malicious', 'benign'] as const) {
    const s = e.shares[label];
    console.log(`| ${label} | ${pct(s.clean)} | ${pct(s.notice)} | ${pct(s.suspicious)} | ${pct(s.malicious)} |`);
  }
  const atLeastSuspicious = 1 - e.missed.length / Math.max(1, e.counts.malicious);
  const malicious = e.shares.malicious.malicious;
  const benignFlagged = e.falseAlarms.length / Math.max(1, e.counts.benign);
  console.log('\nTargets:');
  console.log(
    `  malicious samples at least suspicious: ${pct(atLeastSuspicious)} (target 100%) ${e.missed.length === 0 ? 'met' : 'NOT MET'}`,
  );
  console.log(`  malicious samples malicious: ${pct(malicious)} (target ≥ 95%) ${malicious >= 0.95 ? 'met' : 'NOT MET'}`);
  console.log(`  benign samples suspicious or worse: ${pct(benignFlagged)} (target ≤ 1%) ${benignFlagged <= 0.01 ? 'met' : 'NOT MET'}`);
}

function printBehaviours(e: Evaluation): void {
  const order = (behaviour: string): number => HELD_OUT_BEHAVIOURS.indexOf(behaviour);
  console.log('\n| behaviour | samples | at least suspicious | malicious |');
  console.log('|---|---|---|---|');
  for (const b of byBehaviour(e.results).sort((x, y) => order(x.behaviour) - order(y.behaviour))) {
    // For benign samples the "at least suspicious" column counts false alarms.
    const caught = b.label === 'benign' ? `${b.atLeastSuspicious} (suspicious or worse)` : String(b.atLeastSuspicious);
    console.log(`| ${b.behaviour} | ${b.samples} | ${caught} | ${b.malicious} |`);
  }
}

function printMisses(e: Evaluation): void {
  for (const [title, list] of [
    ['Malicious samples below suspicious', e.missed],
    ['Malicious samples not malicious', e.notMalicious],
    ['Benign samples suspicious or worse', e.falseAlarms],
  ] as const) {
    if (list.length === 0) continue;
    console.log(`\n${title} (${list.length}):`);
    for (const r of verbose ? list : list.slice(0, 15)) console.log(describe(r));
  }
}

async function timed(run: () => Promise<Evaluation>): Promise<[Evaluation, number]> {
  const started = performance.now();
  const e = await run();
  return [e, (performance.now() - started) / 1000];
}

console.log('## Training corpus (bench/scan-corpus)\n');
const [training, trainingSeconds] = await timed(() => evaluate());
printTables(training, trainingSeconds);
printMisses(training);

console.log('\n## Held-out set (bench/scan-heldout: no rule is tuned to it)\n');
const [heldOut, heldOutSeconds] = await timed(() => evaluate(loadHeldOut()));
printTables(heldOut, heldOutSeconds);
printBehaviours(heldOut);
printMisses(heldOut);
