import { sql, type Expression, type Insertable, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { AdminAuditTable, Database, NewSkill, SkillStatus, SkillUpdate } from '../schema.js';
import { likeContains } from './like.js';

export type SkillSort = 'latest' | 'downloads' | 'featured';

export interface SkillListFilter {
  /** Search words; every one must occur (case-insensitively) in the name or the description. */
  words: string[];
  category?: string;
  tags: string[];
  featured?: boolean;
  statuses: readonly SkillStatus[] | 'all';
  ownerId?: string;
  sort: SkillSort;
  limit: number;
  offset: number;
}

/** The trigram index needs at least three characters; shorter words are matched by LIKE on the narrowed set. */
export const TRIGRAM_MIN = 3;

const SKILL_COLUMNS = [
  's.id', 's.slug', 's.name', 's.description', 's.category', 's.tags', 's.status', 's.featured',
  's.source_type', 's.source_url', 's.owner_id', 'u.username as owner_username', 's.latest_version',
  's.downloads', 's.created_at', 's.updated_at', 's.published_at',
] as const;

function ftsPhrase(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

export function skillsRepository(db: Kysely<Database>, dialect: DialectName) {
  const withOwner = (executor: Kysely<Database>) =>
    executor.selectFrom('skills as s').innerJoin('users as u', 'u.id', 's.owner_id');

  /** The filtered set, before paging and sorting: shared by the page query, the count and the plan test. */
  function filtered(filter: SkillListFilter) {
    let query = withOwner(db);
    if (filter.statuses !== 'all') {
      const statuses = filter.statuses;
      query = statuses.length === 1 ? query.where('s.status', '=', statuses[0]!) : query.where('s.status', 'in', statuses);
    }
    if (filter.ownerId !== undefined) query = query.where('s.owner_id', '=', filter.ownerId);
    if (filter.category !== undefined) query = query.where('s.category', '=', filter.category);
    if (filter.featured === true) query = query.where('s.featured', '=', 1);
    for (const tag of filter.tags) {
      query = query.where((eb) =>
        eb.exists(
          eb.selectFrom('skill_tags as t').select(sql.lit(1).as('one')).whereRef('t.skill_id', '=', 's.id').where('t.tag', '=', tag),
        ),
      );
    }

    const indexed = filter.words.filter((w) => [...w].length >= TRIGRAM_MIN);
    const short = filter.words.filter((w) => [...w].length < TRIGRAM_MIN);
    if (dialect === 'sqlite') {
      if (indexed.length > 0) {
        const match = indexed.map(ftsPhrase).join(' AND ');
        query = query.where(sql<SqlBool>`s.seq in (select rowid from skills_fts where skills_fts match ${match})`);
      }
      for (const word of short) query = query.where(containsWord(word));
    } else {
      for (const word of [...indexed, ...short]) query = query.where(containsWord(word, 'ilike'));
    }
    return query;
  }

  function containsWord(word: string, op: 'like' | 'ilike' = 'like'): Expression<SqlBool> {
    const pattern = likeContains(word);
    const operator = sql.raw(op);
    return sql<SqlBool>`(s.name ${operator} ${pattern} escape '\\' or s.description ${operator} ${pattern} escape '\\')`;
  }

  function pageQuery(filter: SkillListFilter) {
    let query = filtered(filter).select(SKILL_COLUMNS);
    switch (filter.sort) {
      case 'downloads':
        query = query.orderBy('s.downloads', 'desc');
        break;
      case 'featured':
        query = query.orderBy('s.featured', 'desc').orderBy('s.updated_at', 'desc');
        break;
      case 'latest':
        query = query.orderBy('s.updated_at', 'desc');
        break;
    }
    return query.orderBy('s.id', 'desc').limit(filter.limit).offset(filter.offset);
  }

  async function replaceTags(trx: Transaction<Database>, skillId: string, tags: readonly string[]): Promise<void> {
    await trx.deleteFrom('skill_tags').where('skill_id', '=', skillId).execute();
    if (tags.length > 0) {
      await trx.insertInto('skill_tags').values(tags.map((tag) => ({ skill_id: skillId, tag }))).execute();
    }
  }

  return {
    pageQuery,
    countQuery: (filter: SkillListFilter) => filtered(filter).select((eb) => eb.fn.countAll<number>().as('n')),

    async list(filter: SkillListFilter) {
      const [rows, count] = await Promise.all([
        pageQuery(filter).execute(),
        filtered(filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    findById(id: string) {
      return withOwner(db).select(SKILL_COLUMNS).where('s.id', '=', id).executeTakeFirst();
    },

    findBySlug(slug: string) {
      return withOwner(db).select(SKILL_COLUMNS).where('s.slug', '=', slug).executeTakeFirst();
    },

    async slugTaken(slug: string): Promise<boolean> {
      return (await db.selectFrom('skills').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
    },

    async insert(skill: NewSkill, tags: readonly string[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('skills').values(skill).execute();
        await replaceTags(trx, skill.id, tags);
      });
    },

    async update(id: string, changes: SkillUpdate, tags?: readonly string[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('skills').set(changes).where('id', '=', id).execute();
        if (tags !== undefined) await replaceTags(trx, id, tags);
      });
    },

    /**
     * Applies an admin change and its audit row in one transaction. With `onlyIfStatus`, the change
     * happens only while the skill is still in that state, so two admins acting at once cannot both
     * apply a transition from the same starting point.
     */
    async updateAudited(
      id: string,
      changes: SkillUpdate,
      audit: Insertable<AdminAuditTable>,
      onlyIfStatus?: SkillStatus,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        let update = trx.updateTable('skills').set(changes).where('id', '=', id);
        if (onlyIfStatus !== undefined) update = update.where('status', '=', onlyIfStatus);
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        await trx.insertInto('admin_audit').values(audit).execute();
        return true;
      });
    },

    async deleteDraft(id: string): Promise<boolean> {
      const result = await db.deleteFrom('skills').where('id', '=', id).where('status', '=', 'draft').executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type SkillsRepository = ReturnType<typeof skillsRepository>;
export type SkillRecordRow = NonNullable<Awaited<ReturnType<SkillsRepository['findById']>>>;
