import type { LogsQuery } from '@skill-registry/client';
import { COMMON_HELP, integerOption, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatTime, Output, table } from '../output.js';
import { clientFor, resolveTarget } from '../registry.js';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A point in time from `--since`/`--until`: a duration back from `now` (`90s`, `30m`, `1h`, `7d`, `2w`) or an
 * ISO 8601 date or date-time.
 */
export function parseInstant(option: string, value: string, now: number): string {
  const duration = /^(\d+)\s*([smhdw])$/i.exec(value.trim());
  if (duration) return new Date(now - Number(duration[1]) * UNITS[duration[2]!.toLowerCase()]!).toISOString();
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return new Date(at).toISOString();
  }
  throw usageError(`--${option} must be a duration such as 30m, 1h or 7d, or an ISO 8601 time such as 2026-01-31T12:00:00Z.`);
}

export const logs: Command = {
  name: 'logs',
  summary: 'show your recent API calls',
  help: `Usage: skill-registry logs [--status 4xx] [--since 1h] [options]

Lists the calls made with your credentials, newest first.

  --status CODE     a status (404) or a class (4xx, 5xx)
  --since WHEN      from this time: a duration back from now (30m, 1h, 7d) or an ISO 8601 time
  --until WHEN      before this time, in the same forms
  --method METHOD   GET, POST, PATCH, DELETE, ...
  --page N          the page (default 1)
  --limit N         calls per page, 1 to 100 (default 20)

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      status: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      method: { type: 'string' },
      page: { type: 'string' },
      limit: { type: 'string' },
    });
    if (positionals.length > 0) throw usageError(`logs takes no arguments (got ${positionals.join(' ')}).`);
    if (values.status !== undefined && !/^[1-5](\d\d|xx)$/i.test(values.status))
      throw usageError('--status must be a status such as 404 or a class such as 4xx.');
    const now = Date.now();
    const page = integerOption('page', values.page, 1, 1_000_000);
    const pageSize = integerOption('limit', values.limit, 1, 100);
    const query: LogsQuery = {
      status_code: values.status?.toLowerCase(),
      from: values.since === undefined ? undefined : parseInstant('since', values.since, now),
      to: values.until === undefined ? undefined : parseInstant('until', values.until, now),
      method: values.method?.toUpperCase(),
      page,
      page_size: pageSize,
    };
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);
    const result = await clientFor(target, { authenticated: true }).logs.list(query);
    out.result(result, () =>
      result.items.length === 0
        ? 'No calls match.'
        : [
            ...table(
              ['TIME', 'METHOD', 'STATUS', 'MS', 'PATH', 'REQUEST ID'],
              result.items.map((c) => [
                formatTime(c.created_at),
                c.method,
                String(c.status_code),
                c.duration_ms.toFixed(0),
                c.path,
                c.request_id,
              ]),
            ),
            `${result.items.length} of ${result.total}.`,
          ],
    );
    return EXIT.ok;
  },
};
