import { DECLINE_REASON_MAX } from '@skill-registry/rules/limits';
import type { ReviewQueueRow } from '../../db/repositories/skills.js';
import { toIso } from '../../lib/time.js';
import { validationFailed } from '../errors.js';
import { toScanSummary, type ScanSummary } from '../versions/scan-views.js';
import type { Skill } from './skills.js';

/**
 * Where a draft stands in review. `waiting`: a reviewer has not declined it since its owner last uploaded a version.
 * `changes_requested`: declined, with a reason its owner reads; it leaves the queue until its owner uploads a version
 * (which clears the decline), so reviewers do not read the same package twice.
 */
export type ReviewState = 'waiting' | 'changes_requested';

/** A draft in the review queue: the skill, the version uploaded last with its scan, and since when it waits. */
export interface ReviewQueueItem {
  skill: Skill;
  newest_version: { version: string; uploaded_at: string; scan: ScanSummary | null } | null;
  waiting_since: string;
}

/** `skill` is the row as the skill object shows it (toSkill). */
export function toReviewQueueItem(row: ReviewQueueRow, skill: Skill): ReviewQueueItem {
  return {
    skill,
    newest_version:
      row.newest_version === null || row.newest_uploaded_at === null
        ? null
        : { version: row.newest_version, uploaded_at: toIso(row.newest_uploaded_at), scan: toScanSummary(row) },
    waiting_since: toIso(row.waiting_since),
  };
}

/** A decline's reason as stored: trimmed, required, at most DECLINE_REASON_MAX characters. */
export function checkDeclineReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') {
    throw validationFailed([{ field: 'reason', message: 'say what the owner should change: a reason is required to decline a draft' }]);
  }
  if ([...trimmed].length > DECLINE_REASON_MAX) {
    throw validationFailed([{ field: 'reason', message: `must be at most ${DECLINE_REASON_MAX} characters` }]);
  }
  return trimmed;
}
