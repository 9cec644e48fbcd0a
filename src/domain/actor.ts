import { SCOPES } from '@skill-registry/rules/limits';
import { forbidden, unauthenticated, type AppError } from './errors.js';
import type { OrgRole } from './orgs/roles.js';

export { SCOPES };
export type Scope = (typeof SCOPES)[number];

/** What an account may be: an ordinary user, or an administrator (whose session may moderate and manage users). */
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export interface UserIdentity {
  id: string;
  username: string;
  role: Role;
  /** The organisations the user belongs to, by id, with the user's role in each (domain/orgs/roles.ts). */
  orgs?: ReadonlyMap<string, OrgRole>;
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
 * What an operation demands of its caller. The checks below turn a requirement into the API's answer: 401
 * without valid credentials, 403 with credentials that are not enough.
 */
export const REQUIREMENTS = ['public', 'user', 'session', 'uploader', 'admin'] as const;
export type Requirement = (typeof REQUIREMENTS)[number];

/** The refusal of an admin-only operation to a caller that is not an administrator's session. */
export function adminSessionRequired(
  detail = 'Admin operations need an administrator signed in with a session; API keys are not accepted.',
): AppError {
  return forbidden('admin_session_required', detail);
}

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
        throw adminSessionRequired();
      }
      if (actor.user.role !== 'admin') throw forbidden('not_admin', 'This operation is for administrators.');
      return;
  }
}

/**
 * The domain's own check for operations only an administrator's session may perform (moderation, user
 * administration, other users' call logs). It gives the route layer's answers, so a route declared with a weaker
 * access by mistake still cannot reach the operation.
 */
export function requireAdminSession(actor: Actor): asserts actor is AuthenticatedActor & { kind: 'session' } {
  requireActor(actor, 'admin');
}
