import type { CallLogEntry } from './entry.js';

/**
 * What one call-log row may hold: a path (with its query string) and a user agent are stored up to these many
 * characters, the rest cut off and marked by a trailing "…". Together with the rate limits and the summary of
 * refused calls (refusals.ts) this bounds the bytes any one client adds to the log.
 */
export const LOGGED_PATH_MAX = 1024;
export const LOGGED_USER_AGENT_MAX = 256;

/** `text` cut to at most `max` characters, never through a surrogate pair. */
export function truncated(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Half a surrogate pair could not be stored (PostgreSQL refuses it).
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export function boundedEntry(entry: CallLogEntry): CallLogEntry {
  const path = entry.path;
  const agent = entry.user_agent;
  if (path.length <= LOGGED_PATH_MAX && (agent === null || agent === undefined || agent.length <= LOGGED_USER_AGENT_MAX)) return entry;
  return {
    ...entry,
    path: truncated(path, LOGGED_PATH_MAX),
    user_agent: agent === null || agent === undefined ? agent : truncated(agent, LOGGED_USER_AGENT_MAX),
  };
}
