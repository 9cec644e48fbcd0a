import { Type } from 'typebox';
import { caller } from '../plugins/auth.js';
import { ApiKeyCreated, ApiKeyParams, CreateApiKeyBody, Me } from '@skill-registry/api-schemas/accounts';
import { problems } from '@skill-registry/api-schemas/common';
import { ListSkillsQuery, SkillList } from '@skill-registry/api-schemas/skills';
import type { AuthenticatedActor } from '../../domain/actor.js';
import type { RouteServices } from '../route-services.js';
import type { RoutePlugin } from '../types.js';
import { listQuery } from './skill-query.js';

/** The signed-in user and how the request authenticated: `GET /v1/me`, and `GET /v1/auth/session` for a caller with credentials. */
export async function describeCaller(services: RouteServices, actor: AuthenticatedActor) {
  return {
    user: await services.accounts.getUser(actor.user.id),
    auth: { kind: actor.kind, scopes: [...actor.scopes], api_key_id: actor.kind === 'api_key' ? actor.apiKeyId : null },
  };
}

export const meRoutes: RoutePlugin = async (app, { services }) => {
  app.get(
    '/v1/me',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'The caller',
        description: 'The signed-in user and how the request authenticated (session or API key, with the scopes it carries).',
        response: { 200: Me, ...problems(401) },
      },
    },
    async (request) => describeCaller(services, caller(request)),
  );

  app.get(
    '/v1/me/skills',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'My skills',
        description:
          "The caller's own skills in every state; `status` (draft, published, deprecated, all) narrows them. Same search, filters and sorts as GET /v1/skills.",
        querystring: ListSkillsQuery,
        response: { 200: SkillList, ...problems(400, 401) },
      },
    },
    async (request) => {
      const query = listQuery(request.query, true);
      const { items, total, match } = await services.skills.listMine(caller(request), query);
      return { items, total, match, page: query.page, page_size: query.pageSize };
    },
  );

  app.get(
    '/v1/me/api-keys',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['me'],
        summary: 'List my API keys',
        description: 'Live (not revoked) keys, newest first. The secret is never shown again after creation.',
        response: { 200: Type.Object({ items: Type.Array(Type.Ref('ApiKey')) }), ...problems(401, 403) },
      },
    },
    async (request) => ({ items: await services.apiKeys.list(caller(request)) }),
  );

  app.post(
    '/v1/me/api-keys',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['me'],
        summary: 'Create an API key',
        description:
          'Returns the secret `key` once. `scopes` may be empty (a key that can read `/v1/me` and the caller\'s logs) or `["skill:upload"]`.',
        body: CreateApiKeyBody,
        response: { 201: ApiKeyCreated, ...problems(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.apiKeys.create(caller(request), request.body)),
  );

  app.delete(
    '/v1/me/api-keys/:keyId',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['me'],
        summary: 'Revoke an API key',
        params: ApiKeyParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await services.apiKeys.revoke(caller(request), request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};
