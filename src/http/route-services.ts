import type { AccountService } from '../domain/accounts/accounts.js';
import type { ApiKeyService } from '../domain/accounts/api-keys.js';
import type { Authenticator } from '../domain/accounts/authenticate.js';
import type { FeedbackService } from '../domain/feedback/feedback.js';
import type { CallLogService } from '../domain/logs/call-logs.js';
import type { ReportService } from '../domain/reports/reports.js';
import type { OrganisationService } from '../domain/orgs/organisations.js';
import type { SkillService } from '../domain/skills/skills.js';
import type { TransferService } from '../domain/skills/transfers.js';
import type { SkillNameHistory } from '../domain/skills/name-history.js';
import type { VersionService } from '../domain/versions/versions.js';
import type { AgentArchives } from '../domain/versions/agent-archive.js';
import type { RescanJobs } from '../domain/versions/rescan-jobs.js';
import type { NameService } from '../domain/names/names.js';
import type { ChangeService } from '../domain/changes/changes.js';
import type { WebhookService } from '../domain/webhooks/webhooks.js';
import type { ClawhubService } from '../domain/clawhub/clawhub.js';
import type { NotificationService } from '../domain/notifications/notifications.js';

/** A dependency the readiness check asks whether it answers. */
export interface Pingable {
  ping(): Promise<void>;
}

/**
 * What the routes and the authentication hook call: the domain's services, and the two dependencies readiness
 * checks. The composition root (src/services.ts) builds them; the HTTP layer knows them only by this shape.
 */
export interface RouteServices {
  accounts: AccountService;
  apiKeys: ApiKeyService;
  authenticate: Authenticator;
  skills: SkillService;
  skillNames: SkillNameHistory;
  orgs: OrganisationService;
  transfers: TransferService;
  versions: VersionService;
  agentSkills: AgentArchives;
  rescans: RescanJobs;
  feedback: FeedbackService;
  reports: ReportService;
  logs: CallLogService;
  names: NameService;
  changes: ChangeService;
  webhooks: WebhookService;
  notifications: NotificationService;
  clawhub: ClawhubService;
  database: Pingable;
  blobs: Pingable;
}
