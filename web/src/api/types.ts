/**
 * The console's view of the API, derived from the server's TypeBox schemas so the two cannot drift.
 * Schemas that point at a shared component by `$ref` (User, Skill, Feedback, …) type it as `unknown`;
 * those fields are filled in here with the component's own type.
 */
import type { Static } from 'typebox';
import type {
  ApiKey as ApiKeySchema,
  ApiKeyCreated as ApiKeyCreatedSchema,
  CreateApiKeyBody,
  LoginBody,
  LoginResult,
  CurrentSession as CurrentSessionSchema,
  Me as MeSchema,
  RegisterBody,
  User as UserSchema,
  AdminUpdateUserBody,
} from '@skill-registry/api-schemas/accounts';
import type { ListEnvelope, Problem as ProblemSchema } from '@skill-registry/api-schemas/common';
import type {
  CreateWebhookBody,
  Delivery as DeliverySchema,
  UpdateWebhookBody,
  Webhook as WebhookSchema,
} from '@skill-registry/api-schemas/webhooks';
import type {
  Notification as NotificationSchema,
  NotificationList as NotificationListSchema,
} from '@skill-registry/api-schemas/notifications';
import type { Feedback as FeedbackSchema, FeedbackBody, FeedbackList as FeedbackListSchema } from '@skill-registry/api-schemas/feedback';
import type { CallLog as CallLogSchema, LogsQuery as LogsQuerySchema } from '@skill-registry/api-schemas/logs';
import type {
  CreateOrgBody,
  Invitation as InvitationSchema,
  InviteBody,
  Member as MemberSchema,
  OfferTransferBody,
  OrgHistoryEntry as OrgHistoryEntrySchema,
  OrgRole as OrgRoleSchema,
  Organisation as OrganisationSchema,
  SkillAlias as SkillAliasSchema,
  Transfer as TransferSchema,
  UpdateOrgBody,
} from '@skill-registry/api-schemas/orgs';
import type {
  Report as ReportSchema,
  ReportBody,
  ReportFiled as ReportFiledSchema,
  ReportQueue as ReportQueueSchema,
  ReportReason as ReportReasonType,
  ReportResolution as ReportResolutionType,
  ReportState as ReportStateType,
  ReportsResolved as ReportsResolvedSchema,
  ResolveReportsBody,
} from '@skill-registry/api-schemas/reports';
import type {
  DeclineBody,
  ReviewQueueItem as ReviewQueueItemSchema,
  ReviewQueueQuery,
  ReviewState as ReviewStateType,
} from '@skill-registry/api-schemas/review';
import type {
  PackageScan as PackageScanSchema,
  RescanBody,
  ScanFinding as ScanFindingSchema,
  ScanJob as ScanJobSchema,
  ScanReport as ScanReportSchema,
  SeverityCounts as SeverityCountsSchema,
  Verdict as VerdictSchema,
} from '@skill-registry/api-schemas/scans';
import type {
  CreateSkillBody,
  FeaturedBody,
  ListSkillsQuery,
  Skill as SkillSchema,
  SkillListItem as SkillListItemSchema,
  SkillNameHistory as SkillNameHistorySchema,
  SkillStatus as SkillStatusSchema,
  SourceType as SourceTypeSchema,
  StatusBody,
  UpdateSkillBody,
} from '@skill-registry/api-schemas/skills';
import type {
  FileList as FileListSchema,
  Stats as StatsSchema,
  Validation as ValidationSchema,
  Version as VersionSchema,
} from '@skill-registry/api-schemas/versions';

/** A list envelope (`items`, `page`, `page_size`, `total`) holding items of type T. */
export type Page<T> = Omit<Static<ReturnType<typeof ListEnvelope<typeof SkillSchema>>>, 'items'> & { items: T[] };

export type Problem = Static<typeof ProblemSchema>;
export type FieldProblem = NonNullable<Problem['errors']>[number];

export type User = Static<typeof UserSchema>;
export type Me = Omit<Static<typeof MeSchema>, 'user'> & { user: User };
export type CurrentSession = Omit<Static<typeof CurrentSessionSchema>, 'user'> & { user: User | null };
export type LoginInput = Static<typeof LoginBody>;
export type LoginResponse = Omit<Static<typeof LoginResult>, 'user'> & { user: User };
export type RegisterInput = Static<typeof RegisterBody>;
export type UserChange = Static<typeof AdminUpdateUserBody>;

export type ApiKey = Static<typeof ApiKeySchema>;
export type ApiKeyCreated = Static<typeof ApiKeyCreatedSchema>;
export type ApiKeyInput = Static<typeof CreateApiKeyBody>;

