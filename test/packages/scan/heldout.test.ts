// The held-out set (bench/scan-heldout): its shape, and the scores the scanner reaches on it. No rule is tuned to
// these samples; a miss here is fixed by writing a sample of the same family into the training corpus.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byBehaviour, evaluate } from '../../../bench/lib/scan-evaluation.js';
import { HARM_FAMILIES } from '../../../bench/scan-corpus/sample.js';
import { BENIGN_BEHAVIOUR, loadHeldOut, MALICIOUS_BEHAVIOURS } from '../../../bench/scan-heldout/index.js';

type MaliciousBehaviour = (typeof MALICIOUS_BEHAVIOURS)[number];

// The scores of rules 2026.12.8.1 on the held-out set, per behaviour: samples at least suspicious and samples malicious
// (rules 2026.11.18, before behaviour was judged, reached 13 and 12 of 50; 2026.12.7, 32 and 31; 2026.12.7.2, 37 and
// 36; 2026.12.7.3, 46 and 46; 2026.12.7.4, 47 and 47; 2026.12.7.5, 48 and 48; 2026.12.7.6 and 2026.12.8.1, 49 and 49). Looser joins
// reached more, at the price of public skills judged malicious, all wrongly (39 of 4,863 with rules 2026.12.7; a
// function's socket and program run carried to every call, 3 with 2026.12.7.2, which cost remote-shell one sample);
// these are the scores of the joins kept. They only go up: raise a floor when the scanner does better, never lower one
// to let a change through.
const FLOORS: Record<MaliciousBehaviour, { atLeastSuspicious: number; malicious: number }> = {
  'env-exfil': { atLeastSuspicious: 5, malicious: 5 },
  'credential-theft': { atLeastSuspicious: 5, malicious: 5 },
  'unreadable-script': { atLeastSuspicious: 3, malicious: 3 },
  'prose-instructions': { atLeastSuspicious: 5, malicious: 5 },
  notebook: { atLeastSuspicious: 4, malicious: 4 },
  'exec-by-config': { atLeastSuspicious: 5, malicious: 5 },
  'remote-shell': { atLeastSuspicious: 5, malicious: 5 },
  'keylogger-clipboard': { atLeastSuspicious: 4, malicious: 4 },
  'destructive-delete': { atLeastSuspicious: 4, malicious: 4 },
  persistence: { atLeastSuspicious: 4, malicious: 4 },
  'runtime-exec': { atLeastSuspicious: 5, malicious: 5 },
};
// Benign look-alikes suspicious or worse today; this ceiling only goes down.
const MAX_BENIGN_FLAGGED = 0;

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

function text(content: string | Uint8Array): string {
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

describe('scanner held-out set', () => {
  const samples = loadHeldOut();

  it('has at least 40 malicious and 40 benign samples, each behaviour with 2 to 5', () => {
    const malicious = samples.filter((s) => s.label === 'malicious');
    assert.ok(malicious.length >= 40, `malicious: ${malicious.length}`);
    assert.ok(samples.length - malicious.length >= 40, `benign: ${samples.length - malicious.length}`);
    for (const behaviour of MALICIOUS_BEHAVIOURS) {
      const n = malicious.filter((s) => s.behaviour === behaviour).length;
      assert.ok(n >= 2 && n <= 5, `${behaviour}: ${n} samples`);
    }
  });

  it('names every sample by its label and behaviour, once', () => {
    assert.equal(new Set(samples.map((s) => s.id)).size, samples.length);
    for (const s of samples) {
      if (s.label === 'malicious') {
        assert.match(s.id, new RegExp(`^ho-mal-${s.behaviour ?? ''}-\\d{2}$`), s.id);
        assert.ok((MALICIOUS_BEHAVIOURS as readonly (string | undefined)[]).includes(s.behaviour), `${s.id}: ${s.behaviour}`);
      } else {
        assert.match(s.id, /^ho-ben-[a-z0-9]+(?:-[a-z0-9]+)*-\d{2}$/, s.id);
        assert.equal(s.behaviour, BENIGN_BEHAVIOUR, s.id);
      }
      assert.notEqual(s.note.trim(), '', `${s.id}: note`);
    }
  });

  it('labels malicious samples with harm families and benign ones with none', () => {
    for (const s of samples) {
      if (s.label === 'benign') assert.deepEqual(s.families, [], s.id);
      else {
        assert.ok(s.families.length > 0, `${s.id}: no families`);
        for (const f of s.families) assert.ok((HARM_FAMILIES as readonly string[]).includes(f), `${s.id}: ${f}`);
      }
    }
  });

  it('holds exactly one SKILL.md with a name and a description, at the root or in the one top folder', () => {
    for (const s of samples) {
      const skills = s.files.filter((f) => f.path === 'SKILL.md' || /^[^/]+\/SKILL\.md$/.test(f.path));
      assert.equal(s.files.filter((f) => f.path.split('/').pop() === 'SKILL.md').length, 1, `${s.id}: SKILL.md count`);
      assert.equal(skills.length, 1, `${s.id}: SKILL.md placement`);
      const skill = skills[0]!;
      const folder = skill.path === 'SKILL.md' ? null : skill.path.split('/')[0]!;
      if (folder !== null) for (const f of s.files) assert.ok(f.path.startsWith(`${folder}/`), `${s.id}: ${f.path} outside ${folder}/`);
      const fm = FRONT_MATTER.exec(text(skill.content));
      assert.ok(fm, `${s.id}: front matter`);
      assert.match(fm[1]!, /^name: \S/m, `${s.id}: name`);
      assert.match(fm[1]!, /^description: \S/m, `${s.id}: description`);
    }
  });

  it('keeps the files written as bytes as bytes', () => {
    const bytes = samples.flatMap((s) => s.files.filter((f) => typeof f.content !== 'string').map((f) => `${s.id}/${f.path}`));
    // The UTF-16LE PowerShell scripts are not UTF-8; a shell script with a NUL byte is, and stays text.
    assert.ok(bytes.length >= 2, bytes.join(', '));
    const nul = samples.find((s) => s.id === 'ho-mal-unreadable-script-01')?.files.find((f) => f.path.endsWith('.sh'));
    assert.ok(nul !== undefined && text(nul.content).includes('\0'), 'the shell script keeps its NUL byte');
  });

  it('keeps the scores the scanner reaches today', { timeout: 60_000 }, async () => {
    const e = await evaluate(samples);
    const scores = byBehaviour(e.results);
    for (const [behaviour, floor] of Object.entries(FLOORS)) {
      const score = scores.find((b) => b.behaviour === behaviour);
      assert.ok(score, behaviour);
      const misses = e.results
        .filter((r) => r.sample.behaviour === behaviour && r.report.verdict !== 'malicious')
        .map((r) => `${r.sample.id} → ${r.report.verdict}`);
      assert.ok(score.atLeastSuspicious >= floor.atLeastSuspicious, `${behaviour} at least suspicious: ${misses.join(', ')}`);
      assert.ok(score.malicious >= floor.malicious, `${behaviour} malicious: ${misses.join(', ')}`);
    }
    const flagged = e.falseAlarms.map((r) => `${r.sample.id} → ${r.report.verdict}`);
    assert.ok(flagged.length <= MAX_BENIGN_FLAGGED, `benign suspicious or worse: ${flagged.join(', ')}`);
  });
});
