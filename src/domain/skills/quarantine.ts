import { conflict, validationFailed } from '../errors.js';
import type { SkillStatus } from './statuses.js';

/**
 * The status a published skill has in the search index while it is quarantined (it has versions and the package
 * scanner judged every one of them malicious): public lists and searches ask for `published` and so leave it out,
 * while its owner and administrators, who ask for their statuses with `withQuarantined`, still find it.
 */
export const QUARANTINED_PUBLISHED = 'published:quarantined';

export function searchStatus(row: { status: SkillStatus; quarantined: number }): string {
  return row.status === 'published' && row.quarantined === 1 ? QUARANTINED_PUBLISHED : row.status;
}

/** The index statuses that show a caller who may see quarantined skills everything `statuses` names. */
export function withQuarantined(statuses: readonly SkillStatus[] | 'all'): readonly string[] | 'all' {
  return statuses !== 'all' && statuses.includes('published') ? [...statuses, QUARANTINED_PUBLISHED] : statuses;
}

/**
 * Publishing a quarantined skill: refused, unless an administrator overrides the quarantine and says why (the
 * reason goes to the audit trail). True when the publication goes ahead as an override.
 */
export function checkPublishable(
  skill: { slug: string; quarantined: number },
  to: SkillStatus,
  override: boolean,
  reason: string | null,
): boolean {
  if (to !== 'published' || skill.quarantined !== 1) return false;
  if (!override) {
    throw conflict(
      'skill_quarantined',
      `Every version of "${skill.slug}" is quarantined: the package scanner judged them malicious. Upload a version that ` +
        'is not, rescan, or publish anyway with override_quarantine and a reason.',
    );
  }
  if (reason === null) {
    throw validationFailed([{ field: 'reason', message: 'is required to publish a quarantined skill with override_quarantine' }]);
  }
  return true;
}
