import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { ClawhubDeviceCodesTable, ClawhubUploadTicketsTable, Database } from '../schema.js';
import { isUniqueViolation } from './unique-violation.js';
import type { ScanVerdict } from './versions.js';

export type DeviceCodeRow = Selectable<ClawhubDeviceCodesTable>;
export type UploadTicketRow = Selectable<ClawhubUploadTicketsTable>;

/** A skill whose slug, less its scope, is the one asked for: what the `clawhub` client's names are matched against. */
export interface BareSlugMatch {
  id: string;
  slug: string;
  scope: string | null;
  owner_username: string;
}

/** A skill's latest version, as a list of skills shows it. */
export interface LatestVersionRow {
  skill_id: string;
  version: string;
  created_at: Date | string;
  changelog: string | null;
  scan_verdict: ScanVerdict | null;
}

/** The queries of the ClawHub protocol's own tables (migration 0016). */
export function clawhubRepository(db: Kysely<Database>, dialect: DialectName) {
  // The same expression the index clawhub_skills_bare_slug is built on, so the look-up uses it.
  const bare =
    dialect === 'postgres' ? sql<string>`substr(s.slug, strpos(s.slug, '/') + 1)` : sql<string>`substr(s.slug, instr(s.slug, '/') + 1)`;

  return {
    /** Every skill named `slug` in any scope or none, by whole name. */
    skillsByBareSlug(slug: string): Promise<BareSlugMatch[]> {
      return db
        .selectFrom('skills as s')
        .innerJoin('users as u', 'u.id', 's.owner_id')
        .select(['s.id', 's.slug', 's.scope', 'u.username as owner_username'])
        .where(bare, '=', slug)
        .orderBy('s.slug')
        .execute();
    },

    async insertDeviceCode(row: Insertable<ClawhubDeviceCodesTable>): Promise<'inserted' | 'user_code_taken'> {
      try {
        await db.insertInto('clawhub_device_codes').values(row).execute();
        return 'inserted';
      } catch (error) {
        if (isUniqueViolation(error)) return 'user_code_taken';
        throw error;
      }
    },

    deviceCodeByHash(hash: string) {
      return db.selectFrom('clawhub_device_codes').selectAll().where('device_code_hash', '=', hash).executeTakeFirst();
    },

    deviceCodeByUserCode(userCode: string) {
      return db.selectFrom('clawhub_device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
    },

    async markPolled(hash: string, at: string): Promise<void> {
      await db.updateTable('clawhub_device_codes').set({ polled_at: at }).where('device_code_hash', '=', hash).execute();
    },

    /** Settles a pending code as approved by, or denied by, a user; false when it was no longer pending. */
    async decide(userCode: string, status: 'approved' | 'denied', userId: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('clawhub_device_codes')
        .set({ status, user_id: userId })
        .where('user_code', '=', userCode)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Marks an approved code as having handed out its key; false when another poll got there first. */
    async markIssued(hash: string, apiKeyId: string): Promise<boolean> {
      const result = await db
        .updateTable('clawhub_device_codes')
        .set({ status: 'issued', api_key_id: apiKeyId })
        .where('device_code_hash', '=', hash)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async insertTicket(row: Insertable<ClawhubUploadTicketsTable>): Promise<void> {
      await db.insertInto('clawhub_upload_tickets').values(row).execute();
    },

    ticket(id: string) {
      return db.selectFrom('clawhub_upload_tickets').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async markUploaded(id: string, at: string): Promise<void> {
      await db.updateTable('clawhub_upload_tickets').set({ uploaded_at: at }).where('id', '=', id).execute();
    },

    /** Removes expired device codes and upload tickets; their uploaded bytes are left to orphan collection. */
    async removeExpired(now: string): Promise<void> {
      await db.deleteFrom('clawhub_device_codes').where('expires_at', '<', now).execute();
      await db.deleteFrom('clawhub_upload_tickets').where('expires_at', '<', now).execute();
    },

    /** The stored fingerprints of these versions, by version id. */
    async digests(versionIds: readonly string[]): Promise<Map<string, { fingerprint: string; files: string }>> {
      const out = new Map<string, { fingerprint: string; files: string }>();
      for (let i = 0; i < versionIds.length; i += 500) {
        const rows = await db
          .selectFrom('clawhub_version_digests')
          .selectAll()
          .where('version_id', 'in', versionIds.slice(i, i + 500))
          .execute();
        for (const row of rows) out.set(row.version_id, { fingerprint: row.fingerprint, files: row.files });
      }
      return out;
    },

    /**
     * The latest version of each of these skills (the version their row names as latest), with its verdict: one
     * query for a page of a list, not one per skill. A skill without a latest version is absent.
     */
    latestVersions(skillIds: readonly string[]): Promise<LatestVersionRow[]> {
      if (skillIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('skills as s')
        .innerJoin('versions as v', (join) => join.onRef('v.skill_id', '=', 's.id').onRef('v.version', '=', 's.latest_version'))
        .leftJoin('version_scans as sc', 'sc.version_id', 'v.id')
        .select(['v.skill_id', 'v.version', 'v.created_at', 'v.changelog', 'sc.verdict as scan_verdict'])
        .where('s.id', 'in', skillIds)
        .execute();
    },

    /** Stores a version's fingerprint; one already stored (another request worked it out too) is kept. */
    async saveDigest(versionId: string, fingerprint: string, files: string): Promise<void> {
      await db
        .insertInto('clawhub_version_digests')
        .values({ version_id: versionId, fingerprint, files })
        .onConflict((oc) => oc.column('version_id').doNothing())
        .execute();
    },
  };
}

export type ClawhubRepository = ReturnType<typeof clawhubRepository>;
