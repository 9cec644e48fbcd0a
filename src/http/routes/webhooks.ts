import { ItemList as items, problems } from '@skill-registry/api-schemas/common';
import {
  CreateWebhookBody,
  Delivery,
  DeliveryParams,
  UpdateWebhookBody,
  Webhook,
  WebhookParams,
} from '@skill-registry/api-schemas/webhooks';
import { caller } from '../plugins/auth.js';
import type { RoutePlugin } from '../types.js';

/**
 * Webhooks: a user subscribes a URL to their own skills' changes, an organisation's owner or admin to its skills', an
 * administrator's session to every skill's. Reading them needs any credential; changing them a session or an API key
 * with `skill:upload`. A subscription someone does not manage answers 404 (docs/api-decisions.md, "Webhooks").
 */
export const webhookRoutes: RoutePlugin = async (app, { services }) => {
  const webhooks = services.webhooks;

  app.post(
    '/v1/webhooks',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['webhooks'],
        summary: 'Subscribe a URL to changes',
        description:
          "The caller's own skills; with `org`, an organisation's (its owners and admins); with `all`, every skill (an administrator's " +
          'session). The answer holds the signing secret, shown this once.',
        body: CreateWebhookBody,
        response: { 201: Webhook, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(caller(request), request.body)),
  );

  app.get(
    '/v1/webhooks',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['webhooks'],
        summary: 'The webhooks the caller manages',
        response: { 200: items(Webhook), ...problems(401) },
      },
    },
    async (request) => ({ items: await webhooks.list(caller(request)) }),
  );

  app.get(
    '/v1/webhooks/:id',
    {
      config: { auth: 'user' },
      schema: { tags: ['webhooks'], summary: 'One webhook', params: WebhookParams, response: { 200: Webhook, ...problems(401, 404) } },
    },
    async (request) => webhooks.get(caller(request), request.params.id),
  );

  app.patch(
    '/v1/webhooks/:id',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['webhooks'],
        summary: 'Change a webhook',
        description: 'Its URL (checked again), its event types, on or off (on again after the registry disabled it), or a new secret.',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: Webhook, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request) => webhooks.update(caller(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/webhooks/:id',
    {
      config: { auth: 'uploader' },
      schema: { tags: ['webhooks'], summary: 'Delete a webhook', params: WebhookParams, response: { ...problems(401, 403, 404) } },
    },
    async (request, reply) => {
      await webhooks.remove(caller(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['webhooks'],
        summary: "A webhook's latest deliveries",
        description: 'The latest 100, newest first, each with its attempts: status, duration, error, and the start of the answer.',
        params: WebhookParams,
        response: { 200: items(Delivery), ...problems(401, 404) },
      },
    },
    async (request) => ({ items: await webhooks.deliveries(caller(request), request.params.id) }),
  );

  app.post(
    '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send a delivery again',
        description: 'A new delivery of the same body, signed afresh; `redelivery_of` names the original.',
        params: DeliveryParams,
        response: { 202: Delivery, ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.redeliver(caller(request), request.params.id, request.params.deliveryId)),
  );

  app.post(
    '/v1/webhooks/:id/test',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send a test event',
        description: 'A `webhook.ping` event, in the shape of a change-feed entry with no skill.',
        params: WebhookParams,
        response: { 202: Delivery, ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.test(caller(request), request.params.id)),
  );
};
