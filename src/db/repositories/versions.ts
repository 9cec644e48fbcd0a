import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database, NewSkill, NewVersion, SkillUpdate, VersionRow, VersionsTable } from '../schema.js';

export interface FileEntry {
  path: string;
  size: number;
}

/** One buffered download count: how many times a version was fetched on one UTC day. */
export interface DownloadTally {
  versionId: string;
  skillId: string;
  day: string;
  count: number;
}

const LIST_COLUMNS = [
  'id', 'skill_id', 'version', 'changelog', 'metadata', 'size', 'sha256', 'archive_format', 'file_count', 'total_size',
  'downloads', 'skill_md', 'skill_md_path', 'warnings', 'uploader_id', 'created_at',
] as const satisfies ReadonlyArray<keyof VersionsTable>;

const FILE_BATCH = 500;

export function versionsRepository(db: Kysely<Database>) {
  async function insertFiles(trx: Transaction<Database>, versionId: string, files: readonly FileEntry[]): Promise<void> {
    // Batches keep each statement well under both databases' bound-parameter limits.
    for (let i = 0; i < files.length; i += FILE_BATCH) {
      const batch = files.slice(i, i + FILE_BATCH).map((f) => ({ version_id: versionId, path: f.path, size: f.size }));
      await trx.insertInto('version_files').values(batch).execute();
    }
  }

  return {
    listForSkill(skillId: string): Promise<VersionRow[]> {
      return db.selectFrom('versions').select(LIST_COLUMNS).where('skill_id', '=', skillId).execute();
    },

    find(skillId: string, version: string): Promise<VersionRow | undefined> {
      return db.selectFrom('versions').select(LIST_COLUMNS).where('skill_id', '=', skillId).where('version', '=', version).executeTakeFirst();
    },

    /**
     * The hot path of downloads: the skill's visibility facts and the version in one query. `latest`
     * (never a valid semver label) stands for the skill's latest version.
     */
    forDownload(skill: { id: string } | { slug: string }, version: string) {
      let query = db
        .selectFrom('versions as v')
        .innerJoin('skills as s', 's.id', 'v.skill_id')
        .select([
          's.id as skill_id', 's.slug', 's.status', 's.owner_id',
          'v.id', 'v.version', 'v.size', 'v.sha256', 'v.archive_format',
        ]);
      query = 'id' in skill ? query.where('s.id', '=', skill.id) : query.where('s.slug', '=', skill.slug);
      return (version === 'latest' ? query.whereRef('v.version', '=', 's.latest_version') : query.where('v.version', '=', version)).executeTakeFirst();
    },

    async exists(skillId: string, version: string): Promise<boolean> {
      const row = await db.selectFrom('versions').select('id').where('skill_id', '=', skillId).where('version', '=', version).executeTakeFirst();
      return row !== undefined;
    },

    files(versionId: string): Promise<FileEntry[]> {
      return db.selectFrom('version_files').select(['path', 'size']).where('version_id', '=', versionId).orderBy('path').execute();
    },

    async file(versionId: string, path: string): Promise<FileEntry | undefined> {
      return db.selectFrom('version_files').select(['path', 'size']).where('version_id', '=', versionId).where('path', '=', path).executeTakeFirst();
    },

    /**
     * Writes a version, its file index and the skill's new summary in one transaction, so a version is
     * never visible without its files nor the skill's `latest_version` ahead of its versions.
     * `skillChanges` may be computed from the versions that exist inside the transaction.
     */
    async insert(
      version: NewVersion,
      files: readonly FileEntry[],
      skillChanges: (existing: string[]) => SkillUpdate,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('versions').values(version).execute();
        await insertFiles(trx, version.id, files);
        const existing = await trx.selectFrom('versions').select('version').where('skill_id', '=', version.skill_id).execute();
        await trx.updateTable('skills').set(skillChanges(existing.map((r) => r.version))).where('id', '=', version.skill_id).execute();
      });
    },

    /** Creates a skill together with its first version: both or neither. */
    async insertWithSkill(
      skill: NewSkill,
      tags: readonly string[],
      version: Insertable<VersionsTable>,
      files: readonly FileEntry[],
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('skills').values(skill).execute();
        if (tags.length > 0) await trx.insertInto('skill_tags').values(tags.map((tag) => ({ skill_id: skill.id, tag }))).execute();
        await trx.insertInto('versions').values(version).execute();
        await insertFiles(trx, version.id, files);
      });
    },

    /** The sha256 values among `candidates` that no version references any more. */
    async unreferenced(candidates: readonly string[]): Promise<string[]> {
      if (candidates.length === 0) return [];
      const used = await db.selectFrom('versions').select('sha256').where('sha256', 'in', candidates).execute();
      const still = new Set(used.map((r) => r.sha256));
      return [...new Set(candidates)].filter((sha) => !still.has(sha));
    },

    async blobsOfSkill(skillId: string): Promise<string[]> {
      return (await db.selectFrom('versions').select('sha256').where('skill_id', '=', skillId).execute()).map((r) => r.sha256);
    },

    /** Adds buffered download counts: per-day rows, and the running totals on versions and skills. */
    async addDownloads(tallies: readonly DownloadTally[]): Promise<void> {
      if (tallies.length === 0) return;
      await db.transaction().execute(async (trx) => {
        // A version deleted since it was downloaded (a draft an admin fetched) takes its counts with it;
        // keeping them would fail this batch, and every later one, on the foreign key.
        const ids = [...new Set(tallies.map((t) => t.versionId))];
        const live = new Set((await trx.selectFrom('versions').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
        for (const t of tallies) {
          if (!live.has(t.versionId)) continue;
          await trx
            .insertInto('download_counts')
            .values({ version_id: t.versionId, skill_id: t.skillId, day: t.day, downloads: t.count })
            .onConflict((oc) => oc.columns(['version_id', 'day']).doUpdateSet({ downloads: sql`download_counts.downloads + ${t.count}` }))
            .execute();
          await trx.updateTable('versions').set({ downloads: sql`downloads + ${t.count}` }).where('id', '=', t.versionId).execute();
          await trx.updateTable('skills').set({ downloads: sql`downloads + ${t.count}` }).where('id', '=', t.skillId).execute();
        }
      });
    },

    dailyDownloads(skillId: string, fromDay: string) {
      return db
        .selectFrom('download_counts')
        .select(['day', (eb) => eb.fn.sum<number>('downloads').as('downloads')])
        .where('skill_id', '=', skillId)
        .where('day', '>=', fromDay)
        .groupBy('day')
        .execute();
    },
  };
}

export type VersionsRepository = ReturnType<typeof versionsRepository>;
