import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { AdminAuditTable, Database, NewSkill, SkillStatus, SkillUpdate } from '../schema.js';
import type { DialectName } from '../dialect.js';
import { isUniqueViolation } from './unique-violation.js';
import { SCAN_SUMMARY_COLUMNS, type ScanSummaryColumns } from './versions.js';

export type { NewSkill, SkillUpdate };

const SKILL_COLUMNS = [
  's.id',
  's.slug',
  's.name',
  's.description',
  's.category',
  's.tags',
  's.status',
  's.featured',
  's.source_type',
  's.source_url',
  's.owner_id',
  'u.username as owner_username',
  's.latest_version',
  's.downloads',
  's.created_at',
  's.updated_at',
  's.published_at',
  's.hidden_at',
  's.quarantined',
  's.declined_at',
  's.decline_reason',
  's.scope',
  's.org_id',
  's.private',
  'o.handle as org_handle',
] as const;

/** The audit row of a rename, less the name replaced: that is read when the change is written. */
export type RenameAudit = Omit<Insertable<AdminAuditTable>, 'from_value' | 'to_value'> & { to_value: string };

/** A skill's earlier display name: what it was, until when, and who changed it. */
export interface SkillNameChangeRow {
  name: string;
  until: Date | string;
  actor_id: string | null;
  actor_username: string | null;
  /** Whether whoever renamed it is a member of the organisation given to nameHistory (now, not at the rename). */
  actor_in_org: boolean;
}

