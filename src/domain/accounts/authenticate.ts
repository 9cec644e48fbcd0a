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

/**
 * A successful authentication is remembered this long, so a busy client costs one lookup every couple of
 * seconds rather than one per request. Revoking a key, signing out, and changing or disabling an account
 * forget the affected entries at once on this node; another node sharing the database notices within this time.
 * A lookup that began before such a change is never remembered: it may have read the row as it was.
 */
export const AUTH_CACHE_TTL_MS = 2000;
const AUTH_CACHE_MAX = 10_000;

interface Remembered {
  actor: Exclude<Actor, { kind: 'anonymous' }>;
  credentialId: string;
  until: number;
}

export function authenticator(deps: { sessions: SessionsRepository; apiKeys: ApiKeysRepository }) {
  const { sessions, apiKeys } = deps;
  const lastTouched = new Map<string, number>();
  const remembered = new Map<string, Remembered>();
  // Counts the changes forgotten so far: a lookup remembers its answer only if none happened while it ran. One
  // counter for every credential, since changes are rare and a lookup that is not remembered only costs a lookup.
  let generation = 0;

  function recall(hash: string): Authentication | null {
    const entry = remembered.get(hash);
    if (entry === undefined) return null;
    if (entry.until <= Date.now()) {
      remembered.delete(hash);
      return null;
    }
    return { ok: true, actor: entry.actor };
  }

  function remember(
    hash: string,
    actor: Remembered['actor'],
    credentialId: string,
    expiresAt: Date | string | null,
    lookedUpAt: number,
  ): void {
    if (lookedUpAt !== generation) return;
    if (remembered.size >= AUTH_CACHE_MAX) remembered.delete(remembered.keys().next().value as string);
    const expiry = expiresAt === null ? Infinity : new Date(expiresAt).getTime();
    remembered.set(hash, { actor, credentialId, until: Math.min(Date.now() + AUTH_CACHE_TTL_MS, expiry) });
  }

  function forgetWhere(predicate: (entry: Remembered) => boolean): void {
    generation += 1;
    for (const [hash, entry] of remembered) if (predicate(entry)) remembered.delete(hash);
  }

  return {
    /** Forgets what is remembered about one user's credentials (disabled, role changed). */
    forgetUser(userId: string): void {
      forgetWhere((entry) => entry.actor.user.id === userId);
    },
    /** Forgets one session or API key (signed out, revoked). */
    forgetCredential(credentialId: string): void {
      forgetWhere((entry) => entry.credentialId === credentialId);
    },

    async session(token: string): Promise<Authentication> {
      const hash = sha256Hex(token);
      const known = recall(hash);
      if (known) return known;
      const lookedUpAt = generation;
      const row = await sessions.findByHash(hash);
      if (!row) return { ok: false, reason: 'The session is unknown or has been signed out.' };
      if (expired(row.expires_at, Date.now())) return { ok: false, reason: 'The session has expired; sign in again.' };
      if (row.disabled === 1) return { ok: false, reason: 'The account is disabled.' };
      const actor = {
        kind: 'session' as const,
        user: { id: row.user_id, username: row.username, role: row.role },
        sessionId: row.credential_id,
        scopes: SESSION_SCOPES,
      };
      remember(hash, actor, row.credential_id, row.expires_at, lookedUpAt);
      return { ok: true, actor };
    },

    /**
     * The caller of an API key authenticated moments ago, without a promise: the common case for a busy
     * client. Null when the key has to be looked up (`apiKey` does that).
     */
    recallApiKey(key: string): Exclude<Actor, { kind: 'anonymous' }> | null {
      if (!looksLikeApiKey(key)) return null;
      const entry = remembered.get(sha256Hex(key));
      if (entry === undefined || entry.until <= Date.now() || entry.actor.kind !== 'api_key') return null;
      return entry.actor;
    },

    async apiKey(key: string): Promise<Authentication> {
      if (!looksLikeApiKey(key)) return { ok: false, reason: 'The API key is malformed; keys start with "skreg_".' };
      const hash = sha256Hex(key);
      const known = recall(hash);
      if (known) return known;
      const lookedUpAt = generation;
      const row = await apiKeys.findByHash(hash);
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
      const actor = { kind: 'api_key' as const, user: { id: row.user_id, username: row.username, role: row.role }, apiKeyId: row.credential_id, scopes };
      remember(hash, actor, row.credential_id, row.expires_at, lookedUpAt);
      return { ok: true, actor };
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;
