// Runs the package scanner over a labelled set of samples (by default the training corpus, bench/scan-corpus; also
// the held-out set, bench/scan-heldout): every sample is built into a real zip and inspected as an upload would be.
// Shared by `npm run bench:scan-eval` and the tests that hold the floors.
import yazl from 'yazl';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { bufferSource } from '@skill-registry/skill-package/source';
import { RULE_FAMILIES, VERDICTS, type RuleFamily, type ScanReport, type Verdict } from '@skill-registry/skill-package/scan/types';
import { loadCorpus, type Sample } from '../scan-corpus/index.js';

/** A finding at this severity or above flags its sample under the finding's family. */
export const FLAG_SEVERITIES = new Set(['high', 'critical']);

export interface SampleResult {
  sample: Sample;
  report: ScanReport;
  flagged: Set<RuleFamily>;
}

export interface FamilyScore {
  family: RuleFamily;
  labelled: number;
  flagged: number;
  truePositives: number;
  precision: number | null;
  recall: number | null;
}

export interface Evaluation {
  results: SampleResult[];
  families: FamilyScore[];
  shares: Record<'benign' | 'malicious', Record<Verdict, number>>;
  counts: Record<'benign' | 'malicious', number>;
  /** Malicious samples below `suspicious`, malicious samples not `malicious`, benign samples `suspicious` or worse. */
  missed: SampleResult[];
  notMalicious: SampleResult[];
  falseAlarms: SampleResult[];
}

function zipOf(files: Sample['files']): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const f of files) archive.addBuffer(typeof f.content === 'string' ? Buffer.from(f.content) : Buffer.from(f.content), f.path);
  archive.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (c: Buffer) => chunks.push(c));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

const rank = (v: Verdict): number => VERDICTS.indexOf(v);

export async function evaluate(samples: Sample[] = loadCorpus()): Promise<Evaluation> {
  const results: SampleResult[] = [];
  for (const sample of samples) {
    const inspection = await inspectPackage(bufferSource(await zipOf(sample.files)));
    const flagged = new Set(inspection.scan.findings.filter((f) => FLAG_SEVERITIES.has(f.severity)).map((f) => f.family));
    // Omitted findings count too: a family whose strongest finding was high is flagged even if it was not listed.
    results.push({ sample, report: inspection.scan, flagged });
  }
  const families = RULE_FAMILIES.map((family): FamilyScore => {
    const labelled = results.filter((r) => r.sample.families.includes(family)).length;
    const flagged = results.filter((r) => r.flagged.has(family)).length;
    const truePositives = results.filter((r) => r.sample.families.includes(family) && r.flagged.has(family)).length;
    return {
      family,
      labelled,
      flagged,
      truePositives,
      precision: flagged === 0 ? null : truePositives / flagged,
      recall: labelled === 0 ? null : truePositives / labelled,
    };
  });
  const shares = { benign: {}, malicious: {} } as Evaluation['shares'];
  const counts = { benign: 0, malicious: 0 };
  for (const label of ['benign', 'malicious'] as const) {
    const of = results.filter((r) => r.sample.label === label);
    counts[label] = of.length;
    for (const verdict of VERDICTS) shares[label][verdict] = of.filter((r) => r.report.verdict === verdict).length / Math.max(1, of.length);
  }
  return {
    results,
    families,
    shares,
    counts,
    missed: results.filter((r) => r.sample.label === 'malicious' && rank(r.report.verdict) < rank('suspicious')),
    notMalicious: results.filter((r) => r.sample.label === 'malicious' && r.report.verdict !== 'malicious'),
    falseAlarms: results.filter((r) => r.sample.label === 'benign' && rank(r.report.verdict) >= rank('suspicious')),
  };
}

export interface BehaviourScore {
  behaviour: string;
  label: Sample['label'];
  samples: number;
  /** Samples whose verdict is `suspicious` or `malicious`: caught when malicious, false alarms when benign. */
  atLeastSuspicious: number;
  malicious: number;
}

/** Verdicts counted per behaviour (samples without one are left out), in order of first appearance. */
export function byBehaviour(results: SampleResult[]): BehaviourScore[] {
  const scores = new Map<string, BehaviourScore>();
  for (const { sample, report } of results) {
    if (sample.behaviour === undefined) continue;
    const score = scores.get(sample.behaviour) ?? {
      behaviour: sample.behaviour,
      label: sample.label,
      samples: 0,
      atLeastSuspicious: 0,
      malicious: 0,
    };
    score.samples++;
    if (rank(report.verdict) >= rank('suspicious')) score.atLeastSuspicious++;
    if (report.verdict === 'malicious') score.malicious++;
    scores.set(sample.behaviour, score);
  }
  return [...scores.values()];
}
