/**
 * Every API call the console makes, one typed function each. Paths and shapes follow the OpenAPI document
 * at /v1/openapi.json; the types come from the server's schemas (./types).
 */
import { fetchText, request, upload, type UploadProgress } from './client';
import type {
  ApiKey,
  ApiKeyCreated,
  ApiKeyInput,
  CallLog,
  CreateOrgInput,
  CreateSkillInput,
  DeclineInput,
  CurrentSession,
  Feedback,
  FeedbackInput,
  FeedbackPage,
  FileList,
  Invitation,
  InviteInput,
  LoginInput,
  LoginResponse,
  LogsQuery,
  Member,
  OfferTransferInput,
  Organisation,
  OrgHistoryEntry,
  OrgRole,
  Page,
  RegisterInput,
  ReportFiled,
  ReportInput,
  ReportPage,
  ReportQueue,
  ReportState,
  ReportsResolved,
  RescanInput,
  ResolveReportsInput,
  ReviewQueue,
  ReviewQueueQuery,
  ScanJob,
  ScanReport,
  Skill,
  SkillAlias,
  SkillNameHistory,
  SkillPage,
  SkillQuery,
  SkillStatus,
  SkillWithVersion,
  Stats,
  Transfer,
  UpdateOrgInput,
  UpdateSkillInput,
  User,
  UserChange,
  Validation,
  Version,
  Webhook,
  WebhookChange,
  WebhookInput,
  Delivery,
  NotificationPage,
  Notification,
} from './types';

const enc = encodeURIComponent;
const skillPath = (skill: string) => `/v1/skills/${enc(skill)}`;
const versionPath = (skill: string, version: string) => `${skillPath(skill)}/versions/${enc(version)}`;
/** Package paths keep their slashes: the route takes the rest of the URL as the path. */
const filePath = (path: string) => path.split('/').map(enc).join('/');

export type AdminSkillStatus = SkillStatus | 'all';

export const auth = {
  /** Who is signed in; 200 for a visitor too (user null), so an anonymous page load logs no failed request. */
  session: (signal?: AbortSignal) => request<CurrentSession>('GET', '/v1/auth/session', { signal }),
  login: (body: LoginInput) => request<LoginResponse>('POST', '/v1/auth/login', { body }),
  register: (body: RegisterInput) => request<User>('POST', '/v1/auth/register', { body }),
  logout: () => request<undefined>('POST', '/v1/auth/logout'),
};

export const skills = {
  list: (query: SkillQuery, signal?: AbortSignal) => request<SkillPage>('GET', '/v1/skills', { query, signal }),
  /** Admin session only: `status` is honoured (draft, published, deprecated, all). */
  listByStatus: (status: AdminSkillStatus, query: SkillQuery, signal?: AbortSignal) =>
    request<Page<Skill>>('GET', '/v1/skills', { query: { ...query, status }, signal }),
  mine: (query: SkillQuery & { status?: AdminSkillStatus }, signal?: AbortSignal) =>
    request<Page<Skill>>('GET', '/v1/me/skills', { query, signal }),
  get: (skill: string, signal?: AbortSignal) => request<Skill>('GET', skillPath(skill), { signal }),
  names: (skill: string, signal?: AbortSignal) => request<SkillNameHistory>('GET', `${skillPath(skill)}/names`, { signal }),
  create: (body: CreateSkillInput) => request<Skill>('POST', '/v1/skills', { body }),
  update: (skill: string, body: UpdateSkillInput) => request<Skill>('PATCH', skillPath(skill), { body }),
  remove: (skill: string) => request<undefined>('DELETE', skillPath(skill)),
  stats: (skill: string, days: number, signal?: AbortSignal) =>
    request<Stats>('GET', `${skillPath(skill)}/stats`, { query: { days }, signal }),
  /** A new slug in the same scope; the old name keeps leading to the skill. */
  rename: (skill: string, slug: string) => request<Skill>('POST', `${skillPath(skill)}/rename`, { body: { slug } }),
  aliases: (skill: string, signal?: AbortSignal) => request<{ items: SkillAlias[] }>('GET', `${skillPath(skill)}/aliases`, { signal }),
};

const orgPath = (handle: string) => `/v1/orgs/${enc(handle)}`;

