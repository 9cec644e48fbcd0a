import { LRUCache } from 'lru-cache';
import type { ClawhubRepository } from '../../db/repositories/clawhub.js';
import type { VersionRow, VersionsRepository } from '../../db/repositories/versions.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { deterministicZip, filesUnder, prefixOf } from '../versions/agent-archive.js';
import { fingerprintOf, sha256Of, type FileDigest } from './fingerprint.js';

/** A version's files as the `clawhub` client sees them once installed: their digests and their fingerprint. */
export interface VersionDigest {
  fingerprint: string;
  files: FileDigest[];
}

/** A version's ZIP with its files at the archive's root, as `clawhub install` unpacks it. */
export interface ClawhubArchive {
  bytes: Buffer;
  sha256: string;
}

/**
 * What the ClawHub protocol serves of a stored version: a ZIP with the files at its root (the package's top folder
 * left out, the same bytes every time: agent-archive.ts's deterministic zip), and the fingerprint the client
 * compares folders by. Both come from one read of the package; the fingerprint is stored with the version
 * (`clawhub_version_digests`), so each version's package is read for it once.
 */
export function clawhubArchives(deps: {
  repository: ClawhubRepository;
  versions: VersionsRepository;
  blobs: BlobStore;
  maxCachedBytes?: number;
}) {
  const { repository, versions, blobs } = deps;
  // Versions are immutable: a built archive never goes stale, entries leave only to make room.
  const built = new LRUCache<string, ClawhubArchive>({
    maxSize: deps.maxCachedBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (archive) => Math.max(1, archive.bytes.length),
  });
  const building = new Map<string, Promise<{ archive: ClawhubArchive; digest: VersionDigest }>>();

  async function read(version: VersionRow): Promise<{ archive: ClawhubArchive; digest: VersionDigest }> {
    const prefix = prefixOf(version.skill_md_path);
    const index = (await versions.files(version.id)).filter((f) => f.path.startsWith(prefix));
    const bytes = await filesUnder(await blobs.source(version.sha256), version.archive_format, index, prefix);
    const files = index.map((f) => ({
      path: f.path.slice(prefix.length),
      bytes: bytes.get(f.path) ?? Buffer.alloc(0),
      executable: f.executable,
    }));
    const zip = await deterministicZip(files);
    const digests = files.map((f) => ({ path: f.path, size: f.bytes.length, sha256: sha256Of(f.bytes) }));
    const digest = { fingerprint: fingerprintOf(digests), files: digests };
    await repository.saveDigest(version.id, digest.fingerprint, JSON.stringify(digest.files)).catch(() => undefined);
    return { archive: { bytes: zip, sha256: sha256Of(zip) }, digest };
  }

  function once(version: VersionRow) {
    let pending = building.get(version.id);
    if (!pending) {
      pending = read(version).finally(() => building.delete(version.id));
      building.set(version.id, pending);
    }
    return pending;
  }

  return {
    async archive(version: VersionRow): Promise<ClawhubArchive> {
      const kept = built.get(version.id);
      if (kept) return kept;
      const { archive } = await once(version);
      built.set(version.id, archive);
      return archive;
    },

    /** The digests of these versions, by version id: stored ones read, missing ones worked out and stored. */
    async digests(rows: readonly VersionRow[]): Promise<Map<string, VersionDigest>> {
      const stored = await repository.digests(rows.map((r) => r.id));
      const out = new Map<string, VersionDigest>();
      for (const row of rows) {
        const known = stored.get(row.id);
        out.set(
          row.id,
          known === undefined
            ? (await once(row)).digest
            : { fingerprint: known.fingerprint, files: JSON.parse(known.files) as FileDigest[] },
        );
      }
      return out;
    },

    /** Records the digest of a version whose files are known already (a ClawHub publish). */
    remember: (versionId: string, digest: VersionDigest) =>
      repository.saveDigest(versionId, digest.fingerprint, JSON.stringify(digest.files)),
  };
}

export type ClawhubArchives = ReturnType<typeof clawhubArchives>;
