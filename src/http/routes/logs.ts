import { caller } from '../plugins/auth.js';
import { ListEnvelope, problems } from '@skill-registry/api-schemas/common';
import { pageOf } from '../paging.js';
import { CallLogRef, LogParams, LogsQuery } from '@skill-registry/api-schemas/logs';
import type { RoutePlugin } from '../types.js';

export const logRoutes: RoutePlugin = async (app, { services }) => {
  app.get(
    '/v1/logs',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['logs'],
        summary: 'My calls',
        description:
          'Every /v1 request made with your credentials, newest first. Filters: `from` (inclusive) and `to` (exclusive) as ' +
          'ISO 8601, `status_code` (404 or 4xx), `method`. An admin session may add `user_id`. A call appears within a second.',
        querystring: LogsQuery,
        response: { 200: ListEnvelope(CallLogRef, 'CallLogList'), ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { from, to, status_code, method, user_id } = request.query;
      const { items, total } = await services.logs.list(caller(request), {
        from,
        to,
        status_code,
        method,
        user_id,
        ...page,
      });
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.get(
    '/v1/logs/:requestId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['logs'],
        summary: 'One call by request id',
        description: "Yours (an admin session: anyone's); otherwise 404. The id is the response's X-Request-Id.",
        params: LogParams,
        response: { 200: CallLogRef, ...problems(401, 404) },
      },
    },
    async (request) => services.logs.get(caller(request), request.params.requestId),
  );
};
