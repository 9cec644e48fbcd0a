/**
 * The request and response types of the registry API, derived from the TypeBox schemas the registry validates and
 * serialises with (@skill-registry/api-schemas). Only types are imported: the client carries no schema code.
 */
import type { Static, TObject, TSchema } from 'typebox';
import type * as accounts from '@skill-registry/api-schemas/accounts';
import type * as common from '@skill-registry/api-schemas/common';
import type * as feedback from '@skill-registry/api-schemas/feedback';
import type * as logs from '@skill-registry/api-schemas/logs';
import type * as names from '@skill-registry/api-schemas/names';
import type * as orgs from '@skill-registry/api-schemas/orgs';
import type * as reports from '@skill-registry/api-schemas/reports';
import type * as review from '@skill-registry/api-schemas/review';
import type * as scans from '@skill-registry/api-schemas/scans';
import type * as skills from '@skill-registry/api-schemas/skills';
import type * as versions from '@skill-registry/api-schemas/versions';

/** The named schemas that `Type.Ref(...)` points at, so that references resolve to their shapes. */
// A type alias, not an interface: TypeBox's Static takes the references as an object type with an index signature.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
type Refs = {
  User: typeof accounts.User;
  ApiKey: typeof accounts.ApiKey;
  Skill: typeof skills.Skill;
  Version: typeof versions.Version;
  Feedback: typeof feedback.Feedback;
  CallLog: typeof logs.CallLog;
  Problem: typeof common.Problem;
  ScanReport: typeof scans.ScanReport;
  Report: typeof reports.Report;
  Organisation: typeof orgs.Organisation;
};

/** The JSON a schema describes, with references resolved. */
export type Wire<T extends TSchema> = Static<T, Refs>;

/** The list envelope every list endpoint answers with. */
export type Page<Item extends TSchema> = Wire<ReturnType<typeof common.ListEnvelope<Item>>>;
/** `page` and `page_size`, accepted by every list endpoint. */
export type PageParams = Wire<TObject<typeof common.PageQuery>>;

// Records
export type Problem = Wire<typeof common.Problem>;
export type ProblemFieldError = NonNullable<Problem['errors']>[number];
export type User = Wire<typeof accounts.User>;
export type Role = Wire<typeof accounts.Role>;
export type Scope = Wire<typeof accounts.ScopeName>;
export type Me = Wire<typeof accounts.Me>;
export type LoginResult = Wire<typeof accounts.LoginResult>;
export type ApiKey = Wire<typeof accounts.ApiKey>;
export type ApiKeyCreated = Wire<typeof accounts.ApiKeyCreated>;
export type Skill = Wire<typeof skills.Skill>;
/** `GET /v1/skills/:skillId/names`: the skill's earlier display names, newest first. */
export type SkillNameHistory = Wire<typeof skills.SkillNameHistory>;
export type SkillStatus = Wire<typeof skills.SkillStatus>;
export type SourceType = Wire<typeof skills.SourceType>;
export type Version = Wire<typeof versions.Version>;
export type FileList = Wire<typeof versions.FileList>;
export type PackageValidation = Wire<typeof versions.Validation>;
/** What a version record says of its scan: verdict, rules version and counts by severity; null when never scanned. */
export type ScanSummary = Wire<typeof scans.ScanSummary>;
export type ScanVerdict = Wire<typeof scans.Verdict>;
export type SeverityCounts = Wire<typeof scans.SeverityCounts>;
export type ScanFinding = Wire<typeof scans.ScanFinding>;
/** `GET /v1/skills/:skillId/versions/:version/scan`: the full report, every finding listed. */
export type ScanReport = Wire<typeof scans.ScanReport>;
/** A rescan of every stored version (`/v1/admin/scans`), with its progress. */
export type ScanJob = Wire<typeof scans.ScanJob>;
export type Report = Wire<typeof reports.Report>;
/** `POST /v1/skills/:skillId/reports`: the report filed, and whether the skill is now hidden pending review. */
export type ReportFiled = Wire<typeof reports.ReportFiled>;
/** `POST /v1/admin/skills/:skillId/reports/resolve`: how many reports were resolved, and the skill as it now is. */
export type ReportsResolved = Wire<typeof reports.ReportsResolved>;
export type Stats = Wire<typeof versions.Stats>;
export type Feedback = Wire<typeof feedback.Feedback>;
export type FeedbackList = Wire<typeof feedback.FeedbackList>;
export type CallLog = Wire<typeof logs.CallLog>;
/** An organisation: its handle names the scope of its skills (`@handle/slug`); `role` is the caller's, or null. */
export type Organisation = Wire<typeof orgs.Organisation>;
/** owner, admin or publisher. */
export type OrgRole = Wire<typeof orgs.OrgRole>;
export type Member = Wire<typeof orgs.Member>;
export type Invitation = Wire<typeof orgs.Invitation>;
/** One change of an organisation's members, roles or invitations. */
export type OrgHistoryEntry = Wire<typeof orgs.OrgHistoryEntry>;
export type Transfer = Wire<typeof orgs.Transfer>;
export type SkillAlias = Wire<typeof orgs.SkillAlias>;
export type OfferTransferBody = Wire<typeof orgs.OfferTransferBody>;