export function skillsRepository(db: Kysely<Database>, dialect: DialectName) {
  const withOwner = (executor: Kysely<Database>) =>
    executor.selectFrom('skills as s').innerJoin('users as u', 'u.id', 's.owner_id').leftJoin('organisations as o', 'o.id', 's.org_id');

  async function replaceTags(trx: Transaction<Database>, skillId: string, tags: readonly string[]): Promise<void> {
    await trx.deleteFrom('skill_tags').where('skill_id', '=', skillId).execute();
    if (tags.length > 0) {
      await trx
        .insertInto('skill_tags')
        .values(tags.map((tag) => ({ skill_id: skillId, tag })))
        .execute();
    }
  }

  return {
    findById(id: string) {
      return withOwner(db).select(SKILL_COLUMNS).where('s.id', '=', id).executeTakeFirst();
    },

    /** The skills among `ids` that exist, in no particular order. */
    async findManyByIds(ids: readonly string[]) {
      const rows = [];
      // A few hundred ids per statement stay well inside either database's limit on parameters.
      for (let start = 0; start < ids.length; start += 500) {
        rows.push(
          ...(await withOwner(db)
            .select(SKILL_COLUMNS)
            .where('s.id', 'in', ids.slice(start, start + 500))
            .execute()),
        );
      }
      return rows;
    },

    /**
     * The next `limit` skills in every state after the id `after` (empty: from the first), in order of id, as the
     * search index holds them (and lists show them).
     */
    searchRowsAfter(after: string, limit: number) {
      return withOwner(db).select(SKILL_COLUMNS).where('s.id', '>', after).orderBy('s.id').limit(limit).execute();
    },

    findBySlug(slug: string) {
      return withOwner(db).select(SKILL_COLUMNS).where('s.slug', '=', slug).executeTakeFirst();
    },

    async slugTaken(slug: string): Promise<boolean> {
      return (await db.selectFrom('skills').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
    },

    /** Inserts a skill with its tags; 'slug_taken', writing nothing, when another skill holds the slug. */
    async insert(skill: NewSkill, tags: readonly string[]): Promise<'inserted' | 'slug_taken'> {
      try {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('skills').values(skill).execute();
          await replaceTags(trx, skill.id, tags);
        });
        return 'inserted';
      } catch (error) {
        if (isUniqueViolation(error)) return 'slug_taken';
        throw error;
      }
    },

    /**
     * Applies an owner's change and its tags in one transaction. With `rename`, a change of name is kept in the
     * audit trail: the name replaced is read under the row's lock (PostgreSQL `FOR UPDATE`; SQLite transactions
     * already run one at a time), so two renames at once each record the name they really replaced; nothing is
     * recorded when the name stays as it was.
     */
    async update(id: string, changes: SkillUpdate, tags?: readonly string[], rename?: RenameAudit): Promise<void> {
      await db.transaction().execute(async (trx) => {
        let previous: string | undefined;
        if (rename !== undefined) {
          let query = trx.selectFrom('skills').select('name').where('id', '=', id);
          if (dialect === 'postgres') query = query.forUpdate();
          previous = (await query.executeTakeFirst())?.name;
        }
        await trx.updateTable('skills').set(changes).where('id', '=', id).execute();
        if (tags !== undefined) await replaceTags(trx, id, tags);
        if (rename !== undefined && previous !== undefined && previous !== rename.to_value) {
          await trx
            .insertInto('admin_audit')
            .values({ ...rename, from_value: previous })
            .execute();
        }
      });
    },

    /** The last `limit` names a skill had before its recorded renames, newest first, with who renamed it. */
    /** The skill's renames, newest first; `orgId`: the owning organisation, whose members among the renamers are marked. */
    async nameHistory(skillId: string, limit: number, orgId: string | null = null): Promise<SkillNameChangeRow[]> {
      const rows = await db
        .selectFrom('admin_audit as a')
        .leftJoin('users as u', 'u.id', 'a.actor_id')
        // No organisation: an id no member row holds, so the join finds none.
        .leftJoin('org_members as m', (join) => join.onRef('m.user_id', '=', 'a.actor_id').on('m.org_id', '=', orgId ?? ''))
        .select(['a.from_value', 'a.created_at', 'a.actor_id', 'u.username as actor_username', 'm.user_id as member_id'])
        .where('a.target_type', '=', 'skill')
        .where('a.target_id', '=', skillId)
        .where('a.action', '=', 'skill.name')
        .orderBy('a.created_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        name: row.from_value ?? '',
        until: row.created_at,
        actor_id: row.actor_id,
        actor_username: row.actor_username,
        actor_in_org: row.member_id !== null,
      }));
    },

    /**
     * Applies an admin change and its audit rows in one transaction. With `onlyIfStatus`, the change
     * happens only while the skill is still in that state, so two admins acting at once cannot both
     * apply a transition from the same starting point; with `onlyIfQuarantined`, only while the skill's
     * quarantine is as the caller saw it (a rescan may change it meanwhile).
     */
    async updateAudited(
      id: string,
      changes: SkillUpdate,
      audits: readonly Insertable<AdminAuditTable>[],
      onlyIfStatus?: SkillStatus,
      onlyIfQuarantined?: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        let update = trx.updateTable('skills').set(changes).where('id', '=', id);
        if (onlyIfStatus !== undefined) update = update.where('status', '=', onlyIfStatus);
        if (onlyIfQuarantined !== undefined) update = update.where('quarantined', '=', onlyIfQuarantined);
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx
          .insertInto('admin_audit')
          .values([...audits])
          .execute();
        return true;
      });
    },

    /**
     * Drafts in review, declined (`changes_requested`) or not (`waiting`), each with the version uploaded last and its
     * scan: riskiest first (that version malicious, then suspicious, then any other, then no version at all), then
     * the longest waiting (since that upload, or since the skill was created), then by id.
     */
    async reviewQueue(
      state: 'waiting' | 'changes_requested',
      limit: number,
      offset: number,
    ): Promise<{ rows: ReviewQueueRow[]; total: number }> {
      const declined = state === 'waiting' ? ('is' as const) : ('is not' as const);
      const rows = await withOwner(db)
        // The version uploaded last: no other version of the skill came after it (ids are UUIDv7, so they break ties in time).
        .leftJoin('versions as v', (join) =>
          join.onRef('v.skill_id', '=', 's.id').on((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('versions as n')
                  .select('n.id')
                  .whereRef('n.skill_id', '=', 's.id')
                  .where((w) =>
                    w.or([
                      w('n.created_at', '>', w.ref('v.created_at')),
                      w.and([w('n.created_at', '=', w.ref('v.created_at')), w('n.id', '>', w.ref('v.id'))]),
                    ]),
                  ),
              ),
            ),
          ),
        )
        .leftJoin('version_scans as sc', 'sc.version_id', 'v.id')
        .where('s.status', '=', 'draft')
        .where('s.declined_at', declined, null)
        .select(SKILL_COLUMNS)
        .select([
          'v.version as newest_version',
          'v.created_at as newest_uploaded_at',
          ...SCAN_SUMMARY_COLUMNS,
          sql<Date | string>`coalesce(v.created_at, s.created_at)`.as('waiting_since'),
        ])
        .orderBy(sql`case when sc.verdict = 'malicious' then 0 when sc.verdict = 'suspicious' then 1 when v.id is null then 3 else 2 end`)
        .orderBy(sql`coalesce(v.created_at, s.created_at)`)
        .orderBy('s.id')
        .limit(limit)
        .offset(offset)
        .execute();
      const counted = await db
        .selectFrom('skills as s')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('s.status', '=', 'draft')
        .where('s.declined_at', declined, null)
        .executeTakeFirstOrThrow();
      return { rows, total: Number(counted.n) };
    },

    async deleteDraft(id: string): Promise<boolean> {
      const result = await db.deleteFrom('skills').where('id', '=', id).where('status', '=', 'draft').executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type SkillsRepository = ReturnType<typeof skillsRepository>;
export type SkillRecordRow = NonNullable<Awaited<ReturnType<SkillsRepository['findById']>>>;

/** A draft in the review queue: the skill's row, the version uploaded last with its scan's summary, since when it waits. */
export interface ReviewQueueRow extends SkillRecordRow, ScanSummaryColumns {
  newest_version: string | null;
  newest_uploaded_at: Date | string | null;
  waiting_since: Date | string;
}
