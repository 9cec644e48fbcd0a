import { segment, type Transport } from '../transport.js';
import type { ApiKeyCreated, ApiKeyList, CreateApiKeyBody, ListSkillsQuery, Me, SkillList } from '../types.js';

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

/** `/v1/me`: the caller. */
export class MeApi {
  readonly apiKeys: ApiKeysApi;

  constructor(private readonly transport: Transport) {
    this.apiKeys = new ApiKeysApi(transport);
  }

  /** `GET /v1/me`: who the credentials belong to, and how they authenticate. */
  get(): Promise<Me> {
    return this.transport.json('GET', '/v1/me');
  }

  /** `GET /v1/me/skills`: the caller's own skills, in every state unless `status` narrows them. */
  skills(query: ListSkillsQuery = {}): Promise<SkillList> {
    return this.transport.json('GET', '/v1/me/skills', { query });
  }
}
