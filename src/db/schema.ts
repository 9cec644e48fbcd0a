import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ArchiveFormat } from '@skill-registry/skill-package/format';

/**
 * Timestamps are bound as ISO 8601 strings on both databases; PostgreSQL hands back `Date` objects
 * (timestamptz) and SQLite the stored text, so reads go through `toIso` before leaving the data layer.
 */
export type Timestamp = ColumnType<Date | string, string, string>;
/** Booleans are 0/1 integers on both databases so that one body of query code binds them the same way. */
export type Flag = ColumnType<number, number, number>;

export type Role = 'user' | 'admin';
export type SkillStatus = 'draft' | 'published' | 'deprecated';
export type SourceType = 'original' | 'github' | 'external';

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  disabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON array of scope names. */
  scopes: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface SkillsTable {
  /** Integer row key: the rowid on SQLite, an identity column on PostgreSQL. Other tables refer to skills by `id`. */
  seq: Generated<number>;
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string | null;
  /** JSON array of tags, denormalised from skill_tags so a list page needs no second query. */
  tags: string;
  status: SkillStatus;
  featured: Flag;
  source_type: SourceType | null;
  source_url: string | null;
  owner_id: string;
  latest_version: string | null;
  downloads: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  published_at: Timestamp | null;
  /** 1 while the skill has versions and every one of them is scanned malicious (migration 0007). */
  quarantined: ColumnType<number, number | undefined, number>;
  /** Set while enough users' open reports hide the skill pending review (migration 0008); null otherwise. */
  hidden_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** When a reviewer last declined the draft, and why (migration 0009); null while nothing is asked of its owner. */
  declined_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  decline_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The handle of the user or organisation whose scope names the skill (`@scope/slug`); null when unscoped (migration 0014). */
  scope: ColumnType<string | null, string | null | undefined, string | null>;
  /** The organisation that owns the skill; null when its user (owner_id) does (migration 0014). */
  org_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when only the owning organisation's members see the skill (migration 0014). */
  private: ColumnType<number, number | undefined, number>;
}

export type OrgRole = 'owner' | 'admin' | 'publisher';

