import { problems, SkillRefParams } from '@skill-registry/api-schemas/common';
import { pageOf } from '../paging.js';
import { FeedbackBody, FeedbackList, FeedbackQuery, FeedbackRef } from '@skill-registry/api-schemas/feedback';
import type { RoutePlugin } from '../types.js';

export const feedbackRoutes: RoutePlugin = async (app, { services }) => {
  app.post(
    '/v1/feedback',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['feedback'],
        summary: 'Leave feedback on a skill',
        description:
          'Public. A rating (1–5), a comment (at most 5,000 characters), or both, on a published skill, optionally for one ' +
          'of its versions. A signed-in caller is recorded as the author.',
        body: FeedbackBody,
        response: { 201: FeedbackRef, ...problems(400, 401, 404, 415, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await services.feedback.submit(request.actor, request.body)),
  );

  app.get(
    '/v1/skills/:skillId/feedback',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['feedback'],
        summary: 'Feedback received by a skill',
        description:
          'The owner (session or API key) or an admin session. Newest first; `version` and `rating` filter; `summary` covers the filtered set.',
        params: SkillRefParams,
        querystring: FeedbackQuery,
        response: { 200: FeedbackList, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { version, rating } = request.query;
      const result = await services.feedback.list(request.actor, request.params.skillId, {
        version,
        rating,
        ...page,
      });
      return { items: result.items, total: result.total, summary: result.summary, page: page.page, page_size: page.pageSize };
    },
  );
};
