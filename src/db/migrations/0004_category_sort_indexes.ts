import { sql, type Kysely } from 'kysely';

/**
 * A category filter with sort=downloads or sort=featured walked the whole sort index, probing the category row
 * by row: a rare category took hundreds of milliseconds. One index per sort order led by category lets such a
 * page read only that category's rows, already in order. The latest order gets its id tie-break too.
 */
export function categorySortIndexes() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create index skills_category_downloads on skills (category, status, downloads desc, id desc)`.execute(db);
      await sql`create index skills_category_featured on skills (category, status, featured desc, updated_at desc, id desc)`.execute(db);
      await sql`create index skills_category_latest on skills (category, status, updated_at desc, id desc)`.execute(db);
      // The new latest index starts with every column of the old one.
      await sql`drop index skills_category`.execute(db);
    },
  };
}
