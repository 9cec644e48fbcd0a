import type { Static, TSchema } from 'typebox';
import type * as changes from '@skill-registry/api-schemas/changes';
import type * as webhooks from '@skill-registry/api-schemas/webhooks';
import { segment, type Transport } from '../transport.js';

// These schemas name no other schema, so TypeBox's Static needs no references.
type Wire<T extends TSchema> = Static<T>;
export type ChangeEntry = Wire<typeof changes.ChangeEntry>;
export type ChangePage = Wire<typeof changes.ChangePage>;
export type ChangesQuery = Wire<typeof changes.ChangesQuery>;
export type Webhook = Wire<typeof webhooks.Webhook>;
export type WebhookDelivery = Wire<typeof webhooks.Delivery>;
export type CreateWebhookBody = Wire<typeof webhooks.CreateWebhookBody>;
export type UpdateWebhookBody = Wire<typeof webhooks.UpdateWebhookBody>;

/** `/v1/changes`: every change of what the caller may see, in commit order, from a cursor. */
export class ChangesApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/changes`: the entries after `since` (from the first without it); keep `next` and pass it as `since`. */
  list(query: ChangesQuery = {}): Promise<ChangePage> {
    return this.transport.json('GET', '/v1/changes', { query });
  }

  /** Every entry after `since` to the feed's end as it is now, page after page, and the cursor to resume from. */
  async *follow(since?: string, limit = 1000): AsyncGenerator<ChangeEntry, string> {
    let cursor = since;
    for (;;) {
      const page = await this.list({ ...(cursor === undefined ? {} : { since: cursor }), limit });
      yield* page.items;
      cursor = page.next;
      if (page.items.length < limit) return cursor;
    }
  }
}

/** `/v1/webhooks`: subscriptions of URLs to the change feed's entries, signed (docs/api-decisions.md, "Webhooks"). */
export class WebhooksApi {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/webhooks`: the answer holds the signing secret, shown this once. */
  create(body: CreateWebhookBody): Promise<Webhook> {
    return this.transport.json('POST', '/v1/webhooks', { json: body });
  }

  async list(): Promise<Webhook[]> {
    return (await this.transport.json<{ items: Webhook[] }>('GET', '/v1/webhooks')).items;
  }

  get(id: string): Promise<Webhook> {
    return this.transport.json('GET', `/v1/webhooks/${segment(id)}`);
  }

  update(id: string, body: UpdateWebhookBody): Promise<Webhook> {
    return this.transport.json('PATCH', `/v1/webhooks/${segment(id)}`, { json: body });
  }

  delete(id: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/webhooks/${segment(id)}`);
  }

  async deliveries(id: string): Promise<WebhookDelivery[]> {
    return (await this.transport.json<{ items: WebhookDelivery[] }>('GET', `/v1/webhooks/${segment(id)}/deliveries`)).items;
  }

  redeliver(id: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.transport.json('POST', `/v1/webhooks/${segment(id)}/deliveries/${segment(deliveryId)}/redeliver`);
  }

  test(id: string): Promise<WebhookDelivery> {
    return this.transport.json('POST', `/v1/webhooks/${segment(id)}/test`);
  }
}
