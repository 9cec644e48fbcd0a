import type { SkillsRepository } from '../../db/repositories/skills.js';
import { toIso } from '../../lib/time.js';
import { isAdminSession, type Actor } from '../actor.js';
import type { SkillService } from './skills.js';
import { isOwner } from './visibility.js';

/** How many earlier names one answer lists (the newest); a skill renamed more often keeps the rest in the audit trail. */
export const NAME_HISTORY_MAX = 100;

export interface SkillNameChange {
  /** The display name the skill had. */
  name: string;
  /** When it stopped having it (the rename). */
  until: string;
  /** Who renamed it: shown to the owner and administrators, and to everyone when the owner did. */
  changed_by?: { id: string; username: string };
}

/**
 * The display names a skill had since it was published: a rename cannot pass a skill off as another one unnoticed.
 * Renames of a draft are not recorded (no one but its owner and reviewers has seen its name). Whoever may see the
 * skill may see its history; anyone else gets the skill's 404. Who renamed it is not public when an administrator
 * did: the public learns only the owner's own renames (the owner is public on the skill anyway).
 */
export function skillNameHistory(deps: { skills: SkillService; repository: Pick<SkillsRepository, 'nameHistory'> }) {
  return {
    async list(actor: Actor, ref: string): Promise<{ items: SkillNameChange[] }> {
      const skill = await deps.skills.visibleForReading(actor, ref);
      const rows = await deps.repository.nameHistory(skill.id, NAME_HISTORY_MAX);
      const seesEveryone = isOwner(actor, skill) || isAdminSession(actor);
      return {
        items: rows.map((row) => {
          const item: SkillNameChange = { name: row.name, until: toIso(row.until) };
          if (row.actor_id !== null && row.actor_username !== null && (seesEveryone || row.actor_id === skill.owner_id)) {
            item.changed_by = { id: row.actor_id, username: row.actor_username };
          }
          return item;
        }),
      };
    },
  };
}

export type SkillNameHistory = ReturnType<typeof skillNameHistory>;
