import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ANONYMOUS, SESSION_SCOPES, type Actor } from '../../src/domain/actor.js';
import { AppError } from '../../src/domain/errors.js';
import type { User } from '../../src/domain/accounts/views.js';
import type { Services } from '../../src/services.js';
import { ADMIN, startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { adminSession, giveVersion } from '../helpers/client.js';

function sessionOf(user: User): Extract<Actor, { kind: 'session' }> {
  return {
    kind: 'session',
    user: { id: user.id, username: user.username, role: user.role },
    sessionId: `session-of-${user.id}`,
    scopes: SESSION_SCOPES,
  };
}

function keyOf(user: User): Extract<Actor, { kind: 'api_key' }> {
  return {
    kind: 'api_key',
    user: { id: user.id, username: user.username, role: user.role },
    apiKeyId: `key-of-${user.id}`,
    scopes: SESSION_SCOPES,
  };
}

async function refused(operation: Promise<unknown>, status: number, code: string): Promise<void> {
  await assert.rejects(operation, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    return true;
  });
}

/**
 * The admin-only operations check their caller themselves, so a route declared with a weaker access by mistake
 * still cannot reach them: a user's session, an administrator's API key and an anonymous caller are refused
 * with the route layer's answers, and nothing changes.
 */
for (const backend of backends()) {
  describe(`admin-only domain operations (${backend.name})`, () => {
    let t: TestApp;
    let services: Services;
    let admin: User;
    let owner: User;
    let skillId: string;
    let callers: { name: string; actor: Actor; status: number; code: string }[];

    before(async () => {
      t = await startApp(backend);
      services = t.runtime.services;
      admin = (await services.accounts.login(ADMIN.username, ADMIN.password)).user;
      owner = await services.accounts.register({ username: 'owner', email: 'owner@example.com', password: 'owner-password-1' });
      skillId = (await services.skills.create(sessionOf(owner), { name: 'Owned Skill' })).id;
      // Publishing needs a version to install.
      await giveVersion(t, await adminSession(t), skillId);
      callers = [
        { name: "the skill owner's session", actor: sessionOf(owner), status: 403, code: 'not_admin' },
        { name: "a user's API key", actor: keyOf(owner), status: 403, code: 'admin_session_required' },
        { name: "an administrator's API key", actor: keyOf(admin), status: 403, code: 'admin_session_required' },
        { name: 'an anonymous caller', actor: ANONYMOUS, status: 401, code: 'unauthenticated' },
      ];
    });
    after(() => t.close());

    it('refuses a status change (moderation) to anyone but an admin session, and the status stays', async () => {
      for (const { name, actor, status, code } of callers) {
        await refused(services.skills.setStatus(actor, skillId, 'published', 'by mistake'), status, code).catch((error: unknown) => {
          throw new Error(`${name}: ${(error as Error).message}`);
        });
      }
      assert.equal((await services.skills.get(sessionOf(admin), skillId)).status, 'draft');
      assert.equal((await services.skills.setStatus(sessionOf(admin), skillId, 'published', undefined)).status, 'published');
    });

    it('refuses featuring (moderation) to anyone but an admin session, and the flag stays', async () => {
      for (const { name, actor, status, code } of callers) {
        await refused(services.skills.setFeatured(actor, skillId, true, undefined), status, code).catch((error: unknown) => {
          throw new Error(`${name}: ${(error as Error).message}`);
        });
      }
      assert.equal((await services.skills.get(sessionOf(admin), skillId)).featured, false);
      assert.equal((await services.skills.setFeatured(sessionOf(admin), skillId, true, undefined)).featured, true);
    });

    it('refuses listing users to anyone but an admin session', async () => {
      for (const { name, actor, status, code } of callers) {
        await refused(services.accounts.listUsers(actor, { page: 1, pageSize: 10 }), status, code).catch((error: unknown) => {
          throw new Error(`${name}: ${(error as Error).message}`);
        });
      }
      assert.ok((await services.accounts.listUsers(sessionOf(admin), { page: 1, pageSize: 10 })).total >= 2);
    });

    it('refuses creating a user to anyone but an admin session, and no account appears', async () => {
      for (const [i, { name, actor, status, code }] of callers.entries()) {
        const input = { username: `made-${i}`, email: `made-${i}@example.com`, password: 'made-password-1', role: 'admin' as const };
        await refused(services.accounts.createUser(actor, input), status, code).catch((error: unknown) => {
          throw new Error(`${name}: ${(error as Error).message}`);
        });
        await assert.rejects(services.accounts.login(input.username, input.password), { code: 'invalid_credentials' });
      }
      const made = await services.accounts.createUser(sessionOf(admin), {
        username: 'made',
        email: 'made@example.com',
        password: 'made-password-1',
      });
      assert.equal(made.role, 'user');
    });

    it('refuses changing a user to anyone but an admin session, and the account stays as it was', async () => {
      for (const { name, actor, status, code } of callers) {
        await refused(services.accounts.updateUser(actor, owner.id, { role: 'admin' }), status, code).catch((error: unknown) => {
          throw new Error(`${name}: ${(error as Error).message}`);
        });
      }
      assert.equal((await services.accounts.getUser(owner.id)).role, 'user');
      assert.equal((await services.accounts.updateUser(sessionOf(admin), owner.id, { disabled: true })).disabled, true);
      await services.accounts.updateUser(sessionOf(admin), owner.id, { disabled: false });
    });

    it("refuses another user's call log to anyone but an admin session", async () => {
      for (const actor of [sessionOf(owner), keyOf(owner), keyOf(admin)]) {
        await refused(services.logs.list(actor, { user_id: admin.id, page: 1, pageSize: 10 }), 403, 'admin_session_required');
      }
      const own = await services.logs.list(sessionOf(owner), { user_id: owner.id, page: 1, pageSize: 10 }).catch((error: unknown) => error);
      // Naming oneself in the filter is still naming a user: the filter is an admin-session privilege.
      assert.ok(own instanceof AppError && own.code === 'admin_session_required');
      assert.equal((await services.logs.list(sessionOf(admin), { user_id: owner.id, page: 1, pageSize: 10 })).total, 0);
    });
  });
}
