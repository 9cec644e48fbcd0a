import { sql, type Kysely, type Transaction } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { Database, NewSkill, NewVersion, NewVersionScan, ScanVerdict, SkillUpdate, VersionsTable } from '../schema.js';
import { isUniqueViolation } from './unique-violation.js';

export type { NewVersionScan, ScanVerdict };

export interface FileEntry {
  path: string;
  size: number;
  executable: boolean;
}

/** A file's row as the queries select it. */
const FILE_COLUMNS = ['path', 'size', 'executable'] as const;

function fileEntry(row: { path: string; size: number; executable: number }): FileEntry {
  return { path: row.path, size: row.size, executable: row.executable !== 0 };
}

/** One buffered download count: how many times a version was fetched on one UTC day. */
export interface DownloadTally {
  versionId: string;
  skillId: string;
  day: string;
  count: number;
}

/** A version's scan summary beside its row, read from `version_scans as sc`; null on every one for a version never scanned. */
export const SCAN_SUMMARY_COLUMNS = [
  'sc.verdict as scan_verdict',
  'sc.rules_version as scan_rules_version',
  'sc.critical as scan_critical',
  'sc.high as scan_high',
  'sc.medium as scan_medium',
  'sc.low as scan_low',
  'sc.info as scan_info',
] as const;

/** The columns SCAN_SUMMARY_COLUMNS reads. */
export interface ScanSummaryColumns {
  scan_verdict: ScanVerdict | null;
  scan_rules_version: string | null;
  scan_critical: number | null;
  scan_high: number | null;
  scan_medium: number | null;
  scan_low: number | null;
  scan_info: number | null;
}

const LIST_COLUMNS = [
  'v.id',
  'v.skill_id',
  'v.version',
  'v.changelog',
  'v.metadata',
  'v.size',
  'v.sha256',
  'v.archive_format',
  'v.file_count',
  'v.total_size',
  'v.downloads',
  'v.skill_md',
  'v.skill_md_path',
  'v.warnings',
  'v.uploader_id',
  'v.created_at',
  ...SCAN_SUMMARY_COLUMNS,
] as const satisfies readonly (`v.${keyof VersionsTable}` | `sc.${string} as scan_${string}`)[];

/** A version that exists beside one being written or scanned, with its verdict (null: never scanned). */
export interface ExistingVersion {
  version: string;
  verdict: ScanVerdict | null;
}

/** The scan of a version as written with it: the version's id comes from the version. */
export type ScanWrite = Omit<NewVersionScan, 'version_id'>;

const FILE_BATCH = 500;

/** Rows per statement of a download flush: four parameters each, well under both databases' limits. */
const DOWNLOAD_BATCH = 1000;

/**
 * Byte order. Batches larger than one statement are split in this order and each statement locks in the
 * database's; the keys are lowercase UUIDs, which every collation orders as bytes, so the two orders agree.
 */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Download counts summed per key, in key order. */
function sumBy(tallies: readonly DownloadTally[], key: (t: DownloadTally) => string): { id: string; n: number }[] {
  const sums = new Map<string, number>();
  for (const t of tallies) sums.set(key(t), (sums.get(key(t)) ?? 0) + t.count);
  return [...sums].map(([id, n]) => ({ id, n })).sort((a, b) => compareKeys(a.id, b.id));
}

/**
 * Asked inside a version's transaction, holding its blob's lock: whether the blob the version names is still stored.
 * False makes the transaction write nothing.
 */
export type BlobCheck = () => Promise<boolean>;

/**
 * What writing a version did: wrote it, or nothing because its skill or its blob was gone, or because the skill
 * already has that version (another upload of it committed first).
 */
export type VersionWrite = 'written' | 'skill_gone' | 'blob_gone' | 'version_taken';

/** What creating a skill with its first version did: wrote both, or neither because the blob was gone or the slug is taken. */
export type SkillWithVersionWrite = 'written' | 'blob_gone' | 'slug_taken';

