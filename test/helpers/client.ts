import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Skill } from '../../src/domain/skills/skills.js';
import { ADMIN, type TestApp } from './app.js';
import { multipart, skillMd, zip } from './archives.js';

/** Credentials for one request: a session cookie, an API key, or nothing. */
export type Auth = { cookie: string } | { key: string } | null;

export function authHeaders(auth: Auth): Record<string, string> {
  if (auth === null) return {};
  if ('cookie' in auth) return { cookie: `session_token=${auth.cookie}` };
  return { authorization: `Bearer ${auth.key}` };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'HEAD';

export function call(t: TestApp, method: Method, url: string, auth: Auth = null, body?: unknown, headers: Record<string, string> = {}) {
  const options: InjectOptions = { method, url, headers: { ...authHeaders(auth), ...headers } };
  if (body !== undefined) options.payload = body as InjectOptions['payload'];
  return t.request(options);
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the shape they expect; JSON.parse checks nothing, so this is the one place that cast is written
export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

/** Asserts a problem document: status, code, media type, and the request id matching the header. */
export function expectProblem(res: LightMyRequestResponse, status: number, code: string): Record<string, unknown> {
  assert.equal(res.statusCode, status, `expected ${status} ${code}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = json(res);
  assert.equal(body.code, code, `expected code ${code}, got ${res.body}`);
  assert.equal(body.status, status);
  assert.equal(body.type, 'about:blank');
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.ok((body.detail as string).length > 0);
  assert.equal(body.request_id, res.headers['x-request-id']);
  assert.ok(!res.body.includes('    at '), 'a problem must never carry a stack trace');
  return body;
}

export function expectStatus(res: LightMyRequestResponse, status: number): LightMyRequestResponse {
  assert.equal(res.statusCode, status, `expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res;
}

/** The session token from a login response's Set-Cookie header. */
export function sessionFrom(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'session_token');
  assert.ok(cookie, `no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie.value;
}

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  session: { cookie: string };
}

let counter = 0;
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${process.pid}x${counter}`;
}

export async function login(t: TestApp, loginName: string, password: string): Promise<{ cookie: string }> {
  const res = expectStatus(await call(t, 'POST', '/v1/auth/login', null, { login: loginName, password }), 200);
  return { cookie: sessionFrom(res) };
}

export async function registerUser(t: TestApp, username = uniqueName()): Promise<TestUser> {
  const password = `pw-${username}-secret`;
  const email = `${username}@example.com`;
  const res = expectStatus(await call(t, 'POST', '/v1/auth/register', null, { username, email, password }), 201);
  const { id } = json<{ id: string }>(res);
  return { id, username, email, password, session: await login(t, username, password) };
}

export async function adminSession(t: TestApp): Promise<{ cookie: string }> {
  return login(t, ADMIN.username, ADMIN.password);
}

export async function createKey(
  t: TestApp,
  session: { cookie: string },
  scopes: string[] = ['skill:upload'],
  extra: Record<string, unknown> = {},
): Promise<{ key: string; id: string }> {
  const res = expectStatus(await call(t, 'POST', '/v1/me/api-keys', session, { name: 'test key', scopes, ...extra }), 201);
  const body = json<{ key: string; id: string }>(res);
  return { key: body.key, id: body.id };
}

/** A skill as the API returns it. */
export type SkillBody = Skill;

export async function createSkill(t: TestApp, auth: Auth, body: Record<string, unknown> = {}): Promise<SkillBody> {
  const res = await call(t, 'POST', '/v1/skills', auth, { name: uniqueName('Skill '), slug: uniqueName('skill-'), ...body });
  expectStatus(res, 201);
  return json<SkillBody>(res);
}

/**
 * Uploads a minimal package (a SKILL.md) as `version` of `skill`: what publishing a skill needs. The uploader may be
 * the owner or an administrator's session.
 */
export async function giveVersion(t: TestApp, auth: Auth, skill: string, version = '0.0.1'): Promise<void> {
  const body = multipart({ version }, { content: await zip([{ path: 'SKILL.md', content: skillMd('fixture', 'Fixture.') }]) });
  const res = await t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
  expectStatus(res, 201);
}

/**
 * Changes a skill's status as an administrator. Publishing needs an installable version, so a skill without any
 * versions is first given one (giveVersion), its description kept as it was (an upload fills an empty one).
 */
export async function setStatus(t: TestApp, admin: { cookie: string }, skill: string, status: string): Promise<SkillBody> {
  if (status === 'published') {
    const current = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill}`, admin), 200));
    if (current.latest_version === null && !current.quarantined) {
      await giveVersion(t, admin, skill);
      if (current.description === '') expectStatus(await call(t, 'PATCH', `/v1/skills/${skill}`, admin, { description: null }), 200);
    }
  }
  const res = expectStatus(await call(t, 'PATCH', `/v1/admin/skills/${skill}/status`, admin, { status }), 200);
  return json<SkillBody>(res);
}

/**
 * Expires credentials by moving their expiry into the past, as time would. The registry remembers a
 * successful authentication for up to two seconds; the lapse of those seconds is simulated by telling it
 * to forget, so tests need not sleep.
 */
export async function expireApiKey(t: TestApp, keyId: string, at = '2000-01-01T00:00:00.000Z'): Promise<void> {
  await t.runtime.database.db.updateTable('api_keys').set({ expires_at: at }).where('id', '=', keyId).execute();
  t.runtime.services.authenticate.forgetCredential(keyId);
}

export async function expireSession(t: TestApp, tokenHash: string, at = new Date(Date.now() - 60_000).toISOString()): Promise<number> {
  const db = t.runtime.database.db;
  const result = await db.updateTable('sessions').set({ expires_at: at }).where('token_hash', '=', tokenHash).executeTakeFirst();
  const row = await db.selectFrom('sessions').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
  if (row) t.runtime.services.authenticate.forgetCredential(row.id);
  return Number(result.numUpdatedRows);
}
