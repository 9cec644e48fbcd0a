import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { apiKeysRepository, sessionsRepository } from './db/repositories/credentials.js';
import { skillsRepository } from './db/repositories/skills.js';
import { usersRepository } from './db/repositories/users.js';
import { accountService } from './domain/accounts/accounts.js';
import { apiKeyService } from './domain/accounts/api-keys.js';
import { authenticator } from './domain/accounts/authenticate.js';
import { skillService } from './domain/skills/skills.js';
import { versionsRepository } from './db/repositories/versions.js';
import { downloadCounter } from './domain/versions/download-counter.js';
import { versionService } from './domain/versions/versions.js';
import type { BlobStore } from './storage/blob-store.js';
import { callLogsRepository } from './db/repositories/call-logs.js';
import { feedbackRepository } from './db/repositories/feedback.js';
import { feedbackService } from './domain/feedback/feedback.js';
import { callLogService } from './domain/logs/call-logs.js';
import { callLogRecorder } from './domain/logs/recorder.js';

/** The composition root: repositories over one database handle, and the domain services built on them. */
export function createServices(database: DatabaseHandle, blobs: BlobStore, config: Config, log?: (error: unknown) => void) {
  const users = usersRepository(database.db, database.dialect);
  const sessions = sessionsRepository(database.db, database.sqlite);
  const apiKeys = apiKeysRepository(database.db, database.sqlite);
  const skills = skillsRepository(database.db, database.dialect);
  const versions = versionsRepository(database.db);
  const authenticate = authenticator({ sessions, apiKeys });
  const skillServiceInstance = skillService({ skills });
  // Written counts change the totals that public answers show, so those answers are refreshed on this node.
  const downloads = downloadCounter({ versions, onWritten: () => skillServiceInstance.changed(), ...(log ? { onError: log } : {}) });
  const callLogs = callLogsRepository(database.db, database.sqliteFile);
  const recorder = callLogRecorder({ logs: callLogs, ...(log ? { onError: log } : {}) });
  return {
    database,
    blobs,
    downloads,
    recorder,
    repositories: { users, sessions, apiKeys, skills, versions, callLogs },
    accounts: accountService({ users, sessions, config, invalidation: authenticate }),
    apiKeys: apiKeyService({ apiKeys, invalidation: authenticate }),
    authenticate,
    skills: skillServiceInstance,
    feedback: feedbackService({ feedback: feedbackRepository(database.db), versions, skills: skillServiceInstance }),
    logs: callLogService({ logs: callLogs, recorder, retentionDays: config.logRetentionDays }),
    versions: versionService({
      skillService: skillServiceInstance, versions, blobs, downloads, maxUploadBytes: config.maxUploadBytes,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