export const orgs = {
  create: (body: CreateOrgInput) => request<Organisation>('POST', '/v1/orgs', { body }),
  get: (handle: string, signal?: AbortSignal) => request<Organisation>('GET', orgPath(handle), { signal }),
  update: (handle: string, body: UpdateOrgInput) => request<Organisation>('PATCH', orgPath(handle), { body }),
  remove: (handle: string) => request<undefined>('DELETE', orgPath(handle)),
  /** Published skills; to members every state and the private ones too. */
  skills: (handle: string, query: SkillQuery & { status?: AdminSkillStatus }, signal?: AbortSignal) =>
    request<SkillPage>('GET', `${orgPath(handle)}/skills`, { query, signal }),
  members: (handle: string, signal?: AbortSignal) => request<{ items: Member[] }>('GET', `${orgPath(handle)}/members`, { signal }),
  setRole: (handle: string, username: string, role: OrgRole) =>
    request<Member>('PATCH', `${orgPath(handle)}/members/${enc(username)}`, { body: { role } }),
  /** Removes a member; a member's own username is leaving. */
  removeMember: (handle: string, username: string) => request<undefined>('DELETE', `${orgPath(handle)}/members/${enc(username)}`),
  invitations: (handle: string, signal?: AbortSignal) =>
    request<{ items: Invitation[] }>('GET', `${orgPath(handle)}/invitations`, { signal }),
  invite: (handle: string, body: InviteInput) => request<Invitation>('POST', `${orgPath(handle)}/invitations`, { body }),
  withdraw: (handle: string, id: string) => request<undefined>('DELETE', `${orgPath(handle)}/invitations/${enc(id)}`),
  history: (handle: string, signal?: AbortSignal) => request<{ items: OrgHistoryEntry[] }>('GET', `${orgPath(handle)}/history`, { signal }),
  mine: (signal?: AbortSignal) => request<{ items: Organisation[] }>('GET', '/v1/me/orgs', { signal }),
  myInvitations: (signal?: AbortSignal) => request<{ items: Invitation[] }>('GET', '/v1/me/invitations', { signal }),
  accept: (id: string) => request<Organisation>('POST', `/v1/me/invitations/${enc(id)}/accept`),
  decline: (id: string) => request<undefined>('POST', `/v1/me/invitations/${enc(id)}/decline`),
};

export const transfers = {
  offer: (skill: string, body: OfferTransferInput) => request<Transfer>('POST', `${skillPath(skill)}/transfer`, { body }),
  /** The skill's open offer, if any (a list of at most one). */
  ofSkill: (skill: string, signal?: AbortSignal) => request<{ items: Transfer[] }>('GET', `${skillPath(skill)}/transfer`, { signal }),
  /** Offers to the caller, or to organisations the caller owns or administers. */
  received: (signal?: AbortSignal) => request<{ items: Transfer[] }>('GET', '/v1/me/transfers', { signal }),
  accept: (id: string) => request<undefined>('POST', `/v1/transfers/${enc(id)}/accept`),
  decline: (id: string) => request<undefined>('POST', `/v1/transfers/${enc(id)}/decline`),
  withdraw: (id: string) => request<undefined>('DELETE', `/v1/transfers/${enc(id)}`),
};

export const versions = {
  list: (skill: string, page: number, signal?: AbortSignal) =>
    request<Page<Version>>('GET', `${skillPath(skill)}/versions`, { query: { page, page_size: 100 }, signal }),
  files: (skill: string, version: string, signal?: AbortSignal) =>
    request<FileList>('GET', `${versionPath(skill, version)}/files`, { signal }),
  fileUrl: (skill: string, version: string, path: string) => `${versionPath(skill, version)}/files/${filePath(path)}`,
  fileText: (skill: string, version: string, path: string, signal?: AbortSignal) =>
    fetchText(`${versionPath(skill, version)}/files/${filePath(path)}`, signal),
  downloadUrl: (skill: string, version: string) => `${versionPath(skill, version)}/download`,
  /** The scanner's full report on a version (findings, URLs, the owner's explanation). */
  scan: (skill: string, version: string, signal?: AbortSignal) =>
    request<ScanReport>('GET', `${versionPath(skill, version)}/scan`, { signal }),
  /** Owner or admin: scan the stored package again with the current rules, keeping or replacing the explanation. */
  rescan: (skill: string, version: string, body: RescanInput) =>
    request<ScanReport>('POST', `${versionPath(skill, version)}/scan`, { body }),
  upload: (skill: string, form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) =>
    upload<Version>(`${skillPath(skill)}/versions`, form, onProgress, signal),
  createWithPackage: (form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) =>
    upload<SkillWithVersion>('/v1/skills/with-package', form, onProgress, signal),
  validate: (form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal) =>
    upload<Validation>('/v1/packages/validate', form, onProgress, signal),
};

export const feedback = {
  submit: (body: FeedbackInput) => request<Feedback>('POST', '/v1/feedback', { body }),
  list: (skill: string, query: { page?: number; page_size?: number; rating?: number; version?: string }, signal?: AbortSignal) =>
    request<FeedbackPage>('GET', `${skillPath(skill)}/feedback`, { query, signal }),
};

