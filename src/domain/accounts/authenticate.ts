import { LRUCache } from 'lru-cache';
import type { ApiKeysRepository, SessionsRepository } from '../../db/repositories/credentials.js';
import { nowIso } from '../../lib/time.js';
import { SCOPES, SESSION_SCOPES, type Actor, type Scope } from '../actor.js';
import type { OrgRole } from '../orgs/roles.js';
import { looksLikeApiKey, sha256Hex } from './secrets.js';

/** How often a key's `last_used_at` is refreshed: often enough to be useful, rarely enough to stay off the hot path. */
const TOUCH_INTERVAL_MS = 60_000;
/** Keys touched within the interval that this node still remembers; past it the row's own time decides. */
const TOUCHED_MAX = 10_000;

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
}

export function authenticator(deps: {
  sessions: SessionsRepository;
  apiKeys: ApiKeysRepository;
  /**
   * The organisations a user belongs to, with the user's role in each: read with the credential, and remembered with
   * it (a change of members forgets the user's entries, as a change of the account does).
   */
  memberships?: (userId: string) => Promise<ReadonlyMap<string, OrgRole>>;
  /** The clock remembered entries age by and expiry is judged by; tests move it rather than wait for it. */
  now?: () => number;
}) {
  const { sessions, apiKeys } = deps;
  const none: ReadonlyMap<string, OrgRole> = new Map();
  const memberships = deps.memberships ?? (() => Promise.resolve(none));
  // Read late, so that a test replacing Date moves this clock too.
  const now = deps.now ?? (() => Date.now());
  const perf = { now };
  const remembered = new LRUCache<string, Remembered>({ max: AUTH_CACHE_MAX, ttl: AUTH_CACHE_TTL_MS, ttlResolution: 0, perf });
  const lastTouched = new LRUCache<string, true>({ max: TOUCHED_MAX, ttl: TOUCH_INTERVAL_MS, ttlResolution: 0, perf });
  // Counts the changes forgotten so far: a lookup remembers its answer only if none happened while it ran. One
  // counter for every credential, since changes are rare and a lookup that is not remembered only costs a lookup.
  let generation = 0;
  // The `last_used_at` writes under way, so that their end can be awaited (`touchesWritten`).
  const touching = new Set<Promise<void>>();

  function recall(hash: string): Authentication | null {
    const entry = remembered.get(hash);
    return entry === undefined ? null : { ok: true, actor: entry.actor };
  }

  function remember(
    hash: string,
    actor: Remembered['actor'],
    credentialId: string,
    expiresAt: Date | string | null,
    lookedUpAt: number,
  ): void {
    if (lookedUpAt !== generation) return;
    const untilExpiry = expiresAt === null ? Infinity : new Date(expiresAt).getTime() - now();
    // The cache still serves an entry when exactly its ttl has passed; one millisecond less makes it gone by then
    // (and a ttl of 0 would mean "forever").
    const ttl = Math.min(AUTH_CACHE_TTL_MS, untilExpiry) - 1;
    if (ttl <= 0) return;
    remembered.set(hash, { actor, credentialId }, { ttl });
  }

  function forgetWhere(predicate: (entry: Remembered) => boolean): void {
    generation += 1;
    for (const [hash, entry] of remembered.entries()) if (predicate(entry)) remembered.delete(hash);
  }

  /** Writes a key's `last_used_at` at most once per interval: the keys this node touched lately, or the row's own time, say when. */
  function touch(row: { credential_id: string; last_used_at: Date | string | null }, at: number): void {
    if (lastTouched.has(row.credential_id)) return;
    if (row.last_used_at !== null && at - new Date(row.last_used_at).getTime() < TOUCH_INTERVAL_MS) return;
    lastTouched.set(row.credential_id, true);
    // Best effort and off the response path: a failed touch must not fail the request.
    const write = apiKeys
      .touch(row.credential_id, nowIso())
      .catch(() => void lastTouched.delete(row.credential_id))
      .finally(() => touching.delete(write));
    touching.add(write);
  }

  return {
    /** Settles once the `last_used_at` writes under way have ended (each ends written or given up, never rejected). */
    async touchesWritten(): Promise<void> {
      await Promise.all(touching);
    },
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
      if (expired(row.expires_at, now())) return { ok: false, reason: 'The session has expired; sign in again.' };
      if (row.disabled === 1) return { ok: false, reason: 'The account is disabled.' };
      const orgs = await memberships(row.user_id);
      const actor = {
        kind: 'session' as const,
        user: { id: row.user_id, username: row.username, role: row.role, orgs },
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
      return entry?.actor.kind === 'api_key' ? entry.actor : null;
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
      const at = now();
      if (expired(row.expires_at, at)) return { ok: false, reason: 'The API key has expired.' };
      if (row.disabled === 1) return { ok: false, reason: 'The account is disabled.' };
      touch(row, at);
      const scopes = (JSON.parse(row.scopes) as string[]).filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
      const orgs = await memberships(row.user_id);
      const actor = {
        kind: 'api_key' as const,
        user: { id: row.user_id, username: row.username, role: row.role, orgs },
        apiKeyId: row.credential_id,
        scopes,
      };
      remember(hash, actor, row.credential_id, row.expires_at, lookedUpAt);
      return { ok: true, actor };
    },
  };
}

export type Authenticator = ReturnType<typeof authenticator>;
