import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { apiKeysRepository, sessionsRepository } from './db/repositories/credentials.js';
import { skillsRepository } from './db/repositories/skills.js';
import { usersRepository } from './db/repositories/users.js';
import { accountService } from './domain/accounts/accounts.js';
import { apiKeyService } from './domain/accounts/api-keys.js';
import { authenticator } from './domain/accounts/authenticate.js';
import { skillService } from './domain/skills/skills.js';

/** The composition root: repositories over one database handle, and the domain services built on them. */
export function createServices(database: DatabaseHandle, config: Config) {
  const users = usersRepository(database.db, database.dialect);
  const sessions = sessionsRepository(database.db);
  const apiKeys = apiKeysRepository(database.db);
  const skills = skillsRepository(database.db, database.dialect);
  return {
    database,
    repositories: { users, sessions, apiKeys, skills },
    accounts: accountService({ users, sessions, config }),
    apiKeys: apiKeyService({ apiKeys }),
    authenticate: authenticator({ sessions, apiKeys }),
    skills: skillService({ skills }),
  };
}

export type Services = ReturnType<typeof createServices>;
