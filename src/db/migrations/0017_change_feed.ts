import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/** Whether the row `r` (`old` or `new`) of `skills` is public: published, not hidden, not private (domain/skills/visibility.ts). */
const publicOf = (r: 'old' | 'new' | 's') =>
  `(case when ${r}.status = 'published' and ${r}.hidden_at is null and ${r}.private = 0 then 1 else 0 end)`;

/** Two nullable text columns differ (SQLite has no `is distinct from`; `coalesce` to '' works on both). */
const differs = (column: string) => `coalesce(old.${column}, '') <> coalesce(new.${column}, '')`;
const moved = `(old.owner_id <> new.owner_id or ${differs('org_id')})`;

/**
 * What a change to a skill row means, in order: each pair is an entry type and the condition (on `old` and `new`)
 * under which an update writes it. Download totals, the latest version and the quarantine summary change the row
 * too but are not entries: the versions' own entries carry them.
 */
const SKILL_UPDATES: readonly (readonly [string, string])[] = [
  ['skill.published', `old.status = 'draft' and new.status = 'published'`],
  ['skill.republished', `old.status = 'deprecated' and new.status = 'published'`],
  ['skill.deprecated', `old.status <> 'deprecated' and new.status = 'deprecated'`],
  ['skill.transferred', moved],
  ['skill.renamed', `old.slug <> new.slug and not ${moved}`],
  [
    'skill.updated',
    ['name', 'description', 'category', 'tags', 'source_type', 'source_url'].map(differs).join(' or ') +
      ' or old.private <> new.private or old.featured <> new.featured',
  ],
  ['skill.restored', `old.hidden_at is not null and new.hidden_at is null`],
  // The one entry a mirror of public skills needs to drop one: written whatever made it stop being public.
  ['skill.hidden', `${publicOf('old')} = 1 and ${publicOf('new')} = 0`],
];

const COLUMNS = `(type, occurred_at, skill_id, skill_name, owner_id, org_id, prev_owner_id, prev_org_id, version, was_public, is_public)`;

/** The statements a trigger runs, the same text on both databases (`old` and `new` read alike in SQLite and PL/pgSQL). */
function skillInsert(): string {
  return `insert into change_feed ${COLUMNS} select 'skill.created', $NOW, new.id, new.slug, new.owner_id, new.org_id, null, null, null, 0, ${publicOf('new')};`;
}
function skillUpdate(): string {
  return SKILL_UPDATES.map(
    ([type, when]) =>
      `insert into change_feed ${COLUMNS} select '${type}', $NOW, new.id, new.slug, new.owner_id, new.org_id, old.owner_id, old.org_id, null, ` +
      `${publicOf('old')}, ${publicOf('new')} where ${when};`,
  ).join('\n');
}
function skillDelete(): string {
  return `insert into change_feed ${COLUMNS} select 'skill.deleted', $NOW, old.id, old.slug, old.owner_id, old.org_id, null, null, null, ${publicOf('old')}, 0;`;
}
/** A version's entry names its skill as it is; none when the skill itself is gone (a deleted draft's versions). */
function versionEntry(type: string, row: 'old' | 'new', when = ''): string {
  return (
    `insert into change_feed ${COLUMNS} select '${type}', $NOW, s.id, s.slug, s.owner_id, s.org_id, null, null, ${row}.version, ` +
    `${publicOf('s')}, ${publicOf('s')} from skills s where s.id = ${row}.skill_id${when};`
  );
}
function scanEntry(type: string, when: string): string {
  return (
    `insert into change_feed ${COLUMNS} select '${type}', $NOW, s.id, s.slug, s.owner_id, s.org_id, null, null, v.version, ` +
    `${publicOf('s')}, ${publicOf('s')} from versions v join skills s on s.id = v.skill_id where v.id = new.version_id and ${when};`
  );
}

const TRIGGERS = [
  { name: 'skills_insert', table: 'skills', event: 'insert', body: skillInsert() },
  {
    name: 'skills_update',
    table: 'skills',
    event: 'update',
    body: skillUpdate(),
    when: SKILL_UPDATES.map(([, w]) => `(${w})`).join(' or '),
  },
  { name: 'skills_delete', table: 'skills', event: 'delete', body: skillDelete() },
  { name: 'versions_insert', table: 'versions', event: 'insert', body: versionEntry('version.uploaded', 'new') },
  { name: 'versions_delete', table: 'versions', event: 'delete', body: versionEntry('version.deleted', 'old') },
  {
    name: 'scans_insert',
    table: 'version_scans',
    event: 'insert',
    body: scanEntry('version.quarantined', `new.verdict = 'malicious'`),
    when: `new.verdict = 'malicious'`,
  },
  {
    name: 'scans_update',
    table: 'version_scans',
    event: 'update',
    body: [
      scanEntry('version.quarantined', `old.verdict <> 'malicious' and new.verdict = 'malicious'`),
      scanEntry('version.released', `old.verdict = 'malicious' and new.verdict <> 'malicious'`),
    ].join('\n'),
    when: `(old.verdict = 'malicious') <> (new.verdict = 'malicious')`,
  },
] as const;

