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

/** The composition root: repositories over one database handle, and the domain services built on them. */
export function createServices(database: DatabaseHandle, blobs: BlobStore, config: Config, log?: (error: unknown) => void) {
  const users = usersRepository(database.db, database.dialect);
  const sessions = sessionsRepository(database.db);
  const apiKeys = apiKeysRepository(database.db);
  const skills = skillsRepository(database.db, database.dialect);
  const versions = versionsRepository(database.db);
  const skillServiceInstance = skillService({ skills });
  const downloads = downloadCounter({ versions, ...(log ? { onError: log } : {}) });
  return {
    database,
    blobs,
    downloads,
    repositories: { users, sessions, apiKeys, skills, versions },
    accounts: accountService({ users, sessions, config }),
    apiKeys: apiKeyService({ apiKeys }),
    authenticate: authenticator({ sessions, apiKeys }),
    skills: skillServiceInstance,
    versions: versionService({
      skillService: skillServiceInstance, versions, blobs, downloads, maxUploadBytes: config.maxUploadBytes,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