export type Skill = Static<typeof SkillSchema>;
/** A skill's earlier display names, newest first. */
export type SkillNameHistory = Static<typeof SkillNameHistorySchema>;
/** A skill in a list; a search result also says where the words matched. */
export type SkillResult = Static<typeof SkillListItemSchema>;
export type Highlights = NonNullable<SkillResult['highlights']>;
/** A page of skills; a search also says whether every word matched (`full`) or only some (`partial`). */
export type SkillPage = Page<SkillResult> & { match?: 'full' | 'partial' };
export type SkillStatus = Static<typeof SkillStatusSchema>;
export type SourceType = Static<typeof SourceTypeSchema>;
export type SkillQuery = Static<typeof ListSkillsQuery>;
export type SkillSort = NonNullable<SkillQuery['sort']>;
export type CreateSkillInput = Static<typeof CreateSkillBody>;
export type UpdateSkillInput = Static<typeof UpdateSkillBody>;
export type StatusChange = Static<typeof StatusBody>;
export type FeaturedChange = Static<typeof FeaturedBody>;

export type Version = Static<typeof VersionSchema>;
/** What every version says of its scan; null for a version never scanned. */
export type ScanSummary = NonNullable<Version['scan']>;
export type Verdict = Static<typeof VerdictSchema>;
export type SeverityCounts = Static<typeof SeverityCountsSchema>;
export type Severity = keyof SeverityCounts;
export type ScanFinding = Static<typeof ScanFindingSchema>;
/** The findings of a package: a validation's report (a version's stored report adds its time and explanation). */
export type PackageScan = NonNullable<Static<typeof PackageScanSchema>>;
export type ScanReport = Static<typeof ScanReportSchema>;
export type RescanInput = Static<typeof RescanBody>;
export type ScanJob = Static<typeof ScanJobSchema>;
export type FileList = Static<typeof FileListSchema>;
export type FileEntry = FileList['items'][number];
export type Stats = Static<typeof StatsSchema>;
export type Validation = Static<typeof ValidationSchema>;

export type Feedback = Static<typeof FeedbackSchema>;
export type FeedbackInput = Static<typeof FeedbackBody>;
export type FeedbackPage = Omit<Static<typeof FeedbackListSchema>, 'items'> & { items: Feedback[] };

export type ReportReason = ReportReasonType;
export type ReportResolution = ReportResolutionType;
export type ReportState = ReportStateType;
export type ReportInput = Static<typeof ReportBody>;
export type ReportFiled = Static<typeof ReportFiledSchema>;
export type Report = Static<typeof ReportSchema>;
export type ReportPage = Page<Report>;
export type ReportQueue = Static<typeof ReportQueueSchema>;
export type ReportQueueItem = ReportQueue['items'][number];
export type ResolveReportsInput = Static<typeof ResolveReportsBody>;

export type ReviewState = ReviewStateType;
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>;
/** A draft in the review queue: the skill, the version uploaded last with its scan, and since when it waits. */
export type ReviewQueueItem = Omit<Static<typeof ReviewQueueItemSchema>, 'skill'> & { skill: Skill };
export type ReviewQueue = Page<ReviewQueueItem>;
export type DeclineInput = Static<typeof DeclineBody>;
export type ReportsResolved = Static<typeof ReportsResolvedSchema>;

export type CallLog = Static<typeof CallLogSchema>;
export type LogsQuery = Static<typeof LogsQuerySchema>;

/** With `with-package`: the skill and its first version. */
export interface SkillWithVersion {
  skill: Skill;
  version: Version;
}

export type Organisation = Static<typeof OrganisationSchema>;
export type OrgRole = Static<typeof OrgRoleSchema>;
export type Member = Static<typeof MemberSchema>;
export type Invitation = Static<typeof InvitationSchema>;
export type OrgHistoryEntry = Static<typeof OrgHistoryEntrySchema>;
export type CreateOrgInput = Static<typeof CreateOrgBody>;
export type UpdateOrgInput = Static<typeof UpdateOrgBody>;
export type InviteInput = Static<typeof InviteBody>;
/** An open offer of a skill to another user or organisation. */
export type Transfer = Static<typeof TransferSchema>;
export type OfferTransferInput = Static<typeof OfferTransferBody>;
/** A name the skill had before it moved or was renamed; it still leads to the skill. */
export type SkillAlias = Static<typeof SkillAliasSchema>;
/** Who owns a skill: a user or an organisation. */
export type SkillOwner = Skill['owner'];

/** A webhook subscription; `secret` only in the answer that made it. */
export type Webhook = Static<typeof WebhookSchema>;
export type WebhookInput = Static<typeof CreateWebhookBody>;
export type WebhookChange = Static<typeof UpdateWebhookBody>;
/** One event sent to a webhook, with every attempt. */
export type Delivery = Static<typeof DeliverySchema>;
/** Something the registry tells the signed-in user (a webhook it disabled). */
export type Notification = Static<typeof NotificationSchema>;
export type NotificationPage = Static<typeof NotificationListSchema>;
