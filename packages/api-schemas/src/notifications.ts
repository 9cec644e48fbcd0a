import { Type } from 'typebox';
import { NullableTimestamp, Nullable, OneOf, PageQuery } from './common.js';

export const NOTIFICATION_KINDS = ['webhook.disabled'] as const;

export const Notification = Type.Object(
  {
    id: Type.String(),
    kind: OneOf(NOTIFICATION_KINDS, {
      description: 'What happened: `webhook.disabled`, the registry disabled a webhook after persistent failure.',
    }),
    title: Type.String(),
    body: Type.String({ description: 'What happened, when, and how to put it right.' }),
    link: Nullable(Type.String({ description: 'The console page to act on it, a path on the registry (`/webhooks?id=…`).' })),
    data: Type.Object(
      {
        webhook_id: Type.Optional(Type.String()),
        url: Type.Optional(Type.String()),
        reason: Type.Optional(Type.String()),
        disabled_at: Type.Optional(Type.String({ format: 'date-time' })),
      },
      { description: 'The particulars, by kind: for `webhook.disabled` the webhook, its URL, the reason and when.' },
    ),
    created_at: Type.String({ format: 'date-time' }),
    read_at: NullableTimestamp,
  },
  { title: 'Notification' },
);

export const NotificationQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const NotificationList = Type.Object(
  {
    items: Type.Array(Notification),
    page: Type.Integer(),
    page_size: Type.Integer(),
    total: Type.Integer(),
    unread: Type.Integer({ description: "The caller's unread notifications, on every page." }),
  },
  { title: 'NotificationList' },
);

export const NotificationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const NotificationsRead = Type.Object({ marked: Type.Integer({ description: 'How many were unread.' }) });
