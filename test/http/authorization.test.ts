import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createKey,
  createSkill,
  expectProblem,
  expectStatus,
  giveVersion,
  json,
  login,
  registerUser,
  setStatus,
  uniqueName,
  type Auth,
  type SkillBody,
  type TestUser,
  expireApiKey,
} from '../helpers/client.js';

/*
 * Who may call what: every implemented endpoint (rows) against twelve kinds of caller (columns).
 *
 * The callers, in column order:
 *   anonymous                  no credentials at all.
 *   user session               a plain registered user who owns nothing involved and holds no keys.
 *   owner's session            the user who owns every skill and API key used as a target below.
 *   another user's session     a second non-owner: the user who holds "another user's key".
 *   owner's key, no scope      an API key of the owner with scopes [].
 *   owner's key, skill:upload  an API key of the owner with scopes ["skill:upload"].
 *   another user's key         an API key (skill:upload) of "another user", who owns none of the targets.
 *   admin session              the bootstrap administrator signed in.
 *   admin's key                an API key (skill:upload) of that administrator: an ordinary user, not an admin.
 *   disabled user's session    the cookie of a user signed in and then disabled by an administrator.
 *   revoked key                an API key (skill:upload) of the owner, revoked.
 *   expired key                an API key (skill:upload) of the owner whose expires_at lies in the past.
 *
 * A cell is the expected status, and for an error the expected problem `code`: "<status> <code>".
 * Every cell runs as its own test; whatever a request changes (a skill deleted, a key revoked, a session
 * signed out, a status moved, a user created or disabled) is created afresh for that cell alone, so the
 * cells are independent of each other and of their order.
 */

const CALLERS = [
  'anonymous',
  'user session',
  "owner's session",
  "another user's session",
  "owner's key, no scope",
  "owner's key, skill:upload",
  "another user's key",
  'admin session',
  "admin's key",
  "disabled user's session",
  'revoked key',
  'expired key',
] as const;
type CallerName = (typeof CALLERS)[number];

type Cell = '200' | '201' | '202' | '204' | `${401 | 403 | 404 | 409 | 410} ${string}`;
type Cells = readonly [Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell, Cell];

/*
 * Targets, in brackets after a path: [published] is a published skill of the owner; [owner's draft],
 * [owner's published], [owner's deprecated] a skill of the owner in that state; [owner's key] a live API key
 * of the owner. The publish/deprecate rows aim at a draft of the owner, the admin skill rows at a fresh draft
 * (status → published) and a published skill (featured), PATCH /v1/admin/users/:userId at a fresh user. The
 * report rows aim at a fresh skill of the owner, and the admin report rows at a fresh published one that the plain
 * user reported.
 */
