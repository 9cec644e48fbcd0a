import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * A log of every change to a skill row, written by triggers so that no write path can forget it: each node's
 * search index reads the entries after the last one it applied, about once a second, and so follows changes
 * made by other nodes (including featuring and download totals) without a message bus and without counting
 * the skills table. Old entries are pruned by the nodes reading it.
 */
export function skillChanges(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        await sql`create table skill_changes (seq integer primary key autoincrement, skill_id text not null)`.execute(db);
        for (const [event, row] of [
          ['insert', 'new'],
          ['update', 'new'],
          ['delete', 'old'],
        ] as const) {
          await sql`create trigger ${sql.raw(`skill_changes_${event}`)} after ${sql.raw(event)} on skills begin
            insert into skill_changes (skill_id) values (${sql.raw(`${row}.id`)});
          end`.execute(db);
        }
        return;
      }
      await sql`create table skill_changes (seq bigserial primary key, skill_id text not null)`.execute(db);
      await sql`create function skill_changes_log() returns trigger language plpgsql as $$
        begin
          insert into skill_changes (skill_id) values (case when tg_op = 'DELETE' then old.id else new.id end);
          return null;
        end $$`.execute(db);
      await sql`create trigger skill_changes_log after insert or update or delete on skills
        for each row execute function skill_changes_log()`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        for (const event of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`skill_changes_${event}`)}`.execute(db);
      } else {
        await sql`drop trigger skill_changes_log on skills`.execute(db);
        await sql`drop function skill_changes_log()`.execute(db);
      }
      await sql`drop table skill_changes`.execute(db);
    },
  };
}
