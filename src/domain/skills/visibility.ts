import { isAdminSession, type Actor } from '../actor.js';
import type { SkillStatus } from './statuses.js';

interface Visible {
  status: SkillStatus;
  owner_id: string;
}

export function isOwner(actor: Actor, skill: Pick<Visible, 'owner_id'>): boolean {
  return actor.kind !== 'anonymous' && actor.user.id === skill.owner_id;
}

/** The public sees published skills; an owner sees its own in every state; an admin session sees all. */
export function canSee(actor: Actor, skill: Visible): boolean {
  return skill.status === 'published' || isOwner(actor, skill) || isAdminSession(actor);
}

/** Metadata edits and draft deletion: the owner (session or key with scope) or an admin session. */
export function canManage(actor: Actor, skill: Visible): boolean {
  return isOwner(actor, skill) || isAdminSession(actor);
}
