import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  authHeaders,
  call,
  createSkill,
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

interface NameChange {
  name: string;
  until: string;
  changed_by?: { kind: 'user'; id: string; username: string } | { kind: 'org'; handle: string };
}

interface VersionBody {
  version: string;
  warnings: { code: string; message: string }[];
}

/** Each field refused, with the value that holds the character and what the answer must say. */
const REFUSED: { field: string; body: Record<string, unknown>; message: RegExp }[] = [
  { field: 'name', body: { name: 'PDF\u202EslooT' }, message: /U\+202E at character 4: a bidirectional control/ },
  { field: 'description', body: { description: 'Reads PDF\u200B files.' }, message: /U\+200B at character 10: an invisible character/ },
  { field: 'category', body: { category: 'docs\u2066' }, message: /U\+2066 at character 5: a bidirectional control/ },
  { field: 'tags[2]', body: { tags: ['pdf', 'office', 'to\u00ADols'] }, message: /U\+00AD at character 3/ },
  { field: 'name', body: { name: 'Tools\u{E0041}' }, message: /U\+E0041 at character 6: an invisible tag character/ },
  { field: 'description', body: { description: 'Colour \u001B[31mred' }, message: /U\+001B at character 8: a control character/ },
  { field: 'category', body: { category: 'logo\uE000' }, message: /U\+E000 .*private-use/ },
];

