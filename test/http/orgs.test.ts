import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import {
  adminSession,
  authHeaders,
  call,
  createKey,
  expectProblem,
  expectStatus,
  json,
  registerUser,
  setStatus,
  uniqueName,
  type Auth,
  type SkillBody,
  type TestUser,
} from '../helpers/client.js';

interface Org {
  id: string;
  handle: string;
  display_name: string;
  role: string | null;
}

interface Invitation {
  id: string;
  organisation: string;
  username: string;
  role: string;
  expires_at: string;
}

const handle = () => uniqueName('org-');

async function createOrg(t: TestApp, auth: Auth, body: Record<string, unknown> = {}): Promise<Org> {
  return json<Org>(expectStatus(await call(t, 'POST', '/v1/orgs', auth, { handle: handle(), ...body }), 201));
}

/** Invites `user` with `role` as `by`, and has them accept. */
async function addMember(t: TestApp, org: Org, by: Auth, user: TestUser, role: string): Promise<void> {
  const invitation = json<Invitation>(
    expectStatus(await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, by, { username: user.username, role }), 201),
  );
  expectStatus(await call(t, 'POST', `/v1/me/invitations/${invitation.id}/accept`, user.session), 200);
}

/** Each endpoint's status for each caller, in the order given: what a caller × endpoint table is compared with. */
async function answers(
  endpoints: Record<string, (auth: Auth) => Promise<LightMyRequestResponse>>,
  callers: Record<string, Auth>,
): Promise<Record<string, Record<string, number>>> {
  const actual: Record<string, Record<string, number>> = {};
  for (const [endpoint, request] of Object.entries(endpoints)) {
    actual[endpoint] = {};
    for (const [who, auth] of Object.entries(callers)) actual[endpoint][who] = (await request(auth)).statusCode;
  }
  return actual;
}

async function upload(t: TestApp, auth: Auth, skill: string, version = '1.0.0'): Promise<LightMyRequestResponse> {
  const body = multipart({ version }, { content: await zip([{ path: 'SKILL.md', content: skillMd('scoped', 'A scoped skill.') }]) });
  return t.request({
    method: 'POST',
    url: `/v1/skills/${skill}/versions`,
    headers: { ...authHeaders(auth), ...body.headers },
    payload: body.payload,
  });
}

