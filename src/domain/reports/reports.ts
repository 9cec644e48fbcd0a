import type { ReportsRepository } from '../../db/repositories/reports.js';
import type { SkillUpdate } from '../../db/repositories/skills.js';
import { newId } from '../../lib/ids.js';
import { nowIso } from '../../lib/time.js';
import { requireAdminSession, type Actor, type AuthenticatedActor } from '../actor.js';
import { conflict, forbidden, validationFailed } from '../errors.js';
import type { SkillService } from '../skills/skills.js';
import type { SkillStatus } from '../skills/statuses.js';
import { checkTransition } from '../skills/transitions.js';
import { CLEARED_BY_PUBLISHING, requireInstallableVersion } from '../skills/publishing.js';
import { checkPublishable } from '../skills/quarantine.js';
import { isOwner } from '../skills/visibility.js';
import { checkDetails, type ReportReason } from './rules.js';
import { toQueueItem, toReport, type FiledReport, type ReportResolution, type ReportState } from './views.js';

export interface ReportInput {
  reason: ReportReason;
  details?: string | undefined;
}

export interface ResolutionInput {
  resolution: ReportResolution;
  note?: string | undefined;
  /** With `actioned`: a status transition applied in the same step. */
  status?: SkillStatus | undefined;
}

export interface ReportPageQuery {
  state: ReportState;
  page: number;
  pageSize: number;
}

/**
 * Users' reports of skills, and the administrators' queue of them. With `hideThreshold` above 0, a skill that
 * that many distinct users hold open reports of is hidden pending review (see docs/api-decisions.md, "Reports"):
 * the mark is set on the skill row, so every node's index and caches follow it as they follow any change of a skill.
 */
export function reportService(deps: { reports: ReportsRepository; skills: SkillService; hideThreshold: number }) {
  const { reports, skills, hideThreshold } = deps;

  return {
    /** A signed-in user reports a skill they can see and do not own; one open report per user and skill. */
    async file(actor: AuthenticatedActor, skillRef: string, input: ReportInput): Promise<FiledReport> {
      const skill = await skills.visible(actor, skillRef);
      if (isOwner(actor, skill)) throw forbidden('own_skill', `"${skill.slug}" is yours; you cannot report your own skill.`);
      const details = checkDetails(input.reason, input.details);
      const row = {
        id: newId(),
        skill_id: skill.id,
        reporter_id: actor.user.id,
        reason: input.reason,
        details,
        state: 'open' as const,
        created_at: nowIso(),
      };
      // The unique index on open reports refuses a second one, even when two race.
      if ((await reports.insert(row)) === 'already_open') {
        throw conflict('already_reported', `You already have an open report of "${skill.slug}"; an administrator will review it.`);
      }
      if (hideThreshold > 0) {
        const at = nowIso();
        const hidden = await reports.hideIfReported(skill.id, hideThreshold, at, {
          id: newId(),
          actor_id: null,
          action: 'skill.hidden',
          target_type: 'skill',
          target_id: skill.id,
          from_value: 'false',
          to_value: 'true',
          reason: `${hideThreshold} or more users reported it (REPORTS_HIDE_THRESHOLD)`,
          created_at: at,
        });
        if (hidden) skills.changed(skill.id);
      }
      return { id: row.id, skill_id: row.skill_id, reason: row.reason, details, state: row.state, created_at: row.created_at };
    },

    /** Administrators: skills with reports of a state, grouped. */
    async queue(actor: Actor, query: ReportPageQuery) {
      requireAdminSession(actor);
      const { rows, reasons, total } = await reports.queue({
        state: query.state,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      const bySkill = new Map<string, { reason: ReportReason; count: number }[]>();
      for (const { skill_id, reason, count } of reasons) {
        const list = bySkill.get(skill_id) ?? [];
        list.push({ reason, count });
        bySkill.set(skill_id, list);
      }
      return { items: rows.map((row) => toQueueItem(row, bySkill.get(row.skill_id) ?? [])), total };
    },

    /** Administrators: one skill's reports of a state, newest first, with reporters and details. */
    async listForSkill(actor: Actor, skillRef: string, query: ReportPageQuery) {
      requireAdminSession(actor);
      const skill = await skills.visible(actor, skillRef);
      const { rows, total } = await reports.listForSkill(skill.id, {
        state: query.state,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { items: rows.map(toReport), total };
    },

    /**
     * Administrators: closes every open report of a skill. Either resolution lifts the skill's hiding; `actioned`
     * may move its status in the same step (deprecating it, say), so that it is never shown in between.
     */
    async resolve(actor: Actor, skillRef: string, input: ResolutionInput) {
      requireAdminSession(actor);
      const skill = await skills.visible(actor, skillRef);
      const to = input.status;
      if (to !== undefined && input.resolution !== 'actioned') {
        throw validationFailed([{ field: 'status', message: 'a status can only be applied with the resolution "actioned"' }]);
      }
      if (to !== undefined) {
        checkTransition(skill.status, to);
        // Publishing here follows the moderation endpoint's rules; overriding a quarantine is done there, with its reason.
        requireInstallableVersion(skill, to);
        checkPublishable(skill, to, false, null);
      }
      const note = input.note?.trim() || null;
      const at = nowIso();
      const audit = (action: string, from: string, toValue: string) => ({
        id: newId(),
        actor_id: actor.user.id,
        action,
        target_type: 'skill',
        target_id: skill.id,
        from_value: from,
        to_value: toValue,
        reason: note,
        created_at: at,
      });
      const audits = [audit('skill.reports', 'open', input.resolution)];
      if (skill.hidden_at !== null) audits.push(audit('skill.hidden', 'true', 'false'));
      if (to !== undefined) audits.push(audit('skill.status', skill.status, to));
      // Either resolution lifts the hiding; a transition is applied as the moderation endpoint applies it.
      const change: SkillUpdate =
        to === undefined
          ? { hidden_at: null }
          : { hidden_at: null, status: to, updated_at: at, ...(to === 'published' ? { published_at: at, ...CLEARED_BY_PUBLISHING } : {}) };
      const result = await reports.resolve({
        skillId: skill.id,
        resolution: input.resolution,
        note,
        resolvedBy: actor.user.id,
        at,
        skill: change,
        fromStatus: skill.status,
        audits,
      });
      if (result.outcome === 'none_open') throw conflict('no_open_reports', `"${skill.slug}" has no open reports to resolve.`);
      if (result.outcome === 'status_changed') {
        throw conflict('invalid_transition', `The status of "${skill.slug}" changed while this request was made; reload and retry.`);
      }
      skills.changed(skill.id);
      return { skill_id: skill.id, resolution: input.resolution, resolved: result.count, status: to ?? skill.status };
    },
  };
}

export type ReportService = ReturnType<typeof reportService>;
