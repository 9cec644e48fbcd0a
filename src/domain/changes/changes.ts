import type { ChangeAudience, ChangeRow, ChangesRepository } from '../../db/repositories/changes.js';
import { toIso } from '../../lib/time.js';
import { isAdminSession, type Actor } from '../actor.js';
import { CHANGE_TYPES, CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT, type ChangeType } from '@skill-registry/rules/changes';

export { CHANGE_TYPES, CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT, type ChangeType };

/**
 * The entries that tell a follower to drop a skill: it stopped being public (`skill.hidden`, whatever the reason:
 * deprecated, hidden pending review of reports, made private, moved to a private scope) or is gone. A viewer who could
 * see the skill before the change sees them even though the skill is no longer theirs to see.
 */
export const DROP_TYPES: readonly ChangeType[] = ['skill.hidden', 'skill.deleted'];

/** A change-feed entry as the API shows it (and as a webhook delivers it). */
export interface ChangeEntry {
  /** The entry's number as a string: also the cursor to read on after it. */
  id: string;
  type: ChangeType;
  occurred_at: string;
  skill: { id: string; name: string };
  version: string | null;
  /** Whether the skill was public right after this change. */
  public: boolean;
  links: { skill: string; version: string | null };
}

export interface ChangePage {
  items: ChangeEntry[];
  /** The cursor to pass as `since` next: after the last entry read, or the feed's end when the page is not full. */
  next: string;
}

export function toChangeEntry(row: ChangeRow): ChangeEntry {
  const skillPath = `/v1/skills/${encodeURIComponent(row.skill_id)}`;
  return {
    id: String(row.seq),
    type: row.type as ChangeType,
    occurred_at: toIso(row.occurred_at),
    skill: { id: row.skill_id, name: row.skill_name },
    version: row.version,
    public: row.is_public === 1,
    links: {
      skill: skillPath,
      version: row.version === null ? null : `${skillPath}/versions/${encodeURIComponent(row.version)}`,
    },
  };
}

/** Who sees which entries: an administrator's session every one; anyone else by the skill's visibility now. */
export function audienceOf(actor: Actor): ChangeAudience {
  if (isAdminSession(actor)) return { all: true };
  if (actor.kind === 'anonymous') return { all: false, userId: null, orgIds: [], dropTypes: DROP_TYPES };
  return { all: false, userId: actor.user.id, orgIds: [...(actor.user.orgs?.keys() ?? [])], dropTypes: DROP_TYPES };
}

/**
 * The change feed: what changed, in the order it committed, filtered by what the caller may see now (an entry of a
 * skill that has since stopped being public is not shown to the public; its `skill.hidden` entry is). A page is read
 * up to the feed's end as it was when the read began, so `next` never passes an entry the read could not see.
 */
export function changeService(deps: { changes: ChangesRepository }) {
  return {
    async list(actor: Actor, query: { since?: number; limit?: number }): Promise<ChangePage> {
      const since = query.since ?? 0;
      const limit = Math.min(Math.max(query.limit ?? CHANGES_DEFAULT_LIMIT, 1), CHANGES_MAX_LIMIT);
      // The end is read first: every entry up to it has committed (or rolled back) by then, so the page's own read,
      // which comes later, sees all of them, and a page that is not full may hand out the end as its cursor.
      const head = await deps.changes.head();
      const rows = await deps.changes.page(since, head, limit, audienceOf(actor));
      const last = rows.at(-1);
      const next = rows.length === limit && last !== undefined ? last.seq : Math.max(since, head);
      return { items: rows.map(toChangeEntry), next: String(next) };
    },
  };
}

export type ChangeService = ReturnType<typeof changeService>;
