import type { CallLogEntry } from './entry.js';
import { newId } from '../../lib/ids.js';

/** Refused calls of one user are summarised per window of this length: the rate limits' own window. */
export const REFUSAL_WINDOW_MS = 60_000;
/** Users with an open summary at once; past this many, the oldest summary is closed early. */
const OPEN_SUMMARIES_MAX = 10_000;
/** The status whose calls are summarised: a refusal costs the registry nothing but its log row. */
export const SUMMARISED_STATUS = 429;

interface Open {
  /** When the window opened: the first refused call, which was logged as it came. */
  openedAt: number;
  /** Calls refused after the first, in this window, and the first and last of them. */
  count: number;
  firstAt: number;
  last: CallLogEntry | null;
}

/**
 * Collapses a flood of refused calls (429) into at most two call-log rows per user and window: the first refused
 * call of a window is kept as it is, and every further one is only counted. When the window has passed, one
 * summary row stands for them: status 429, the last one's method, address, user agent and key, created at the
 * first one's time, and a path reading `[N calls refused with 429 from <t1> to <t2>] <last path>`. A window with no
 * further refusal adds no summary. `now` is injected, so the windows follow the caller's clock.
 */
export function refusalSummaries(now: () => number = () => Date.now()) {
  const open = new Map<string, Open>();
  /** Summaries of closed windows, not yet handed out. */
  let ready: CallLogEntry[] = [];

  function close(user: string, window: Open): void {
    open.delete(user);
    const row = summaryOf(window);
    if (row !== null) ready.push(row);
  }

  function summaryOf(window: Open): CallLogEntry | null {
    const last = window.last;
    if (last === null || window.count === 0) return null;
    const range = `from ${new Date(window.firstAt).toISOString()} to ${new Date(last.created_at).toISOString()}`;
    return {
      ...last,
      request_id: newId(),
      path: `[${window.count} call${window.count === 1 ? '' : 's'} refused with ${SUMMARISED_STATUS} ${range}] ${last.path}`,
      duration_ms: 0,
      created_at: window.firstAt,
    };
  }

  return {
    /** Whether `entry` is to be written now; a refused call in an open window is counted instead. */
    admit(entry: CallLogEntry): boolean {
      if (entry.status_code !== SUMMARISED_STATUS) return true;
      const at = now();
      const window = open.get(entry.user_id);
      if (window === undefined || window.openedAt + REFUSAL_WINDOW_MS <= at) {
        if (window !== undefined) close(entry.user_id, window);
        open.set(entry.user_id, { openedAt: at, count: 0, firstAt: 0, last: null });
        if (open.size > OPEN_SUMMARIES_MAX) {
          const [oldest, first] = open.entries().next().value!;
          close(oldest, first);
        }
        return true;
      }
      if (window.count === 0) window.firstAt = entry.created_at;
      window.count += 1;
      window.last = entry;
      return false;
    },

    /** The summaries of the windows that have ended (all of them with `everything`), each window then forgotten. */
    due(everything = false): CallLogEntry[] {
      const at = now();
      for (const [user, window] of open) {
        // Map order is the order windows opened in: the first still open ends the search.
        if (!everything && window.openedAt + REFUSAL_WINDOW_MS > at) break;
        close(user, window);
      }
      const rows = ready;
      ready = [];
      return rows;
    },

    /** Whether a summary is ready to be written. */
    hasDue(): boolean {
      if (ready.length > 0) return true;
      for (const window of open.values()) return window.openedAt + REFUSAL_WINDOW_MS <= now();
      return false;
    },
  };
}
