import { Type } from 'typebox';
import { Nullable, OneOf, OneOfOrNull, PageQuery, Timestamp } from './common.js';
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '@skill-registry/rules/limits';

export { REPORT_REASONS, type ReportReason } from '@skill-registry/rules/limits';

/** How an administrator closes a skill's open reports. */
export const REPORT_RESOLUTIONS = ['dismissed', 'actioned'] as const;
export type ReportResolution = (typeof REPORT_RESOLUTIONS)[number];

export const REPORT_STATES = ['open', 'resolved'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

const REASON_DESCRIPTION =
  '`malware`, `security` (a vulnerability or unsafe behaviour), `spam`, `impersonation`, `inappropriate`, `copyright`, ' +
  '`broken` (does not work as described), `other` (say what in `details`).';

export const ReportBody = Type.Object(
  {
    reason: OneOf(REPORT_REASONS, { description: REASON_DESCRIPTION }),
    details: Type.Optional(
      Type.String({
        maxLength: REPORT_DETAILS_MAX * 4,
        description: `At most ${REPORT_DETAILS_MAX} characters; required with the reason \`other\`.`,
      }),
    ),
  },
  { additionalProperties: false },
);

const UserSummary = Type.Object({ id: Type.String(), username: Type.String() });

export const Report = Type.Object(
  {
    id: Type.String(),
    skill_id: Type.String(),
    reason: OneOf(REPORT_REASONS),
    details: Nullable(Type.String()),
    state: OneOf(REPORT_STATES),
    reporter: UserSummary,
    created_at: Timestamp,
    resolution: OneOfOrNull(REPORT_RESOLUTIONS),
    resolution_note: Nullable(Type.String()),
    resolved_by: Type.Union([UserSummary, Type.Null()]),
    resolved_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Report', title: 'Report' },
);
export const ReportRef = Type.Ref('Report');

/** What the reporter learns: their report as filed (not whether it hid the skill, which is for administrators). */
export const ReportFiled = Type.Object({
  id: Type.String(),
  skill_id: Type.String(),
  reason: OneOf(REPORT_REASONS),
  details: Nullable(Type.String()),
  state: OneOf(REPORT_STATES),
  created_at: Timestamp,
});

const StateQuery = {
  state: Type.Optional(OneOf(REPORT_STATES, { description: 'Which reports: `open` (the default) or `resolved`.' })),
};

export const ReportQueueQuery = Type.Object({ ...StateQuery, ...PageQuery });
export const SkillReportsQuery = Type.Object({ ...StateQuery, ...PageQuery });

export const ReportQueueItem = Type.Object(
  {
    skill: Type.Object({
      id: Type.String(),
      slug: Type.String(),
      name: Type.String(),
      status: OneOf(['draft', 'published', 'deprecated']),
      hidden: Type.Boolean({ description: 'Hidden pending review: past the reporter threshold and not yet resolved.' }),
      owner: UserSummary,
    }),
    reporters: Type.Integer({ description: 'Distinct users with a report of this state.' }),
    reports: Type.Integer(),
    reasons: Type.Array(Type.Object({ reason: OneOf(REPORT_REASONS), count: Type.Integer() }), {
      description: 'Each reason given, most frequent first.',
    }),
    first_reported_at: Timestamp,
    last_reported_at: Timestamp,
  },
  { title: 'ReportQueueItem' },
);

export const ReportQueue = Type.Object({
  items: Type.Array(ReportQueueItem),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer({ description: 'Skills with reports of this state.' }),
});

export const ReportList = Type.Object({
  items: Type.Array(ReportRef),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
});

export const ResolveReportsBody = Type.Object(
  {
    resolution: OneOf(REPORT_RESOLUTIONS, {
      description: '`dismissed`: nothing wrong, the skill is shown again; `actioned`: acted upon (see `status`).',
    }),
    note: Type.Optional(Type.String({ maxLength: 500, description: 'Recorded with the resolution and in the audit trail.' })),
    status: Type.Optional(
      OneOf(['draft', 'published', 'deprecated'], {
        description: 'With `actioned`: a status transition applied in the same step (e.g. `deprecated`), audited as any other.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReportsResolved = Type.Object({
  skill_id: Type.String(),
  resolution: OneOf(REPORT_RESOLUTIONS),
  resolved: Type.Integer({ description: 'Open reports closed by this request.' }),
  status: OneOf(['draft', 'published', 'deprecated']),
});
