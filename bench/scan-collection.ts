// The scanner over a collection of skills on disk: every folder holding a SKILL.md is one package (its files, up to
// the next folder holding a SKILL.md of its own), scanned as an upload would be. Prints the share of each verdict,
// the most frequent findings (by rule, counted once per skill and in total), and the skills judged suspicious or
// malicious with their strongest findings, for a person to read and judge.
//
//   npm run bench:scan-collection -- <directory>… [--show N] [--rule RULE_ID] [--reports FILE]
//
// `--show N` lists N skills per verdict (10); `--rule` lists, instead, the skills where that rule fired with its excerpts;
// `--reports FILE` writes every report as a JSON line, to compare two builds of the scanner package by package.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scanFiles } from '@skill-registry/skill-package/scan/scan-files';
import { VERDICTS, type ScanReport, type Verdict } from '@skill-registry/skill-package/scan/types';

/** A package's limits: what an upload would refuse is not scanned here either. */
const MAX_FILES = 2000;
const MAX_BYTES = 200 * 1024 * 1024;

interface Scanned {
  root: string;
  report: ScanReport;
}

function skillRoots(directory: string, found: string[]): void {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  if (entries.some((entry) => entry.isFile() && entry.name === 'SKILL.md')) found.push(directory);
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules') skillRoots(path.join(directory, entry.name), found);
  }
}

/** The package's files, named as they would be inside an archive whose one top-level folder is the skill's. */
function packageFiles(root: string, roots: ReadonlySet<string>): { path: string; bytes: Uint8Array }[] | null {
  const folder = path.basename(root);
  const files: { path: string; bytes: Uint8Array }[] = [];
  let bytes = 0;
  const walk = (directory: string, relative: string): boolean => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === '.git' || roots.has(full)) continue;
        if (!walk(full, `${relative}${entry.name}/`)) return false;
      } else if (entry.isFile()) {
        bytes += statSync(full).size;
        if (files.length >= MAX_FILES || bytes > MAX_BYTES) return false;
        files.push({ path: `${folder}/${relative}${entry.name}`, bytes: readFileSync(full) });
      }
    }
    return true;
  };
  return walk(root, '') ? files : null;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const showAt = args.indexOf('--show');
  const show = showAt >= 0 ? Number(args.splice(showAt, 2)[1]) : 10;
  const ruleAt = args.indexOf('--rule');
  const onlyRule = ruleAt >= 0 ? args.splice(ruleAt, 2)[1] : undefined;
  const reportsAt = args.indexOf('--reports');
  const reportsFile = reportsAt >= 0 ? args.splice(reportsAt, 2)[1] : undefined;
  if (args.length === 0) throw new Error('usage: tsx bench/scan-collection.ts <directory>… [--show N] [--rule RULE_ID] [--reports FILE]');

  const roots: string[] = [];
  for (const directory of args) skillRoots(path.resolve(directory), roots);
  const rootSet = new Set(roots);
  const scanned: Scanned[] = [];
  let skipped = 0;
  const started = performance.now();
  let bytes = 0;
  for (const root of roots) {
    const files = packageFiles(root, rootSet);
    if (files === null) {
      skipped += 1;
      continue;
    }
    for (const file of files) bytes += file.bytes.length;
    scanned.push({ root, report: await scanFiles(files) });
  }
  const seconds = (performance.now() - started) / 1000;
  // Every report as a JSON line, to compare two builds of the scanner package by package.
  if (reportsFile !== undefined)
    writeFileSync(reportsFile, scanned.map(({ root, report }) => `${JSON.stringify({ root, report })}\n`).join(''));

  if (onlyRule !== undefined) {
    for (const { root, report } of scanned) {
      const hits = report.findings.filter((finding) => finding.rule === onlyRule);
      if (hits.length === 0) continue;
      console.log(`${path.relative(process.cwd(), root)} (${report.verdict})`);
      for (const hit of hits.slice(0, 3)) console.log(`  ${hit.file}:${hit.line ?? '-'}  ${hit.excerpt}`);
    }
    return;
  }

  const verdicts = new Map<Verdict, Scanned[]>(VERDICTS.map((verdict) => [verdict, []]));
  const bySkill = new Map<string, number>();
  const total = new Map<string, number>();
  for (const item of scanned) {
    verdicts.get(item.report.verdict)?.push(item);
    const rules = new Set<string>();
    for (const finding of item.report.findings) {
      total.set(finding.rule, (total.get(finding.rule) ?? 0) + 1);
      rules.add(finding.rule);
    }
    for (const rule of rules) bySkill.set(rule, (bySkill.get(rule) ?? 0) + 1);
  }

  console.log(
    `${scanned.length} skills scanned (${skipped} over the package limits skipped), ${(bytes / 2 ** 20).toFixed(1)} MiB in ${seconds.toFixed(1)} s`,
  );
  console.log('\nverdict      skills   share');
  for (const verdict of VERDICTS) {
    const count = verdicts.get(verdict)?.length ?? 0;
    console.log(
      `${verdict.padEnd(12)} ${String(count).padStart(6)}  ${((100 * count) / Math.max(scanned.length, 1)).toFixed(1).padStart(5)}%`,
    );
  }
  console.log('\nmost frequent findings    skills  findings');
  const frequent = [...bySkill].sort((a, b) => b[1] - a[1]).slice(0, 10);
  for (const [rule, skills] of frequent)
    console.log(`${rule.padEnd(32)} ${String(skills).padStart(6)}  ${String(total.get(rule) ?? 0).padStart(8)}`);

  for (const verdict of ['malicious', 'suspicious'] as const) {
    const items = verdicts.get(verdict) ?? [];
    console.log(`\n${verdict} (${items.length}; first ${Math.min(show, items.length)})`);
    for (const { root, report } of items.slice(0, show)) {
      console.log(`- ${path.relative(process.cwd(), root)}`);
      for (const finding of report.findings.filter((f) => f.severity === 'critical' || f.severity === 'high').slice(0, 4)) {
        console.log(`    [${finding.severity}] ${finding.rule} ${finding.file}:${finding.line ?? '-'}  ${finding.excerpt}`);
      }
    }
  }
}

await main();
