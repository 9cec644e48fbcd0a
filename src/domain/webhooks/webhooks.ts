import type { ChangeRow } from '../../db/repositories/changes.js';
import type { DeliveryRow, NewDelivery, OnDisabled, WebhookRow, WebhooksRepository } from '../../db/repositories/webhooks.js';
import type { QueuedJobKind } from '../../jobs/runner.js';
import { newId } from '../../lib/ids.js';
import { toIso } from '../../lib/time.js';
import { CHANGE_TYPES, WEBHOOK_PING, type ChangeType } from '@skill-registry/rules/changes';
import { isAdminSession, requireAdminSession, type AuthenticatedActor } from '../actor.js';
import { toChangeEntry } from '../changes/changes.js';
import { AppError, forbidden, notFound } from '../errors.js';
import { orgRules } from '../orgs/roles.js';
import type { AddressCheck } from './address-guard.js';
import { send, type AttemptOutcome } from './send.js';
import { HEADERS, newSecret, sign } from './signing.js';

/** The runner's queued job that sends one delivery, and the periodic job that turns feed entries into deliveries. */
export const DELIVERY_KIND = 'webhook-delivery';
export const DISPATCH_JOB = 'webhook-dispatch';
/** Attempts at one delivery: the first, then after 30 s, 1, 2, 4 and 8 minutes (the runner's doubling backoff). */
export const DELIVERY_ATTEMPTS = 6;
export const DELIVERY_RETRY = { baseMs: 30_000, maxMs: 60 * 60 * 1000 };
/** Feed entries the dispatcher turns into deliveries per transaction. */
const DISPATCH_BATCH = 500;
/** Deliveries a subscription's log shows. */
const DELIVERY_LOG = 100;

