// The scanner against the labelled corpus (bench/scan-corpus), built into real zips and inspected: the floors it
// must keep. Targets and the numbers reached are in docs/performance.md (`npm run bench:scan-eval`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../../bench/lib/scan-evaluation.js';

describe('scanner evaluation corpus', () => {
  it('keeps its precision and recall floors', { timeout: 120_000 }, async () => {
    const e = await evaluate();
    const benignFlagged = e.falseAlarms.length / e.counts.benign;
    const atLeastSuspicious = 1 - e.missed.length / e.counts.malicious;
    assert.ok(e.counts.malicious > 100 && e.counts.benign > 300, 'the corpus loaded');
    // Target: at most 1% of benign packages suspicious or worse.
    assert.ok(benignFlagged <= 0.01, `benign suspicious or worse: ${e.falseAlarms.map((r) => r.sample.id).join(', ')}`);
    // Target: every malicious package at least suspicious (met from rules 2026.11.5). The 95% malicious target is not
    // reached yet; the floor below keeps what is.
    assert.ok(atLeastSuspicious >= 1, `malicious at least suspicious: ${(atLeastSuspicious * 100).toFixed(1)}%`);
    // 0.855 under rules 2026.11.3; 2026.11.4 weighs an installer from a cheap top-level domain, shown in documentation,
    // one step less (suspicious): real projects publish installers that way, and two corpus samples look the same.
    // 0.889 under 2026.11.5 (downloads run by other names, credential folders archived from home, commands assembled
    // from a script's variables).
    assert.ok(e.shares.malicious.malicious >= 0.885, `malicious verdicts: ${(e.shares.malicious.malicious * 100).toFixed(1)}%`);
    for (const family of e.families) {
      if (family.labelled > 0) assert.ok((family.precision ?? 1) >= 0.85, `${family.family} precision ${family.precision}`);
    }
  });
});
