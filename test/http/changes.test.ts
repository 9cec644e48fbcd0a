import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import {
  adminSession,
  call,
  createSkill,
  expectProblem,
  expectStatus,
  giveVersion,
  json,
  registerUser,
  setStatus,
  uniqueName,
  type Auth,
  type TestUser,
} from '../helpers/client.js';

interface Entry {
  id: string;
  type: string;
  occurred_at: string;
  skill: { id: string; name: string };
  version: string | null;
  public: boolean;
  links: { skill: string; version: string | null };
}
interface Page {
  items: Entry[];
  next: string;
}

/** What a follower keeps of one skill: its full name and status, and its versions. */
interface Mirrored {
  name: string;
  status: string;
  versions: string[];
}

/** Reads the feed from `since` to its end, `limit` at a time. */
async function readAll(t: TestApp, auth: Auth, since = '0', limit = 3): Promise<{ entries: Entry[]; next: string }> {
  const entries: Entry[] = [];
  let cursor = since;
  for (;;) {
    const page = json<Page>(expectStatus(await call(t, 'GET', `/v1/changes?since=${cursor}&limit=${limit}`, auth), 200));
    entries.push(...page.items);
    assert.ok(Number(page.next) >= Number(cursor), 'the cursor never goes back');
    cursor = page.next;
    if (page.items.length < limit) return { entries, next: cursor };
  }
}

/**
 * A follower as docs/clients.md describes one: it drops a skill on `skill.deleted`, and on any other entry reads the
 * skill's current state through the links the entry carries; a 404 (a skill hidden from this caller) drops it too.
 */
async function replay(
  t: TestApp,
  auth: Auth,
  entries: readonly Entry[],
  mirror = new Map<string, Mirrored>(),
): Promise<Map<string, Mirrored>> {
  for (const entry of entries) {
    if (entry.type === 'skill.deleted') {
      mirror.delete(entry.skill.id);
      continue;
    }
    const detail = await call(t, 'GET', entry.links.skill, auth);
    if (detail.statusCode === 404) {
      mirror.delete(entry.skill.id);
      continue;
    }
    const skill = json<{ full_name: string; status: string }>(expectStatus(detail, 200));
    const versions = json<{ items: { version: string }[] }>(expectStatus(await call(t, 'GET', `${entry.links.skill}/versions`, auth), 200));
    mirror.set(entry.skill.id, { name: skill.full_name, status: skill.status, versions: versions.items.map((v) => v.version).sort() });
  }
  return mirror;
}

/** The same from the registry's own answers: each listed skill's detail and versions. */
async function registryState(t: TestApp, auth: Auth, ids: readonly string[]): Promise<Map<string, Mirrored>> {
  const state = new Map<string, Mirrored>();
  for (const id of ids) {
    const skill = json<{ full_name: string; status: string }>(expectStatus(await call(t, 'GET', `/v1/skills/${id}`, auth), 200));
    const versions = json<{ items: { version: string }[] }>(expectStatus(await call(t, 'GET', `/v1/skills/${id}/versions`, auth), 200));
    state.set(id, { name: skill.full_name, status: skill.status, versions: versions.items.map((v) => v.version).sort() });
  }
  return state;
}

async function listIds(t: TestApp, auth: Auth, path: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const body = json<{ items: { id: string }[]; total: number }>(
      expectStatus(await call(t, 'GET', `${path}?page=${page}&page_size=100`, auth), 200),
    );
    ids.push(...body.items.map((s) => s.id));
    if (body.items.length < 100) return ids;
  }
}

const sorted = (m: Map<string, Mirrored>) => new Map([...m].sort(([a], [b]) => a.localeCompare(b)));

