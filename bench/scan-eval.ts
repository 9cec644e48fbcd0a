// The package scanner against the labelled corpus: precision and recall per rule family, verdict shares, and the
// targets (every malicious sample at least suspicious, at least 95% malicious, at most 1% of benign samples
// suspicious or worse). Run with `npm run bench:scan-eval` (builds first); BENCH_VERBOSE=1 lists every miss.
import { evaluate, type SampleResult } from './lib/scan-evaluation.js';

const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

function describe(r: SampleResult): string {
  const top = r.report.findings
    .slice(0, 3)
    .map((f) => `${f.rule}(${f.severity})`)
    .join(', ');
  return `  ${r.sample.id} → ${r.report.verdict} [${top}] — ${r.sample.note}`;
}

const started = performance.now();
const e = await evaluate();
const seconds = (performance.now() - started) / 1000;
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
const atLeastSuspicious = 1 - e.missed.length / e.counts.malicious;
const malicious = e.shares.malicious.malicious;
const benignFlagged = e.falseAlarms.length / e.counts.benign;
console.log('\nTargets:');
console.log(
  `  malicious samples at least suspicious: ${pct(atLeastSuspicious)} (target 100%) ${e.missed.length === 0 ? 'met' : 'NOT MET'}`,
);
console.log(`  malicious samples malicious: ${pct(malicious)} (target ≥ 95%) ${malicious >= 0.95 ? 'met' : 'NOT MET'}`);
console.log(`  benign samples suspicious or worse: ${pct(benignFlagged)} (target ≤ 1%) ${benignFlagged <= 0.01 ? 'met' : 'NOT MET'}`);
const verbose = process.env.BENCH_VERBOSE === '1';
for (const [title, list] of [
  ['Malicious samples below suspicious', e.missed],
  ['Malicious samples not malicious', e.notMalicious],
  ['Benign samples suspicious or worse', e.falseAlarms],
] as const) {
  if (list.length === 0) continue;
  console.log(`\n${title} (${list.length}):`);
  for (const r of verbose ? list : list.slice(0, 15)) console.log(describe(r));
}
