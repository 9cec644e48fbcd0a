import type { SkillNameChangeRow, SkillsRepository } from '../../db/repositories/skills.js';
import { toIso } from '../../lib/time.js';
import { isAdminSession, type Actor } from '../actor.js';
import type { SkillService } from './skills.js';
import { isOwner } from './visibility.js';

/** How many earlier names one answer lists (the newest); a skill renamed more often keeps the rest in the audit trail. */
export const NAME_HISTORY_MAX = 100;

/** Who renamed a skill, as the caller may know it: a user by name, or the organisation one of whose members did. */
export type NameChanger = { kind: 'user'; id: string; username: string } | { kind: 'org'; handle: string };

export interface SkillNameChange {
  /** The display name the skill had. */
  name: string;
  /** When it stopped having it (the rename). */
  until: string;
  /** Who renamed it; absent when the caller may not know (an administrator's rename, seen by the public). */
  changed_by?: NameChanger;
}

/**
 * The display names a skill had since it was published: a rename cannot pass a skill off as another one unnoticed.
 * Renames of a draft are not recorded (no one but its owner and reviewers has seen its name). Whoever may see the
 * skill may see its history; anyone else gets the skill's 404. Who renamed it: the owner, the owning organisation's
 * members and administrators see the user; the public sees a user's own renames of their skill by name, and an
 * organisation's skill renamed by one of its members (or by its creator) credited to the organisation, since its
 * members are private to it. An administrator's rename, or one by someone who has since left the organisation, is
 * credited to no one in public.
 */
export function skillNameHistory(deps: { skills: SkillService; repository: Pick<SkillsRepository, 'nameHistory'> }) {
  return {
    async list(actor: Actor, ref: string): Promise<{ items: SkillNameChange[] }> {
      const skill = await deps.skills.visibleForReading(actor, ref);
      const rows = await deps.repository.nameHistory(skill.id, NAME_HISTORY_MAX, skill.org_id);
      // isOwner holds every member of an owning organisation (any role manages its skills).
      const seesEveryone = isOwner(actor, skill) || isAdminSession(actor);
      return {
        items: rows.map((row) => {
          const item: SkillNameChange = { name: row.name, until: toIso(row.until) };
          const changer = changerFor(row, skill, seesEveryone);
          if (changer) item.changed_by = changer;
          return item;
        }),
      };
    },
  };
}

function changerFor(
  row: SkillNameChangeRow,
  skill: { owner_id: string; org_id: string | null; org_handle: string | null },
  seesEveryone: boolean,
): NameChanger | undefined {
  if (row.actor_id === null || row.actor_username === null) return undefined;
  const user: NameChanger = { kind: 'user', id: row.actor_id, username: row.actor_username };
  if (seesEveryone) return user;
  if (skill.org_id === null || skill.org_handle === null) return row.actor_id === skill.owner_id ? user : undefined;
  return row.actor_in_org || row.actor_id === skill.owner_id ? { kind: 'org', handle: skill.org_handle } : undefined;
}

export type SkillNameHistory = ReturnType<typeof skillNameHistory>;
