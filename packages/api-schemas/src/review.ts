import { Type } from 'typebox';
import { Nullable, OneOf, PageQuery, Timestamp } from './common.js';
import { DECLINE_REASON_MAX } from '@skill-registry/rules/limits';
import { ScanSummary } from './scans.js';
import { SkillRef } from './skills.js';

/** Where a draft stands in review: waiting for a reviewer, or declined and waiting for its owner's new version. */
export const REVIEW_STATES = ['waiting', 'changes_requested'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const DeclineBody = Type.Object(
  {
    reason: Type.String({
      maxLength: DECLINE_REASON_MAX * 4,
      description: `What the owner must change, in at most ${DECLINE_REASON_MAX} characters; required and not blank. The owner reads it.`,
    }),
  },
  { additionalProperties: false },
);

export const ReviewQueueQuery = Type.Object({
  state: Type.Optional(
    OneOf(REVIEW_STATES, {
      description:
        '`waiting` (the default): drafts a reviewer has not declined since their last upload; `changes_requested`: declined drafts, until their owner uploads a version.',
    }),
  ),
  ...PageQuery,
});

export const ReviewQueueItem = Type.Object(
  {
    skill: SkillRef,
    newest_version: Nullable(
      Type.Object(
        {
          version: Type.String(),
          uploaded_at: Timestamp,
          scan: ScanSummary,
        },
        {
          description:
            'The version uploaded last, with its scan (a malicious one is quarantined and never `latest_version`); null without versions.',
        },
      ),
    ),
    waiting_since: Timestamp,
  },
  { title: 'ReviewQueueItem' },
);

export const ReviewQueue = Type.Object({
  items: Type.Array(ReviewQueueItem, {
    description:
      'Riskiest first: the newest version judged malicious, then suspicious, then the rest, then drafts without a version; oldest first within each.',
  }),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer({ description: 'Drafts in this state.' }),
});
