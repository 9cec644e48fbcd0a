import { randomBytes, randomInt } from 'node:crypto';
import type { ClawhubRepository } from '../../db/repositories/clawhub.js';
import type { UserIdentity } from '../actor.js';
import type { AuthenticatedActor } from '../actor.js';
import { notFound } from '../errors.js';
import { sha256Hex } from '../accounts/secrets.js';
import type { ApiKeyService } from '../accounts/api-keys.js';

/** How long a device login waits for approval. */
export const DEVICE_CODE_TTL_SECONDS = 600;
/** How often the client is told to poll, in seconds. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/**
 * A poll sooner than this after the last one is answered `slow_down`. Half the interval: the client sleeps a whole
 * interval between polls, and a poll that arrives a little early for network reasons is not punished.
 */
const MIN_POLL_GAP_MS = (DEVICE_POLL_INTERVAL_SECONDS * 1000) / 2;
/** Letters and digits that cannot be read as one another (no 0/O, 1/I/L), as RFC 8628 advises for user codes. */
const USER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** What the device-code request answers. */
export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** What a token poll answers: the key, or one of RFC 8628's errors. */
export type DeviceTokenAnswer =
  | { ok: true; access_token: string; token_type: 'bearer'; scope: string }
  | { ok: false; error: 'authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied' | 'invalid_grant'; interval?: number };

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += USER_CODE_ALPHABET.charAt(randomInt(USER_CODE_ALPHABET.length));
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A user code as typed: case and the hyphen do not matter. */
export function normaliseUserCode(typed: string): string {
  const letters = typed.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/**
 * `clawhub login` without a token (RFC 8628 device authorization): the client asks for a code, the user approves it
 * in the console signed in, and the client's next poll receives a new API key of that user with the `skill:upload`
 * scope. The key is made when the approved code is first polled, so it is never stored in the clear.
 */
export function deviceLogins(deps: {
  repository: ClawhubRepository;
  apiKeys: ApiKeyService;
  /** Where the console page that approves codes is. */
  verificationUri: string;
  /** The account a key is made for, as of now (null: gone or disabled). */
  findUser: (id: string) => Promise<UserIdentity | null>;
}) {
  const { repository } = deps;

  return {
    async start(label: string | undefined): Promise<DeviceCode> {
      const now = new Date();
      await repository.removeExpired(now.toISOString());
      const deviceCode = randomBytes(32).toString('base64url');
      for (;;) {
        const userCode = newUserCode();
        const outcome = await repository.insertDeviceCode({
          device_code_hash: sha256Hex(deviceCode),
          user_code: userCode,
          label: (label ?? '').trim().slice(0, 100) || 'CLI device login',
          status: 'pending',
          user_id: null,
          api_key_id: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + DEVICE_CODE_TTL_SECONDS * 1000).toISOString(),
          polled_at: null,
        });
        // 31^8 codes: a collision with a live one is rare, and answered by drawing again.
        if (outcome === 'user_code_taken') continue;
        return {
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: deps.verificationUri,
          verification_uri_complete: `${deps.verificationUri}?code=${encodeURIComponent(userCode)}`,
          expires_in: DEVICE_CODE_TTL_SECONDS,
          interval: DEVICE_POLL_INTERVAL_SECONDS,
        };
      }
    },

    async poll(deviceCode: string): Promise<DeviceTokenAnswer> {
      const hash = sha256Hex(deviceCode);
      const row = await repository.deviceCodeByHash(hash);
      if (!row) return { ok: false, error: 'expired_token' };
      const now = Date.now();
      if (new Date(row.expires_at).getTime() <= now) {
        return { ok: false, error: 'expired_token' };
      }
      if (row.status === 'denied') return { ok: false, error: 'access_denied' };
      // A code hands out one key: a second poll after that learns nothing more.
      if (row.status === 'issued') return { ok: false, error: 'expired_token' };
      if (row.status === 'pending') {
        const last = row.polled_at === null ? null : new Date(row.polled_at).getTime();
        await repository.markPolled(hash, new Date(now).toISOString());
        if (last !== null && now - last < MIN_POLL_GAP_MS) return { ok: false, error: 'slow_down', interval: DEVICE_POLL_INTERVAL_SECONDS };
        return { ok: false, error: 'authorization_pending' };
      }
      const user = row.user_id === null ? null : await deps.findUser(row.user_id);
      if (user === null) return { ok: false, error: 'access_denied' };
      // The key is made for the approving user, as the console's keys page would make it for them.
      const owner: AuthenticatedActor = { kind: 'session', user, sessionId: 'device-login', scopes: ['skill:upload'] };
      const key = await deps.apiKeys.create(owner, { name: `clawhub: ${row.label}`, scopes: ['skill:upload'] });
      if (!(await repository.markIssued(hash, key.id))) {
        // Another poll of the same code won the race and handed out its own key: this one is withdrawn.
        await deps.apiKeys.revoke(owner, key.id);
        return { ok: false, error: 'expired_token' };
      }
      return { ok: true, access_token: key.key, token_type: 'bearer', scope: 'read write' };
    },

    /** The signed-in user's answer to a code shown by `clawhub login`. */
    async decide(
      actor: AuthenticatedActor,
      typed: string,
      approve: boolean,
    ): Promise<{ user_code: string; label: string; approved: boolean }> {
      const userCode = normaliseUserCode(typed);
      const row = await repository.deviceCodeByUserCode(userCode);
      const decided =
        row !== undefined && (await repository.decide(userCode, approve ? 'approved' : 'denied', actor.user.id, new Date().toISOString()));
      if (!row || !decided) {
        throw notFound(
          'user_code_not_found',
          `No login waits for the code "${typed}": check it against the terminal, or run \`clawhub login\` again for a new one.`,
        );
      }
      return { user_code: userCode, label: row.label, approved: approve };
    },
  };
}

export type DeviceLogins = ReturnType<typeof deviceLogins>;