function refusalOf(res: Parameters<typeof expectProblem>[0], field: string, message: RegExp): void {
  const problem = expectProblem(res, 400, 'validation_failed');
  const errors = problem.errors as { field: string; message: string }[];
  assert.equal(errors.length, 1, JSON.stringify(errors));
  const [error] = errors;
  assert.ok(error);
  assert.equal(error.field, field);
  assert.match(error.message, message);
  assert.match(String(problem.detail), new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: `));
}

for (const backend of apiBackends()) {
  describe(`display text [${backend.name}]`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let admin: { cookie: string };
    before(async () => {
      t = await startApp(backend);
      alice = await registerUser(t);
      bob = await registerUser(t);
      admin = await adminSession(t);
    });
    after(() => t.close());

    const names = async (ref: string, auth: Auth) =>
      json<{ items: NameChange[] }>(expectStatus(await call(t, 'GET', `/v1/skills/${ref}/names`, auth), 200)).items;
    const read = async (ref: string) => json<SkillBody>(expectStatus(await call(t, 'GET', `/v1/skills/${ref}`, admin), 200));
    const pkg = (description: string) => zip([{ path: 'SKILL.md', content: skillMd('pdf-tools', description) }]);
    async function withPackage(fields: Record<string, string>, archive: Buffer) {
      const body = multipart(fields, { content: archive });
      return t.request({
        method: 'POST',
        url: '/v1/skills/with-package',
        headers: { ...authHeaders(alice.session), ...body.headers },
        payload: body.payload,
      });
    }

    async function publishedSkill(name = uniqueName('Published ')): Promise<SkillBody> {
      const skill = await createSkill(t, alice.session, { name, description: 'Works on PDF files.' });
      return setStatus(t, admin, skill.slug, 'published');
    }

    describe('refusals', () => {
      it('POST /v1/skills refuses each field by name, creating nothing', async () => {
        for (const { field, body, message } of REFUSED) {
          const slug = uniqueName('refused-');
          refusalOf(await call(t, 'POST', '/v1/skills', alice.session, { name: 'PDF Tools', slug, ...body }), field, message);
          expectProblem(await call(t, 'GET', `/v1/skills/${slug}`, admin), 404, 'skill_not_found');
        }
      });

      it('PATCH /v1/skills/:skillId refuses each field by name, changing nothing', async () => {
        const skill = await createSkill(t, alice.session, { description: 'Works on PDF files.', category: 'documents', tags: ['pdf'] });
        const published = await setStatus(t, admin, skill.slug, 'published');
        for (const { field, body, message } of REFUSED) {
          refusalOf(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Renamed', ...body }), field, message);
          // An administrator is refused the same way.
          refusalOf(await call(t, 'PATCH', `/v1/skills/${skill.id}`, admin, body), field, message);
        }
        assert.deepEqual(await read(skill.slug), published);
        assert.deepEqual(await names(skill.slug, alice.session), []);
      });

      it('POST /v1/skills/with-package refuses each field by name, creating nothing', async () => {
        const archive = await pkg('Extract text from PDF files.');
        for (const { field, body, message } of REFUSED) {
          const slug = uniqueName('refused-');
          const fields: Record<string, string> = { name: 'PDF Tools', slug, version: '1.0.0' };
          for (const [key, value] of Object.entries(body)) fields[key] = typeof value === 'string' ? value : JSON.stringify(value);
          refusalOf(await withPackage(fields, archive), field, message);
          expectProblem(await call(t, 'GET', `/v1/skills/${slug}`, admin), 404, 'skill_not_found');
        }
      });

      it('accepts names in every script, emoji sequences, and line breaks and tabs in a description', async () => {
        const skill = await createSkill(t, alice.session, {
          name: 'ابزار‌های PDF 👩🏽‍💻 टूल्स',
          description: 'First line.\n\tIndented: 中文, ไทย, עברית, 🏳️‍🌈.\r\nLast line.',
          category: 'Документы',
          tags: ['pdf'],
        });
        assert.equal(skill.name, 'ابزار‌های PDF 👩🏽‍💻 टूल्स');
        assert.equal(skill.description, 'First line.\n\tIndented: 中文, ไทย, עברית, 🏳️‍🌈.\r\nLast line.');
        refusalOf(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Two\nlines' }), 'name', /U\+000A .*one line/);
      });
    });

    describe('GET /v1/skills/:skillId/names', () => {
      it('lists the earlier names of a published skill, newest first, with when each ended', async () => {
        const skill = await publishedSkill('First Name');
        assert.deepEqual(await names(skill.slug, null), []);
        const second = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Second Name' }), 200),
        );
        // A change of other fields, or the same name again, is no rename.
        expectStatus(
          await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: ' Second Name ', description: 'New.' }),
          200,
        );
        const third = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Third Name' }), 200),
        );
        assert.equal(third.name, 'Third Name');
        const owner = { kind: 'user' as const, id: alice.id, username: alice.username };
        const expected = [
          { name: 'Second Name', until: third.updated_at, changed_by: owner },
          { name: 'First Name', until: second.updated_at, changed_by: owner },
        ];
        // The owner's own renames are public; by id or by slug alike.
        assert.deepEqual(await names(skill.slug, null), expected);
        assert.deepEqual(await names(skill.id, bob.session), expected);
        assert.deepEqual(await names(skill.slug, alice.session), expected);
        assert.deepEqual(await names(skill.slug, admin), expected);
      });

      it('shows who renamed it only to the owner and administrators when an administrator did', async () => {
        const skill = await publishedSkill('Before Review');
        const renamed = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, admin, { name: 'After Review' }), 200),
        );
        const adminUser = json<{ user: { id: string; username: string } }>(expectStatus(await call(t, 'GET', '/v1/me', admin), 200)).user;
        const bare = [{ name: 'Before Review', until: renamed.updated_at }];
        const full = [{ ...bare[0]!, changed_by: { kind: 'user' as const, id: adminUser.id, username: adminUser.username } }];
        assert.deepEqual(await names(skill.slug, null), bare);
        assert.deepEqual(await names(skill.slug, bob.session), bare);
        assert.deepEqual(await names(skill.slug, alice.session), full);
        assert.deepEqual(await names(skill.slug, admin), full);
      });

      it("does not record a draft's renames, and shows a draft's history only to its owner and administrators", async () => {
        const draft = await createSkill(t, alice.session, { name: 'Draft Name' });
        expectStatus(await call(t, 'PATCH', `/v1/skills/${draft.slug}`, alice.session, { name: 'Draft Renamed' }), 200);
        assert.deepEqual(await names(draft.slug, alice.session), []);
        assert.deepEqual(await names(draft.id, admin), []);
        expectProblem(await call(t, 'GET', `/v1/skills/${draft.slug}/names`, null), 404, 'skill_not_found');
        expectProblem(await call(t, 'GET', `/v1/skills/${draft.slug}/names`, bob.session), 404, 'skill_not_found');
        // Once published, renames are recorded; the draft's earlier name is not.
        await setStatus(t, admin, draft.slug, 'published');
        const renamed = json<SkillBody>(
          expectStatus(await call(t, 'PATCH', `/v1/skills/${draft.slug}`, alice.session, { name: 'Public Name' }), 200),
        );
        assert.deepEqual(await names(draft.slug, null), [
          { name: 'Draft Renamed', until: renamed.updated_at, changed_by: { kind: 'user', id: alice.id, username: alice.username } },
        ]);
      });

      it("credits an organisation's skill renamed by its members to the organisation, showing the member to members and administrators", async () => {
        const [carol, dave, erin] = [await registerUser(t), await registerUser(t), await registerUser(t)];
        const org = json<{ handle: string }>(
          expectStatus(await call(t, 'POST', '/v1/orgs', alice.session, { handle: uniqueName('org-') }), 201),
        );
        for (const [user, role] of [
          [carol, 'publisher'],
          [dave, 'admin'],
          [erin, 'publisher'],
        ] as const) {
          const invitation = json<{ id: string }>(
            expectStatus(
              await call(t, 'POST', `/v1/orgs/${org.handle}/invitations`, alice.session, { username: user.username, role }),
              201,
            ),
          );
          expectStatus(await call(t, 'POST', `/v1/me/invitations/${invitation.id}/accept`, user.session), 200);
        }
        const created = json<SkillBody>(
          expectStatus(
            await call(t, 'POST', '/v1/skills', carol.session, { name: 'Org Tool', scope: `@${org.handle}`, description: 'Works.' }),
            201,
          ),
        );
        const skill = await setStatus(t, admin, created.full_name, 'published');
        const ref = encodeURIComponent(skill.full_name);
        const rename = async (auth: Auth, name: string) =>
          json<SkillBody>(expectStatus(await call(t, 'PATCH', `/v1/skills/${ref}`, auth, { name }), 200)).updated_at;
        const byCreator = await rename(carol.session, 'Org Tool Two');
        const byMember = await rename(dave.session, 'Org Tool Three');
        const byAdmin = await rename(admin, 'Org Tool Four');
        const byLeaver = await rename(erin.session, 'Org Tool Five');
        expectStatus(await call(t, 'DELETE', `/v1/orgs/${org.handle}/members/${erin.username}`, alice.session), 204);
        const adminUser = json<{ user: { id: string; username: string } }>(expectStatus(await call(t, 'GET', '/v1/me', admin), 200)).user;
        const user = (u: { id: string; username: string }) => ({ kind: 'user' as const, id: u.id, username: u.username });
        const bare = [
          { name: 'Org Tool Four', until: byLeaver },
          { name: 'Org Tool Three', until: byAdmin },
          { name: 'Org Tool Two', until: byMember },
          { name: 'Org Tool', until: byCreator },
        ];
        const credited = { kind: 'org' as const, handle: org.handle };
        // The public: the organisation for its members' and its creator's renames; no one for an administrator's, nor for
        // a rename by someone who has left.
        const outside = [bare[0]!, bare[1]!, { ...bare[2]!, changed_by: credited }, { ...bare[3]!, changed_by: credited }];
        // Members (any role) and administrators: who did each.
        const inside = [
          { ...bare[0]!, changed_by: user(erin) },
          { ...bare[1]!, changed_by: user(adminUser) },
          { ...bare[2]!, changed_by: user(dave) },
          { ...bare[3]!, changed_by: user(carol) },
        ];
        const views: Record<string, NameChange[]> = {};
        for (const [who, auth] of Object.entries({
          anonymous: null,
          nonMember: bob.session,
          leaver: erin.session,
          member: carol.session,
          orgAdmin: dave.session,
          orgOwner: alice.session,
          admin,
        }))
          views[who] = await names(ref, auth);
        assert.deepEqual(views, {
          anonymous: outside,
          nonMember: outside,
          leaver: outside,
          member: inside,
          orgAdmin: inside,
          orgOwner: inside,
          admin: inside,
        });
      });

      it("keeps a deprecated skill's history, visible as the skill is", async () => {
        const skill = await publishedSkill('Old Name');
        await setStatus(t, admin, skill.slug, 'deprecated');
        expectStatus(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Newer Name' }), 200);
        assert.equal((await names(skill.slug, alice.session))[0]?.name, 'Old Name');
        assert.equal((await names(skill.slug, admin))[0]?.name, 'Old Name');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}/names`, null), 404, 'skill_not_found');
        expectProblem(await call(t, 'GET', `/v1/skills/${skill.slug}/names`, bob.session), 404, 'skill_not_found');
      });

      it('answers 404 for a skill that does not exist', async () => {
        expectProblem(await call(t, 'GET', '/v1/skills/no-such-skill/names', null), 404, 'skill_not_found');
        expectProblem(await call(t, 'GET', `/v1/skills/${crypto.randomUUID()}/names`, admin), 404, 'skill_not_found');
      });

      it('keeps a refused rename out of the history', async () => {
        const skill = await publishedSkill('Honest Name');
        refusalOf(await call(t, 'PATCH', `/v1/skills/${skill.slug}`, alice.session, { name: 'Honest\u202EemaN' }), 'name', /U\+202E/);
        assert.deepEqual(await names(skill.slug, null), []);
        assert.equal((await read(skill.slug)).name, 'Honest Name');
      });
    });

    describe("a SKILL.md description that fills the skill's", () => {
      const hostile = 'Extracts \u202Efdp\u202C text from PDF\u200B files.';
      const cleaned = 'Extracts fdp text from PDF files.';

      it('is kept without the refused characters, with a warning, when a skill is created with its package', async () => {
        const slug = uniqueName('cleaned-');
        const res = await withPackage({ name: 'Cleaned Skill', slug, version: '1.0.0' }, await pkg(hostile));
        const created = json<{ skill: SkillBody; version: VersionBody }>(expectStatus(res, 201));
        assert.equal(created.skill.description, cleaned);
        const warning = created.version.warnings.find((w) => w.code === 'skill_md_description_characters');
        assert.ok(warning, JSON.stringify(created.version.warnings));
        assert.match(warning.message, /U\+202E, U\+202C, U\+200B/);
        assert.equal((await read(slug)).description, cleaned);
        const stored = json<VersionBody>(expectStatus(await call(t, 'GET', `/v1/skills/${slug}/versions/1.0.0`, alice.session), 200));
        assert.deepEqual(stored.warnings, created.version.warnings);
      });

      it('is kept without them when a version is uploaded to a skill without a description, and left alone otherwise', async () => {
        const upload = async (skill: string) => {
          const body = multipart({ version: '1.0.0' }, { content: await pkg(hostile) });
          const res = await t.request({
            method: 'POST',
            url: `/v1/skills/${skill}/versions`,
            headers: { ...authHeaders(alice.session), ...body.headers },
            payload: body.payload,
          });
          return json<VersionBody>(expectStatus(res, 201));
        };
        const empty = await createSkill(t, alice.session);
        const filled = await upload(empty.slug);
        assert.ok(filled.warnings.some((w) => w.code === 'skill_md_description_characters'));
        assert.equal((await read(empty.slug)).description, cleaned);

        const described = await createSkill(t, alice.session, { description: 'Its own words.' });
        const kept = await upload(described.slug);
        assert.ok(!kept.warnings.some((w) => w.code === 'skill_md_description_characters'));
        assert.equal((await read(described.slug)).description, 'Its own words.');
      });
    });
  });
}
