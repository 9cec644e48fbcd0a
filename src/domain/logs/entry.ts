import type { PendingCallLog } from '../../db/repositories/call-logs.js';
import type { Same } from '../../lib/same-type.js';
import type { AuthenticatedActor } from '../actor.js';

/** One call as the recorder takes it, before it is written: its time as epoch milliseconds. */
export interface CallLogEntry {
  request_id: string;
  user_id: string;
  method: string;
  /** The path with its query string, as requested. */
  path: string;
  /** The route pattern, e.g. /v1/skills/:skillId; null for a path no route matched. */
  route?: string | null;
  status_code: number;
  duration_ms: number;
  ip?: string | null;
  user_agent?: string | null;
  /** How the caller was authenticated. */
  auth: AuthenticatedActor['kind'];
  api_key_id?: string | null;
  created_at: number;
}

/** A call-log entry as the API returns it: its time as an ISO 8601 string. */
export interface CallLog extends Omit<CallLogEntry, 'created_at' | 'route' | 'ip' | 'user_agent' | 'api_key_id'> {
  route: string | null;
  ip: string | null;
  user_agent: string | null;
  api_key_id: string | null;
  created_at: string;
}

// An entry names exactly the columns a call-log row stores: a column added or dropped there must be decided here.
true satisfies Same<keyof CallLogEntry, keyof PendingCallLog>;