const TABLE = {
  //                                                 anonymous                 user session              owner's session           another user's session    owner's key, no scope         owner's key, skill:upload     another user's key            admin session             admin's key                   disabled user's session   revoked key               expired key
  'GET /v1/skills': ['200', '200', '200', '200', '200', '200', '200', '200', '200', '200', '401 unauthenticated', '401 unauthenticated'],
  'GET /v1/skills/:skillId [published]': [
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "GET /v1/skills/:skillId [owner's draft]": [
    '404 skill_not_found',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '200',
    '200',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '404 skill_not_found',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "GET /v1/skills/:skillId [owner's deprecated]": [
    '404 skill_not_found',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '200',
    '200',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '404 skill_not_found',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/skills': [
    '401 unauthenticated',
    '201',
    '201',
    '201',
    '403 insufficient_scope',
    '201',
    '201',
    '201',
    '201',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "PATCH /v1/skills/:skillId [owner's draft]": [
    '401 unauthenticated',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '403 insufficient_scope',
    '200',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "PATCH /v1/skills/:skillId [owner's published]": [
    '401 unauthenticated',
    '403 not_owner',
    '200',
    '403 not_owner',
    '403 insufficient_scope',
    '200',
    '403 not_owner',
    '200',
    '403 not_owner',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "DELETE /v1/skills/:skillId [owner's draft]": [
    '401 unauthenticated',
    '404 skill_not_found',
    '204',
    '404 skill_not_found',
    '403 insufficient_scope',
    '204',
    '404 skill_not_found',
    '204',
    '404 skill_not_found',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "DELETE /v1/skills/:skillId [owner's published]": [
    '401 unauthenticated',
    '403 not_owner',
    '409 not_draft',
    '403 not_owner',
    '403 insufficient_scope',
    '409 not_draft',
    '403 not_owner',
    '409 not_draft',
    '403 not_owner',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/skills/:skillId/publish': [
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
  ],
  'POST /v1/skills/:skillId/deprecate': [
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
    '410 operation_disabled',
  ],
  'POST /v1/auth/logout': [
    '401 unauthenticated',
    '204',
    '204',
    '204',
    '403 session_required',
    '403 session_required',
    '403 session_required',
    '204',
    '403 session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/me': [
    '401 unauthenticated',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/me/skills': [
    '401 unauthenticated',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/me/api-keys': [
    '401 unauthenticated',
    '200',
    '200',
    '200',
    '403 session_required',
    '403 session_required',
    '403 session_required',
    '200',
    '403 session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/me/api-keys': [
    '401 unauthenticated',
    '201',
    '201',
    '201',
    '403 session_required',
    '403 session_required',
    '403 session_required',
    '201',
    '403 session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "DELETE /v1/me/api-keys/:keyId [owner's key]": [
    '401 unauthenticated',
    '404 api_key_not_found',
    '204',
    '404 api_key_not_found',
    '403 session_required',
    '403 session_required',
    '403 session_required',
    '404 api_key_not_found',
    '403 session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/admin/users': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/admin/users': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '201',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'PATCH /v1/admin/users/:userId': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'PATCH /v1/admin/skills/:skillId/status': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'PATCH /v1/admin/skills/:skillId': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/skills/:skillId/reports [published]': [
    '401 unauthenticated',
    '201',
    '403 own_skill',
    '201',
    '403 own_skill',
    '403 own_skill',
    '201',
    '201',
    '201',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "POST /v1/skills/:skillId/reports [owner's draft]": [
    '401 unauthenticated',
    '404 skill_not_found',
    '403 own_skill',
    '404 skill_not_found',
    '403 own_skill',
    '403 own_skill',
    '404 skill_not_found',
    '201',
    '404 skill_not_found',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/admin/review-queue': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/admin/skills/:skillId/decline': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/admin/reports': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/admin/skills/:skillId/reports [reported]': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/admin/skills/:skillId/reports/resolve [reported]': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/skills/:skillId/versions/:version/scan [published]': [
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '200',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  "GET /v1/skills/:skillId/versions/:version/scan [owner's draft]": [
    '404 skill_not_found',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '200',
    '200',
    '404 skill_not_found',
    '200',
    '404 skill_not_found',
    '404 skill_not_found',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/skills/:skillId/versions/:version/scan [published]': [
    '401 unauthenticated',
    '403 not_owner',
    '200',
    '403 not_owner',
    '403 insufficient_scope',
    '200',
    '403 not_owner',
    '200',
    '403 not_owner',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'POST /v1/admin/scans': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '202',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/admin/scans/:jobId': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
  'GET /v1/admin/scans': [
    '401 unauthenticated',
    '403 not_admin',
    '403 not_admin',
    '403 not_admin',
    '403 admin_session_required',
    '403 admin_session_required',
    '403 admin_session_required',
    '200',
    '403 admin_session_required',
    '401 unauthenticated',
    '401 unauthenticated',
    '401 unauthenticated',
  ],
} as const satisfies Record<string, Cells>;
type RowName = keyof typeof TABLE;

/** What every cell shares, made once per backend before the first cell runs. */
interface Fixtures {
  admin: { cookie: string };
  adminId: string;
  owner: TestUser;
  plain: TestUser;
  other: TestUser;
  /** Signed in, then disabled: `session` is the cookie from before the disabling. */
  disabled: TestUser;
  keys: Record<'ownerNoScope' | 'ownerUpload' | 'other' | 'admin' | 'revoked' | 'expired', string>;
  /** The owner's skills, all named "Authz Zanzibar …" so that `q=zanzibar` finds exactly these three. */
  draft: SkillBody;
  published: SkillBody;
  deprecated: SkillBody;
  /** Skills of the owner with a version 1.0.0 (named apart from the "zanzibar" ones). */
  scannedPublished: SkillBody;
  scannedDraft: SkillBody;
  /** A rescan job, finished (one job runs at a time: the POST row's admin cell starts the next). */
  scanJobId: string;
}

/** The caller of one cell: its credentials and the user behind them. */
interface Who {
  name: CallerName;
  kind: 'anonymous' | 'session' | 'api_key';
  auth: Auth;
  userId: string | null;
}

interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** Extra assertions for a 2xx cell. */
  check?: (res: LightMyRequestResponse) => void;
}

interface Endpoint {
  /** The request ends the caller's session (logout), so session callers sign in afresh for each cell. */
  consumesSession?: true;
  build(t: TestApp, fx: Fixtures, who: Who): Request | Promise<Request>;
}

async function makeFixtures(t: TestApp): Promise<Fixtures> {
  const admin = await adminSession(t);
  const adminId = json<{ user: { id: string } }>(expectStatus(await call(t, 'GET', '/v1/me', admin), 200)).user.id;
  const owner = await registerUser(t, uniqueName('owner'));
  const plain = await registerUser(t, uniqueName('plain'));
  const other = await registerUser(t, uniqueName('other'));

  // Each broken credential is shown to work first, so that its cells test the breaking and nothing else.
  const disabled = await registerUser(t, uniqueName('disabled'));
  expectStatus(await call(t, 'GET', '/v1/me', disabled.session), 200);
  expectStatus(await call(t, 'PATCH', `/v1/admin/users/${disabled.id}`, admin, { disabled: true }), 200);

  const revoked = await createKey(t, owner.session);
  expectStatus(await call(t, 'GET', '/v1/me', { key: revoked.key }), 200);
  expectStatus(await call(t, 'DELETE', `/v1/me/api-keys/${revoked.id}`, owner.session), 204);

  const expired = await createKey(t, owner.session, ['skill:upload'], { expires_in_days: 1 });
  expectStatus(await call(t, 'GET', '/v1/me', { key: expired.key }), 200);
  await expireApiKey(t, expired.id);

  const draft = await createSkill(t, owner.session, { name: 'Authz Zanzibar Draft' });
  const published = await setStatus(t, admin, (await createSkill(t, owner.session, { name: 'Authz Zanzibar Published' })).id, 'published');
  const toDeprecate = await createSkill(t, owner.session, { name: 'Authz Zanzibar Deprecated' });
  await setStatus(t, admin, toDeprecate.id, 'published');
  const deprecated = await setStatus(t, admin, toDeprecate.id, 'deprecated');
  const scannedDraft = await createSkill(t, owner.session, { name: 'Authz Scanned Draft' });
  const scannedToPublish = await createSkill(t, owner.session, { name: 'Authz Scanned Published' });
  for (const skill of [scannedDraft, scannedToPublish]) {
    const form = multipart({ version: '1.0.0' }, { content: await zip([{ path: 'SKILL.md', content: skillMd(skill.slug) }]) });
    const res = await t.request({
      method: 'POST',
      url: `/v1/skills/${skill.slug}/versions`,
      headers: { ...authHeaders(owner.session), ...form.headers },
      payload: form.payload,
    });
    expectStatus(res, 201);
  }
  const scannedPublished = await setStatus(t, admin, scannedToPublish.id, 'published');
  const scanJobId = json<{ id: string }>(expectStatus(await call(t, 'POST', '/v1/admin/scans', admin), 202)).id;
  await t.runtime.jobs.runNow('queue');

  return {
    admin,
    adminId,
    owner,
    plain,
    other,
    disabled,
    keys: {
      ownerNoScope: (await createKey(t, owner.session, [])).key,
      ownerUpload: (await createKey(t, owner.session, ['skill:upload'])).key,
      other: (await createKey(t, other.session, ['skill:upload'])).key,
      admin: (await createKey(t, admin, ['skill:upload'])).key,
      revoked: revoked.key,
      expired: expired.key,
    },
    draft,
    published,
    deprecated,
    scannedPublished,
    scannedDraft,
    scanJobId,
  };
}

async function resolveCaller(t: TestApp, fx: Fixtures, name: CallerName, freshSession: boolean): Promise<Who> {
  const sessionOf = async (user: TestUser): Promise<Auth> => (freshSession ? login(t, user.username, user.password) : user.session);
  const key = (secret: string, userId: string): Who => ({ name, kind: 'api_key', auth: { key: secret }, userId });
  switch (name) {
    case 'anonymous':
      return { name, kind: 'anonymous', auth: null, userId: null };
    case 'user session':
      return { name, kind: 'session', auth: await sessionOf(fx.plain), userId: fx.plain.id };
    case "owner's session":
      return { name, kind: 'session', auth: await sessionOf(fx.owner), userId: fx.owner.id };
    case "another user's session":
      return { name, kind: 'session', auth: await sessionOf(fx.other), userId: fx.other.id };
    case "owner's key, no scope":
      return key(fx.keys.ownerNoScope, fx.owner.id);
    case "owner's key, skill:upload":
      return key(fx.keys.ownerUpload, fx.owner.id);
    case "another user's key":
      return key(fx.keys.other, fx.other.id);
    case 'admin session':
      return { name, kind: 'session', auth: freshSession ? await adminSession(t) : fx.admin, userId: fx.adminId };
    case "admin's key":
      return key(fx.keys.admin, fx.adminId);
    case "disabled user's session":
      // Already invalid, so it cannot be signed in afresh; reusing it is harmless.
      return { name, kind: 'session', auth: fx.disabled.session, userId: fx.disabled.id };
    case 'revoked key':
      return key(fx.keys.revoked, fx.owner.id);
    case 'expired key':
      return key(fx.keys.expired, fx.owner.id);
  }
}

const freshDraft = (t: TestApp, fx: Fixtures): Promise<SkillBody> => createSkill(t, fx.owner.session);
const freshDraftWithVersion = async (t: TestApp, fx: Fixtures): Promise<SkillBody> => {
  const skill = await createSkill(t, fx.owner.session);
  await giveVersion(t, fx.owner.session, skill.slug);
  return skill;
};
const freshPublished = async (t: TestApp, fx: Fixtures): Promise<SkillBody> =>
  setStatus(t, fx.admin, (await createSkill(t, fx.owner.session)).id, 'published');

function expectSkill(slug: string, status: string) {
  return (res: LightMyRequestResponse): void => {
    const body = json<SkillBody>(res);
    assert.equal(body.slug, slug);
    assert.equal(body.status, status);
  };
}

function expectField(field: string, value: unknown) {
  return (res: LightMyRequestResponse): void => assert.deepEqual(json(res)[field], value);
}

/** How each row is called; the target is made afresh whenever the request could change it. */
const ENDPOINTS: Record<RowName, Endpoint> = {
  'GET /v1/skills': {
    build: (_t, fx) => ({
      method: 'GET',
      url: '/v1/skills?q=zanzibar',
      // Whoever asks, the public list holds only the published one of the three "zanzibar" skills.
      check: (res) =>
        assert.deepEqual(
          json<{ items: SkillBody[] }>(res).items.map((s) => s.slug),
          [fx.published.slug],
        ),
    }),
  },
  'GET /v1/skills/:skillId [published]': {
    build: (_t, fx) => ({ method: 'GET', url: `/v1/skills/${fx.published.slug}`, check: expectSkill(fx.published.slug, 'published') }),
  },
  "GET /v1/skills/:skillId [owner's draft]": {
    build: (_t, fx) => ({ method: 'GET', url: `/v1/skills/${fx.draft.slug}`, check: expectSkill(fx.draft.slug, 'draft') }),
  },
  "GET /v1/skills/:skillId [owner's deprecated]": {
    build: (_t, fx) => ({ method: 'GET', url: `/v1/skills/${fx.deprecated.slug}`, check: expectSkill(fx.deprecated.slug, 'deprecated') }),
  },
  'POST /v1/skills': {
    build: (_t, _fx, who) => ({
      method: 'POST',
      url: '/v1/skills',
      body: { name: uniqueName('Skill '), slug: uniqueName('skill-') },
      check: (res) => {
        const skill = json<SkillBody>(res);
        assert.equal(skill.status, 'draft');
        assert.equal(skill.owner.id, who.userId, 'a skill belongs to the user behind the session or key');
      },
    }),
  },
  "PATCH /v1/skills/:skillId [owner's draft]": {
    build: async (t, fx) => ({
      method: 'PATCH',
      url: `/v1/skills/${(await freshDraft(t, fx)).slug}`,
      body: { description: 'edited' },
      check: expectField('description', 'edited'),
    }),
  },
  "PATCH /v1/skills/:skillId [owner's published]": {
    build: async (t, fx) => ({
      method: 'PATCH',
      url: `/v1/skills/${(await freshPublished(t, fx)).slug}`,
      body: { description: 'edited' },
      check: expectField('description', 'edited'),
    }),
  },
  "DELETE /v1/skills/:skillId [owner's draft]": {
    build: async (t, fx) => ({ method: 'DELETE', url: `/v1/skills/${(await freshDraft(t, fx)).slug}` }),
  },
  "DELETE /v1/skills/:skillId [owner's published]": {
    build: async (t, fx) => ({ method: 'DELETE', url: `/v1/skills/${(await freshPublished(t, fx)).slug}` }),
  },
  'POST /v1/skills/:skillId/publish': {
    build: (_t, fx) => ({ method: 'POST', url: `/v1/skills/${fx.draft.slug}/publish` }),
  },
  'POST /v1/skills/:skillId/deprecate': {
    build: (_t, fx) => ({ method: 'POST', url: `/v1/skills/${fx.draft.slug}/deprecate` }),
  },
  'POST /v1/auth/logout': {
    consumesSession: true,
    build: () => ({ method: 'POST', url: '/v1/auth/logout' }),
  },
  'GET /v1/me': {
    build: (_t, _fx, who) => ({
      method: 'GET',
      url: '/v1/me',
      check: (res) => {
        const me = json<{ user: { id: string }; auth: { kind: string } }>(res);
        assert.equal(me.user.id, who.userId);
        assert.equal(me.auth.kind, who.kind);
      },
    }),
  },
  'GET /v1/me/skills': {
    build: (_t, fx, who) => ({
      method: 'GET',
      url: '/v1/me/skills?q=zanzibar',
      // The owner gets its three "zanzibar" skills in every state; anyone else gets none of them.
      check: (res) => {
        const slugs = json<{ items: SkillBody[] }>(res)
          .items.map((s) => s.slug)
          .sort();
        const mine = who.userId === fx.owner.id ? [fx.draft.slug, fx.published.slug, fx.deprecated.slug].sort() : [];
        assert.deepEqual(slugs, mine);
      },
    }),
  },
  'GET /v1/me/api-keys': {
    build: () => ({ method: 'GET', url: '/v1/me/api-keys', check: (res) => assert.ok(Array.isArray(json(res).items)) }),
  },
  'POST /v1/me/api-keys': {
    build: () => ({ method: 'POST', url: '/v1/me/api-keys', body: { name: 'authz', scopes: [] } }),
  },
  "DELETE /v1/me/api-keys/:keyId [owner's key]": {
    build: async (t, fx) => ({ method: 'DELETE', url: `/v1/me/api-keys/${(await createKey(t, fx.owner.session, [])).id}` }),
  },
  'GET /v1/admin/users': {
    build: () => ({ method: 'GET', url: '/v1/admin/users', check: (res) => assert.ok(Array.isArray(json(res).items)) }),
  },
  'POST /v1/admin/users': {
    build: () => {
      const username = uniqueName('made');
      return { method: 'POST', url: '/v1/admin/users', body: { username, email: `${username}@example.com`, password: 'a-long-password' } };
    },
  },
  'PATCH /v1/admin/users/:userId': {
    build: async (t) => {
      const username = uniqueName('target');
      const res = await call(t, 'POST', '/v1/auth/register', null, {
        username,
        email: `${username}@example.com`,
        password: 'a-long-password',
      });
      const { id } = json<{ id: string }>(expectStatus(res, 201));
      return { method: 'PATCH', url: `/v1/admin/users/${id}`, body: { disabled: true }, check: expectField('disabled', true) };
    },
  },
  'PATCH /v1/admin/skills/:skillId/status': {
    build: async (t, fx) => ({
      method: 'PATCH',
      // Publishing needs a version to install.
      url: `/v1/admin/skills/${(await freshDraftWithVersion(t, fx)).slug}/status`,
      body: { status: 'published' },
      check: expectField('status', 'published'),
    }),
  },
  'PATCH /v1/admin/skills/:skillId': {
    build: async (t, fx) => ({
      method: 'PATCH',
      url: `/v1/admin/skills/${(await freshPublished(t, fx)).slug}`,
      body: { featured: true },
      check: expectField('featured', true),
    }),
  },
  'POST /v1/skills/:skillId/reports [published]': {
    build: async (t, fx) => ({
      method: 'POST',
      url: `/v1/skills/${(await freshPublished(t, fx)).slug}/reports`,
      body: { reason: 'spam' },
      check: expectField('state', 'open'),
    }),
  },
  "POST /v1/skills/:skillId/reports [owner's draft]": {
    build: async (t, fx) => ({
      method: 'POST',
      url: `/v1/skills/${(await freshDraft(t, fx)).slug}/reports`,
      body: { reason: 'spam' },
      check: expectField('state', 'open'),
    }),
  },
  'GET /v1/admin/review-queue': {
    build: () => ({ method: 'GET', url: '/v1/admin/review-queue', check: (res) => assert.ok(Array.isArray(json(res).items)) }),
  },
  'POST /v1/admin/skills/:skillId/decline': {
    build: async (t, fx) => ({
      method: 'POST',
      url: `/v1/admin/skills/${(await freshDraft(t, fx)).slug}/decline`,
      body: { reason: 'Say which PDF versions it supports.' },
      check: (res) => assert.equal((json(res).declined as { reason: string } | null)?.reason, 'Say which PDF versions it supports.'),
    }),
  },
  'GET /v1/admin/reports': {
    build: () => ({ method: 'GET', url: '/v1/admin/reports', check: (res) => assert.ok(Array.isArray(json(res).items)) }),
  },
  'GET /v1/admin/skills/:skillId/reports [reported]': {
    build: async (t, fx) => ({
      method: 'GET',
      url: `/v1/admin/skills/${(await freshReported(t, fx)).slug}/reports`,
      check: expectField('total', 1),
    }),
  },
  'POST /v1/admin/skills/:skillId/reports/resolve [reported]': {
    build: async (t, fx) => ({
      method: 'POST',
      url: `/v1/admin/skills/${(await freshReported(t, fx)).slug}/reports/resolve`,
      body: { resolution: 'dismissed' },
      check: expectField('resolved', 1),
    }),
  },
  'GET /v1/skills/:skillId/versions/:version/scan [published]': {
    build: (_t, fx) => ({
      method: 'GET',
      url: `/v1/skills/${fx.scannedPublished.slug}/versions/1.0.0/scan`,
      check: expectField('verdict', 'clean'),
    }),
  },
  "GET /v1/skills/:skillId/versions/:version/scan [owner's draft]": {
    build: (_t, fx) => ({
      method: 'GET',
      url: `/v1/skills/${fx.scannedDraft.slug}/versions/1.0.0/scan`,
      check: expectField('verdict', 'clean'),
    }),
  },
  'POST /v1/skills/:skillId/versions/:version/scan [published]': {
    build: (_t, fx) => ({
      method: 'POST',
      url: `/v1/skills/${fx.scannedPublished.slug}/versions/1.0.0/scan`,
      body: {},
      check: expectField('verdict', 'clean'),
    }),
  },
  'POST /v1/admin/scans': {
    build: () => ({ method: 'POST', url: '/v1/admin/scans', check: expectField('state', 'running') }),
  },
  'GET /v1/admin/scans/:jobId': {
    build: (_t, fx) => ({ method: 'GET', url: `/v1/admin/scans/${fx.scanJobId}`, check: expectField('state', 'finished') }),
  },
  'GET /v1/admin/scans': {
    build: (_t, fx) => ({
      method: 'GET',
      url: '/v1/admin/scans',
      check: (res) => assert.ok((json(res).items as { id: string }[]).some((job) => job.id === fx.scanJobId)),
    }),
  },
};

/** A fresh published skill of the owner with an open report by the plain user, for the admin report rows. */
async function freshReported(t: TestApp, fx: Fixtures): Promise<SkillBody> {
  const skill = await freshPublished(t, fx);
  expectStatus(await call(t, 'POST', `/v1/skills/${skill.slug}/reports`, fx.plain.session, { reason: 'spam' }), 201);
  return skill;
}

function parseCell(cell: Cell): { status: number; code: string | undefined } {
  const [status, code] = cell.split(' ');
  return { status: Number(status), code };
}

for (const backend of apiBackends()) {
  describe(`authorisation table [${backend.name}]`, () => {
    let t: TestApp;
    let fx: Fixtures;
    before(async () => {
      t = await startApp(backend);
      fx = await makeFixtures(t);
    });
    after(() => t.close());

    for (const row of Object.keys(TABLE) as RowName[]) {
      const cells: Cells = TABLE[row];
      CALLERS.forEach((name, column) => {
        const cell = cells[column]!;
        it(`${row} × ${name} → ${cell}`, async () => {
          const endpoint = ENDPOINTS[row];
          const who = await resolveCaller(t, fx, name, endpoint.consumesSession === true);
          const request = await endpoint.build(t, fx, who);
          const res = await call(t, request.method, request.url, who.auth, request.body);
          const { status, code } = parseCell(cell);
          if (code === undefined) {
            expectStatus(res, status);
            request.check?.(res);
          } else {
            expectProblem(res, status, code);
            if (status === 401) assert.equal(res.headers['www-authenticate'], 'Bearer');
          }
        });
      });
    }
  });
}
