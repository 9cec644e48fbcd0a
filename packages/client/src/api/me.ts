import type { Static } from 'typebox';
import type * as notifications from '@skill-registry/api-schemas/notifications';
import { segment, type Transport } from '../transport.js';
import type {
  ApiKeyCreated,
  ApiKeyList,
  CreateApiKeyBody,
  InvitationList,
  ListSkillsQuery,
  Me,
  Organisation,
  OrganisationList,
  SkillList,
} from '../types.js';

/** `/v1/me/api-keys`: needs a session (an API key cannot mint or revoke keys). */
export class ApiKeysApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/me/api-keys`: live keys, newest first; never the secrets. */
  list(): Promise<ApiKeyList> {
    return this.transport.json('GET', '/v1/me/api-keys');
  }

  /** `POST /v1/me/api-keys`: the answer's `key` is the secret, shown only this once. */
  create(body: CreateApiKeyBody): Promise<ApiKeyCreated> {
    return this.transport.json('POST', '/v1/me/api-keys', { json: body });
  }

  /** `DELETE /v1/me/api-keys/:keyId`. */
  revoke(keyId: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/me/api-keys/${segment(keyId)}`);
  }
}

/** `/v1/me/invitations`: invitations to organisations waiting for the caller's answer. */
export class InvitationsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/me/invitations`: open invitations to the caller, newest first. */
  list(): Promise<InvitationList> {
    return this.transport.json('GET', '/v1/me/invitations');
  }

  /** `POST /v1/me/invitations/:invitationId/accept`: joins the organisation; answers it with the caller's new role. */
  accept(invitationId: string): Promise<Organisation> {
    return this.transport.json('POST', `/v1/me/invitations/${segment(invitationId)}/accept`);
  }

  /** `POST /v1/me/invitations/:invitationId/decline`. */
  decline(invitationId: string): Promise<void> {
    return this.transport.empty('POST', `/v1/me/invitations/${segment(invitationId)}/decline`);
  }
}

// These schemas name no other schema, so TypeBox's Static needs no references.
export type Notification = Static<typeof notifications.Notification>;
export type NotificationList = Static<typeof notifications.NotificationList>;
export type NotificationQuery = Static<typeof notifications.NotificationQuery>;

/** `/v1/me/notifications`: what the registry did to the caller's things (a webhook it disabled), newest first. */
export class NotificationsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/me/notifications`: a page of them, with `unread` counted over every page. */
  list(query: NotificationQuery = {}): Promise<NotificationList> {
    return this.transport.json('GET', '/v1/me/notifications', { query });
  }

  /** `POST /v1/me/notifications/:id/read`: marking one already read keeps when it was first read. */
  read(id: string): Promise<Notification> {
    return this.transport.json('POST', `/v1/me/notifications/${segment(id)}/read`);
  }

  /** `POST /v1/me/notifications/read`: marks every one read; answers how many were unread. */
  async readAll(): Promise<number> {
    return (await this.transport.json<{ marked: number }>('POST', '/v1/me/notifications/read')).marked;
  }
}

/** `/v1/me`: the caller. */
export class MeApi {
  readonly apiKeys: ApiKeysApi;
  readonly invitations: InvitationsApi;
  readonly notifications: NotificationsApi;

  constructor(private readonly transport: Transport) {
    this.apiKeys = new ApiKeysApi(transport);
    this.invitations = new InvitationsApi(transport);
    this.notifications = new NotificationsApi(transport);
  }

  /** `GET /v1/me`: who the credentials belong to, and how they authenticate. */
  get(): Promise<Me> {
    return this.transport.json('GET', '/v1/me');
  }

  /** `GET /v1/me/skills`: the caller's own skills, in every state unless `status` narrows them. */
  skills(query: ListSkillsQuery = {}): Promise<SkillList> {
    return this.transport.json('GET', '/v1/me/skills', { query });
  }

  /** `GET /v1/me/orgs`: the organisations the caller belongs to, each with the caller's role. */
  orgs(): Promise<OrganisationList> {
    return this.transport.json('GET', '/v1/me/orgs');
  }
}
