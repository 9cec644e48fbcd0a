import type { CallLogRow, CallLogsRepository } from '../../db/repositories/call-logs.js';
import { addDays, nowIso, toIso } from '../../lib/time.js';
import { adminSessionRequired, isAdminSession, type AuthenticatedActor } from '../actor.js';
import { notFound, validationFailed } from '../errors.js';
import type { CallLog } from './entry.js';
import type { CallLogRecorder } from './recorder.js';

export type { CallLog };

function toCallLog(row: CallLogRow): CallLog {
  return { ...row, duration_ms: row.duration_ms, status_code: row.status_code, created_at: toIso(row.created_at) };
}

export interface LogQuery {
  from?: string;
  to?: string;
  status_code?: string;
  method?: string;
  user_id?: string;
  page: number;
  pageSize: number;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function instant(value: string, field: string): string {
  // ISO 8601 with a time zone (or a plain date, taken as UTC midnight).
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw validationFailed([{ field, message: 'must be an ISO 8601 date or date-time with a time zone, e.g. 2026-11-21T09:30:00Z' }]);
  }
  return new Date(value).toISOString();
}

function statusRange(value: string): { min: number; max: number } {
  if (/^[1-5]\d\d$/.test(value)) return { min: Number(value), max: Number(value) };
  const match = /^([1-5])xx$/i.exec(value);
  if (match) return { min: Number(match[1]) * 100, max: Number(match[1]) * 100 + 99 };
  throw validationFailed([{ field: 'status_code', message: 'must be a status code like 404 or a class like 4xx' }]);
}

export function callLogService(deps: { logs: CallLogsRepository; recorder: CallLogRecorder; retentionDays: number }) {
  const { logs, recorder } = deps;
  return {
    async list(actor: AuthenticatedActor, query: LogQuery) {
      let userId = actor.user.id;
      if (query.user_id !== undefined) {
        if (!isAdminSession(actor)) throw adminSessionRequired("Only an administrator's session can read another user's calls.");
        userId = query.user_id;
      }
      const from = query.from !== undefined ? instant(query.from, 'from') : undefined;
      const to = query.to !== undefined ? instant(query.to, 'to') : undefined;
      const status = query.status_code !== undefined ? statusRange(query.status_code) : undefined;
      let method: string | undefined;
      if (query.method !== undefined) {
        method = query.method.toUpperCase();
        if (!METHODS.includes(method)) throw validationFailed([{ field: 'method', message: `must be one of ${METHODS.join(', ')}` }]);
      }
      // This node's unwritten entries first, so the caller's most recent calls are in the answer.
      await recorder.flush();
      const { rows, total } = await logs.list({
        userId,
        from,
        to,
        status,
        method,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { items: rows.map(toCallLog), total };
    },

    async get(actor: AuthenticatedActor, requestId: string): Promise<CallLog> {
      await recorder.flush();
      const row = await logs.find(requestId);
      // Another user's call is as absent as an unknown one, except to an administrator's session.
      if (!row || (row.user_id !== actor.user.id && !isAdminSession(actor))) {
        throw notFound('log_not_found', `You have no call with request id "${requestId}".`);
      }
      return toCallLog(row);
    },

    /** Deletes entries past the retention period. */
    prune(): Promise<number> {
      return logs.prune(addDays(nowIso(), -deps.retentionDays));
    },
  };
}

export type CallLogService = ReturnType<typeof callLogService>;
