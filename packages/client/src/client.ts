import { AdminApi } from './api/admin.js';
import { AuthApi } from './api/auth.js';
import { ChangesApi, WebhooksApi } from './api/changes.js';
import { FeedbackApi } from './api/feedback.js';
import { LogsApi } from './api/logs.js';
import { MeApi } from './api/me.js';
import { OperationsApi } from './api/operations.js';
import { OrgsApi } from './api/orgs.js';
import { SkillsApi } from './api/skills.js';
import { VersionsApi } from './api/versions.js';
import { Transport, type ClientOptions, type Credentials } from './transport.js';

/**
 * A typed client of one registry. Every endpoint is a method of one of the groups below; every error answer
 * is thrown as a ProblemError (status, code, detail, request_id, errors), an unreachable registry as a
 * ConnectionError, and a download whose bytes do not match their sha256 as an IntegrityError.
 */
export class RegistryClient {
  readonly auth: AuthApi;
  readonly me: MeApi;
  readonly skills: SkillsApi;
  readonly orgs: OrgsApi;
  readonly versions: VersionsApi;
  readonly feedback: FeedbackApi;
  readonly logs: LogsApi;
  readonly admin: AdminApi;
  readonly operations: OperationsApi;
  /** The change feed, and webhooks that deliver its entries. */
  readonly changes: ChangesApi;
  readonly webhooks: WebhooksApi;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.auth = new AuthApi(this.transport);
    this.me = new MeApi(this.transport);
    this.skills = new SkillsApi(this.transport);
    this.orgs = new OrgsApi(this.transport);
    this.versions = new VersionsApi(this.transport);
    this.feedback = new FeedbackApi(this.transport);
    this.logs = new LogsApi(this.transport);
    this.admin = new AdminApi(this.transport);
    this.operations = new OperationsApi(this.transport);
    this.changes = new ChangesApi(this.transport);
    this.webhooks = new WebhooksApi(this.transport);
  }

  /** The registry's address, normalised (always ending in `/`). */
  get baseUrl(): URL {
    return this.transport.baseUrl;
  }

  /** The credentials requests carry: an API key, a session (after `auth.login`), or none. */
  get credentials(): Credentials {
    return this.transport.credentials;
  }
  set credentials(value: Credentials) {
    this.transport.credentials = value;
  }
}

export function createClient(options: ClientOptions): RegistryClient {
  return new RegistryClient(options);
}
