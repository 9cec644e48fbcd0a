import type { FeedbackRepository } from '../../db/repositories/feedback.js';
import type { VersionsRepository } from '../../db/repositories/versions.js';
import { newId } from '../../lib/ids.js';
import { nowIso, toIso } from '../../lib/time.js';
import { isAdminSession, type Actor } from '../actor.js';
import { forbidden, notFound, validationFailed } from '../errors.js';
import type { SkillService } from '../skills/skills.js';
import { isOwner, isPublic } from '../skills/visibility.js';

import { COMMENT_MAX } from '@skill-registry/rules/limits';

export interface Feedback {
  id: string;
  skill_id: string;
  version: string | null;
  rating: number | null;
  comment: string | null;
  author: { id: string; username: string } | null;
  created_at: string;
}

export interface FeedbackInput {
  skill_id: string;
  rating?: number | null;
  comment?: string | null;
  version?: string | null;
}

export function feedbackService(deps: { feedback: FeedbackRepository; versions: VersionsRepository; skills: SkillService }) {
  const { feedback, versions, skills } = deps;

  return {
    /** Public: anyone may leave feedback on a published skill; a signed-in caller is recorded as its author. */
    async submit(actor: Actor, input: FeedbackInput): Promise<Feedback> {
      const rating = input.rating ?? null;
      const comment = input.comment === undefined || input.comment === null || input.comment.trim() === '' ? null : input.comment.trim();
      if (rating === null && comment === null) {
        throw validationFailed([{ field: 'rating', message: 'give a rating (1 to 5), a comment, or both' }]);
      }
      if (comment !== null && [...comment].length > COMMENT_MAX) {
        throw validationFailed([{ field: 'comment', message: `must be at most ${COMMENT_MAX} characters` }]);
      }
      const skill = await skills.find(input.skill_id);
      // Only public skills take feedback; anything else is, to this caller, not there.
      if (skill === undefined || !isPublic(skill)) throw notFound('skill_not_found', `No published skill "${input.skill_id}".`);
      const version = input.version ?? null;
      if (version !== null && !(await versions.exists(skill.id, version))) {
        throw notFound('version_not_found', `Skill "${skill.slug}" has no version "${version}".`);
      }
      const author = actor.kind === 'anonymous' ? null : { id: actor.user.id, username: actor.user.username };
      const row = { id: newId(), skill_id: skill.id, version, rating, comment, author_id: author?.id ?? null, created_at: nowIso() };
      await feedback.insert(row);
      return { id: row.id, skill_id: row.skill_id, version, rating, comment, author, created_at: row.created_at };
    },

    /** The skill's owner (session or key) or an admin session. */
    async list(actor: Actor, skillRef: string, filter: { version?: string; rating?: number; page: number; pageSize: number }) {
      const skill = await skills.visible(actor, skillRef);
      if (!isOwner(actor, skill) && !isAdminSession(actor)) {
        throw forbidden('not_owner', `Only the owner of "${skill.slug}" or an administrator can read its feedback.`);
      }
      const { rows, total, average } = await feedback.list({
        skillId: skill.id,
        version: filter.version,
        rating: filter.rating,
        limit: filter.pageSize,
        offset: (filter.page - 1) * filter.pageSize,
      });
      return {
        items: rows.map((r): Feedback => ({
          id: r.id,
          skill_id: r.skill_id,
          version: r.version,
          rating: r.rating,
          comment: r.comment,
          author: r.author_id !== null && r.author_username !== null ? { id: r.author_id, username: r.author_username } : null,
          created_at: toIso(r.created_at),
        })),
        total,
        summary: { count: total, average_rating: average === null ? null : Math.round(average * 100) / 100 },
      };
    },
  };
}

export type FeedbackService = ReturnType<typeof feedbackService>;
