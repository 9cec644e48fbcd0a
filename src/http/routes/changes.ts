import { problems } from '@skill-registry/api-schemas/common';
import { ChangePage, ChangesQuery } from '@skill-registry/api-schemas/changes';
import type { RoutePlugin } from '../types.js';

/**
 * The change feed: every change of what the caller may see, in commit order, a page at a time from a cursor, so that a
 * mirror, an index or a team's tooling follows the registry without reading every list again (docs/api-decisions.md,
 * "Change feed").
 */
export const changeRoutes: RoutePlugin = async (app, { services }) => {
  app.get(
    '/v1/changes',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['changes'],
        summary: 'Changes since a cursor',
        description:
          'Entries after `since` (from the first without it), oldest first. Anonymous callers see the changes of skills that are ' +
          'public now, and `skill.hidden` / `skill.deleted` of skills that were; owners and organisation members also their own ' +
          "skills' changes; an administrator's session every change. Keep `next` and pass it as `since` to read on: no entry is " +
          'skipped or repeated, even while others are still committing.',
        querystring: ChangesQuery,
        response: { 200: ChangePage, ...problems(400, 401) },
      },
    },
    async (request) => {
      const { since, limit } = request.query;
      return services.changes.list(request.actor, {
        ...(since === undefined ? {} : { since: Number(since) }),
        ...(limit === undefined ? {} : { limit }),
      });
    },
  );
};
