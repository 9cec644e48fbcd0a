import { isAdminSession, type Actor } from '../actor.js';
import { orgRules } from '../orgs/roles.js';
import type { SkillStatus } from './statuses.js';

interface Visible {
  status: SkillStatus;
  owner_id: string;
  /** The owning organisation; null when the skill's user (owner_id) owns it. */
  org_id: string | null;
  /** 1 when only the owning organisation's members see the skill. */
  private: number;
  /** Set while users' reports hide the skill pending an administrator's review (domain/reports). */
  hidden_at: Date | string | null;
}

/**
 * Whether the caller manages the skill as its owner: the user who owns it, or a member of the organisation that owns
 * it with a role that manages skills. Every right a skill's owner has is theirs.
 */
export function isOwner(actor: Actor, skill: Pick<Visible, 'owner_id' | 'org_id'>): boolean {
  if (actor.kind === 'anonymous') return false;
  if (skill.org_id === null) return actor.user.id === skill.owner_id;
  return orgRules.manageSkills(actor.user.orgs?.get(skill.org_id));
}

/** Shown to everyone: published, not private, and not hidden pending review of reports. */
export function isPublic(skill: Pick<Visible, 'status' | 'hidden_at' | 'private'>): boolean {
  return skill.status === 'published' && skill.hidden_at === null && skill.private === 0;
}

/**
 * The public sees public skills; an owner (or a member of the owning organisation) sees its own in every state,
 * hidden or private; an admin session sees all.
 */
export function canSee(actor: Actor, skill: Visible): boolean {
  return isPublic(skill) || isOwner(actor, skill) || isMemberOf(actor, skill) || isAdminSession(actor);
}

/** Metadata edits and draft deletion: the owner (session or key with scope), a member who manages it, or an admin session. */
export function canManage(actor: Actor, skill: Pick<Visible, 'owner_id' | 'org_id'>): boolean {
  return isOwner(actor, skill) || isAdminSession(actor);
}

/** A member of the owning organisation, in any role. */
function isMemberOf(actor: Actor, skill: Pick<Visible, 'org_id'>): boolean {
  return actor.kind !== 'anonymous' && skill.org_id !== null && actor.user.orgs?.has(skill.org_id) === true;
}

/** The caller's role in the organisation owning the skill (undefined: none, or the skill is a user's). */
export function orgRoleFor(actor: Actor, skill: Pick<Visible, 'org_id'>) {
  return actor.kind === 'anonymous' || skill.org_id === null ? undefined : actor.user.orgs?.get(skill.org_id);
}
