// SQLite ends a transaction by itself when a statement fails with SQLITE_FULL; the rollback that follows must
// neither hide that error ("cannot rollback - no transaction is active") nor leave the connection unusable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart, skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { authHeaders, createKey, createSkill, adminSession, expectProblem, expectStatus } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

const sqlite = backends().find((b) => b.name === 'sqlite')!;

describe('SQLite full in the middle of a transaction', { timeout: 120_000 }, () => {
  let t: TestApp;
  let key: string;

  before(async () => {
    t = await startApp(sqlite);
    key = (await createKey(t, await adminSession(t))).key;
  });
  after(() => ifSet(t)?.close());

  /** Leaves the registry's connection `pages` pages of room (the call-log writer's own connection is not limited). */
  function limitRoom(pages: number): void {
    const connection = t.runtime.database.sqlite!;
    const used = connection.pragma('page_count', { simple: true }) as number;
    connection.pragma(`max_page_count = ${used + pages}`);
  }
  const unlimited = () => t.runtime.database.sqlite!.pragma('max_page_count = 1073741823');

  test('the caller sees SQLITE_FULL, and the connection goes on working', async () => {
    const db = t.runtime.database.db;
    await sql`create table filler (x text)`.execute(db);
    limitRoom(2);
    let failure: unknown;
    try {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i += 1) await sql`insert into filler values (${'x'.repeat(2000)})`.execute(trx);
      });
    } catch (error) {
      failure = error;
    }
    assert.equal((failure as { code?: string }).code, 'SQLITE_FULL', `the error that ended the transaction: ${String(failure)}`);
    assert.equal(t.runtime.database.sqlite!.inTransaction, false);
    unlimited();
    const { n } = (await sql<{ n: number }>`select count(*) as n from filler`.execute(db)).rows[0]!;
    assert.equal(n, 0, 'nothing of the failed transaction is kept');
    await db.transaction().execute(async (trx) => {
      await sql`insert into filler values ('after')`.execute(trx);
    });
    assert.equal((await sql<{ n: number }>`select count(*) as n from filler`.execute(db)).rows[0]!.n, 1);
  });

  test('an upload that fills the database is refused with 507, and the same upload succeeds once there is room', async () => {
    const skill = await createSkill(t, { key });
    // A file index of a few thousand rows: far more than the room left.
    const files = Array.from({ length: 1500 }, (_, i) => ({ path: `docs/${'section-'.repeat(12)}${i}.md`, content: `${i}` }));
    const archive = await zip([{ path: 'SKILL.md', content: skillMd() }, ...files]);
    const upload = () => {
      const body = multipart({ version: '1.0.0' }, { content: archive });
      return t.request({
        method: 'POST',
        url: `/v1/skills/${skill.slug}/versions`,
        headers: { ...authHeaders({ key }), ...body.headers },
        payload: body.payload,
      });
    };
    limitRoom(4);
    expectProblem(await upload(), 507, 'insufficient_storage');
    unlimited();
    const kept = await t.runtime.database.db.selectFrom('versions').select('id').where('skill_id', '=', skill.id).execute();
    assert.deepEqual(kept, [], 'the refused version was not kept');
    expectStatus(await upload(), 201);
  });
});
