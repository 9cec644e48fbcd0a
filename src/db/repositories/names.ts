import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A name that exists, with who holds it and how much its skills are downloaded. */
export interface HeldName {
  name: string;
  owner_id: string;
  downloads: number;
  published: boolean;
}

/**
 * The names a new one is compared with (packages/rules/src/names): every unscoped skill slug, and every handle. Read
 * whole at each creation, which is rare; about 100,000 skills read in a fraction of a second (docs/performance.md,
 * "Look-alike names").
 */
export function namesRepository(db: Kysely<Database>) {
  return {
    /** Every unscoped slug (a scoped one is its scope's own) with its owner, whether it is published, and its downloads. */
    async skillSlugs(): Promise<HeldName[]> {
      const rows = await db.selectFrom('skills').select(['slug', 'owner_id', 'status', 'downloads']).where('scope', 'is', null).execute();
      return rows.map((row) => ({
        name: row.slug,
        owner_id: row.owner_id,
        downloads: row.downloads,
        published: row.status === 'published',
      }));
    },

    /**
     * Every account's username as a handle held by the account itself, with the downloads of the skills it publishes
     * (a handle is as known as what is published under it).
     */
    async handles(): Promise<HeldName[]> {
      // Two reads joined here: a join grouped by user makes SQLite walk every user's skills one user at a time.
      const users = await db.selectFrom('users').select(['id', 'username']).execute();
      const published = await db
        .selectFrom('skills')
        .select(['owner_id', sql<number | string>`sum(downloads)`.as('downloads')])
        .where('status', '=', 'published')
        .groupBy('owner_id')
        .execute();
      const downloads = new Map(published.map((row) => [row.owner_id, Number(row.downloads)]));
      // Organisations' handles share the namespace; each is held by the organisation (`org:<id>`, as the search index
      // names it), with the downloads of the skills it owns.
      const orgs = await db.selectFrom('organisations').select(['id', 'handle']).execute();
      const orgPublished = await db
        .selectFrom('skills')
        .select(['org_id', sql<number | string>`sum(downloads)`.as('downloads')])
        .where('status', '=', 'published')
        .where('org_id', 'is not', null)
        .groupBy('org_id')
        .execute();
      const orgDownloads = new Map(orgPublished.map((row) => [row.org_id, Number(row.downloads)]));
      return [
        ...users.map((user) => ({
          name: user.username,
          owner_id: user.id,
          downloads: downloads.get(user.id) ?? 0,
          published: downloads.has(user.id),
        })),
        ...orgs.map((org) => ({
          name: org.handle,
          owner_id: `org:${org.id}`,
          downloads: orgDownloads.get(org.id) ?? 0,
          published: orgDownloads.has(org.id),
        })),
      ];
    },
  };
}

export type NamesRepository = ReturnType<typeof namesRepository>;