/**
 * The change feed (`GET /v1/changes`) and webhooks.
 *
 * `change_feed` holds one entry per change of what the registry shows: a skill created, published, deprecated,
 * republished, edited, transferred, renamed, hidden, restored or deleted; a version uploaded, deleted, quarantined or
 * released. Triggers on `skills`, `versions` and `version_scans` write the entries, as they do for the search index's
 * `skill_changes` (0006): in the transaction of the change itself, whichever path made it (the skill service, an
 * upload, a rescan, a transfer, hiding by reports), so an entry exists exactly when its change committed.
 *
 * Order. A reader hands out a cursor (the last `seq` it returned), so an entry must never become visible behind one
 * already read. SQLite serialises writers (one write lock; every transaction begins IMMEDIATE), so numbers are taken in
 * commit order. PostgreSQL takes a sequence number when a row is written, not when it commits, so on its own a reader
 * could see 5 before 4 commits and its cursor would skip 4. There the triggers are constraint triggers deferred to
 * commit, and each takes the transaction-level advisory lock `skreg-change-feed` before taking its numbers: the lock
 * is held until the transaction has committed (PostgreSQL releases locks after the commit is visible), so the next
 * number is only taken after every smaller one has committed or rolled back. Whatever a reader sees is therefore
 * every entry up to the highest it sees (gaps are only rollbacks), and a cursor never skips one. The cost is that
 * transactions that record changes commit one after another, for the moment between their last statement and their
 * commit; taken at commit, the lock is the last one such a transaction asks for, so it cannot deadlock with row locks.
 *
 * `webhooks` are subscriptions (a URL and its signing secret, whose skills, which types), `webhook_deliveries` one
 * event sent to one subscription (each attempt in `webhook_attempts`), and `webhook_dispatch` the feed position up to
 * which entries were turned into deliveries (one row, written at the feed's newest entry when the first subscription is
 * made or the dispatcher first runs, so a database copied by migrate-data — whose feed its own triggers write afresh as
 * the rows arrive — does not deliver its copy as news).
 */
export function changeFeed(dialect: DialectName) {
  const ts = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const now = dialect === 'postgres' ? 'clock_timestamp()' : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const seq = dialect === 'postgres' ? sql`bigserial primary key` : sql`integer primary key autoincrement`;
      await sql`create table change_feed (
        seq ${seq},
        type text not null,
        occurred_at ${ts} not null,
        skill_id text not null,
        skill_name text not null,
        owner_id text not null,
        org_id text,
        prev_owner_id text,
        prev_org_id text,
        version text,
        was_public integer not null,
        is_public integer not null
      )`.execute(db);
      await sql`create index change_feed_skill on change_feed (skill_id, seq)`.execute(db);

      if (dialect === 'sqlite') {
        for (const t of TRIGGERS) {
          const when = 'when' in t ? `when ${t.when}` : '';
          await sql
            .raw(
              `create trigger change_feed_${t.name} after ${t.event} on ${t.table} ${when} begin\n${t.body.replaceAll('$NOW', now)}\nend`,
            )
            .execute(db);
        }
      } else {
        for (const t of TRIGGERS) {
          await sql
            .raw(
              `create function change_feed_${t.name}() returns trigger language plpgsql as $fn$
              begin
                perform pg_advisory_xact_lock(hashtextextended('skreg-change-feed', 0));
                ${t.body.replaceAll('$NOW', now)}
                return null;
              end $fn$`,
            )
            .execute(db);
          const when = 'when' in t ? `when (${t.when})` : '';
          await sql
            .raw(
              `create constraint trigger change_feed_${t.name} after ${t.event} on ${t.table} deferrable initially deferred ` +
                `for each row ${when} execute function change_feed_${t.name}()`,
            )
            .execute(db);
        }
      }

      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
        .addColumn('all_skills', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').execute();
      await db.schema.createIndex('webhooks_org').on('webhooks').column('org_id').execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'delivered', 'failed', 'cancelled')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('redelivery_of', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .execute();
      await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('response_body', 'text')
        .addColumn('attempted_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
        .execute();
      await db.schema
        .createTable('webhook_dispatch')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['webhook_dispatch', 'webhook_attempts', 'webhook_deliveries', 'webhooks']) {
        await db.schema.dropTable(table).execute();
      }
      for (const t of TRIGGERS) {
        if (dialect === 'sqlite') await sql.raw(`drop trigger change_feed_${t.name}`).execute(db);
        else {
          await sql.raw(`drop trigger change_feed_${t.name} on ${t.table}`).execute(db);
          await sql.raw(`drop function change_feed_${t.name}()`).execute(db);
        }
      }
      await sql`drop table change_feed`.execute(db);
    },
  };
}
