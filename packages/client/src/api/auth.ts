import { RegistryError } from '../errors.js';
import { Transport } from '../transport.js';
import type { LoginBody, LoginResult, RegisterBody, User } from '../types.js';

/** `/v1/auth`: accounts and sessions. */
export class AuthApi {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/auth/register`: creates an account (unless the registry's registration is closed). */
  register(body: RegisterBody): Promise<User> {
    return this.transport.json('POST', '/v1/auth/register', { json: body });
  }

  /**
   * `POST /v1/auth/login`: signs in; from then on this client sends the session (which every session-only
   * endpoint, such as API-key management, needs) instead of any API key it had.
   */
  async login(body: LoginBody): Promise<LoginResult & { session: string }> {
    const response = await this.transport.send('POST', '/v1/auth/login', { json: body });
    const result = (await response.json()) as LoginResult;
    const session = Transport.sessionFrom(response);
    if (session === null) {
      throw new RegistryError({
        status: response.status,
        code: 'no_session',
        detail: 'The registry accepted the sign-in but set no session cookie.',
        request_id: response.headers.get('x-request-id'),
      });
    }
    this.transport.credentials = { session };
    return { ...result, session };
  }

  /** `POST /v1/auth/logout`: ends the current session and forgets it. */
  async logout(): Promise<void> {
    await this.transport.empty('POST', '/v1/auth/logout');
    this.transport.credentials = null;
  }
}