/** Every version of a skill with its verdict, as a transaction sees them. */
export async function existingVersions(trx: Transaction<Database>, skillId: string): Promise<ExistingVersion[]> {
  return trx
    .selectFrom('versions as v')
    .leftJoin('version_scans as sc', 'sc.version_id', 'v.id')
    .select(['v.version', 'sc.verdict'])
    .where('v.skill_id', '=', skillId)
    .execute();
}

export function versionsRepository(db: Kysely<Database>, dialect: DialectName) {
  /**
   * Holds the lock of the blob `sha256` until the transaction ends. Writing a version that names a blob and
   * deleting that blob as an orphan both take it, so nodes sharing a database and a bucket cannot interleave the
   * two: a collection either sees the version and keeps the blob, or deletes the blob before the upload looks for it.
   * A 64-bit hash of the sha256 is the key; two blobs sharing one only wait for each other.
   */
  async function lockBlob(trx: Transaction<Database>, sha256: string): Promise<void> {
    // SQLite's transactions begin IMMEDIATE: the database's one write lock serialises them already, across processes too.
    if (dialect !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`skreg-blob:${sha256}`}, 0))`.execute(trx);
  }

  /** Writes a version's row, its file index and its scan. */
  async function insertVersion(trx: Transaction<Database>, version: NewVersion, files: readonly FileEntry[], scan: ScanWrite) {
    await trx.insertInto('versions').values(version).execute();
    // Batches keep each statement well under both databases' bound-parameter limits.
    for (let i = 0; i < files.length; i += FILE_BATCH) {
      const batch = files
        .slice(i, i + FILE_BATCH)
        .map((f) => ({ version_id: version.id, path: f.path, size: f.size, executable: f.executable ? 1 : 0 }));
      await trx.insertInto('version_files').values(batch).execute();
    }
    await trx
      .insertInto('version_scans')
      .values({ ...scan, version_id: version.id })
      .execute();
  }

  /**
   * Adds `n` to `downloads` of each row `id` of `table`. On PostgreSQL the rows are locked first, in key order (a
   * sorted FOR NO KEY UPDATE; the plan of the update itself would take them in whatever order its join yields).
   */
  async function addToTotals(
    trx: Transaction<Database>,
    table: 'skills' | 'versions',
    sums: readonly { id: string; n: number }[],
  ): Promise<void> {
    const lock = dialect === 'postgres' ? sql`for no key update of r` : sql``;
    for (let i = 0; i < sums.length; i += DOWNLOAD_BATCH) {
      const rows = sums.slice(i, i + DOWNLOAD_BATCH).map((s) => sql`(${s.id}, cast(${s.n} as integer))`);
      await sql`
        with t(id, n) as (values ${sql.join(rows)})
        update ${sql.table(table)} set downloads = ${sql.ref(`${table}.downloads`)} + l.n
        from (select r.id, t.n from ${sql.table(table)} r join t on t.id = r.id order by r.id ${lock}) as l
        where ${sql.ref(`${table}.id`)} = l.id
      `.execute(trx);
    }
  }

  const withScan = () => db.selectFrom('versions as v').leftJoin('version_scans as sc', 'sc.version_id', 'v.id');

  return {
    listForSkill(skillId: string) {
      return withScan().select(LIST_COLUMNS).where('v.skill_id', '=', skillId).execute();
    },

    find(skillId: string, version: string) {
      return withScan().select(LIST_COLUMNS).where('v.skill_id', '=', skillId).where('v.version', '=', version).executeTakeFirst();
    },

    /**
     * The hot path of downloads: the skill's visibility facts and the version in one query. `latest`
     * (never a valid semver label) stands for the skill's latest version.
     */
    forDownload(skill: { id: string } | { slug: string }, version: string) {
      let query = db
        .selectFrom('versions as v')
        .innerJoin('skills as s', 's.id', 'v.skill_id')
        .leftJoin('version_scans as sc', 'sc.version_id', 'v.id')
        .select([
          's.id as skill_id',
          's.slug',
          's.status',
          's.hidden_at',
          's.owner_id',
          's.org_id',
          's.private',
          'v.id',
          'v.version',
          'v.size',
          'v.sha256',
          'v.archive_format',
          'sc.verdict',
        ]);
      query = 'id' in skill ? query.where('s.id', '=', skill.id) : query.where('s.slug', '=', skill.slug);
      return (
        version === 'latest' ? query.whereRef('v.version', '=', 's.latest_version') : query.where('v.version', '=', version)
      ).executeTakeFirst();
    },

    async exists(skillId: string, version: string): Promise<boolean> {
      const row = await db
        .selectFrom('versions')
        .select('id')
        .where('skill_id', '=', skillId)
        .where('version', '=', version)
        .executeTakeFirst();
      return row !== undefined;
    },

    async files(versionId: string): Promise<FileEntry[]> {
      const rows = await db.selectFrom('version_files').select(FILE_COLUMNS).where('version_id', '=', versionId).orderBy('path').execute();
      return rows.map(fileEntry);
    },

    async file(versionId: string, path: string): Promise<FileEntry | undefined> {
      const row = await db
        .selectFrom('version_files')
        .select(FILE_COLUMNS)
        .where('version_id', '=', versionId)
        .where('path', '=', path)
        .executeTakeFirst();
      return row === undefined ? undefined : fileEntry(row);
    },

    /**
     * Writes a version, its file index and the skill's new summary in one transaction, so a version is
     * never visible without its files nor the skill's `latest_version` ahead of its versions.
     * `skillChanges` may be computed from the versions that exist inside the transaction. First the version's blob
     * is locked and `blobStored` asked: 'blob_gone', writing nothing, when orphan collection on another node deleted
     * the blob after the upload committed it. Then the skill's row is locked: 'skill_gone', writing nothing, when the
     * skill is gone (a draft deleted while its upload was being checked), so a deletion either comes before (and the
     * insert writes nothing) or after (and takes the version). 'version_taken', writing nothing, when the version
     * exists already: the unique index decides between two uploads of one version. The version's scan is written
     * with it.
     */
    async insert(
      version: NewVersion,
      files: readonly FileEntry[],
      scan: ScanWrite,
      skillChanges: (existing: ExistingVersion[]) => SkillUpdate,
      blobStored: BlobCheck,
    ): Promise<VersionWrite> {
      try {
        return await db.transaction().execute(async (trx): Promise<VersionWrite> => {
          await lockBlob(trx, version.sha256);
          if (!(await blobStored())) return 'blob_gone';
          let skill = trx.selectFrom('skills').select('id').where('id', '=', version.skill_id);
          // SQLite's transactions begin IMMEDIATE and so hold the write lock already.
          if (dialect === 'postgres') skill = skill.forUpdate();
          if ((await skill.executeTakeFirst()) === undefined) return 'skill_gone';
          await insertVersion(trx, version, files, scan);
          await trx
            .updateTable('skills')
            .set(skillChanges(await existingVersions(trx, version.skill_id)))
            .where('id', '=', version.skill_id)
            .execute();
          return 'written';
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'version_taken';
        throw error;
      }
    },

    /**
     * Creates a skill together with its first version: both or neither. Neither, 'blob_gone', when the version's
     * blob is gone, as for insert(); neither, 'slug_taken', when another skill holds the slug.
     */
    async insertWithSkill(
      skill: NewSkill,
      tags: readonly string[],
      version: NewVersion,
      files: readonly FileEntry[],
      scan: ScanWrite,
      blobStored: BlobCheck,
    ): Promise<SkillWithVersionWrite> {
      try {
        return await db.transaction().execute(async (trx): Promise<SkillWithVersionWrite> => {
          await lockBlob(trx, version.sha256);
          if (!(await blobStored())) return 'blob_gone';
          await trx.insertInto('skills').values(skill).execute();
          if (tags.length > 0)
            await trx
              .insertInto('skill_tags')
              .values(tags.map((tag) => ({ skill_id: skill.id, tag })))
              .execute();
          await insertVersion(trx, version, files, scan);
          return 'written';
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'slug_taken';
        throw error;
      }
    },

    /** The sha256 values among `candidates` that no version references any more. */
    async unreferenced(candidates: readonly string[]): Promise<string[]> {
      if (candidates.length === 0) return [];
      const used = await db.selectFrom('versions').select('sha256').where('sha256', 'in', candidates).execute();
      const still = new Set(used.map((r) => r.sha256));
      return [...new Set(candidates)].filter((sha) => !still.has(sha));
    },

    /**
     * Runs `remove` (orphan collection's delete of the blob `sha256`) unless a version references the blob, holding
     * the blob's lock from the check until `remove` has finished, so no upload can write a version naming the blob
     * in between. `remove` talks to the blob store inside the transaction: acceptable for a background job that
     * holds one short transaction per orphan. False, without calling `remove`, when the blob is referenced.
     */
    async removeIfUnreferenced(sha256: string, remove: () => Promise<boolean>): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await lockBlob(trx, sha256);
        const used = await trx.selectFrom('versions').select('id').where('sha256', '=', sha256).limit(1).executeTakeFirst();
        if (used !== undefined) return false;
        return remove();
      });
    },

    /**
     * Adds buffered download counts: the running totals on skills and versions, and the per-day rows. Nodes
     * sharing a PostgreSQL database flush overlapping batches at the same moments, so rows are locked in one
     * order everywhere: parent tables first (skills, versions, download_counts: the order of an upload's insert
     * and of a skill's cascading deletion), and by key within each table. Two flushes then wait for each other
     * instead of deadlocking. One statement per table (per DOWNLOAD_BATCH rows) whatever the batch holds.
     */
    async addDownloads(tallies: readonly DownloadTally[]): Promise<void> {
      if (tallies.length === 0) return;
      await db.transaction().execute(async (trx) => {
        // A version deleted since it was downloaded (a draft an admin fetched) takes its counts with it;
        // keeping them would fail this batch, and every later one, on the foreign key.
        const live = new Set<string>();
        const ids = [...new Set(tallies.map((t) => t.versionId))];
        for (let i = 0; i < ids.length; i += DOWNLOAD_BATCH) {
          const rows = await trx
            .selectFrom('versions')
            .select('id')
            .where('id', 'in', ids.slice(i, i + DOWNLOAD_BATCH))
            .execute();
          for (const row of rows) live.add(row.id);
        }
        const days = tallies
          .filter((t) => live.has(t.versionId) && t.count > 0)
          .sort((a, b) => compareKeys(a.versionId, b.versionId) || compareKeys(a.day, b.day));
        if (days.length === 0) return;
        await addToTotals(
          trx,
          'skills',
          sumBy(days, (t) => t.skillId),
        );
        await addToTotals(
          trx,
          'versions',
          sumBy(days, (t) => t.versionId),
        );
        for (let i = 0; i < days.length; i += DOWNLOAD_BATCH) {
          const rows = days
            .slice(i, i + DOWNLOAD_BATCH)
            .map((t) => sql`(${t.versionId}, ${t.skillId}, ${t.day}, cast(${t.count} as integer))`);
          // `where true` tells SQLite's parser that ON CONFLICT belongs to the insert, not to a join.
          await sql`
            with t(version_id, skill_id, day, n) as (values ${sql.join(rows)})
            insert into download_counts (version_id, skill_id, day, downloads)
            select version_id, skill_id, day, n from t where true order by version_id, day
            on conflict (version_id, day) do update set downloads = download_counts.downloads + excluded.downloads
          `.execute(trx);
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
/** A version as the lists and reads return it: its row and its scan's summary. */
export type VersionRow = NonNullable<Awaited<ReturnType<VersionsRepository['find']>>>;
