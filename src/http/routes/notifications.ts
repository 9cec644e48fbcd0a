import { problems } from '@skill-registry/api-schemas/common';
import {
  Notification,
  NotificationList,
  NotificationParams,
  NotificationQuery,
  NotificationsRead,
} from '@skill-registry/api-schemas/notifications';
import { caller } from '../plugins/auth.js';
import { pageOf } from '../paging.js';
import type { RoutePlugin } from '../types.js';

/**
 * The caller's notifications: what the registry did to their things (a webhook it disabled). Any credential of the
 * user — a session or an API key, whatever its scopes — reads them and marks them read: marking changes only what
 * the caller's own list shows. Another user's answers 404 (docs/api-decisions.md, "Notifications").
 */
export const notificationRoutes: RoutePlugin = async (app, { services }) => {
  const notifications = services.notifications;

  app.get(
    '/v1/me/notifications',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'My notifications',
        description: 'The newest first, paged; `unread` counts the unread ones on every page.',
        querystring: NotificationQuery,
        response: { 200: NotificationList, ...problems(400, 401) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { items, total, unread } = await notifications.list(caller(request), page);
      return { items, total, unread, page: page.page, page_size: page.pageSize };
    },
  );

  app.post(
    '/v1/me/notifications/read',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'Mark all my notifications read',
        response: { 200: NotificationsRead, ...problems(401) },
      },
    },
    async (request) => notifications.readAll(caller(request)),
  );

  app.post(
    '/v1/me/notifications/:id/read',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'Mark a notification read',
        description: 'Marking one already read keeps when it was first read.',
        params: NotificationParams,
        response: { 200: Notification, ...problems(401, 404) },
      },
    },
    async (request) => notifications.read(caller(request), request.params.id),
  );
};
