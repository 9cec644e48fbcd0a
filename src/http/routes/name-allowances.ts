import { Type } from 'typebox';
import { caller } from '../plugins/auth.js';
import { ListEnvelope, PageQuery, problems } from '@skill-registry/api-schemas/common';
import { NameAllowance, NameAllowanceBody, NameAllowanceParams } from '@skill-registry/api-schemas/names';
import { pageOf } from '../paging.js';
import type { RoutePlugin } from '../types.js';

const adminOnly = { auth: 'admin' as const };

/** Administrators' allowances of names the look-alike and reserved-word rules would refuse. */
export const nameAllowanceRoutes: RoutePlugin = async (app, { services }) => {
  app.post(
    '/v1/admin/name-allowances',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Allow a name',
        description:
          'Lets a skill slug or handle be created although it is reserved (`name_reserved`) or looks like a name someone else ' +
          'holds (`name_too_similar`): for its rightful holder. A `reason` is required (400 without one); it is kept with the ' +
          'allowance and in the audit trail. Allowing a name again replaces its reason.',
        body: NameAllowanceBody,
        response: { 201: NameAllowance, ...problems(400, 401, 403, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.names.grantAllowance(caller(request), request.body)),
  );

  app.get(
    '/v1/admin/name-allowances',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'List allowed names',
        description: 'The names administrators allowed, the newest first.',
        querystring: Type.Object({ ...PageQuery }),
        response: { 200: ListEnvelope(NameAllowance, 'NameAllowanceList'), ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await services.names.listAllowances(caller(request), page);
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.delete(
    '/v1/admin/name-allowances/:name',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Withdraw an allowance',
        description:
          'Names created while it stood stay; new ones are judged by the rules again. The withdrawal is recorded in the audit trail.',
        params: NameAllowanceParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await services.names.withdrawAllowance(caller(request), request.params.name);
      return reply.code(204).send(null);
    },
  );
};
