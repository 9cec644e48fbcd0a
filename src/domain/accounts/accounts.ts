import type { SessionsRepository } from '../../db/repositories/credentials.js';
import type { UsersRepository } from '../../db/repositories/users.js';
import { newId } from '../../lib/ids.js';
import { addDays, nowIso } from '../../lib/time.js';
import { requireAdminSession, type Actor, type Role } from '../actor.js';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../errors.js';
import { weakPasswordProblem } from './passwords.js';
import { checkNewAccount, type NewAccount } from '@skill-registry/rules/account-fields';
import { burnPasswordCheck, hashPassword, newSessionToken, verifyPassword } from './secrets.js';
import { toUser, type User } from './views.js';

export const SESSION_DAYS = 30;

const invalidCredentials = () => new AppError(401, 'invalid_credentials', 'The username/email or password is wrong.');
const usernameTaken = (username: string) => conflict('username_taken', `The username "${username}" is taken.`);
const emailTaken = () => conflict('email_taken', 'An account with this email already exists.');

export interface Page {
  page: number;
  pageSize: number;
}

/** Tells the authenticator to drop what it remembers about changed credentials. */
export interface CredentialInvalidation {
  forgetUser(userId: string): void;
  forgetCredential(credentialId: string): void;
}

export function accountService(deps: {
  users: UsersRepository;
  sessions: SessionsRepository;
  /** REGISTRATION: whether visitors may make accounts. */
  config: { registration: 'open' | 'closed' };
  invalidation: CredentialInvalidation;
  /** Refuses a new username that is reserved or looks like another account's handle (src/domain/names). */
  checkNewName?: (kind: 'handle', name: string, ownerId: null) => Promise<void>;
}) {
  const { users, sessions, config, invalidation } = deps;

  /**
   * `weakPasswordsAllowed`: only for the bootstrap administrator, whose password the operator sets in ADMIN_PASSWORD;
   * refusing it there would stop a registry that ran before the rule from starting.
   */
  async function create(input: NewAccount, role: Role, weakPasswordsAllowed = false, nameChecked = false): Promise<User> {
    const account = checkNewAccount(input);
    const weak = weakPasswordsAllowed ? null : weakPasswordProblem(account.password, account);
    if (weak !== null) throw validationFailed([{ field: 'password', message: weak }]);
    if (nameChecked) await deps.checkNewName?.('handle', account.username, null);
    if (await users.findByUsername(account.username)) throw usernameTaken(account.username);
    if (await users.emailTaken(account.email)) throw emailTaken();
    const now = nowIso();
    const row = {
      id: newId(),
      username: account.username,
      email: account.email,
      password_hash: await hashPassword(account.password),
      role,
      disabled: 0,
      created_at: now,
      updated_at: now,
    };
    // Two registrations racing for one name: the unique index decides, and the loser gets the same answer.
    const inserted = await users.insert(row);
    if (inserted === 'username_taken') throw usernameTaken(account.username);
    if (inserted === 'email_taken') throw emailTaken();
    return toUser(row);
  }

  return {
    async register(input: NewAccount): Promise<User> {
      if (config.registration === 'closed') {
        throw forbidden('registration_closed', 'Registration is closed on this registry; ask an administrator for an account.');
      }
      return create(input, 'user', false, true);
    },

    /** Admin creation of an account (the only way in while registration is closed). */
    async createUser(actor: Actor, input: NewAccount & { role?: Role }): Promise<User> {
      requireAdminSession(actor);
      return create(input, input.role ?? 'user', false, true);
    },

    /** Creation of an account by the operator's command line, which acts with the database's own rights. */
    provisionUser(input: NewAccount & { role?: Role }): Promise<User> {
      return create(input, input.role ?? 'user');
    },

    async login(login: string, password: string): Promise<{ user: User; token: string; expiresAt: string }> {
      const row = await users.findByLogin(login);
      if (!row) {
        await burnPasswordCheck(password);
        throw invalidCredentials();
      }
      if (!(await verifyPassword(row.password_hash, password))) throw invalidCredentials();
      if (row.disabled === 1) throw forbidden('account_disabled', 'This account is disabled; contact an administrator.');
      const { token, hash } = newSessionToken();
      const now = nowIso();
      const expiresAt = addDays(now, SESSION_DAYS);
      await sessions.insert({ id: newId(), user_id: row.id, token_hash: hash, created_at: now, expires_at: expiresAt });
      return { user: toUser(row), token, expiresAt };
    },

    async logout(sessionId: string): Promise<void> {
      await sessions.delete(sessionId);
      invalidation.forgetCredential(sessionId);
    },

    async getUser(id: string): Promise<User> {
      const row = await users.findById(id);
      if (!row) throw notFound('user_not_found', `No user has id "${id}".`);
      return toUser(row);
    },

    async listUsers(actor: Actor, filter: { q?: string; role?: Role; disabled?: boolean } & Page) {
      requireAdminSession(actor);
      const { rows, total } = await users.list({
        ...filter,
        limit: filter.pageSize,
        offset: (filter.page - 1) * filter.pageSize,
      });
      return { items: rows.map(toUser), total };
    },

    async updateUser(actor: Actor, userId: string, changes: { role?: Role; disabled?: boolean }): Promise<User> {
      requireAdminSession(actor);
      const row = await users.findById(userId);
      if (!row) throw notFound('user_not_found', `No user has id "${userId}".`);
      const demotes = changes.role === 'user' && row.role === 'admin';
      const disables = changes.disabled === true && row.disabled === 0;
      if (row.id === actor.user.id && (demotes || disables)) {
        throw conflict('cannot_modify_self', 'An administrator cannot demote or disable their own account; ask another administrator.');
      }
      const update: { role?: Role; disabled?: number; updated_at: string } = { updated_at: nowIso() };
      if (changes.role !== undefined) update.role = changes.role;
      if (changes.disabled !== undefined) update.disabled = changes.disabled ? 1 : 0;
      if ((await users.updateKeepingAnAdmin(userId, update)) === 'last_admin') {
        throw conflict('last_admin', 'This is the last active administrator; promote another user first.');
      }
      invalidation.forgetUser(userId);
      // Authentication checks `disabled` on every lookup; dropping the sessions also frees their rows.
      if (disables) await sessions.deleteForUser(userId);
      return toUser({ ...row, ...update });
    },

    /**
     * Makes sure the configured bootstrap administrator exists, is an admin, is enabled and has the
     * configured password, so an operator can always regain access by setting the variables and restarting.
     */
    async ensureAdmin(admin: { username: string; password: string; email: string }): Promise<User> {
      let existing = await users.findByUsername(admin.username);
      if (!existing) {
        try {
          return await create(admin, 'admin', true);
        } catch (error) {
          // Several nodes starting at once on an empty database: one creates the admin, the others adopt it. Which
          // check the others fail depends on when the first commits (the name, or the email just after it).
          if (!(error instanceof AppError && (error.code === 'username_taken' || error.code === 'email_taken'))) throw error;
          existing = await users.findByUsername(admin.username);
          if (!existing) throw error;
        }
      }
      const update: { role?: Role; disabled?: number; password_hash?: string; updated_at: string } = { updated_at: nowIso() };
      if (existing.role !== 'admin') update.role = 'admin';
      if (existing.disabled !== 0) update.disabled = 0;
      if (!(await verifyPassword(existing.password_hash, admin.password))) update.password_hash = await hashPassword(admin.password);
      if (Object.keys(update).length > 1) {
        await users.update(existing.id, update);
        invalidation.forgetUser(existing.id);
      }
      return toUser({ ...existing, ...update });
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
