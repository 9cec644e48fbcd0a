import type { Role } from '../db/schema.js';
import { forbidden, unauthenticated } from './errors.js';

export const SCOPES = ['skill:upload'] as const;
export type Scope = (typeof SCOPES)[number];

export interface UserIdentity {
  id: string;
  username: string;
  role: Role;
}

/** Who is calling, as established from the request's credentials. */
export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'session'; user: UserIdentity; sessionId: string; scopes: readonly Scope[] }
  | { kind: 'api_key'; user: UserIdentity; apiKeyId: string; scopes: readonly Scope[] };

export type AuthenticatedActor = Exclude<Actor, { kind: 'anonymous' }>;

export const ANONYMOUS: Actor = { kind: 'anonymous' };

/** Sessions carry every scope: a person signed in to the console may do what their account may do. */
export const SESSION_SCOPES: readonly Scope[] = SCOPES;

/** Admin power comes only with an admin's session; an admin's API key acts as an ordinary user. */
export function isAdminSession(actor: Actor): boolean {
  return actor.kind === 'session' && actor.user.role === 'admin';
}

export function hasScope(actor: Actor, scope: Scope): boolean {
  return actor.kind !== 'anonymous' && actor.scopes.includes(scope);
}

/**
 * What an operation demands of its caller, in the seed's terms. The checks below turn a requirement
 * into the contract's answer: 401 without valid credentials, 403 with credentials that are not enough.
 */
export type Requirement = 'public' | 'user' | 'session' | 'uploader' | 'admin';

export function requireActor(actor: Actor, requirement: Requirement): void {
  if (requirement === 'public') return;
  if (actor.kind === 'anonymous') throw unauthenticated();
  switch (requirement) {
    case 'user':
      return;
    case 'session':
      if (actor.kind !== 'session') {
        throw forbidden('session_required', 'This operation needs a signed-in session; API keys cannot manage API keys.');
      }
      return;
    case 'uploader':
      if (!hasScope(actor, 'skill:upload')) {
        throw forbidden('insufficient_scope', 'This API key lacks the skill:upload scope; create a key with it or sign in.');
      }
      return;
    case 'admin':
      if (actor.kind !== 'session') {
        throw forbidden('admin_session_required', 'Admin operations need an administrator signed in with a session; API keys are not accepted.');
      }
      if (actor.user.role !== 'admin') throw forbidden('not_admin', 'This operation is for administrators.');
      return;
  }
}