// Lists
/** With `q`, `match` says whether every word matched (`full`) or the best partial matches are listed (`partial`). */
export type SkillList = Page<typeof skills.SkillRef> & { match?: 'full' | 'partial' };
export type VersionList = Page<typeof versions.VersionRef>;
export type UserList = Page<typeof accounts.UserRef>;
export type CallLogList = Page<typeof logs.CallLogRef>;
/** `GET /v1/admin/scans`: rescan jobs, the latest started first. */
export type ScanJobList = Page<typeof scans.ScanJob>;
/** `GET /v1/admin/reports`: reported skills, most distinct reporters first. */
export type ReportQueue = Wire<typeof reports.ReportQueue>;
/** `GET /v1/admin/review-queue`: drafts with the version uploaded last and its scan, riskiest first. */
export type ReviewQueue = Wire<typeof review.ReviewQueue>;
export type ReviewQueueItem = Wire<typeof review.ReviewQueueItem>;
/** `GET /v1/admin/skills/:skillId/reports`: one skill's reports, newest first. */
export type ReportList = Wire<typeof reports.ReportList>;
/** `GET /v1/me/api-keys` is not paged: every live key in one list. */
export interface ApiKeyList {
  items: ApiKey[];
}
/** `GET /v1/me/orgs`: not paged. */
export interface OrganisationList {
  items: Organisation[];
}
/** `GET /v1/orgs/:handle/members`: every member, not paged. */
export interface MemberList {
  items: Member[];
}
/** `GET /v1/orgs/:handle/invitations` and `GET /v1/me/invitations`: open invitations, newest first, not paged. */
export interface InvitationList {
  items: Invitation[];
}
/** `GET /v1/orgs/:handle/history`: the latest 200 changes, newest first. */
export interface OrgHistory {
  items: OrgHistoryEntry[];
}
/** `GET /v1/me/transfers` and `GET /v1/skills/:skillId/transfer`: open offers, newest first, not paged. */
export interface TransferList {
  items: Transfer[];
}
/** `GET /v1/skills/:skillId/aliases`: the names a skill had, newest first. */
export interface SkillAliasList {
  items: SkillAlias[];
}
/** `POST /v1/skills/with-package`: the new draft skill and its first version. */
export interface SkillWithVersion {
  skill: Skill;
  version: Version;
}

// Requests
export type ListSkillsQuery = Wire<typeof skills.ListSkillsQuery>;
export type CreateSkillBody = Wire<typeof skills.CreateSkillBody>;
export type UpdateSkillBody = Wire<typeof skills.UpdateSkillBody>;
export type StatusBody = Wire<typeof skills.StatusBody>;
export type FeaturedBody = Wire<typeof skills.FeaturedBody>;
export type RegisterBody = Wire<typeof accounts.RegisterBody>;
export type LoginBody = Wire<typeof accounts.LoginBody>;
export type CreateApiKeyBody = Wire<typeof accounts.CreateApiKeyBody>;
export type AdminCreateUserBody = Wire<typeof accounts.AdminCreateUserBody>;
export type AdminUpdateUserBody = Wire<typeof accounts.AdminUpdateUserBody>;
export type AdminListUsersQuery = PageParams & { q?: string; role?: Role; disabled?: boolean };
export type FeedbackBody = Wire<typeof feedback.FeedbackBody>;
export type CreateOrgBody = Wire<typeof orgs.CreateOrgBody>;
export type UpdateOrgBody = Wire<typeof orgs.UpdateOrgBody>;
export type InviteBody = Wire<typeof orgs.InviteBody>;
export type SetRoleBody = Wire<typeof orgs.SetRoleBody>;
export type FeedbackQuery = Wire<typeof feedback.FeedbackQuery>;
export type ReportBody = Wire<typeof reports.ReportBody>;
export type ReportQueueQuery = Wire<typeof reports.ReportQueueQuery>;
export type SkillReportsQuery = Wire<typeof reports.SkillReportsQuery>;
export type ResolveReportsBody = Wire<typeof reports.ResolveReportsBody>;
export type ReviewQueueQuery = Wire<typeof review.ReviewQueueQuery>;
export type DeclineBody = Wire<typeof review.DeclineBody>;
/** `POST /v1/admin/name-allowances`: a slug or handle to allow past the look-alike rules, and why. */
export type NameAllowanceBody = Wire<typeof names.NameAllowanceBody>;
export type NameAllowance = Wire<typeof names.NameAllowance>;
/** `GET /v1/admin/name-allowances`: allowed names, the newest first. */
export type NameAllowanceList = Page<typeof names.NameAllowance>;
export type RescanBody = Wire<typeof scans.RescanBody>;
export type LogsQuery = Wire<typeof logs.LogsQuery>;
export type StatsQuery = Wire<typeof versions.StatsQuery>;
export type VersionListQuery = Wire<typeof versions.VersionListQuery>;
/** The text fields of a version upload (the package itself is passed separately). */
export type UploadFields = Wire<typeof versions.UploadFields>;
/**
 * The text fields of `POST /v1/skills/with-package`. `tags` is a list here; the client sends it as the JSON-array
 * text the endpoint expects.
 */
export type WithPackageFields = Omit<Wire<typeof versions.WithPackageFields>, 'tags'> & {
  tags?: Wire<typeof versions.WithPackageJson.tags>;
};
