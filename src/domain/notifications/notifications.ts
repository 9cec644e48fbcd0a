import type { NotificationRow, NotificationsRepository } from '../../db/repositories/notifications.js';
import type { WebhookRow } from '../../db/repositories/webhooks.js';
import { newId } from '../../lib/ids.js';
import { toIso } from '../../lib/time.js';
import type { AuthenticatedActor } from '../actor.js';
import { notFound } from '../errors.js';
import { orgRules } from '../orgs/roles.js';

/** What a notification tells. */
export const NOTIFICATION_KINDS = ['webhook.disabled'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notifications kept per user: the oldest beyond go when a new one is written, so no one's list grows without end. */
export const NOTIFICATIONS_KEPT = 200;
/** Read notifications older than this are removed by the hourly pruning job. */
export const READ_RETENTION_DAYS = 90;

export interface Notification {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** The console page to act on it (a path on the registry), or null. */
  link: string | null;
  /** The particulars, by kind: for `webhook.disabled` the webhook's id and URL, the reason and when. */
  data: { webhook_id?: string; url?: string; reason?: string; disabled_at?: string };
  created_at: string;
  read_at: string | null;
}

export interface NotificationPage {
  items: Notification[];
  total: number;
  unread: number;
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    title: row.title,
    body: row.body,
    link: row.link,
    data: JSON.parse(row.data) as Notification['data'],
    created_at: toIso(row.created_at),
    read_at: toIso(row.read_at),
  };
}

/** The console's page of a webhook. */
export function webhookLink(id: string): string {
  return `/webhooks?id=${encodeURIComponent(id)}`;
}

/**
 * Who is told that the registry disabled a webhook: those who may turn it on again, as they are when it happens.
 * A user's own: that user. An organisation's: its owners and admins now (whoever made it; a maker who left or was
 * made a publisher is not told, and learns nothing more of the organisation's webhooks). Every skill's: the
 * administrator who made it, or, if they are no longer an administrator, every administrator. Disabled accounts are
 * never told.
 */
async function recipients(repository: NotificationsRepository, webhook: WebhookRow): Promise<string[]> {
  if (webhook.org_id !== null) {
    const members = await repository.orgMembers(webhook.org_id);
    return members.filter((m) => orgRules.administer(m.role)).map((m) => m.user_id);
  }
  const role = await repository.activeRole(webhook.user_id);
  if (webhook.all_skills === 1) return role === 'admin' ? [webhook.user_id] : repository.admins();
  return role === undefined ? [] : [webhook.user_id];
}

/** A user's notifications: what the registry did to their things, read in the console or by `GET /v1/me/notifications`. */
export function notificationService(deps: {
  notifications: NotificationsRepository;
  /** The clock (ms since the epoch). */
  now?: () => number;
}) {
  const { notifications } = deps;
  const nowIso = () => new Date(deps.now?.() ?? Date.now()).toISOString();

  return {
    /** A page of the caller's notifications, the newest first, with how many are unread. */
    async list(actor: AuthenticatedActor, page: { page: number; pageSize: number }): Promise<NotificationPage> {
      const { rows, total, unread } = await notifications.list(actor.user.id, page.pageSize, (page.page - 1) * page.pageSize);
      return { items: rows.map(toNotification), total, unread };
    },

    /** Marks one of the caller's notifications read; another's answers 404, as if there were none. */
    async read(actor: AuthenticatedActor, id: string): Promise<Notification> {
      if (!(await notifications.markRead(actor.user.id, id, nowIso()))) {
        throw notFound('notification_not_found', `No notification "${id}" of yours; GET /v1/me/notifications lists them.`);
      }
      const row = await notifications.find(actor.user.id, id);
      if (row === undefined) throw notFound('notification_not_found', `No notification "${id}" of yours.`);
      return toNotification(row);
    },

    /** Marks every notification of the caller read; how many were unread. */
    async readAll(actor: AuthenticatedActor): Promise<{ marked: number }> {
      return { marked: await notifications.markAllRead(actor.user.id, nowIso()) };
    },

    /** Removes read notifications older than READ_RETENTION_DAYS (the hourly pruning job); how many. */
    prune(): Promise<number> {
      const before = new Date(Date.parse(nowIso()) - READ_RETENTION_DAYS * 86_400_000).toISOString();
      return notifications.pruneRead(before);
    },
  };
}

/**
 * Tells those who may turn it on again that the registry disabled `webhook` (already disabled, its reason and time
 * on it). `repository` is over the transaction that disabled it, so the two commit together.
 */
export async function notifyWebhookDisabled(repository: NotificationsRepository, webhook: WebhookRow): Promise<void> {
  const users = [...new Set(await recipients(repository, webhook))];
  if (users.length === 0) return;
  const at = toIso(webhook.disabled_at) ?? new Date().toISOString();
  const reason = webhook.disabled_reason ?? 'Its deliveries kept failing.';
  const org = webhook.org_id === null ? undefined : await repository.orgHandle(webhook.org_id);
  const whose = org !== undefined ? `The webhook of ${org}` : webhook.all_skills === 1 ? 'The webhook for every skill' : 'Your webhook';
  // The reason already says how to turn it on by the API; the console's page is named here.
  const body =
    `${whose} to ${webhook.url} was disabled by the registry at ${at}. ${reason} ` +
    'Nothing is sent to it while it is off: once the receiver answers again, turn it back on from the Webhooks page.';
  await repository.insert(
    users.map((userId) => ({
      id: newId(),
      user_id: userId,
      kind: 'webhook.disabled',
      title: `Webhook disabled: ${webhook.url}`,
      body,
      link: webhookLink(webhook.id),
      subject_id: webhook.id,
      data: JSON.stringify({ webhook_id: webhook.id, url: webhook.url, reason, disabled_at: at }),
      created_at: at,
      read_at: null,
    })),
    NOTIFICATIONS_KEPT,
  );
}

export type NotificationService = ReturnType<typeof notificationService>;
