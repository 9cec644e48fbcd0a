import { Type } from 'typebox';
import { isAdminSession } from '../../domain/actor.js';
import { AppError } from '../../domain/errors.js';
import { caller } from '../plugins/auth.js';
import { sendFreshJson, sendJson } from '../cached-json.js';
import { problems, SkillRefParams } from '@skill-registry/api-schemas/common';
import {
  CreateSkillBody,
  ListSkillsQuery,
  SkillList,
  SkillNameHistory,
  SkillRef,
  UpdateSkillBody,
} from '@skill-registry/api-schemas/skills';
import type { RoutePlugin } from '../types.js';
import { listQuery } from './skill-query.js';

export const skillRoutes: RoutePlugin = async (app, { services }) => {
  app.get(
    '/v1/skills',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: 'List and search skills',
        description:
          'Published skills by default. `q` (or `keyword`, `query`, `search`) searches name, slug, tags, category and description; ' +
          'every word must match (as a word, a stem, the last word as a prefix, with a typo, or a substring in scripts without ' +
          'spaces); when no skill matches every word the best partial matches come back with `match: partial`. Results carry ' +
          '`highlights`. Sorts: relevance (the default with q; 400 without), latest (the default otherwise), downloads, featured; ' +
          'ties break on id. ' +
          'What one request may ask is bounded (400 `validation_failed` beyond): the search text at 200 characters and 8 different ' +
          'words, `tags` at 20 different tags, and paging at the first 10,000 items (page × page_size).',
        querystring: ListSkillsQuery,
        response: { 200: SkillList, ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      const admin = isAdminSession(request.actor);
      const query = listQuery(request.query, admin);
      const result = await services.skills.list(request.actor, query);
      // Only an admin session may list anything but published skills.
      return sendFreshJson(request, reply, {
        items: result.items,
        total: result.total,
        match: result.match,
        page: query.page,
        page_size: query.pageSize,
      });
    },
  );

  app.get(
    '/v1/skills/:skillId',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: 'Skill detail',
        description:
          'By id or slug. Drafts and deprecated skills are visible to their owner and to an admin session; to anyone else they do not exist (404).',
        params: SkillRefParams,
        response: { 200: SkillRef, ...problems(401, 404) },
      },
    },
    async (request, reply) => {
      const skill = await services.skills.get(request.actor, request.params.skillId);
      // A private skill's answer is for its members alone: no shared cache may keep it.
      if (skill.private) reply.header('cache-control', 'private, no-store');
      return sendJson(request, reply, skill, () => skill);
    },
  );

  app.get(
    '/v1/skills/:skillId/names',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: "A skill's earlier display names",
        description:
          'The names the skill had since it was published, newest first, each with when it was renamed (renames of a draft are ' +
          'not recorded). Visible to whoever may see the skill, 404 otherwise as for the skill detail. `changed_by` names the user ' +
          "to the owner, the owning organisation's members and an admin session; to everyone else it names the owner for the " +
          "owner's own renames of a user's skill, the organisation for renames of its skill by its members, and no one otherwise.",
        params: SkillRefParams,
        response: { 200: SkillNameHistory, ...problems(401, 404) },
      },
    },
    async (request) => services.skillNames.list(request.actor, request.params.skillId),
  );

  app.post(
    '/v1/skills',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Create a draft skill',
        description: 'The skill starts as a draft; an administrator publishes it. `slug` is derived from `name` when omitted.',
        body: CreateSkillBody,
        response: { 201: SkillRef, ...problems(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) => {
      const skill = await services.skills.create(caller(request), request.body);
      return reply.code(201).header('location', `/v1/skills/${skill.full_name}`).send(skill);
    },
  );

  app.patch(
    '/v1/skills/:skillId',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Update skill metadata',
        description:
          'Owner or admin session. Fields: name, description, category, tags, source_type, source_url. Setting both source fields ' +
          'to null clears the declared source. The slug is immutable; `featured` and `status` belong to the admin endpoints.',
        params: SkillRefParams,
        body: UpdateSkillBody,
        response: { 200: SkillRef, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request) => services.skills.update(request.actor, request.params.skillId, request.body),
  );

  app.delete(
    '/v1/skills/:skillId',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Delete a draft skill',
        description: 'Owner or admin session; only drafts (otherwise 409 `not_draft`). Removes its versions and their packages.',
        params: SkillRefParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.versions.removeDraft(request.actor, request.params.skillId);
      return reply.code(204).send(null);
    },
  );

  for (const operation of ['publish', 'deprecate'] as const) {
    app.post(
      `/v1/skills/:skillId/${operation}`,
      {
        config: { auth: 'none' },
        schema: {
          tags: ['skills'],
          summary: `Disabled: ${operation}`,
          description: 'Disabled in this phase for every caller. Status changes go through PATCH /v1/admin/skills/:skillId/status.',
          params: SkillRefParams,
          response: problems(410),
        },
      },
      async () => {
        throw new AppError(
          410,
          'operation_disabled',
          `POST /v1/skills/:skillId/${operation} is disabled; an administrator changes a skill's status with PATCH /v1/admin/skills/:skillId/status.`,
        );
      },
    );
  }
};
