import { Type } from 'typebox';
import { CHANGE_TYPES } from '@skill-registry/rules/changes';
import { Nullable, NullableTimestamp, OneOf } from './common.js';

const Events = Type.Array(OneOf(CHANGE_TYPES), {
  maxItems: CHANGE_TYPES.length,
  description: "The entry types to deliver (the change feed's `type`); empty or absent: every type.",
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'http or https, reaching a public address (not loopback, private, link-local, multicast or the registry itself) unless the ' +
    'operator allows the host (WEBHOOK_ALLOWED_HOSTS, WEBHOOK_ALLOW_PRIVATE). Redirects are not followed.',
});

export const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    scope: OneOf(['user', 'org', 'all'] as const, {
      description: "Whose skills: the subscriber's own, an organisation's (`org_id`), or every skill (administrators).",
    }),
    org_id: Nullable(Type.String()),
    events: Type.Array(OneOf(CHANGE_TYPES)),
    active: Type.Boolean(),
    failures: Type.Integer({ description: 'Deliveries in a row that failed every attempt.' }),
    disabled_reason: Nullable(
      Type.String({ description: 'Why the registry disabled it after persistent failure; PATCH {"active": true} turns it on again.' }),
    ),
    disabled_at: NullableTimestamp,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    secret: Type.Optional(
      Type.String({
        description: 'The signing secret: answered only when made (creation, `rotate_secret`). Keep it; it is not shown again.',
      }),
    ),
  },
  { title: 'Webhook' },
);

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Type.Optional(Events),
    org: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "An organisation's handle: its skills (owners and admins)." }),
    ),
    all: Type.Optional(Type.Boolean({ description: "Every skill: an administrator's session only." })),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    active: Type.Optional(Type.Boolean({ description: 'true turns a disabled webhook on again, its failures counted from none.' })),
    rotate_secret: Type.Optional(Type.Boolean({ description: 'A new secret, answered once; the old one stops signing at once.' })),
  },
  { additionalProperties: false },
);

export const WebhookParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const Delivery = Type.Object(
  {
    id: Type.String({ description: 'Also sent as the Skill-Registry-Delivery header.' }),
    webhook_id: Type.String(),
    event_id: Type.String({ description: "The event's id: the change-feed entry's, or `ping-…` for a test." }),
    event_type: Type.String(),
    state: OneOf(['pending', 'delivered', 'failed', 'cancelled'] as const),
    attempts: Type.Array(
      Type.Object({
        attempt: Type.Integer(),
        status_code: Nullable(Type.Integer({ description: "The receiver's status; null when it did not answer." })),
        duration_ms: Type.Integer(),
        error: Nullable(Type.String()),
        response_body: Nullable(Type.String({ description: 'The first 1,024 characters of the answer.' })),
        attempted_at: Type.String({ format: 'date-time' }),
      }),
    ),
    redelivery_of: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    finished_at: NullableTimestamp,
  },
  { title: 'WebhookDelivery' },
);
