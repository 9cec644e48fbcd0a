import type { ReportQueueRow, ReportRow } from '../../db/repositories/reports.js';
import type { Same } from '../../lib/same-type.js';
import { toIso } from '../../lib/time.js';
import type { SkillStatus } from '../skills/statuses.js';
import type { ReportReason } from './rules.js';

export type ReportState = 'open' | 'resolved';
export type ReportResolution = 'dismissed' | 'actioned';

// The reasons, states and resolutions the domain knows are the ones the skill_reports table stores.
true satisfies Same<ReportReason, ReportRow['reason']>;
true satisfies Same<ReportState, ReportRow['state']>;
true satisfies Same<ReportResolution | null, ReportRow['resolution']>;

interface UserSummary {
  id: string;
  username: string;
}

/** A report as its reporter sees it once filed. */
export interface FiledReport {
  id: string;
  skill_id: string;
  reason: ReportReason;
  details: string | null;
  state: ReportState;
  created_at: string;
}

/** A report as administrators see it. */
export interface Report extends FiledReport {
  reporter: UserSummary;
  resolution: ReportResolution | null;
  resolution_note: string | null;
  resolved_by: UserSummary | null;
  resolved_at: string | null;
}

/** One skill in the administrators' queue: its reports of one state, counted. */
export interface ReportQueueItem {
  skill: { id: string; slug: string; name: string; status: SkillStatus; hidden: boolean; owner: UserSummary };
  reporters: number;
  reports: number;
  reasons: { reason: ReportReason; count: number }[];
  first_reported_at: string;
  last_reported_at: string;
}

export function toReport(row: ReportRow): Report {
  return {
    id: row.id,
    skill_id: row.skill_id,
    reason: row.reason,
    details: row.details,
    state: row.state,
    created_at: toIso(row.created_at),
    reporter: { id: row.reporter_id, username: row.reporter_username },
    resolution: row.resolution,
    resolution_note: row.resolution_note,
    resolved_by:
      row.resolved_by !== null && row.resolver_username !== null ? { id: row.resolved_by, username: row.resolver_username } : null,
    resolved_at: toIso(row.resolved_at),
  };
}

export function toQueueItem(row: ReportQueueRow, reasons: { reason: ReportReason; count: number }[]): ReportQueueItem {
  return {
    skill: {
      id: row.skill_id,
      slug: row.slug,
      name: row.name,
      status: row.status,
      hidden: row.hidden_at !== null,
      owner: { id: row.owner_id, username: row.owner_username },
    },
    reporters: row.reporters,
    reports: row.reports,
    reasons: [...reasons].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    first_reported_at: toIso(row.first_reported_at),
    last_reported_at: toIso(row.last_reported_at),
  };
}
