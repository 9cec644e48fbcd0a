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
    /** Every unscoped slug (one without a scope's `/`) with its owner, whether it is published, and its downloads. */
    async skillSlugs(): Promise<HeldName[]> {
      const rows = await db
        .selectFrom('skills')
        .select(['slug', 'owner_id', 'status', 'downloads'])
        .where('slug', 'not like', '%/%')
        .execute();
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
      const rows = await db
        .selectFrom('users as u')
        .leftJoin('skills as s', (join) => join.onRef('s.owner_id', '=', 'u.id').on('s.status', '=', 'published'))
        .select(['u.id', 'u.username', sql<number | string | null>`sum(s.downloads)`.as('downloads')])
        .groupBy(['u.id', 'u.username'])
        .execute();
      // Organisations' handles share the namespace; each is held by the organisation (`org:<id>`, as the search index
      // names it), with the downloads of the skills it owns.
      const orgs = await db
        .selectFrom('organisations as o')
        .leftJoin('skills as s', (join) => join.onRef('s.org_id', '=', 'o.id').on('s.status', '=', 'published'))
        .select(['o.id', 'o.handle', sql<number | string | null>`sum(s.downloads)`.as('downloads')])
        .groupBy(['o.id', 'o.handle'])
        .execute();
      return [
        ...rows.map((row) => ({ name: row.username, owner_id: row.id, downloads: Number(row.downloads ?? 0), published: row.downloads !== null })),
        ...orgs.map((row) => ({ name: row.handle, owner_id: `org:${row.id}`, downloads: Number(row.downloads ?? 0), published: row.downloads !== null })),
      ];
    },
  };
}

export type NamesRepository = ReturnType<typeof namesRepository>;