for (const backend of apiBackends()) {
  describe(`change feed [${backend.name}]`, () => {
    let t: TestApp;
    let admin: { cookie: string };
    let alice: TestUser;
    let bob: TestUser;
    before(async () => {
      t = await startApp(backend);
      admin = await adminSession(t);
      alice = await registerUser(t);
      bob = await registerUser(t);
    });
    after(() => t.close());

    it('replayed into an empty copy, it gives each caller the skills and versions the registry lists', async () => {
      // A series of changes by two owners and an administrator.
      const kept = await createSkill(t, alice.session);
      await giveVersion(t, alice.session, kept.id, '1.0.0');
      await setStatus(t, admin, kept.id, 'published');
      expectStatus(await call(t, 'PATCH', `/v1/skills/${kept.id}`, alice.session, { description: 'Edited after publishing.' }), 200);
      await giveVersion(t, alice.session, kept.id, '1.1.0');

      const renamed = await createSkill(t, alice.session);
      await giveVersion(t, alice.session, renamed.id, '0.1.0');
      await setStatus(t, admin, renamed.id, 'published');
      const newSlug = uniqueName('renamed-');
      expectStatus(await call(t, 'POST', `/v1/skills/${renamed.id}/rename`, alice.session, { slug: newSlug }), 200);

      const deprecated = await createSkill(t, bob.session);
      await giveVersion(t, bob.session, deprecated.id, '2.0.0');
      await setStatus(t, admin, deprecated.id, 'published');
      await setStatus(t, admin, deprecated.id, 'deprecated');

      const back = await createSkill(t, bob.session);
      await setStatus(t, admin, back.id, 'published');
      await setStatus(t, admin, back.id, 'deprecated');
      await setStatus(t, admin, back.id, 'published');

      const draft = await createSkill(t, bob.session);
      await giveVersion(t, bob.session, draft.id, '0.0.1');
      const deleted = await createSkill(t, bob.session);
      expectStatus(await call(t, 'DELETE', `/v1/skills/${deleted.id}`, bob.session), 204);

      // Anonymous: exactly the public list.
      const anonymous = await readAll(t, null);
      const publicIds = await listIds(t, null, '/v1/skills');
      assert.deepEqual(sorted(await replay(t, null, anonymous.entries)), sorted(await registryState(t, null, publicIds)));
      assert.ok(!anonymous.entries.some((e) => [draft.id, deleted.id].includes(e.skill.id)), 'drafts never reach the public');
      assert.deepEqual(
        anonymous.entries.filter((e) => e.skill.id === deprecated.id).map((e) => e.type),
        ['skill.hidden'],
        'a skill that stopped being public shows the public only that it did',
      );

      // An owner: the public skills and their own, as their own list shows them.
      const bobs = await readAll(t, bob.session);
      const bobIds = [...new Set([...publicIds, ...(await listIds(t, bob.session, '/v1/me/skills'))])];
      assert.deepEqual(sorted(await replay(t, bob.session, bobs.entries)), sorted(await registryState(t, bob.session, bobIds)));

      // An administrator: every skill there is.
      const all = await readAll(t, admin, '0', 1000);
      const rows = await t.runtime.database.db.selectFrom('skills').select('id').execute();
      assert.deepEqual(
        sorted(await replay(t, admin, all.entries)),
        sorted(
          await registryState(
            t,
            admin,
            rows.map((r) => r.id),
          ),
        ),
      );

      // What the entries themselves say.
      const typesOf = (id: string) => all.entries.filter((e) => e.skill.id === id).map((e) => e.type);
      assert.deepEqual(typesOf(kept.id), [
        'skill.created',
        'version.uploaded',
        'skill.updated',
        'skill.published',
        'skill.updated',
        'version.uploaded',
      ]);
      assert.deepEqual(typesOf(back.id).slice(-3), ['skill.deprecated', 'skill.hidden', 'skill.republished']);
      assert.deepEqual(typesOf(deleted.id), ['skill.created', 'skill.deleted']);
      const rename = all.entries.find((e) => e.skill.id === renamed.id && e.type === 'skill.renamed');
      assert.equal(rename?.skill.name, newSlug);
      const upload = all.entries.find((e) => e.skill.id === kept.id && e.version === '1.1.0');
      assert.equal(upload?.type, 'version.uploaded');
      assert.equal(upload.links.version, `/v1/skills/${kept.id}/versions/1.1.0`);
      assert.ok(
        all.entries.every((e, i) => i === 0 || Number(e.id) > Number(all.entries[i - 1]?.id)),
        'in order, none twice',
      );

      // Reading on from the end gives nothing until something changes, then exactly that.
      const empty = json<Page>(expectStatus(await call(t, 'GET', `/v1/changes?since=${all.next}`, admin), 200));
      assert.deepEqual(empty, { items: [], next: all.next });
      expectStatus(await call(t, 'PATCH', `/v1/skills/${kept.id}`, alice.session, { description: 'Once more.' }), 200);
      const more = json<Page>(expectStatus(await call(t, 'GET', `/v1/changes?since=${all.next}`, null), 200));
      assert.deepEqual(
        more.items.map((e) => [e.type, e.skill.id]),
        [['skill.updated', kept.id]],
      );
    });

    it("shows an organisation's private skill to its members only, and a verdict's changes as quarantine and release", async () => {
      const org = uniqueName('org-');
      expectStatus(await call(t, 'POST', '/v1/orgs', alice.session, { handle: org }), 201);
      const invitation = json<{ id: string }>(
        expectStatus(
          await call(t, 'POST', `/v1/orgs/${org}/invitations`, alice.session, { username: bob.username, role: 'publisher' }),
          201,
        ),
      );
      expectStatus(await call(t, 'POST', `/v1/me/invitations/${invitation.id}/accept`, bob.session), 200);
      const outsider = await registerUser(t);
      const from = (await readAll(t, admin, '0', 1000)).next;
      const secret = await createSkill(t, alice.session, { scope: org, private: true });
      await giveVersion(t, alice.session, secret.id, '1.0.0');
      const ids = async (auth: Auth) => (await readAll(t, auth, from, 1000)).entries.map((e) => [e.type, e.skill.id]);
      assert.deepEqual(await ids(bob.session), [
        ['skill.created', secret.id],
        ['version.uploaded', secret.id],
        ['skill.updated', secret.id],
      ]);
      assert.deepEqual(await ids(outsider.session), []);
      assert.deepEqual(await ids(null), []);

      // A version's verdict turning malicious quarantines it; turning back releases it.
      const db = t.runtime.database.db;
      const version = await db.selectFrom('versions').select('id').where('skill_id', '=', secret.id).executeTakeFirstOrThrow();
      await db.updateTable('version_scans').set({ verdict: 'malicious' }).where('version_id', '=', version.id).execute();
      await db.updateTable('version_scans').set({ verdict: 'clean' }).where('version_id', '=', version.id).execute();
      const entries = (await readAll(t, alice.session, from, 1000)).entries.slice(-2);
      assert.deepEqual(
        entries.map((e) => [e.type, e.version]),
        [
          ['version.quarantined', '1.0.0'],
          ['version.released', '1.0.0'],
        ],
      );

      // Moved to another owner: the entry names both, so the former owner sees it too.
      const mine = await createSkill(t, alice.session);
      expectStatus(await call(t, 'POST', `/v1/skills/${mine.id}/transfer`, alice.session, { to: outsider.username }), 201);
      const offer = json<{ items: { id: string }[] }>(
        expectStatus(await call(t, 'GET', `/v1/skills/${mine.id}/transfer`, alice.session), 200),
      );
      expectStatus(await call(t, 'POST', `/v1/transfers/${offer.items[0]?.id ?? ''}/accept`, outsider.session), 204);
      for (const auth of [alice.session, outsider.session]) {
        assert.ok((await ids(auth)).some(([type, id]) => type === 'skill.transferred' && id === mine.id));
      }
    });

    it('refuses a cursor or a limit it cannot read, saying what it takes', async () => {
      expectProblem(await call(t, 'GET', '/v1/changes?since=abc', null), 400, 'validation_failed');
      expectProblem(await call(t, 'GET', '/v1/changes?limit=1001', null), 400, 'validation_failed');
      expectProblem(await call(t, 'GET', '/v1/changes?limit=0', null), 400, 'validation_failed');
    });

    if (backend.name === 'postgres') {
      it('never lets a cursor pass an entry that commits late, with writers racing a reader', async () => {
        const db = t.runtime.database.db;
        const early = await createSkill(t, alice.session);
        const late = await createSkill(t, alice.session);
        const start = (await readAll(t, admin, '0', 1000)).next;

        // A transaction changes `late` first and commits last, while another changes `early` and commits at once.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let written!: () => void;
        const wrote = new Promise<void>((resolve) => (written = resolve));
        const slow = db.transaction().execute(async (trx) => {
          await sql`update skills set description = 'late' where id = ${late.id}`.execute(trx);
          written();
          await held;
        });
        await wrote;
        await sql`update skills set description = 'early' where id = ${early.id}`.execute(db);
        const first = json<Page>(expectStatus(await call(t, 'GET', `/v1/changes?since=${start}`, admin), 200));
        assert.deepEqual(
          first.items.map((e) => e.skill.id),
          [early.id],
        );
        release();
        await slow;
        const second = json<Page>(expectStatus(await call(t, 'GET', `/v1/changes?since=${first.next}`, admin), 200));
        assert.deepEqual(
          second.items.map((e) => e.skill.id),
          [late.id],
          'the late commit is read after the cursor, not skipped',
        );

        // Many writers at once against a reader following them: the reader's entries are the feed's, once each, in order.
        const from = second.next;
        const seen: string[] = [];
        let cursor = from;
        const state = { writing: true };
        const reader = (async () => {
          for (;;) {
            const stillWriting = state.writing;
            const page = json<Page>(expectStatus(await call(t, 'GET', `/v1/changes?since=${cursor}&limit=7`, admin), 200));
            seen.push(...page.items.map((e) => e.id));
            cursor = page.next;
            if (!stillWriting && page.items.length < 7) return;
          }
        })();
        const skills = await Promise.all(Array.from({ length: 6 }, () => createSkill(t, alice.session)));
        await Promise.all(
          skills.flatMap((s, i) => [
            call(t, 'PATCH', `/v1/skills/${s.id}`, alice.session, { description: `racing ${i}` }),
            db.transaction().execute(async (trx) => {
              await sql`update skills set name = ${`Racing ${i}`} where id = ${s.id}`.execute(trx);
              await sql`update skills set category = 'racing' where id = ${s.id}`.execute(trx);
            }),
          ]),
        );
        state.writing = false;
        await reader;
        const truth = (await readAll(t, admin, from, 1000)).entries.map((e) => e.id);
        assert.deepEqual(seen, truth);
        assert.ok(truth.length >= 6 * 3);
      });
    }
  });
}
