import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../schema.js';
import { changesRepository, type ChangeRow } from './changes.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type NewWebhook = Insertable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Omit<Insertable<WebhookDeliveriesTable>, 'state' | 'attempts'>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

const DISPATCH = 'feed';

/** What else is written, in the same transaction, when a subscription is disabled (its owners' notifications). */
export type OnDisabled = (trx: Transaction<Database>, webhook: WebhookRow) => Promise<void>;

/**
 * Webhook subscriptions, their deliveries and each delivery's attempts (migration 0017). A delivery is written together
 * with the job runner's queued job that sends it (`kind`), so one is never left without the other.
 */
export function webhooksRepository(db: Kysely<Database>, dialect: DialectName) {
  const feed = changesRepository(db);

  /** The dispatcher's position, written at the feed's end the first time it is needed. */
  async function dispatchPosition(trx: Transaction<Database>): Promise<number> {
    const head = await changesRepository(trx).head();
    await trx
      .insertInto('webhook_dispatch')
      .values({ name: DISPATCH, seq: head })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    let query = trx.selectFrom('webhook_dispatch').select('seq').where('name', '=', DISPATCH);
    // Two dispatchers at once (a lease that ran out) take turns here; the second reads the first one's position.
    if (dialect === 'postgres') query = query.forUpdate();
    return (await query.executeTakeFirstOrThrow()).seq;
  }

  async function queue(trx: Transaction<Database>, kind: string, deliveries: readonly NewDelivery[], now: string): Promise<void> {
    if (deliveries.length === 0) return;
    await trx
      .insertInto('webhook_deliveries')
      .values(deliveries.map((d) => ({ ...d, state: 'pending' as const, attempts: 0 })))
      .execute();
    await trx
      .insertInto('queued_jobs')
      .values(
        deliveries.map((d) => ({
          id: d.id,
          kind,
          payload: JSON.stringify({ deliveryId: d.id }),
          state: 'queued' as const,
          run_at: now,
          created_at: now,
        })),
      )
      .execute();
  }

  return {
    /** A new subscription; the dispatcher's position is settled first, so it starts no earlier than now. */
    async insert(webhook: NewWebhook): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await dispatchPosition(trx);
        await trx.insertInto('webhooks').values(webhook).execute();
      });
    },

    find(id: string): Promise<WebhookRow | undefined> {
      return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The subscriptions of a user, of some organisations, or (`all`) every one; the newest first. */
    list(who: { userId: string; orgIds: readonly string[]; all: boolean }): Promise<WebhookRow[]> {
      let query = db.selectFrom('webhooks').selectAll();
      if (!who.all) {
        query = query.where((eb) =>
          eb.or([
            eb.and([eb('user_id', '=', who.userId), eb('org_id', 'is', null), eb('all_skills', '=', 0)]),
            ...(who.orgIds.length === 0 ? [] : [eb('org_id', 'in', who.orgIds)]),
          ]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    },

    async update(id: string, fields: Updateable<WebhooksTable>): Promise<void> {
      await db.updateTable('webhooks').set(fields).where('id', '=', id).execute();
    },

    async remove(id: string): Promise<void> {
      // Its deliveries go with it (cascade); their queued jobs find no delivery and end.
      await db.deleteFrom('webhooks').where('id', '=', id).execute();
    },

    /** A subscription's deliveries, the newest first. */
    deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]> {
      return db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    delivery(id: string): Promise<DeliveryRow | undefined> {
      return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The attempts of some deliveries, in order. */
    attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt').execute();
    },

    /** New deliveries (a redelivery, a test) with their queued jobs, in one transaction. */
    async enqueue(kind: string, deliveries: readonly NewDelivery[], now: string): Promise<void> {
      await db.transaction().execute((trx) => queue(trx, kind, deliveries, now));
    },

    /**
     * Turns up to `limit` feed entries after the dispatcher's position into deliveries (`plan` decides which
     * subscriptions get which), queues them and moves the position past the entries, all in one transaction: an
     * entry is turned into deliveries once, whichever node runs the dispatcher. The number of entries read.
     */
    async dispatch(
      kind: string,
      limit: number,
      now: string,
      plan: (entries: readonly ChangeRow[], webhooks: readonly WebhookRow[]) => NewDelivery[],
    ): Promise<number> {
      // Read first, outside a transaction: every node asks about once a second, and most times nothing has changed,
      // which then costs two reads rather than a write transaction (SQLite's take the write lock).
      const known = await db.selectFrom('webhook_dispatch').select('seq').where('name', '=', DISPATCH).executeTakeFirst();
      if (known !== undefined && known.seq >= (await feed.head())) return 0;
      return db.transaction().execute(async (trx) => {
        const position = await dispatchPosition(trx);
        const entries = await changesRepository(trx).after(position, limit);
        const last = entries.at(-1);
        if (last === undefined) return 0;
        const webhooks = await trx.selectFrom('webhooks').selectAll().where('active', '=', 1).execute();
        await queue(trx, kind, plan(entries, webhooks), now);
        await trx.updateTable('webhook_dispatch').set({ seq: last.seq }).where('name', '=', DISPATCH).execute();
        return entries.length;
      });
    },

    /** One attempt of a delivery, and the delivery's count of them. */
    async recordAttempt(attempt: Insertable<WebhookAttemptsTable>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_attempts')
          .values(attempt)
          .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
          .execute();
        await trx.updateTable('webhook_deliveries').set({ attempts: attempt.attempt }).where('id', '=', attempt.delivery_id).execute();
      });
    },

    /** A delivery delivered: its subscription's failures in a row start again from none. */
    async delivered(delivery: DeliveryRow, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('webhook_deliveries').set({ state: 'delivered', finished_at: now }).where('id', '=', delivery.id).execute();
        await trx.updateTable('webhooks').set({ failures: 0 }).where('id', '=', delivery.webhook_id).execute();
      });
    },

    async cancelled(deliveryId: string, now: string): Promise<void> {
      await db.updateTable('webhook_deliveries').set({ state: 'cancelled', finished_at: now }).where('id', '=', deliveryId).execute();
    },

    /**
     * A delivery that failed for good: one more failure in a row for its subscription, which is disabled with `reason`
     * (and an audit entry, and whatever `onDisabled` writes, all in the one transaction) when that makes `disableAfter`.
     * Whether it was disabled.
     */
    async failed(
      delivery: DeliveryRow,
      now: string,
      disableAfter: number,
      reason: (failures: number) => string,
      onDisabled?: OnDisabled,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('webhook_deliveries').set({ state: 'failed', finished_at: now }).where('id', '=', delivery.id).execute();
        const row = await trx
          .updateTable('webhooks')
          .set((eb) => ({ failures: eb('failures', '+', 1) }))
          .where('id', '=', delivery.webhook_id)
          .returning(['failures', 'active'])
          .executeTakeFirst();
        if (row === undefined || row.active === 0 || row.failures < disableAfter) return false;
        const text = reason(row.failures);
        await trx
          .updateTable('webhooks')
          .set({ active: 0, disabled_reason: text, disabled_at: now, updated_at: now })
          .where('id', '=', delivery.webhook_id)
          .execute();
        await trx
          .insertInto('admin_audit')
          .values({
            id: delivery.id,
            actor_id: null,
            action: 'webhook.disabled',
            target_type: 'webhook',
            target_id: delivery.webhook_id,
            from_value: 'active',
            to_value: 'disabled',
            reason: text,
            created_at: now,
          })
          .execute();
        if (onDisabled !== undefined) {
          const disabled = await trx.selectFrom('webhooks').selectAll().where('id', '=', delivery.webhook_id).executeTakeFirstOrThrow();
          await onDisabled(trx, disabled);
        }
        return true;
      });
    },

    /** The feed's end (a new subscription's test event names no entry). */
    head: () => feed.head(),
  };
}

export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
