/**
 * The verdict, from the findings' severities and families (every finding counts, kept or omitted):
 *
 * - `malicious`: a `critical` finding outside the secret and skill-spec families; or `high` findings in two or
 *   more of the threat families (hidden-content, agent-manipulation, dangerous-command, external-reference).
 * - `suspicious`: any `high` finding, or a `critical` secret (a shipped private key endangers the publisher, not
 *   the installer: reason to look, not to quarantine).
 * - `notice`: any `low` or `medium` finding.
 * - `clean`: nothing above `info`.
 *
 * Skill-spec findings are `low` or `medium` by construction, so the specification alone never goes past notice.
 */
import type { FindingSink } from './findings.js';
import { rank } from './severity.js';
import type { RuleFamily, Verdict } from './types.js';

const THREAT_FAMILIES: readonly RuleFamily[] = ['hidden-content', 'agent-manipulation', 'dangerous-command', 'external-reference'];

export function verdictOf(sink: FindingSink): Verdict {
  const highFamilies = new Set<RuleFamily>();
  let critical = false;
  let high = false;
  for (const signal of sink.signals.values()) {
    const r = rank(signal.severity);
    if (r >= rank('critical') && signal.family !== 'secret' && signal.family !== 'skill-spec') critical = true;
    if (r >= rank('high')) {
      high = true;
      if (THREAT_FAMILIES.includes(signal.family)) highFamilies.add(signal.family);
    }
  }
  if (critical || highFamilies.size >= 2) return 'malicious';
  if (high) return 'suspicious';
  const { low, medium } = sink.counts;
  return low + medium > 0 ? 'notice' : 'clean';
}
