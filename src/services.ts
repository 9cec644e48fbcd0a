import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { apiKeysRepository, sessionsRepository } from './db/repositories/credentials.js';
import { skillChangesRepository } from './db/repositories/skill-changes.js';
import { skillsRepository } from './db/repositories/skills.js';
import { usersRepository } from './db/repositories/users.js';
import { accountService } from './domain/accounts/accounts.js';
import { apiKeyService } from './domain/accounts/api-keys.js';
import { authenticator } from './domain/accounts/authenticate.js';
import { skillService } from './domain/skills/skills.js';
import { skillNameHistory } from './domain/skills/name-history.js';
import { organisationsRepository } from './db/repositories/organisations.js';
import { organisationService } from './domain/orgs/organisations.js';
import { transfersRepository } from './db/repositories/transfers.js';
import { transferService } from './domain/skills/transfers.js';
import { versionsRepository } from './db/repositories/versions.js';
import { downloadCounter } from './domain/versions/download-counter.js';
import { versionService } from './domain/versions/versions.js';
import { agentArchives } from './domain/versions/agent-archive.js';
import { scansRepository } from './db/repositories/scans.js';
import { rescanJobs } from './domain/versions/rescan-jobs.js';
import { CURRENT_RULES_VERSION } from './domain/versions/scan-views.js';
import type { BlobStore } from './storage/blob-store.js';
import { localInvalidationBus, type InvalidationBus } from './cluster/invalidation.js';
import { callLogsRepository } from './db/repositories/call-logs.js';
import { feedbackRepository } from './db/repositories/feedback.js';
import { feedbackService } from './domain/feedback/feedback.js';
import { reportsRepository } from './db/repositories/reports.js';
import { reportService } from './domain/reports/reports.js';
import { callLogService } from './domain/logs/call-logs.js';
import { callLogRecorder } from './domain/logs/recorder.js';
import { workerScans } from './scan-threads/worker-scans.js';
import { namesRepository } from './db/repositories/names.js';
import { nameAllowancesRepository } from './db/repositories/name-allowances.js';
import { nameService } from './domain/names/names.js';
import { changesRepository } from './db/repositories/changes.js';
import { changeService } from './domain/changes/changes.js';
import { webhooksRepository } from './db/repositories/webhooks.js';
import { webhookService } from './domain/webhooks/webhooks.js';
import { addressGuard } from './domain/webhooks/address-guard.js';
import { notificationsRepository } from './db/repositories/notifications.js';
import { notificationService, notifyWebhookDisabled } from './domain/notifications/notifications.js';
import { VERSION } from './version.js';
import { clawhubRepository } from './db/repositories/clawhub.js';
import { clawhubService } from './domain/clawhub/clawhub.js';

/**
 * The composition root: repositories over one database handle, and the domain services built on them.
 * `bus` carries cache invalidations between nodes that share the database (Redis when several run).
 */
