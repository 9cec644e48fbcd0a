import { sql, type Expression, type Insertable, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { AdminAuditTable, Database, NewSkill, SkillStatus, SkillUpdate } from '../schema.js';
import { likeContains } from './like.js';
import { isUniqueViolation } from './unique-violation.js';

export type { NewSkill, SkillUpdate };

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

/** The trigram index needs at least three characters; shorter words are matched on the narrowed set. */
export const TRIGRAM_MIN = 3;

/**
 * Up to this many search matches, a page is fetched from the matches and sorted; beyond it, walking the
 * sort order's index and stopping after one page of matches is cheaper.
 */
export const MATCHES_FIRST_MAX = 2000;

function matchesFirst(filter: SkillListFilter, total: number): boolean {
  return filter.words.length > 0 && total <= MATCHES_FIRST_MAX;
}

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
] as const;

function ftsPhrase(word: string): string {
  return `"${word.replace(/"/g, '""')}"`;
}

export function skillsRepository(db: Kysely<Database>, dialect: DialectName) {
  const withOwner = (executor: Kysely<Database>) => executor.selectFrom('skills as s').innerJoin('users as u', 'u.id', 's.owner_id');

  /**
   * The filtered set, before paging and sorting: shared by the page query, the count and the plan test.
   *
   * With `matchesFirst`, a search is answered by fetching the rows the text index matched and filtering
   * those, instead of walking an index over every published skill and probing each against the matches.
   * That is the right plan when the matches are few (always, for counting). SQLite is steered by making
   * the other equality terms unusable for an index (the documented unary `+`); PostgreSQL by handing the
   * matches over as an array, which it can only look up by key.
   */
  function filtered(filter: SkillListFilter, matchesFirst = false) {
    const searching = filter.words.length > 0;
    const column = (name: 'status' | 'owner_id' | 'category' | 'featured') =>
      searching && matchesFirst && dialect === 'sqlite' ? sql.raw(`+s.${name}`) : sql.ref(`s.${name}`);

    let query = withOwner(db);
    if (filter.statuses !== 'all') {
      const statuses = filter.statuses;
      query = query.where(column('status'), 'in', statuses);
    }
    if (filter.ownerId !== undefined) query = query.where(column('owner_id'), '=', filter.ownerId);
    if (filter.category !== undefined) query = query.where(column('category'), '=', filter.category);
    if (filter.featured === true) query = query.where(column('featured'), '=', 1);
    for (const tag of filter.tags) {
      query = query.where((eb) =>
        eb.exists(
          eb.selectFrom('skill_tags as t').select(sql.lit(1).as('one')).whereRef('t.skill_id', '=', 's.id').where('t.tag', '=', tag),
        ),
      );
    }
    if (!searching) return query;

    if (dialect === 'sqlite') {
      const indexed = filter.words.filter((w) => [...w].length >= TRIGRAM_MIN);
      if (indexed.length > 0) {
        const match = indexed.map(ftsPhrase).join(' AND ');
        query = query.where(sql<SqlBool>`s.seq in (select rowid from skills_fts where skills_fts match ${match})`);
      }
      // Words too short for the trigram index are checked on the rows the other terms leave.
      for (const word of filter.words.filter((w) => [...w].length < TRIGRAM_MIN)) query = query.where(containsWordSqlite(word));
      return query;
    }
    if (matchesFirst) {
      const matching = filter.words.reduce(
        (inner, word) => inner.where(containsWordPostgres(word)),
        db.selectFrom('skills as s').select('s.seq'),
      );
      return query.where(sql<SqlBool>`s.seq = any(array(${matching}))`);
    }
    return filter.words.reduce((q, word) => q.where(containsWordPostgres(word)), query);
  }

  /** SQLite's LIKE folds ASCII only; a Unicode lower-case function registered on the connection folds the rest. */
  function containsWordSqlite(word: string): Expression<SqlBool> {
    const lowered = word.toLowerCase();
    return sql<SqlBool>`(instr(unicode_lower(s.name), ${lowered}) > 0 or instr(unicode_lower(s.description), ${lowered}) > 0)`;
  }

  function containsWordPostgres(word: string): Expression<SqlBool> {
    const pattern = likeContains(word);
    return sql<SqlBool>`(s.name ilike ${pattern} or s.description ilike ${pattern})`;
  }

  function pageQuery(filter: SkillListFilter, matchesFirst = false) {
    let query = filtered(filter, matchesFirst).select(SKILL_COLUMNS);
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

  /** How many skills the filter matches, whatever the page. */
  async function count(filter: SkillListFilter): Promise<number> {
    return (await countQuery(filter).executeTakeFirstOrThrow()).n;
  }

  function countQuery(filter: SkillListFilter) {
    return filtered(filter, true).select((eb) => eb.fn.countAll<number>().as('n'));
  }

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
    pageQuery,
    countQuery,
    matchesFirst,

    count,

    /** A page and the total; `knownTotal` (a count remembered for the same filter) spares counting again. */
    async list(filter: SkillListFilter, knownTotal?: Promise<number>) {
      // The count comes first because its size decides how the page is best fetched.
      const total = await (knownTotal ?? count(filter));
      if (filter.offset >= total) return { rows: [], total };
      const rows = await pageQuery(filter, matchesFirst(filter, total)).execute();
      return { rows, total };
    },

    findById(id: string) {
      return withOwner(db).select(SKILL_COLUMNS).where('s.id', '=', id).executeTakeFirst();
    },

    /** Several skills by id, in no particular order; ids that no longer exist are left out. */
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

    /** Every skill in every state, as the search index holds it (and lists show it). */
    searchRows() {
      return withOwner(db).select(SKILL_COLUMNS).execute();
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
