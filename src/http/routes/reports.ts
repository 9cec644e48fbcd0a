import { problems, SkillRefParams } from '@skill-registry/api-schemas/common';
import {
  ReportBody,
  ReportFiled,
  ReportList,
  ReportQueue,
  ReportQueueQuery,
  ReportsResolved,
  ResolveReportsBody,
  SkillReportsQuery,
} from '@skill-registry/api-schemas/reports';
import { caller } from '../plugins/auth.js';
import { pageOf } from '../paging.js';
import type { RoutePlugin } from '../types.js';

const adminOnly = { auth: 'admin' as const };

export const reportRoutes: RoutePlugin = async (app, { services }) => {
  app.post(
    '/v1/skills/:skillId/reports',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['reports'],
        summary: 'Report a skill',
        description:
          'A signed-in user (session or API key) reports a skill they can see and do not own, with a reason and details ' +
          '(at most 2,000 characters; required with `other`). One open report per user and skill: another is 409 ' +
          "`already_reported` until an administrator resolves the first. Reporting one's own skill is 403 `own_skill`. " +
          'Rate-limited per user (RATE_LIMIT_REPORTS a minute).',
        params: SkillRefParams,
        body: ReportBody,
        response: { 201: ReportFiled, ...problems(400, 401, 403, 404, 409, 415, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.reports.file(caller(request), request.params.skillId, request.body)),
  );

  app.get(
    '/v1/admin/reports',
    {
      config: adminOnly,
      schema: {
        tags: ['reports', 'admin'],
        summary: 'The queue of reported skills',
        description:
          'Skills with reports of a `state` (`open` by default), most distinct reporters first, then the longest waiting: ' +
          'each with its status, whether it is hidden pending review, its reasons counted, and its first and last report.',
        querystring: ReportQueueQuery,
        response: { 200: ReportQueue, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await services.reports.queue(request.actor, { state: request.query.state ?? 'open', ...page });
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.get(
    '/v1/admin/skills/:skillId/reports',
    {
      config: adminOnly,
      schema: {
        tags: ['reports', 'admin'],
        summary: "A skill's reports",
        description: 'Reports of a `state` (`open` by default), newest first, with reporters, details and resolutions.',
        params: SkillRefParams,
        querystring: SkillReportsQuery,
        response: { 200: ReportList, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await services.reports.listForSkill(request.actor, request.params.skillId, {
        state: request.query.state ?? 'open',
        ...page,
      });
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.post(
    '/v1/admin/skills/:skillId/reports/resolve',
    {
      config: adminOnly,
      schema: {
        tags: ['reports', 'admin'],
        summary: "Resolve a skill's open reports",
        description:
          '`dismissed` or `actioned`, with an optional `note`; either shows a skill hidden pending review again, and ' +
          '`actioned` may apply a status transition (`deprecated`, say) in the same step. Recorded in the audit trail. ' +
          '409 `no_open_reports` when there is nothing to resolve, `invalid_transition` for a transition not allowed.',
        params: SkillRefParams,
        body: ResolveReportsBody,
        response: { 200: ReportsResolved, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => services.reports.resolve(request.actor, request.params.skillId, request.body),
  );
};