export interface Webhook {
  id: string;
  url: string;
  /** Whose skills: the user's own (`user`), an organisation's (`org`, with `org_id`), or every skill (`all`). */
  scope: 'user' | 'org' | 'all';
  org_id: string | null;
  /** The entry types delivered; empty: every type. */
  events: ChangeType[];
  active: boolean;
  /** Deliveries in a row that failed for good. */
  failures: number;
  /** Why the registry disabled it (persistent failure); null while active or when its owner turned it off. */
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  attempted_at: string;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  state: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: DeliveryAttempt[];
  redelivery_of: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface CreateWebhook {
  url: string;
  events?: ChangeType[];
  /** An organisation's handle: its skills (its owners and admins only). */
  org?: string;
  /** Every skill (an administrator's session only). */
  all?: boolean;
}

export interface UpdateWebhook {
  url?: string;
  events?: ChangeType[];
  /** true turns a disabled subscription on again (its failures counted from none); false turns it off. */
  active?: boolean;
  /** A new signing secret, answered once. */
  rotate_secret?: boolean;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    scope: row.all_skills === 1 ? 'all' : row.org_id !== null ? 'org' : 'user',
    org_id: row.org_id,
    events: JSON.parse(row.events) as ChangeType[],
    active: row.active === 1,
    failures: row.failures,
    disabled_reason: row.disabled_reason,
    disabled_at: toIso(row.disabled_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** Which subscriptions an entry goes to: their scope holds the skill (before or after a transfer) and they take its type. */
export function subscribers(entry: ChangeRow, webhooks: readonly WebhookRow[]): WebhookRow[] {
  return webhooks.filter((w) => {
    const events = JSON.parse(w.events) as string[];
    if (events.length > 0 && !events.includes(entry.type)) return false;
    if (w.all_skills === 1) return true;
    if (w.org_id !== null) return entry.org_id === w.org_id || entry.prev_org_id === w.org_id;
    return (entry.owner_id === w.user_id && entry.org_id === null) || (entry.prev_owner_id === w.user_id && entry.prev_org_id === null);
  });
}

/**
 * Webhooks: subscriptions of URLs to the change feed's entries of a user's skills, an organisation's, or (an
 * administrator's) every one. A dispatcher turns feed entries into deliveries; each delivery is a queued job of the job
 * runner, so it survives a restart and is tried again with backoff; after `disableAfter` deliveries in a row fail for
 * good, the subscription is disabled, with the reason on it and an audit entry.
 */
export function webhookService(deps: {
  webhooks: WebhooksRepository;
  findOrg: (handle: string) => Promise<{ id: string } | undefined>;
  /** Checks a URL and settles the address to connect to (address-guard.ts). */
  checkUrl: AddressCheck;
  timeoutMs: number;
  disableAfter: number;
  userAgent: string;
  /** The clock (ms since the epoch): the job runner's, so tests move it. */
  now?: () => number;
  /** Written in the transaction that disables a subscription: its owners' notifications. */
  onDisabled?: OnDisabled;
}) {
  const { webhooks } = deps;
  const now = () => deps.now?.() ?? Date.now();
  const nowIso = () => new Date(now()).toISOString();

  /** A subscription the caller manages, or 404 as if there were none. */
  async function managed(actor: AuthenticatedActor, id: string): Promise<WebhookRow> {
    const row = await webhooks.find(id);
    if (row !== undefined && manages(actor, row)) return row;
    throw notFound('webhook_not_found', `No webhook "${id}" that you manage; GET /v1/webhooks lists yours.`);
  }

  function manages(actor: AuthenticatedActor, row: WebhookRow): boolean {
    if (isAdminSession(actor)) return true;
    if (row.all_skills === 1) return false;
    if (row.org_id !== null) return orgRules.administer(actor.user.orgs?.get(row.org_id));
    return row.user_id === actor.user.id;
  }

  /** The organisations whose subscriptions the caller manages: those where they are an owner or admin. */
  function administered(actor: AuthenticatedActor): string[] {
    return [...(actor.user.orgs?.entries() ?? [])].filter(([, role]) => orgRules.administer(role)).map(([id]) => id);
  }

  async function view(row: DeliveryRow): Promise<Delivery> {
    return (await views([row]))[0]!;
  }

  async function views(rows: readonly DeliveryRow[]): Promise<Delivery[]> {
    const attempts = await webhooks.attempts(rows.map((r) => r.id));
    return rows.map((row) => ({
      id: row.id,
      webhook_id: row.webhook_id,
      event_id: row.event_id,
      event_type: row.event_type,
      state: row.state,
      attempts: attempts
        .filter((a) => a.delivery_id === row.id)
        .map((a) => ({
          attempt: a.attempt,
          status_code: a.status_code,
          duration_ms: a.duration_ms,
          error: a.error,
          response_body: a.response_body,
          attempted_at: toIso(a.attempted_at),
        })),
      redelivery_of: row.redelivery_of,
      created_at: toIso(row.created_at),
      finished_at: toIso(row.finished_at),
    }));
  }

  async function queueOne(delivery: NewDelivery): Promise<Delivery> {
    await webhooks.enqueue(DELIVERY_KIND, [delivery], nowIso());
    const row = await webhooks.delivery(delivery.id);
    if (row === undefined) throw notFound('delivery_not_found', `No delivery "${delivery.id}".`);
    return view(row);
  }

  /** One attempt at a delivery: the address checked again, the body signed with the time of sending, and sent. */
  async function attempt(delivery: DeliveryRow, webhook: WebhookRow): Promise<AttemptOutcome> {
    let target;
    try {
      target = await deps.checkUrl(webhook.url);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { statusCode: null, durationMs: 0, error: error.detail, responseBody: null };
    }
    const timestamp = Math.floor(now() / 1000);
    const headers = {
      [HEADERS.delivery]: delivery.id,
      [HEADERS.event]: delivery.event_type,
      [HEADERS.timestamp]: String(timestamp),
      [HEADERS.signature]: sign(webhook.secret, timestamp, delivery.payload),
      'user-agent': deps.userAgent,
    };
    return send(target, headers, delivery.payload, deps.timeoutMs, now);
  }

  const kind: QueuedJobKind<{ deliveryId: string }> = {
    kind: DELIVERY_KIND,
    maxAttempts: DELIVERY_ATTEMPTS,
    retry: DELIVERY_RETRY,
    // A delivery waits at most the timeout to connect and as long again for the answer.
    leaseMs: 5 * 60 * 1000,
    async run({ deliveryId }) {
      const delivery = await webhooks.delivery(deliveryId);
      // Delivered or given up by a node that held it before, or its subscription deleted.
      if (delivery?.state !== 'pending') return;
      const webhook = await webhooks.find(delivery.webhook_id);
      if (webhook === undefined) return;
      if (webhook.active === 0) return webhooks.cancelled(delivery.id, nowIso());
      const outcome = await attempt(delivery, webhook);
      await webhooks.recordAttempt({
        delivery_id: delivery.id,
        attempt: delivery.attempts + 1,
        status_code: outcome.statusCode,
        duration_ms: Math.round(outcome.durationMs),
        error: outcome.error,
        response_body: outcome.responseBody,
        attempted_at: nowIso(),
      });
      if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300) {
        return webhooks.delivered(delivery, nowIso());
      }
      // Thrown for the runner to try again with its backoff (onGiveUp after the last attempt).
      throw new Error(outcome.error ?? `The receiver answered ${outcome.statusCode ?? 'nothing'}.`);
    },
    async onGiveUp({ deliveryId }) {
      const delivery = await webhooks.delivery(deliveryId);
      if (delivery?.state !== 'pending') return;
      await webhooks.failed(
        delivery,
        nowIso(),
        deps.disableAfter,
        (failures) =>
          `Disabled after ${failures} deliveries in a row failed every attempt; the last: ${delivery.id}. ` +
          'Fix the receiver, then PATCH the webhook with {"active": true}.',
        deps.onDisabled,
      );
    },
  };

  return {
    /** The runner's queued job that sends one delivery. */
    kind,

    /** Turns every feed entry not yet dispatched into deliveries (the runner's `webhook-dispatch` job). */
    async dispatch(): Promise<number> {
      let total = 0;
      for (;;) {
        const read = await webhooks.dispatch(DELIVERY_KIND, DISPATCH_BATCH, nowIso(), (entries, active) =>
          entries.flatMap((entry) =>
            subscribers(entry, active).map((w) => ({
              id: newId(),
              webhook_id: w.id,
              event_id: String(entry.seq),
              event_type: entry.type,
              payload: JSON.stringify(toChangeEntry(entry)),
              redelivery_of: null,
              created_at: nowIso(),
              finished_at: null,
            })),
          ),
        );
        total += read;
        if (read < DISPATCH_BATCH) return total;
      }
    },

    /** A new subscription, with its secret (shown this once). */
    async create(actor: AuthenticatedActor, body: CreateWebhook): Promise<Webhook & { secret: string }> {
      let orgId: string | null = null;
      if (body.all === true) requireAdminSession(actor);
      else if (body.org !== undefined) {
        const org = await deps.findOrg(body.org);
        if (org === undefined) throw notFound('org_not_found', `No organisation "${body.org}".`);
        if (!isAdminSession(actor) && !orgRules.administer(actor.user.orgs?.get(org.id))) {
          throw forbidden('org_role_required', `Only an owner or admin of ${body.org} subscribes to its skills' changes.`);
        }
        orgId = org.id;
      }
      await deps.checkUrl(body.url);
      const at = nowIso();
      const row = {
        id: newId(),
        user_id: actor.user.id,
        org_id: orgId,
        all_skills: body.all === true ? 1 : 0,
        url: body.url,
        secret: newSecret(),
        events: JSON.stringify(dedupe(body.events ?? [])),
        active: 1,
        failures: 0,
        disabled_reason: null,
        disabled_at: null,
        created_at: at,
        updated_at: at,
      };
      await webhooks.insert(row);
      return { ...toWebhook(row), secret: row.secret };
    },

    /** The subscriptions the caller manages: their own, their organisations' (owner, admin), every one for an admin session. */
    async list(actor: AuthenticatedActor): Promise<Webhook[]> {
      const rows = await webhooks.list({ userId: actor.user.id, orgIds: administered(actor), all: isAdminSession(actor) });
      return rows.map(toWebhook);
    },

    async get(actor: AuthenticatedActor, id: string): Promise<Webhook> {
      return toWebhook(await managed(actor, id));
    },

    async update(actor: AuthenticatedActor, id: string, body: UpdateWebhook): Promise<Webhook & { secret?: string }> {
      const row = await managed(actor, id);
      if (body.url !== undefined) await deps.checkUrl(body.url);
      const secret = body.rotate_secret === true ? newSecret() : undefined;
      const at = nowIso();
      await webhooks.update(row.id, {
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(body.events === undefined ? {} : { events: JSON.stringify(dedupe(body.events)) }),
        ...(body.active === undefined ? {} : { active: body.active ? 1 : 0, failures: 0, disabled_reason: null, disabled_at: null }),
        ...(secret === undefined ? {} : { secret }),
        updated_at: at,
      });
      const updated = toWebhook((await webhooks.find(row.id)) ?? row);
      return secret === undefined ? updated : { ...updated, secret };
    },

    async remove(actor: AuthenticatedActor, id: string): Promise<void> {
      const row = await managed(actor, id);
      await webhooks.remove(row.id);
    },

    /** A subscription's latest deliveries with their attempts, the newest first. */
    async deliveries(actor: AuthenticatedActor, id: string): Promise<Delivery[]> {
      const row = await managed(actor, id);
      return views(await webhooks.deliveries(row.id, DELIVERY_LOG));
    },

    /** Sends a delivery's event again, as a new delivery of the same body (a fresh timestamp and signature). */
    async redeliver(actor: AuthenticatedActor, id: string, deliveryId: string): Promise<Delivery> {
      const row = await managed(actor, id);
      const original = await webhooks.delivery(deliveryId);
      if (original?.webhook_id !== row.id) {
        throw notFound(
          'delivery_not_found',
          `Webhook ${row.id} has no delivery "${deliveryId}"; GET /v1/webhooks/${row.id}/deliveries lists them.`,
        );
      }
      return queueOne({
        id: newId(),
        webhook_id: row.id,
        event_id: original.event_id,
        event_type: original.event_type,
        payload: original.payload,
        redelivery_of: original.id,
        created_at: nowIso(),
        finished_at: null,
      });
    },

    /** Sends a `webhook.ping` event: an entry's shape, naming no skill. */
    async test(actor: AuthenticatedActor, id: string): Promise<Delivery> {
      const row = await managed(actor, id);
      const deliveryId = newId();
      const at = nowIso();
      const event = {
        id: `ping-${deliveryId}`,
        type: WEBHOOK_PING,
        occurred_at: at,
        skill: null,
        version: null,
        public: false,
        links: { skill: null, version: null },
      };
      return queueOne({
        id: deliveryId,
        webhook_id: row.id,
        event_id: event.id,
        event_type: WEBHOOK_PING,
        payload: JSON.stringify(event),
        redelivery_of: null,
        created_at: at,
        finished_at: null,
      });
    },
  };
}

function dedupe(events: readonly ChangeType[]): ChangeType[] {
  return CHANGE_TYPES.filter((type) => events.includes(type));
}

export type WebhookService = ReturnType<typeof webhookService>;
