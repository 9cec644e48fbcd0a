import type { ApiKeysRepository } from '../../db/repositories/credentials.js';
import type { CredentialInvalidation } from './accounts.js';
import { newId } from '../../lib/ids.js';
import { addDays, nowIso, toIso } from '../../lib/time.js';
import type { AuthenticatedActor, Scope } from '../actor.js';
import { conflict, notFound, validationFailed } from '../errors.js';
import { newApiKey } from './secrets.js';

export const MAX_ACTIVE_KEYS = 100;

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  expires_at: Date | string | null;
}

function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    created_at: toIso(row.created_at),
    last_used_at: toIso(row.last_used_at),
    expires_at: toIso(row.expires_at),
  };
}

export function apiKeyService(deps: { apiKeys: ApiKeysRepository; invalidation: CredentialInvalidation }) {
  const { apiKeys, invalidation } = deps;
  return {
    async create(actor: AuthenticatedActor, input: { name: string; scopes: Scope[]; expires_in_days?: number | null }) {
      const name = input.name.trim();
      if (name === '') throw validationFailed([{ field: 'name', message: 'must not be blank' }]);
      const { key, prefix, hash } = newApiKey();
      const now = nowIso();
      const row = {
        id: newId(),
        user_id: actor.user.id,
        name,
        prefix,
        key_hash: hash,
        scopes: JSON.stringify([...new Set(input.scopes)].sort()),
        created_at: now,
        expires_at: input.expires_in_days ? addDays(now, input.expires_in_days) : null,
      };
      // Counted and inserted in one transaction: concurrent creates cannot together pass the limit.
      if (!(await apiKeys.insertWithinLimit(row, MAX_ACTIVE_KEYS))) {
        throw conflict('too_many_keys', `An account may hold at most ${MAX_ACTIVE_KEYS} live API keys; revoke one first.`);
      }
      return { ...toApiKey({ ...row, last_used_at: null }), key };
    },

    async list(actor: AuthenticatedActor): Promise<ApiKey[]> {
      return (await apiKeys.listActive(actor.user.id)).map(toApiKey);
    },

    async revoke(actor: AuthenticatedActor, keyId: string): Promise<void> {
      if (!(await apiKeys.revoke(keyId, actor.user.id, nowIso()))) {
        throw notFound('api_key_not_found', `You have no live API key with id "${keyId}".`);
      }
      invalidation.forgetCredential(keyId);
    },
  };
}

export type ApiKeyService = ReturnType<typeof apiKeyService>;