export function createServices(
  database: DatabaseHandle,
  blobs: BlobStore,
  config: Config,
  log?: (error: unknown) => void,
  bus: InvalidationBus = localInvalidationBus(),
) {
  const users = usersRepository(database.db, database.dialect);
  const sessions = sessionsRepository(database.db);
  const apiKeys = apiKeysRepository(database.db, database.sqlite);
  const skills = skillsRepository(database.db, database.dialect);
  const organisations = organisationsRepository(database.db, database.dialect);
  const transfers = transfersRepository(database.db);
  const versions = versionsRepository(database.db, database.dialect);
  const scans = scansRepository(database.db, database.dialect);
  const authenticate = authenticator({
    sessions,
    apiKeys,
    memberships: async (userId) => new Map((await organisations.membershipsOf(userId)).map((m) => [m.org_id, m.role])),
  });
  const skillChanges = skillChangesRepository(database.db, database.dialect);
  const names = nameService({ names: namesRepository(database.db), allowances: nameAllowancesRepository(database.db) });
  const skillServiceInstance = skillService({
    skills,
    skillChanges,
    checkNewName: (kind, name, ownerId) => names.checkNewName(kind, name, ownerId),
    announce: (id) => bus.publish({ kind: 'skills', id }),
    onSearchError: log ?? (() => undefined),
    findOrg: (handle) => organisations.findByHandle(handle),
    retiredName: async (name) => (await transfers.aliasOf(name)) !== undefined,
  });
  // Revocations, sign-outs and account changes reach the other nodes' authentication caches too.
  const invalidation = {
    forgetUser(id: string) {
      authenticate.forgetUser(id);
      bus.publish({ kind: 'user', id });
    },
    forgetCredential(id: string) {
      authenticate.forgetCredential(id);
      bus.publish({ kind: 'credential', id });
    },
  };
  bus.subscribe((message) => {
    if (message.kind === 'skills') skillServiceInstance.changedElsewhere(message.id);
    else if (message.kind === 'user') authenticate.forgetUser(message.id);
    else authenticate.forgetCredential(message.id);
  });
  // Written counts change the totals public answers show: refreshed at once on this node. Other nodes are not
  // told, or every node would drop its caches every second under download traffic; their TTL covers counts.
  const downloads = downloadCounter({
    versions,
    onWritten: () => skillServiceInstance.forgetCached(),
    onCounted: (counts) => skillServiceInstance.downloaded(counts),
  });
  const callLogs = callLogsRepository(database.db, database.sqliteFile);
  const recorder = callLogRecorder({ logs: callLogs, ...(log ? { onError: log } : {}) });
  // Packages are scanned on worker threads while they are read, unless none are configured.
  const scanThreads = config.scanThreads > 0 ? workerScans({ threads: config.scanThreads }) : null;
  const versionServiceInstance = versionService({
    skillService: skillServiceInstance,
    versions,
    scans,
    blobs,
    downloads,
    maxUploadBytes: config.maxUploadBytes,
    ...(scanThreads === null ? {} : { scanner: scanThreads }),
  });
  const rescans = rescanJobs({
    scans,
    rescan: (version) => versionServiceInstance.rescanStored(version),
    rulesVersion: CURRENT_RULES_VERSION,
  });
  const apiKeyServiceInstance = apiKeyService({ apiKeys, invalidation });
  const transferServiceInstance = transferService({
    transfers,
    users,
    skills: skillServiceInstance,
    findOrg: (handle) => organisations.findByHandle(handle),
    offerDays: config.orgInvitationDays,
    checkNewName: (kind, name, ownerId) => names.checkNewName(kind, name, ownerId),
  });
  const organisationServiceInstance = organisationService({
    orgs: organisations,
    users,
    invitationDays: config.orgInvitationDays,
    checkNewHandle: (handle, ownerId) => names.checkNewName('handle', handle, ownerId),
    // What a member may see and change is read with their credentials: a change of members is forgotten there.
    membershipChanged: (userId) => invalidation.forgetUser(userId),
  });
  return {
    database,
    blobs,
    downloads,
    recorder,
    repositories: { users, sessions, apiKeys, skills, organisations, skillChanges, versions, scans, callLogs },
    bus,
    accounts: accountService({
      users,
      sessions,
      config,
      invalidation,
      checkNewName: (kind, name, ownerId) => names.checkNewName(kind, name, ownerId),
    }),
    /** Look-alike and reserved names, and the administrators' allowances of names. */
    names,
    /** The change feed (GET /v1/changes), written by the database's triggers (migration 0017). */
    changes: changeService({ changes: changesRepository(database.db) }),
    /** Webhooks: subscriptions, the dispatcher of feed entries, and the runner's job that sends a delivery. */
    webhooks: webhookService({
      webhooks: webhooksRepository(database.db, database.dialect),
      findOrg: (handle) => organisations.findByHandle(handle),
      checkUrl: addressGuard({
        allowPrivate: config.webhooks.allowPrivate,
        allowedHosts: config.webhooks.allowedHosts,
        ownHost: new URL(config.publicUrl).hostname,
      }),
      timeoutMs: config.webhooks.timeoutMs,
      disableAfter: config.webhooks.disableAfter,
      userAgent: `skill-registry-webhooks/${VERSION}`,
      // There is no mail: those who may turn it on again are told in the console, in the transaction that disabled it.
      onDisabled: (trx, webhook) => notifyWebhookDisabled(notificationsRepository(trx), webhook),
    }),
    /** Users' in-app notifications (GET /v1/me/notifications). */
    notifications: notificationService({ notifications: notificationsRepository(database.db) }),
    apiKeys: apiKeyServiceInstance,
    /** The ClawHub protocol the `clawhub` command line speaks, over the services above (docs/api-decisions.md). */
    clawhub: clawhubService({
      repository: clawhubRepository(database.db, database.dialect),
      skills: skillServiceInstance,
      versions: versionServiceInstance,
      versionRows: versions,
      blobs,
      apiKeys: apiKeyServiceInstance,
      findUser: async (id) => {
        const row = await users.findById(id);
        if (!row || row.disabled === 1) return null;
        return { id: row.id, username: row.username, role: row.role };
      },
      transfers: transferServiceInstance,
      orgs: organisationServiceInstance,
      publicUrl: config.publicUrl,
      maxUploadBytes: config.maxUploadBytes,
    }),
    authenticate,
    skills: skillServiceInstance,
    skillNames: skillNameHistory({ skills: skillServiceInstance, repository: skills }),
    transfers: transferServiceInstance,
    orgs: organisationServiceInstance,
    feedback: feedbackService({ feedback: feedbackRepository(database.db), versions, skills: skillServiceInstance }),
    reports: reportService({
      reports: reportsRepository(database.db),
      skills: skillServiceInstance,
      hideThreshold: config.reportsHideThreshold,
    }),
    logs: callLogService({ logs: callLogs, recorder, retentionDays: config.logRetentionDays }),
    versions: versionServiceInstance,
    /** What the `skills` command is offered of a skill: Agent Skills discovery (docs/api-decisions.md). */
    agentSkills: agentArchives({ skillService: skillServiceInstance, versions, blobs }),
    /** Rescans of every version, worked through by the job runners of every node sharing the database. */
    rescans,
    /** The threads packages are scanned on (null: this one), ended when the registry stops. */
    scanThreads,
  };
}

export type Services = ReturnType<typeof createServices>;