export const reports = {
  file: (skill: string, body: ReportInput) => request<ReportFiled>('POST', `${skillPath(skill)}/reports`, { body }),
};

export const apiKeys = {
  list: (signal?: AbortSignal) => request<{ items: ApiKey[] }>('GET', '/v1/me/api-keys', { signal }),
  create: (body: ApiKeyInput) => request<ApiKeyCreated>('POST', '/v1/me/api-keys', { body }),
  revoke: (id: string) => request<undefined>('DELETE', `/v1/me/api-keys/${enc(id)}`),
};

export const webhooks = {
  list: (signal?: AbortSignal) => request<{ items: Webhook[] }>('GET', '/v1/webhooks', { signal }),
  /** The answer carries the signing secret, this once. */
  create: (body: WebhookInput) => request<Webhook>('POST', '/v1/webhooks', { body }),
  update: (id: string, body: WebhookChange) => request<Webhook>('PATCH', `/v1/webhooks/${enc(id)}`, { body }),
  remove: (id: string) => request<undefined>('DELETE', `/v1/webhooks/${enc(id)}`),
  deliveries: (id: string, signal?: AbortSignal) => request<{ items: Delivery[] }>('GET', `/v1/webhooks/${enc(id)}/deliveries`, { signal }),
  redeliver: (id: string, deliveryId: string) =>
    request<Delivery>('POST', `/v1/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/redeliver`),
  test: (id: string) => request<Delivery>('POST', `/v1/webhooks/${enc(id)}/test`),
};

export const notifications = {
  list: (query: { page?: number; page_size?: number }, signal?: AbortSignal) =>
    request<NotificationPage>('GET', '/v1/me/notifications', { query, signal }),
  read: (id: string) => request<Notification>('POST', `/v1/me/notifications/${enc(id)}/read`),
  readAll: () => request<{ marked: number }>('POST', '/v1/me/notifications/read'),
};

export const logs = {
  list: (query: LogsQuery, signal?: AbortSignal) => request<Page<CallLog>>('GET', '/v1/logs', { query, signal }),
  get: (requestId: string, signal?: AbortSignal) => request<CallLog>('GET', `/v1/logs/${enc(requestId)}`, { signal }),
};

export const admin = {
  users: (query: { q?: string; role?: 'user' | 'admin'; disabled?: boolean; page?: number; page_size?: number }, signal?: AbortSignal) =>
    request<Page<User>>('GET', '/v1/admin/users', { query, signal }),
  updateUser: (id: string, body: UserChange) => request<User>('PATCH', `/v1/admin/users/${enc(id)}`, { body }),
  /** `overrideQuarantine` publishes a skill whose every version is quarantined; the registry then requires a reason. */
  setStatus: (skill: string, status: SkillStatus, reason?: string, overrideQuarantine?: boolean) =>
    request<Skill>('PATCH', `/v1/admin/skills/${enc(skill)}/status`, {
      body: { status, reason, ...(overrideQuarantine ? { override_quarantine: true } : {}) },
    }),
  /** Drafts waiting for review (or declined, `changes_requested`), riskiest first. */
  reviewQueue: (query: ReviewQueueQuery, signal?: AbortSignal) => request<ReviewQueue>('GET', '/v1/admin/review-queue', { query, signal }),
  /** Declines a draft with a reason its owner reads; it waits again once they upload a version. */
  decline: (skill: string, body: DeclineInput) => request<Skill>('POST', `/v1/admin/skills/${enc(skill)}/decline`, { body }),
  setFeatured: (skill: string, featured: boolean, reason?: string) =>
    request<Skill>('PATCH', `/v1/admin/skills/${enc(skill)}`, { body: { featured, reason } }),
  reportQueue: (query: { state?: ReportState; page?: number; page_size?: number }, signal?: AbortSignal) =>
    request<ReportQueue>('GET', '/v1/admin/reports', { query, signal }),
  skillReports: (skill: string, query: { state?: ReportState; page?: number; page_size?: number }, signal?: AbortSignal) =>
    request<ReportPage>('GET', `/v1/admin/skills/${enc(skill)}/reports`, { query, signal }),
  resolveReports: (skill: string, body: ResolveReportsInput) =>
    request<ReportsResolved>('POST', `/v1/admin/skills/${enc(skill)}/reports/resolve`, { body }),
  /** Starts rescanning every stored version with the current rules (one job at a time). */
  startRescan: () => request<ScanJob>('POST', '/v1/admin/scans'),
  rescanJob: (id: string, signal?: AbortSignal) => request<ScanJob>('GET', `/v1/admin/scans/${enc(id)}`, { signal }),
  rescanJobs: (query: { page?: number; page_size?: number }, signal?: AbortSignal) =>
    request<Page<ScanJob>>('GET', '/v1/admin/scans', { query, signal }),
};
