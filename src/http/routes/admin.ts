import { Type } from 'typebox';
import { caller } from '../plugins/auth.js';
import { AdminCreateUserBody, AdminUpdateUserBody, Role, UserParams, UserRef } from '@skill-registry/api-schemas/accounts';
import { ListEnvelope, PageQuery, problems, SkillRefParams } from '@skill-registry/api-schemas/common';
import { pageOf } from '../paging.js';
import { FeaturedBody, SkillRef, StatusBody } from '@skill-registry/api-schemas/skills';
import { DeclineBody, ReviewQueue, ReviewQueueQuery } from '@skill-registry/api-schemas/review';
import type { RoutePlugin } from '../types.js';

const adminOnly = { auth: 'admin' as const };

export const adminRoutes: RoutePlugin = async (app, { services }) => {
  app.get(
    '/v1/admin/users',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'List users',
        description: '`q` matches username or email (substring, case-insensitive); oldest accounts first.',
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 320 })),
          role: Type.Optional(Role),
          disabled: Type.Optional(Type.Boolean()),
          ...PageQuery,
        }),
        response: { 200: ListEnvelope(UserRef, 'UserList'), ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { q, role, disabled } = request.query;
      const { items, total } = await services.accounts.listUsers(request.actor, {
        ...(q !== undefined && q.trim() !== '' ? { q: q.trim() } : {}),
        role,
        disabled,
        ...page,
      });
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.post(
    '/v1/admin/users',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Create a user',
        description: 'Works whether registration is open or closed; `role` defaults to user.',
        body: AdminCreateUserBody,
        response: { 201: UserRef, ...problems(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.accounts.createUser(request.actor, request.body)),
  );

  app.patch(
    '/v1/admin/users/:userId',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Change a user',
        description:
          'Sets `role` and/or `disabled`. A disabled user cannot sign in, and their sessions and API keys stop working at once. ' +
          'An administrator cannot demote or disable themselves, nor the last active administrator (409).',
        params: UserParams,
        body: AdminUpdateUserBody,
        response: { 200: UserRef, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => services.accounts.updateUser(request.actor, request.params.userId, request.body),
  );

  app.patch(
    '/v1/admin/skills/:skillId/status',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Publish, deprecate or republish',
        description:
          'Transitions: draft → published, published → deprecated, deprecated → published. Anything else is 409 ' +
          '`invalid_transition`. Each change is recorded in the audit trail with the optional `reason`. Publishing (or ' +
          'republishing) a skill without any version is 409 `no_installable_version`: its owner uploads a version first. ' +
          'Publishing a quarantined skill (every version malicious) is 409 `skill_quarantined` unless `override_quarantine` ' +
          'is true and a `reason` is given (400 without one); the override is recorded in the audit trail as well. ' +
          "Publishing clears a reviewer's decline (`declined`).",
        params: SkillRefParams,
        body: StatusBody,
        response: { 200: SkillRef, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      services.skills.setStatus(
        caller(request),
        request.params.skillId,
        request.body.status,
        request.body.reason,
        request.body.override_quarantine === true,
      ),
  );

  app.get(
    '/v1/admin/review-queue',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Drafts awaiting review',
        description:
          'Drafts with the version uploaded last and its scan, riskiest first: that version malicious, then suspicious, then ' +
          'any other verdict, then drafts without a version; within each, the longest waiting first (since that upload, or ' +
          'since the skill was created). `state=changes_requested` lists the drafts a reviewer declined instead; a declined ' +
          'draft waits again once its owner uploads a version.',
        querystring: ReviewQueueQuery,
        response: { 200: ReviewQueue, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await services.skills.reviewQueue(caller(request), { state: request.query.state ?? 'waiting', ...page });
      return { items, total, page: page.page, page_size: page.pageSize };
    },
  );

  app.post(
    '/v1/admin/skills/:skillId/decline',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Decline a draft',
        description:
          'Declines a draft with a `reason` its owner reads (required, not blank, at most 2,000 characters): the skill object ' +
          'carries it as `declined` with the time, and the draft leaves the review queue for `state=changes_requested` until ' +
          'its owner uploads a version, which clears it (so does publishing). The draft itself is unchanged. Declining again ' +
          'replaces the reason; each decline is recorded in the audit trail. A skill that is not a draft is 409 `not_draft`.',
        params: SkillRefParams,
        body: DeclineBody,
        response: { 200: SkillRef, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => services.skills.decline(caller(request), request.params.skillId, request.body.reason),
  );

  app.patch(
    '/v1/admin/skills/:skillId',
    {
      config: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Feature or unfeature a skill',
        params: SkillRefParams,
        body: FeaturedBody,
        response: { 200: SkillRef, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request) => services.skills.setFeatured(caller(request), request.params.skillId, request.body.featured, request.body.reason),
  );
};
