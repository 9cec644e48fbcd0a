import type { ApiKeysRepository, SessionsRepository } from '../../db/repositories/credentials.js';
import { nowIso } from '../../lib/time.js';
import { SCOPES, SESSION_SCOPES, type Actor, type Scope } from '../actor.js';
import { looksLikeApiKey, sha256Hex } from './secrets.js';

/** How often a key's `last_used_at` is refreshed: often enough to be useful, rarely enough to stay off the hot path. */
const TOUCH_INTERVAL_MS = 60_000;

export type Authentication = { ok: true; actor: Actor } | { ok: false; reason: string };

function expired(expiresAt: Date | string | null, now: number): boolean {
  return expiresAt !== null && new Date(expiresAt).getTime() <= now;
}

export function authenticator(deps: { sessions: SessionsRepository; apiKeys: ApiKeysRepository }) {
  const { sessions, apiKeys } = deps;
  const lastTouched = new Map<string, number>();

  return {
    async session(token: string): Promise<Authentication> {
      const row = await sessions.findByHash(sha256Hex(token));
      if (!row) return { ok: false, reason: 'The session is unknown or has been signed out.' };
      if (expired(row.expires_at, Date.now())) return { ok: false, reason: 'The session has expired; sign in again.' };
      if (row.disabled === 1) return { ok: false, reason: 'The account is disabled.' };
      return {
        ok: true,
        actor: {
          kind: 'session',
          user: { id: row.user_id, username: row.username, role: row.role },
          sessionId: row.credential_id,
          scopes: SESSION_SCOPES,
        },
      };
    },

    async apiKey(key: string): Promise<Authentication> {
      if (!looksLikeApiKey(key)) return { ok: false, reason: 'The API key is malformed; keys start with "skreg_".' };
      const row = await apiKeys.findByHash(sha256Hex(key));
      if (!row) return { ok: false, reason: 'The API key is unknown.' };
      if (row.revoked_at !== null) return { ok: false, reason: 'The API key has been revoked.' };
      const now = Date.now();
      if (expired(row.expires_at, now)) return { ok: false, reason: 'The API key has expired.' };
      if (row.disabled === 1) return { ok: false, reason: 'The account is disabled.' };
      const previous = lastTouched.get(row.credential_id) ?? (row.last_used_at ? new Date(row.last_used_at).getTime() : 0);
      if (now - previous >= TOUCH_INTERVAL_MS) {
        lastTouched.set(row.credential_id, now);
        // Best effort and off the response path: a failed touch must not fail the request.
        apiKeys.touch(row.credential_id, nowIso()).catch(() => lastTouched.delete(row.credential_id));
      }
      const scopes = (JSON.parse(row.scopes) as string[]).filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
      return {
        ok: true,
        actor: { kind: 'api_key', user: { id: row.user_id, username: row.username, role: row.role }, apiKeyId: row.credential_id, scopes },
      };
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;