export interface SkillTransfersTable {
  id: string;
  skill_id: string;
  to_user_id: string | null;
  to_org_id: string | null;
  /** The slug the skill takes on arrival; null: it keeps its own. */
  new_slug: string | null;
  offered_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SkillAliasesTable {
  /** A whole name the skill had (`pdf-tools`, `@acme/pdf-tools`). */
  name: string;
  skill_id: string;
  created_at: Timestamp;
}

export interface OrganisationsTable {
  id: string;
  handle: string;
  display_name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrgMembersTable {
  org_id: string;
  user_id: string;
  role: OrgRole;
  created_at: Timestamp;
}

export interface OrgInvitationsTable {
  id: string;
  org_id: string;
  user_id: string;
  role: OrgRole;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SkillTagsTable {
  skill_id: string;
  tag: string;
}

export interface AdminAuditTable {
  id: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  from_value: string | null;
  to_value: string | null;
  reason: string | null;
  created_at: Timestamp;
}

/** A name an administrator allowed past the look-alike rules, and why (migration 0013). */
export interface NameAllowancesTable {
  name: string;
  reason: string;
  granted_by: string | null;
  created_at: Timestamp;
}

export interface VersionsTable {
  id: string;
  skill_id: string;
  version: string;
  changelog: string | null;
  /** JSON object, or null. */
  metadata: string | null;
  size: number;
  sha256: string;
  archive_format: ArchiveFormat;
  file_count: number;
  total_size: number;
  downloads: ColumnType<number, number | undefined, number>;
  /** JSON of SKILL.md's front matter, or null without SKILL.md. */
  skill_md: string | null;
  skill_md_path: string | null;
  /** JSON array of {code, message}. */
  warnings: string;
  uploader_id: string | null;
  created_at: Timestamp;
}

export type ScanVerdict = 'clean' | 'notice' | 'suspicious' | 'malicious';

/** What the package scanner reported for one version (migration 0007). */
export interface VersionScansTable {
  version_id: string;
  rules_version: string;
  verdict: ScanVerdict;
  /** Findings counted by severity. */
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
  /** JSON array of findings, most severe first. */
  findings: string;
  /** JSON array of URLs. */
  urls: string;
  /** JSON array of host names. */
  domains: string;
  scanned_at: Timestamp;
  /** What the owner tells the reviewer about the findings. */
  explanation: string | null;
  explained_at: Timestamp | null;
}

export type ScanJobState = 'running' | 'finished';
export type ScanItemState = 'pending' | 'done' | 'failed';

/** A rescan of every version, worked through by every node (migration 0007). */
export interface ScanJobsTable {
  id: string;
  rules_version: string;
  state: ScanJobState;
  total: number;
  requested_by: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
}

/** One version a rescan job has to scan, by a queued job of the job runner (migration 0012). */
export interface ScanJobItemsTable {
  job_id: string;
  version_id: string;
  state: ScanItemState;
  error: string | null;
}

/** A named lease of the job runner: who holds it, and until when (migration 0011). */
export interface JobLeasesTable {
  name: string;
  owner: string;
  expires_at: Timestamp;
}

/** A one-off job with its payload (JSON), waiting for `run_at`, or failed for good after its last attempt. */
export interface QueuedJobsTable {
  id: string;
  kind: string;
  payload: string;
  state: 'queued' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  run_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
}

export interface VersionFilesTable {
  version_id: string;
  path: string;
  size: number;
  /** 1 when the archive marks the file executable (migration 0010). */
  executable: Flag;
}

export interface DownloadCountsTable {
  version_id: string;
  skill_id: string;
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
  downloads: number;
}

/** Written by triggers on every change to a skill row (migration 0006); read by each node's search index. */
export interface SkillChangesTable {
  /** bigserial on PostgreSQL, which the driver returns as a string. */
  seq: ColumnType<number | string, never, never>;
  skill_id: string;
}

export interface FeedbackTable {
  id: string;
  skill_id: string;
  version: string | null;
  rating: number | null;
  comment: string | null;
  author_id: string | null;
  created_at: Timestamp;
}

export type ReportReason = 'malware' | 'security' | 'spam' | 'impersonation' | 'inappropriate' | 'copyright' | 'broken' | 'other';
export type ReportState = 'open' | 'resolved';
export type ReportResolution = 'dismissed' | 'actioned';

export interface SkillReportsTable {
  id: string;
  skill_id: string;
  reporter_id: string;
  reason: ReportReason;
  details: string | null;
  state: ReportState;
  created_at: Timestamp;
  resolution: ReportResolution | null;
  resolution_note: string | null;
  resolved_by: string | null;
  resolved_at: Timestamp | null;
}

export interface CallLogsTable {
  request_id: string;
  user_id: string;
  method: string;
  /** The path with its query string, as requested. */
  path: string;
  /** The route pattern, e.g. /v1/skills/:skillId; null for a path no route matched. */
  route: string | null;
  status_code: number;
  duration_ms: number;
  ip: string | null;
  user_agent: string | null;
  auth: 'session' | 'api_key';
  api_key_id: string | null;
  created_at: Timestamp;
}

/** A `clawhub login` waiting for, or given, a signed-in user's approval (migration 0016). */
export interface ClawhubDeviceCodesTable {
  /** The SHA-256 of the device code the client polls with; the code itself is never stored. */
  device_code_hash: string;
  user_code: string;
  label: string;
  status: 'pending' | 'approved' | 'denied' | 'issued';
  user_id: string | null;
  api_key_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  polled_at: Timestamp | null;
}

/** One file of a `clawhub publish`: who may upload it, what it must be, and whether it arrived (migration 0016). */
export interface ClawhubUploadTicketsTable {
  id: string;
  user_id: string;
  path: string;
  size: number;
  sha256: string;
  content_type: string;
  uploaded_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A version's content fingerprint as the `clawhub` client computes it, and its files' sha256s (JSON; migration 0016). */
export interface ClawhubVersionDigestsTable {
  version_id: string;
  fingerprint: string;
  files: string;
}

/** One change of what the registry shows, written by triggers (migration 0017); the change feed and webhooks read it. */
export interface ChangeFeedTable {
  seq: Generated<number>;
  type: string;
  occurred_at: Timestamp;
  skill_id: string;
  skill_name: string;
  owner_id: string;
  org_id: string | null;
  prev_owner_id: string | null;
  prev_org_id: string | null;
  version: string | null;
  was_public: Flag;
  is_public: Flag;
}

/** A subscription of a URL to the changes of a user's, an organisation's or (an administrator's) every skill (0017). */
export interface WebhooksTable {
  id: string;
  user_id: string;
  org_id: string | null;
  all_skills: Flag;
  url: string;
  secret: string;
  /** JSON array of entry types; empty: every type. */
  events: string;
  active: Flag;
  failures: ColumnType<number, number | undefined, number>;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The request body as sent, JSON. */
  payload: string;
  state: WebhookDeliveryState;
  attempts: ColumnType<number, number | undefined, number>;
  redelivery_of: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  attempted_at: Timestamp;
}

/** How far the feed has been turned into deliveries (one row, `feed`). */
export interface WebhookDispatchTable {
  name: string;
  seq: number;
}

/** Something the registry tells one user in the console (0018): a webhook it disabled. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  /** What happened, e.g. `webhook.disabled`. */
  kind: string;
  title: string;
  body: string;
  /** The console page to act on it, a path (`/webhooks?id=…`). */
  link: string | null;
  /** What it is about (a webhook's id), so one thing's notifications can be found. */
  subject_id: string | null;
  /** JSON object of the particulars (the webhook's URL, the reason, when). */
  data: string;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

export interface Database {
  notifications: NotificationsTable;
  change_feed: ChangeFeedTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_dispatch: WebhookDispatchTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  skills: SkillsTable;
  skill_tags: SkillTagsTable;
  admin_audit: AdminAuditTable;
  versions: VersionsTable;
  version_files: VersionFilesTable;
  download_counts: DownloadCountsTable;
  feedback: FeedbackTable;
  call_logs: CallLogsTable;
  skill_changes: SkillChangesTable;
  version_scans: VersionScansTable;
  scan_jobs: ScanJobsTable;
  scan_job_items: ScanJobItemsTable;
  skill_reports: SkillReportsTable;
  job_leases: JobLeasesTable;
  queued_jobs: QueuedJobsTable;
  name_allowances: NameAllowancesTable;
  organisations: OrganisationsTable;
  org_members: OrgMembersTable;
  org_invitations: OrgInvitationsTable;
  skill_transfers: SkillTransfersTable;
  skill_aliases: SkillAliasesTable;
  clawhub_device_codes: ClawhubDeviceCodesTable;
  clawhub_upload_tickets: ClawhubUploadTicketsTable;
  clawhub_version_digests: ClawhubVersionDigestsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type NewSkill = Insertable<SkillsTable>;
export type SkillUpdate = Updateable<SkillsTable>;
export type VersionRow = Selectable<VersionsTable>;
export type NewVersion = Insertable<VersionsTable>;
export type NewVersionScan = Insertable<VersionScansTable>;
export type CallLogRow = Selectable<CallLogsTable>;
export type NewCallLog = Insertable<CallLogsTable>;
/** A call-log entry as buffered before it is written: its time as epoch milliseconds, made a timestamp on write. */
export type PendingCallLog = Omit<NewCallLog, 'created_at'> & { created_at: number };