for (const backend of apiBackends()) {
  describe(`organisations [${backend.name}]`, () => {
    let t: TestApp;
    let admin: { cookie: string };
    before(async () => {
      t = await startApp(backend);
      admin = await adminSession(t);
    });
    after(() => t.close());

    describe('creating', () => {
      it('creates an organisation whose creator is its owner, with the handle in lower case and the display name given', async () => {
        const alice = await registerUser(t);
        const name = handle();
        const res = expectStatus(
          await call(t, 'POST', '/v1/orgs', alice.session, { handle: name.toUpperCase(), display_name: 'Acme Tools' }),
          201,
        );
        const org = json<Org>(res);
        assert.equal(org.handle, name);
        assert.equal(org.display_name, 'Acme Tools');
        assert.equal(org.role, 'owner');
        const read = json<Org>(expectStatus(await call(t, 'GET', `/v1/orgs/${name}`), 200));
        assert.deepEqual({ ...read, role: null }, { ...org, role: null });
        assert.equal(read.role, null, 'anonymous callers have no role');
        const mine = json<{ items: Org[] }>(expectStatus(await call(t, 'GET', '/v1/me/orgs', alice.session), 200));
        assert.deepEqual(
          mine.items.map((o) => [o.handle, o.role]),
          [[name, 'owner']],
        );
      });

      it('refuses a handle held by a user or an organisation (one namespace), a malformed one and a lying display name, creating nothing', async () => {
        const alice = await registerUser(t);
        const org = await createOrg(t, alice.session);
        expectProblem(await call(t, 'POST', '/v1/orgs', alice.session, { handle: org.handle }), 409, 'handle_taken');
        expectProblem(await call(t, 'POST', '/v1/orgs', alice.session, { handle: alice.username }), 409, 'handle_taken');
        const bad = expectProblem(await call(t, 'POST', '/v1/orgs', alice.session, { handle: 'no spaces' }), 400, 'validation_failed');
        assert.equal((bad.errors as { field: string }[])[0]?.field, 'handle');
        const lying = expectProblem(
          await call(t, 'POST', '/v1/orgs', alice.session, { handle: handle(), display_name: 'Acme\u202eslooT' }),
          400,
          'validation_failed',
        );
        assert.equal((lying.errors as { field: string }[])[0]?.field, 'display_name');
        const mine = json<{ items: Org[] }>(expectStatus(await call(t, 'GET', '/v1/me/orgs', alice.session), 200));
        assert.equal(mine.items.length, 1);
        // A user cannot register an organisation's handle either.
        expectProblem(
          await call(t, 'POST', '/v1/auth/register', null, {
            username: org.handle,
            email: `${org.handle}@example.com`,
            password: 'a-long-password-1',
          }),
          409,
          'username_taken',
        );
      });

      it('refuses a reserved handle, and one that looks like a handle someone else holds', async () => {
        const alice = await registerUser(t);
        expectProblem(await call(t, 'POST', '/v1/orgs', alice.session, { handle: 'support' }), 409, 'name_reserved');
        const bob = await registerUser(t);
        // Separators, case and look-alike digits folded: the same handle as bob's to a reader.
        const lookalike = bob.username.replace(/o/g, '0').replace(/^user/, 'u_ser');
        const refused = expectProblem(await call(t, 'POST', '/v1/orgs', alice.session, { handle: lookalike }), 409, 'name_too_similar');
        assert.match(String(refused.detail), new RegExp(bob.username));
      });

      it('answers 404 org_not_found for an unknown organisation', async () => {
        expectProblem(await call(t, 'GET', `/v1/orgs/${handle()}`), 404, 'org_not_found');
      });
    });

    describe('members and invitations', () => {
      it('invites by handle; only the invitee answers; accepting makes a member, declining does not, and both are gone after', async () => {
        const owner = await registerUser(t);
        const bob = await registerUser(t);
        const carol = await registerUser(t);
        const org = await createOrg(t, owner.session);
        const invited = json<Invitation>(
          expectStatus(
            await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: bob.username, role: 'publisher' }),
            201,
          ),
        );
        assert.equal(invited.username, bob.username);
        assert.equal(invited.role, 'publisher');
        const days = (Date.parse(invited.expires_at) - Date.now()) / 86_400_000;
        assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);
        const waiting = json<{ items: Invitation[] }>(expectStatus(await call(t, 'GET', '/v1/me/invitations', bob.session), 200));
        assert.deepEqual(
          waiting.items.map((i) => i.id),
          [invited.id],
        );
        expectProblem(await call(t, 'POST', `/v1/me/invitations/${invited.id}/accept`, carol.session), 403, 'not_invitee');
        const joined = json<Org>(expectStatus(await call(t, 'POST', `/v1/me/invitations/${invited.id}/accept`, bob.session), 200));
        assert.equal(joined.role, 'publisher');
        expectProblem(await call(t, 'POST', `/v1/me/invitations/${invited.id}/accept`, bob.session), 404, 'invitation_not_found');

        const toCarol = json<Invitation>(
          expectStatus(
            await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: carol.username, role: 'admin' }),
            201,
          ),
        );
        expectStatus(await call(t, 'POST', `/v1/me/invitations/${toCarol.id}/decline`, carol.session), 204);
        const members = json<{ items: { username: string; role: string }[] }>(
          expectStatus(await call(t, 'GET', `/v1/orgs/${org.handle}/members`, owner.session), 200),
        );
        assert.deepEqual(
          members.items.map((m) => [m.username, m.role]).sort(),
          [
            [bob.username, 'publisher'],
            [owner.username, 'owner'],
          ].sort(),
        );
        expectProblem(
          await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: bob.username, role: 'admin' }),
          409,
          'already_member',
        );
        expectProblem(
          await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: uniqueName('nobody'), role: 'admin' }),
          404,
          'user_not_found',
        );
        expectProblem(
          await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: carol.username, role: 'king' }),
          400,
          'validation_failed',
        );
      });

      it('lets an invitation expire: it is no longer listed nor accepted', async () => {
        const owner = await registerUser(t);
        const bob = await registerUser(t);
        const org = await createOrg(t, owner.session);
        const invited = json<Invitation>(
          expectStatus(
            await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: bob.username, role: 'publisher' }),
            201,
          ),
        );
        // Time passing, as the clock would: the expiry moves into the past.
        await t.runtime.database.db
          .updateTable('org_invitations')
          .set({ expires_at: '2000-01-01T00:00:00.000Z' })
          .where('id', '=', invited.id)
          .execute();
        assert.deepEqual(json<{ items: unknown[] }>(await call(t, 'GET', '/v1/me/invitations', bob.session)).items, []);
        assert.deepEqual(json<{ items: unknown[] }>(await call(t, 'GET', `/v1/orgs/${org.handle}/invitations`, owner.session)).items, []);
        expectProblem(await call(t, 'POST', `/v1/me/invitations/${invited.id}/accept`, bob.session), 404, 'invitation_not_found');
        expectProblem(await call(t, 'GET', `/v1/orgs/${org.handle}/members`, bob.session), 403, 'org_role_required');
      });

      it('keeps roles within their powers: admins manage admins and publishers, never owners; publishers manage no one', async () => {
        const owner = await registerUser(t);
        const adminMember = await registerUser(t);
        const publisher = await registerUser(t);
        const other = await registerUser(t);
        const org = await createOrg(t, owner.session);
        await addMember(t, org, owner.session, adminMember, 'admin');
        await addMember(t, org, adminMember.session, publisher, 'publisher');
        const invite = (by: Auth, role: string) =>
          call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, by, { username: other.username, role });
        expectProblem(await invite(adminMember.session, 'owner'), 403, 'org_role_required');
        expectProblem(await invite(publisher.session, 'publisher'), 403, 'org_role_required');
        const role = (by: Auth, who: TestUser, to: string) =>
          call(t, 'PATCH', `/v1/orgs/${org.handle}/members/${who.username}`, by, { role: to });
        expectProblem(await role(adminMember.session, owner, 'publisher'), 403, 'org_role_required');
        expectProblem(await role(adminMember.session, publisher, 'owner'), 403, 'org_role_required');
        expectProblem(await role(publisher.session, publisher, 'admin'), 403, 'org_role_required');
        assert.equal(json<{ role: string }>(expectStatus(await role(adminMember.session, publisher, 'admin'), 200)).role, 'admin');
        expectProblem(await role(owner.session, other, 'admin'), 404, 'member_not_found');
        // The last owner stays one, and cannot leave.
        expectProblem(await role(owner.session, owner, 'admin'), 409, 'last_owner');
        expectProblem(await call(t, 'DELETE', `/v1/orgs/${org.handle}/members/${owner.username}`, owner.session), 409, 'last_owner');
        // With a second owner, the first may step down.
        expectStatus(await role(owner.session, adminMember, 'owner'), 200);
        expectStatus(await role(owner.session, owner, 'admin'), 200);
        // Removing: an admin removes no owner; anyone leaves.
        expectProblem(
          await call(t, 'DELETE', `/v1/orgs/${org.handle}/members/${adminMember.username}`, owner.session),
          403,
          'org_role_required',
        );
        expectStatus(await call(t, 'DELETE', `/v1/orgs/${org.handle}/members/${publisher.username}`, publisher.session), 204);
        const history = json<{ items: { action: string }[] }>(
          expectStatus(await call(t, 'GET', `/v1/orgs/${org.handle}/history`, owner.session), 200),
        );
        const actions = history.items.map((h) => h.action);
        for (const action of ['org.create', 'org.invite', 'org.invitation.accept', 'org.role', 'org.leave'])
          assert.ok(actions.includes(action), action);
      });

      it('withdraws an invitation (owners and admins), after which it cannot be accepted', async () => {
        const owner = await registerUser(t);
        const bob = await registerUser(t);
        const org = await createOrg(t, owner.session);
        const invited = json<Invitation>(
          expectStatus(
            await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, owner.session, { username: bob.username, role: 'admin' }),
            201,
          ),
        );
        expectProblem(await call(t, 'DELETE', `/v1/orgs/${org.handle}/invitations/${invited.id}`, bob.session), 403, 'org_role_required');
        expectStatus(await call(t, 'DELETE', `/v1/orgs/${org.handle}/invitations/${invited.id}`, owner.session), 204);
        expectProblem(
          await call(t, 'DELETE', `/v1/orgs/${org.handle}/invitations/${invited.id}`, owner.session),
          404,
          'invitation_not_found',
        );
        expectProblem(await call(t, 'POST', `/v1/me/invitations/${invited.id}/accept`, bob.session), 404, 'invitation_not_found');
      });
    });

    describe('scoped skills', () => {
      it('names skills in a user scope and an organisation scope, each unique within its scope, found by @scope/slug written literally or encoded', async () => {
        const alice = await registerUser(t);
        const org = await createOrg(t, alice.session);
        const slug = uniqueName('tool-');
        const unscoped = json<SkillBody>(expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Tool', slug }), 201));
        assert.equal(unscoped.scope, null);
        assert.equal(unscoped.full_name, slug);
        const inUser = json<SkillBody>(
          expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Tool', slug, scope: alice.username }), 201),
        );
        assert.deepEqual(
          [inUser.slug, inUser.scope, inUser.full_name, inUser.owner.kind],
          [slug, alice.username, `@${alice.username}/${slug}`, 'user'],
        );
        const res = expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Tool', slug, scope: `@${org.handle}` }), 201);
        const inOrg = json<SkillBody>(res);
        assert.equal(res.headers.location, `/v1/skills/@${org.handle}/${slug}`);
        assert.deepEqual([inOrg.scope, inOrg.full_name], [org.handle, `@${org.handle}/${slug}`]);
        assert.deepEqual(inOrg.owner, { kind: 'organisation', id: org.id, handle: org.handle, username: org.handle });
        expectProblem(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Tool', slug, scope: org.handle }), 409, 'slug_taken');
        for (const path of [`@${org.handle}/${slug}`, `%40${org.handle}%2F${slug}`, `%40${org.handle}/${slug}`, inOrg.id]) {
          assert.equal(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${path}`, alice.session), 200)).id, inOrg.id, path);
        }
        // Deeper paths take the literal form too.
        expectStatus(await upload(t, alice.session, `@${org.handle}/${slug}`), 201);
        const versions = json<{ items: { version: string }[] }>(
          expectStatus(await call(t, 'GET', `/v1/skills/@${org.handle}/${slug}/versions`, alice.session), 200),
        );
        assert.deepEqual(
          versions.items.map((v) => v.version),
          ['1.0.0'],
        );
        // The unscoped skill of the same slug is another skill.
        assert.equal(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}`, alice.session), 200)).id, unscoped.id);
      });

      it('refuses a scope the caller may not publish in, and private on a skill no organisation owns', async () => {
        const alice = await registerUser(t);
        const bob = await registerUser(t);
        const org = await createOrg(t, bob.session);
        for (const scope of [org.handle, bob.username, handle()]) {
          expectProblem(
            await call(t, 'POST', '/v1/skills', alice.session, { name: 'X', slug: uniqueName('x-'), scope }),
            403,
            'scope_not_allowed',
          );
        }
        const refused = expectProblem(
          await call(t, 'POST', '/v1/skills', alice.session, { name: 'X', slug: uniqueName('x-'), private: true }),
          400,
          'validation_failed',
        );
        assert.equal((refused.errors as { field: string }[])[0]?.field, 'private');
      });

      it("gives every member who manages the organisation's skills the owner's rights, and takes them away when they leave", async () => {
        const owner = await registerUser(t);
        const publisher = await registerUser(t);
        const outsider = await registerUser(t);
        const org = await createOrg(t, owner.session);
        await addMember(t, org, owner.session, publisher, 'publisher');
        const key = await createKey(t, publisher.session);
        const skill = json<SkillBody>(
          expectStatus(
            await call(t, 'POST', '/v1/skills', { key: key.key }, { name: 'Shared', slug: uniqueName('s-'), scope: org.handle }),
            201,
          ),
        );
        const ref = `@${org.handle}/${skill.slug}`;
        // A draft: members see and change it; anyone else learns nothing.
        expectStatus(await call(t, 'PATCH', `/v1/skills/${ref}`, owner.session, { description: 'By the owner.' }), 200);
        expectStatus(await call(t, 'PATCH', `/v1/skills/${ref}`, { key: key.key }, { description: 'By a publisher key.' }), 200);
        expectProblem(await call(t, 'GET', `/v1/skills/${ref}`, outsider.session), 404, 'skill_not_found');
        expectProblem(await call(t, 'PATCH', `/v1/skills/${ref}`, outsider.session, { description: 'no' }), 404, 'skill_not_found');
        expectStatus(await upload(t, { key: key.key }, ref), 201);
        expectStatus(await call(t, 'GET', `/v1/skills/${ref}/versions/1.0.0/files`, owner.session), 200);
        // Published: an outsider sees it but changes nothing.
        await setStatus(t, admin, skill.id, 'published');
        expectProblem(await call(t, 'PATCH', `/v1/skills/${ref}`, outsider.session, { description: 'no' }), 403, 'not_owner');
        expectStatus(await call(t, 'GET', `/v1/skills/${ref}/feedback`, publisher.session), 200);
        expectProblem(await call(t, 'GET', `/v1/skills/${ref}/feedback`, outsider.session), 403, 'not_owner');
        // Listed among the skills its members manage.
        const mine = json<{ items: SkillBody[] }>(expectStatus(await call(t, 'GET', '/v1/me/skills', publisher.session), 200));
        assert.ok(mine.items.some((s) => s.id === skill.id));
        // Leaving takes the rights away at once.
        expectStatus(await call(t, 'DELETE', `/v1/orgs/${org.handle}/members/${publisher.username}`, publisher.session), 204);
        expectProblem(await call(t, 'PATCH', `/v1/skills/${ref}`, { key: key.key }, { description: 'gone' }), 403, 'not_owner');
        const after = json<{ items: SkillBody[] }>(expectStatus(await call(t, 'GET', '/v1/me/skills', publisher.session), 200));
        assert.ok(!after.items.some((s) => s.id === skill.id));
      });

      it('keeps a private skill to its members: everyone else gets what a skill that does not exist gets', async () => {
        const owner = await registerUser(t);
        const publisher = await registerUser(t);
        const outsider = await registerUser(t);
        const org = await createOrg(t, owner.session);
        await addMember(t, org, owner.session, publisher, 'publisher');
        const skill = json<SkillBody>(
          expectStatus(
            await call(t, 'POST', '/v1/skills', owner.session, {
              name: 'Secret',
              slug: uniqueName('p-'),
              scope: org.handle,
              private: true,
            }),
            201,
          ),
        );
        assert.equal(skill.private, true);
        const ref = `@${org.handle}/${skill.slug}`;
        expectStatus(await upload(t, owner.session, ref), 201);
        await setStatus(t, admin, skill.id, 'published');
        for (const auth of [null, outsider.session] as Auth[]) {
          expectProblem(await call(t, 'GET', `/v1/skills/${ref}`, auth), 404, 'skill_not_found');
          expectProblem(await call(t, 'GET', `/v1/skills/${ref}/versions/1.0.0/download`, auth), 404, 'skill_not_found');
          expectProblem(await call(t, 'GET', `/v1/skills/${skill.id}/versions`, auth), 404, 'skill_not_found');
          const listed = json<{ items: SkillBody[] }>(await call(t, 'GET', `/v1/orgs/${org.handle}/skills`, auth));
          assert.ok(!listed.items.some((s) => s.id === skill.id));
        }
        const everyone = json<{ items: SkillBody[] }>(await call(t, 'GET', `/v1/skills?q=secret`, publisher.session));
        assert.ok(!everyone.items.some((s) => s.id === skill.id), 'the public list never shows a private skill');
        const detail = expectStatus(await call(t, 'GET', `/v1/skills/${ref}`, publisher.session), 200);
        assert.equal(detail.headers['cache-control'], 'private, no-store');
        const download = expectStatus(await call(t, 'GET', `/v1/skills/${ref}/versions/1.0.0/download`, publisher.session), 200);
        assert.match(String(download.headers['cache-control']), /private/);
        assert.match(String(download.headers['content-disposition']), new RegExp(`filename="${skill.slug}-1\\.0\\.0\\.zip"`));
        const listed = json<{ items: SkillBody[] }>(await call(t, 'GET', `/v1/orgs/${org.handle}/skills`, publisher.session));
        assert.ok(listed.items.some((s) => s.id === skill.id));
        // Privacy is for owners and admins of the organisation to change, and is audited.
        expectProblem(await call(t, 'PATCH', `/v1/skills/${ref}`, publisher.session, { private: false }), 403, 'org_role_required');
        assert.equal(
          json<SkillBody>(expectStatus(await call(t, 'PATCH', `/v1/skills/${ref}`, owner.session, { private: false }), 200)).private,
          false,
        );
        expectStatus(await call(t, 'GET', `/v1/skills/${ref}`, outsider.session), 200);
        const audit = await t.runtime.database.db
          .selectFrom('admin_audit')
          .select(['action', 'to_value'])
          .where('target_id', '=', skill.id)
          .execute();
        assert.ok(audit.some((a) => a.action === 'skill.private' && a.to_value === 'false'));
      });

      it('deletes an organisation only without skills, and only by an owner', async () => {
        const owner = await registerUser(t);
        const adminMember = await registerUser(t);
        const org = await createOrg(t, owner.session);
        await addMember(t, org, owner.session, adminMember, 'admin');
        const skill = json<SkillBody>(
          expectStatus(
            await call(t, 'POST', '/v1/skills', owner.session, { name: 'Kept', slug: uniqueName('k-'), scope: org.handle }),
            201,
          ),
        );
        expectProblem(await call(t, 'DELETE', `/v1/orgs/${org.handle}`, adminMember.session), 403, 'org_role_required');
        expectProblem(await call(t, 'DELETE', `/v1/orgs/${org.handle}`, owner.session), 409, 'org_owns_skills');
        expectStatus(await call(t, 'DELETE', `/v1/skills/@${org.handle}/${skill.slug}`, adminMember.session), 204);
        expectStatus(await call(t, 'DELETE', `/v1/orgs/${org.handle}`, owner.session), 204);
        expectProblem(await call(t, 'GET', `/v1/orgs/${org.handle}`), 404, 'org_not_found');
        assert.deepEqual(json<{ items: Org[] }>(await call(t, 'GET', '/v1/me/orgs', adminMember.session)).items, []);
      });
    });

    describe('transfers and renames', () => {
      interface TransferBody {
        id: string;
        skill: string;
        to: string;
        new_name: string;
      }

      it('moves a skill to an organisation that accepts it, with its id, versions and downloads; the old name answers 308 with the new one', async () => {
        const alice = await registerUser(t);
        const bob = await registerUser(t);
        const outsider = await registerUser(t);
        const org = await createOrg(t, bob.session);
        const slug = uniqueName('moving-');
        const skill = json<SkillBody>(
          expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Moving', slug, scope: alice.username }), 201),
        );
        const oldName = `@${alice.username}/${slug}`;
        expectStatus(await upload(t, alice.session, oldName), 201);
        await setStatus(t, admin, skill.id, 'published');
        expectStatus(await call(t, 'GET', `/v1/skills/${oldName}/versions/1.0.0/download`), 200);

        expectProblem(await call(t, 'POST', `/v1/skills/${oldName}/transfer`, outsider.session, { to: org.handle }), 403, 'not_owner');
        expectProblem(
          await call(t, 'POST', `/v1/skills/${oldName}/transfer`, alice.session, { to: uniqueName('nobody') }),
          404,
          'user_not_found',
        );
        const offer = json<TransferBody>(
          expectStatus(await call(t, 'POST', `/v1/skills/${oldName}/transfer`, alice.session, { to: `@${org.handle}` }), 201),
        );
        assert.equal(offer.new_name, `@${org.handle}/${slug}`);
        const received = json<{ items: TransferBody[] }>(expectStatus(await call(t, 'GET', '/v1/me/transfers', bob.session), 200));
        assert.deepEqual(
          received.items.map((o) => o.id),
          [offer.id],
        );
        expectProblem(await call(t, 'POST', `/v1/transfers/${offer.id}/accept`, outsider.session), 403, 'not_receiver');
        expectStatus(await call(t, 'POST', `/v1/transfers/${offer.id}/accept`, bob.session), 204);
        expectProblem(await call(t, 'POST', `/v1/transfers/${offer.id}/accept`, bob.session), 404, 'transfer_not_found');

        await t.runtime.services.downloads.flush();
        const moved = json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/@${org.handle}/${slug}`), 200));
        assert.deepEqual(
          [moved.id, moved.full_name, moved.owner.kind, moved.downloads],
          [skill.id, `@${org.handle}/${slug}`, 'organisation', 1],
        );
        // The old name says where the skill lives now, for every path below it; a client following redirects still downloads.
        const redirected = await call(t, 'GET', `/v1/skills/${oldName}/versions/1.0.0/download`);
        assert.equal(redirected.statusCode, 308);
        assert.equal(redirected.headers.location, `/v1/skills/@${org.handle}/${slug}/versions/1.0.0/download`);
        assert.equal(json<{ moved_to: string }>(redirected).moved_to, `@${org.handle}/${slug}`);
        const encoded = await call(t, 'GET', `/v1/skills/${encodeURIComponent(oldName)}`);
        assert.equal(encoded.statusCode, 308);
        assert.equal(encoded.headers.location, `/v1/skills/@${org.handle}/${slug}`);
        const aliases = json<{ items: { name: string }[] }>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}/aliases`), 200));
        assert.deepEqual(
          aliases.items.map((a) => a.name),
          [oldName],
        );
        // Alice no longer manages it; the organisation's members do.
        expectProblem(await call(t, 'PATCH', `/v1/skills/${skill.id}`, alice.session, { description: 'mine?' }), 403, 'not_owner');
        expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.id}`, bob.session, { description: 'ours' }), 200);
        // The old name cannot be taken until an administrator releases it.
        expectProblem(
          await call(t, 'POST', '/v1/skills', alice.session, { name: 'Again', slug, scope: alice.username }),
          409,
          'name_retired',
        );
        expectProblem(await call(t, 'DELETE', `/v1/admin/skill-aliases/${encodeURIComponent(oldName)}`, alice.session), 403, 'not_admin');
        expectStatus(await call(t, 'DELETE', `/v1/admin/skill-aliases/${encodeURIComponent(oldName)}`, admin), 204);
        expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Again', slug, scope: alice.username }), 201);
        const audit = await t.runtime.database.db.selectFrom('admin_audit').select('action').where('target_id', '=', skill.id).execute();
        for (const action of ['skill.transfer.offer', 'skill.transfer', 'skill.alias.release'])
          assert.ok(
            audit.some((a) => a.action === action),
            action,
          );
      });

      it('renames a skill in its scope; declines, withdrawals and expiry leave it where it is', async () => {
        const alice = await registerUser(t);
        const bob = await registerUser(t);
        const slug = uniqueName('renamed-');
        const skill = json<SkillBody>(expectStatus(await call(t, 'POST', '/v1/skills', alice.session, { name: 'Renamed', slug }), 201));
        const next = uniqueName('renamed-new-');
        const renamed = json<SkillBody>(
          expectStatus(await call(t, 'POST', `/v1/skills/${slug}/rename`, alice.session, { slug: next }), 200),
        );
        assert.deepEqual([renamed.id, renamed.slug, renamed.full_name], [skill.id, next, next]);
        const old = await call(t, 'GET', `/v1/skills/${slug}`, alice.session);
        assert.equal(old.statusCode, 308);
        assert.equal(old.headers.location, `/v1/skills/${next}`);
        // The old name of a draft leads nowhere for those who may not see it.
        expectProblem(await call(t, 'GET', `/v1/skills/${slug}`, bob.session), 404, 'skill_not_found');
        expectProblem(await call(t, 'POST', `/v1/skills/${next}/rename`, alice.session, { slug: 'Not A Slug' }), 400, 'invalid_slug');

        const offer = json<TransferBody>(
          expectStatus(await call(t, 'POST', `/v1/skills/${next}/transfer`, alice.session, { to: bob.username }), 201),
        );
        expectStatus(await call(t, 'POST', `/v1/transfers/${offer.id}/decline`, bob.session), 204);
        const again = json<TransferBody>(
          expectStatus(await call(t, 'POST', `/v1/skills/${next}/transfer`, alice.session, { to: bob.username }), 201),
        );
        expectProblem(await call(t, 'DELETE', `/v1/transfers/${again.id}`, bob.session), 404, 'skill_not_found');
        expectStatus(await call(t, 'DELETE', `/v1/transfers/${again.id}`, alice.session), 204);
        const late = json<TransferBody>(
          expectStatus(await call(t, 'POST', `/v1/skills/${next}/transfer`, alice.session, { to: bob.username }), 201),
        );
        await t.runtime.database.db
          .updateTable('skill_transfers')
          .set({ expires_at: '2000-01-01T00:00:00.000Z' })
          .where('id', '=', late.id)
          .execute();
        expectProblem(await call(t, 'POST', `/v1/transfers/${late.id}/accept`, bob.session), 404, 'transfer_not_found');
        assert.equal(json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${skill.id}`, alice.session), 200)).owner.id, alice.id);
      });
    });

    describe('who may call what', () => {
      it('answers each caller on each organisation endpoint as its rules say', async () => {
        const owner = await registerUser(t);
        const adminMember = await registerUser(t);
        const publisher = await registerUser(t);
        const outsider = await registerUser(t);
        const org = await createOrg(t, owner.session);
        await addMember(t, org, owner.session, adminMember, 'admin');
        await addMember(t, org, owner.session, publisher, 'publisher');
        const ownerKey = await createKey(t, owner.session);
        const readOnlyKey = await createKey(t, owner.session, []);
        const callers: Record<string, Auth> = {
          anonymous: null,
          outsider: outsider.session,
          publisher: publisher.session,
          admin: adminMember.session,
          owner: owner.session,
          'owner key': { key: ownerKey.key },
          'owner read-only key': { key: readOnlyKey.key },
          'site admin': admin,
        };
        const endpoints: Record<string, (auth: Auth) => Promise<LightMyRequestResponse>> = {
          'GET org': (auth) => call(t, 'GET', `/v1/orgs/${org.handle}`, auth),
          'PATCH org': (auth) => call(t, 'PATCH', `/v1/orgs/${org.handle}`, auth, { display_name: 'Renamed' }),
          'GET members': (auth) => call(t, 'GET', `/v1/orgs/${org.handle}/members`, auth),
          'GET invitations': (auth) => call(t, 'GET', `/v1/orgs/${org.handle}/invitations`, auth),
          'GET history': (auth) => call(t, 'GET', `/v1/orgs/${org.handle}/history`, auth),
          'POST skill in scope': (auth) => call(t, 'POST', '/v1/skills', auth, { name: 'T', slug: uniqueName('t-'), scope: org.handle }),
        };
        const expected: Record<string, Record<string, number>> = {
          'GET org': {
            anonymous: 200,
            outsider: 200,
            publisher: 200,
            admin: 200,
            owner: 200,
            'owner key': 200,
            'owner read-only key': 200,
            'site admin': 200,
          },
          'PATCH org': {
            anonymous: 401,
            outsider: 403,
            publisher: 403,
            admin: 200,
            owner: 200,
            'owner key': 200,
            'owner read-only key': 403,
            'site admin': 200,
          },
          'GET members': {
            anonymous: 401,
            outsider: 403,
            publisher: 200,
            admin: 200,
            owner: 200,
            'owner key': 200,
            'owner read-only key': 200,
            'site admin': 200,
          },
          'GET invitations': {
            anonymous: 401,
            outsider: 403,
            publisher: 403,
            admin: 200,
            owner: 200,
            'owner key': 200,
            'owner read-only key': 200,
            'site admin': 200,
          },
          'GET history': {
            anonymous: 401,
            outsider: 403,
            publisher: 200,
            admin: 200,
            owner: 200,
            'owner key': 200,
            'owner read-only key': 200,
            'site admin': 200,
          },
          'POST skill in scope': {
            anonymous: 401,
            outsider: 403,
            publisher: 201,
            admin: 201,
            owner: 201,
            'owner key': 201,
            'owner read-only key': 403,
            'site admin': 201,
          },
        };
        assert.deepEqual(await answers(endpoints, callers), expected);
      });

      it("answers each caller on each endpoint of an organisation's private skill as its rules say", async () => {
        const owner = await registerUser(t);
        const adminMember = await registerUser(t);
        const publisher = await registerUser(t);
        const outsider = await registerUser(t);
        const org = await createOrg(t, owner.session);
        await addMember(t, org, owner.session, adminMember, 'admin');
        await addMember(t, org, owner.session, publisher, 'publisher');
        const publisherKey = await createKey(t, publisher.session);
        const readOnlyKey = await createKey(t, publisher.session, []);
        const skill = json<SkillBody>(
          expectStatus(
            await call(t, 'POST', '/v1/skills', owner.session, {
              name: 'Table',
              slug: uniqueName('tb-'),
              scope: org.handle,
              private: true,
            }),
            201,
          ),
        );
        const callers: Record<string, Auth> = {
          anonymous: null,
          outsider: outsider.session,
          publisher: publisher.session,
          'publisher key': { key: publisherKey.key },
          'publisher read-only key': { key: readOnlyKey.key },
          admin: adminMember.session,
          owner: owner.session,
          'site admin': admin,
        };
        let version = 0;
        const endpoints: Record<string, (auth: Auth) => Promise<LightMyRequestResponse>> = {
          'GET skill': (auth) => call(t, 'GET', `/v1/skills/${skill.id}`, auth),
          'PATCH description': (auth) => call(t, 'PATCH', `/v1/skills/${skill.id}`, auth, { description: 'Changed.' }),
          'PATCH private': (auth) => call(t, 'PATCH', `/v1/skills/${skill.id}`, auth, { private: true }),
          'POST version': (auth) => upload(t, auth, skill.id, `1.0.${(version += 1)}`),
          'GET versions': (auth) => call(t, 'GET', `/v1/skills/${skill.id}/versions`, auth),
          'GET feedback': (auth) => call(t, 'GET', `/v1/skills/${skill.id}/feedback`, auth),
          'GET transfer': (auth) => call(t, 'GET', `/v1/skills/${skill.id}/transfer`, auth),
          'POST transfer': (auth) => call(t, 'POST', `/v1/skills/${skill.id}/transfer`, auth, { to: outsider.username }),
          'POST rename': (auth) => call(t, 'POST', `/v1/skills/${skill.id}/rename`, auth, { slug: uniqueName('tb-') }),
        };
        // PATCH private to the value it has changes nothing, so only the role check answers.
        const expected: Record<string, Record<string, number>> = {
          'GET skill': {
            anonymous: 404,
            outsider: 404,
            publisher: 200,
            'publisher key': 200,
            'publisher read-only key': 200,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
          'PATCH description': {
            anonymous: 401,
            outsider: 404,
            publisher: 200,
            'publisher key': 200,
            'publisher read-only key': 403,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
          'PATCH private': {
            anonymous: 401,
            outsider: 404,
            publisher: 200,
            'publisher key': 200,
            'publisher read-only key': 403,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
          'POST version': {
            anonymous: 401,
            outsider: 404,
            publisher: 201,
            'publisher key': 201,
            'publisher read-only key': 403,
            admin: 201,
            owner: 201,
            'site admin': 201,
          },
          'GET versions': {
            anonymous: 404,
            outsider: 404,
            publisher: 200,
            'publisher key': 200,
            'publisher read-only key': 200,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
          'GET feedback': {
            anonymous: 401,
            outsider: 404,
            publisher: 200,
            'publisher key': 200,
            'publisher read-only key': 200,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
          'GET transfer': {
            anonymous: 401,
            outsider: 404,
            publisher: 200,
            'publisher key': 200,
            'publisher read-only key': 200,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
          'POST transfer': {
            anonymous: 401,
            outsider: 404,
            publisher: 403,
            'publisher key': 403,
            'publisher read-only key': 403,
            admin: 201,
            owner: 201,
            'site admin': 201,
          },
          'POST rename': {
            anonymous: 401,
            outsider: 404,
            publisher: 403,
            'publisher key': 403,
            'publisher read-only key': 403,
            admin: 200,
            owner: 200,
            'site admin': 200,
          },
        };
        assert.deepEqual(await answers(endpoints, callers), expected);
      });
    });
  });
}
