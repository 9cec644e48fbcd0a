import { isAdminSession, type Actor } from '../actor.js';
import type { SkillStatus } from './statuses.js';

interface Visible {
  status: SkillStatus;
  owner_id: string;
  /** Set while users' reports hide the skill pending an administrator's review (domain/reports). */
  hidden_at: Date | string | null;
}

export function isOwner(actor: Actor, skill: Pick<Visible, 'owner_id'>): boolean {
  return actor.kind !== 'anonymous' && actor.user.id === skill.owner_id;
}

/** Shown to everyone: published, and not hidden pending review of reports. */
export function isPublic(skill: Pick<Visible, 'status' | 'hidden_at'>): boolean {
  return skill.status === 'published' && skill.hidden_at === null;
}

/** The public sees public skills; an owner sees its own in every state, hidden or not; an admin session sees all. */
export function canSee(actor: Actor, skill: Visible): boolean {
  return isPublic(skill) || isOwner(actor, skill) || isAdminSession(actor);
}

/** Metadata edits and draft deletion: the owner (session or key with scope) or an admin session. */
export function canManage(actor: Actor, skill: Pick<Visible, 'owner_id'>): boolean {
  return isOwner(actor, skill) || isAdminSession(actor);
}
