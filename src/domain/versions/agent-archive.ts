import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import yazl from 'yazl';
import { openPackageEntry } from '@skill-registry/skill-package/inspect';
import type { DataSink, EntrySink, PackageLimits } from '@skill-registry/skill-package/entry-sink';
import { readTarGz } from '@skill-registry/skill-package/tar';
import { readZip } from '@skill-registry/skill-package/zip';
import type { ArchiveFormat } from '@skill-registry/skill-package/types';
import type { FileEntry, VersionRow, VersionsRepository } from '../../db/repositories/versions.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { ANONYMOUS } from '../actor.js';
import { AppError, notFound } from '../errors.js';
import { bareSlug, type Skill, type SkillService } from '../skills/skills.js';
import { isQuarantined } from './scan-views.js';

/**
 * What the `skills` command (Agent Skills discovery, schema 0.2.0) is offered of a skill: the archive of its latest
 * installable version with SKILL.md at the archive's root, and the sha256 of that archive's exact bytes. A package
 * stored with SKILL.md at its root is offered as stored; one with SKILL.md in a top folder is offered as a zip built
 * from it without that folder, byte for byte the same every time it is built (stored entries, sorted paths, one
 * fixed timestamp and mode per kind of file), so its digest holds across requests, nodes and restarts.
 */

/** Highest unpacked size of an archive the `skills` command extracts (its default SKILLS_EXTRACT_MAX_BYTES). */
export const CLIENT_MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
/** Most entries of an archive the `skills` command extracts (its default SKILLS_EXTRACT_MAX_FILES). */
export const CLIENT_MAX_FILES = 1000;
/** Longest description an index entry may carry. */
export const MAX_DESCRIPTION_CHARS = 1024;
/** The names the `skills` command installs under (its install folder): at most 64 of these, no `--`, no `-` at either end. */
const CLIENT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CLIENT_NAME_MAX = 64;

/**
 * The built archives' one timestamp: 1980-01-01 00:00, the earliest a zip can hold. yazl writes DOS times from a
 * Date's local fields, so the Date is made from local fields when a zip is built: the same bytes in every time zone.
 */
const fixedMtime = () => new Date(1980, 0, 1, 0, 0, 0);
const FILE_MODE = 0o100644;
const EXECUTABLE_MODE = 0o100755;

/** Where a version's archive, with SKILL.md at its root, is had. */
export interface AgentArtifact {
  /** `stored`: the stored package has SKILL.md at its root and is served as it is; `built`: a zip built without its top folder. */
  kind: 'stored' | 'built';
  /** `sha256:<hex>` of the exact bytes. */
  digest: string;
}

/** A skill as the discovery index offers it: its install name and description, and its latest installable version. */
export interface AgentOffer {
  skill: Skill;
  /** The install folder name: the skill's bare slug. */
  name: string;
  description: string;
  version: VersionRow;
  /** The folder the package's files sit in (`pdf-tools/`), or '' when SKILL.md is at the root. */
  prefix: string;
}

/** A built zip, with the facts an answer needs. */
export interface BuiltArchive {
  bytes: Buffer;
  sha256: string;
}

/** The folder SKILL.md sits in within the package, as a path prefix ('' at the root). */
export function prefixOf(skillMdPath: string | null): string {
  if (skillMdPath === null) return '';
  const slash = skillMdPath.lastIndexOf('/');
  return slash < 0 ? '' : skillMdPath.slice(0, slash + 1);
}

/** An index entry's description: the skill's, else SKILL.md's, cut to the index's limit; null when neither has one. */
function describe(skill: Skill, version: VersionRow): string | null {
  let text = skill.description.trim();
  if (text === '' && version.skill_md !== null) {
    const front = JSON.parse(version.skill_md) as Record<string, unknown>;
    if (typeof front.description === 'string') text = front.description.trim();
  }
  if (text === '') return null;
  const chars = [...text];
  return chars.length <= MAX_DESCRIPTION_CHARS ? text : `${chars.slice(0, MAX_DESCRIPTION_CHARS - 1).join('')}…`;
}

/** Whether the `skills` command can unpack the version: within its entry count and unpacked size. */
function withinClientLimits(version: Pick<VersionRow, 'file_count' | 'total_size'>): boolean {
  return version.file_count <= CLIENT_MAX_FILES && version.total_size <= CLIENT_MAX_UNPACKED_BYTES;
}

/**
 * An EntrySink that keeps every file's bytes: one pass over the package reads them all, where opening each file
 * (openPackageEntry) inflates a tar.gz from its start once per file and reads a zip's directory again per file
 * (a 1 MiB zip of 200 files took a second that way). Only for packages the registry accepted.
 */
function collectingSink(limits: PackageLimits, files: Map<string, Buffer[]>): EntrySink {
  return {
    limits,
    entryRefused(error) {
      throw error;
    },
    countEntry() {},
    addDirectory() {},
    reserveFile() {},
    checkDeclaredSize() {},
    addBytes() {},
    openFile(path): DataSink {
      const chunks: Buffer[] = [];
      files.set(path, chunks);
      return { push: (chunk) => chunks.push(Buffer.from(chunk)), end() {} };
    },
    ready: () => undefined,
    recordFile() {},
  };
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * The bytes of every file under `prefix`, by path without it. `files` is the version's stored file index: only the
 * files it lists are taken.
 */
export async function filesUnder(
  source: Awaited<ReturnType<BlobStore['source']>>,
  format: ArchiveFormat,
  files: readonly FileEntry[],
  prefix: string,
): Promise<Map<string, Buffer>> {
  const read = new Map<string, Buffer[]>();
  const limits = { maxEntries: Number.MAX_SAFE_INTEGER, maxTotalBytes: Number.MAX_SAFE_INTEGER, maxRatio: Number.MAX_SAFE_INTEGER };
  const sink = collectingSink(limits, read);
  if (format === 'zip') await readZip(source, sink);
  else await readTarGz(source, sink);
  const out = new Map<string, Buffer>();
  for (const file of files) {
    if (!file.path.startsWith(prefix)) continue;
    const chunks = read.get(file.path);
    if (chunks === undefined) throw new Error(`The stored package has no file "${file.path}" although its index lists it.`);
    out.set(file.path, Buffer.concat(chunks));
  }
  return out;
}

/**
 * A zip of `files` (bytes by final path), stored (not deflated), in path order, every entry with one fixed time and a
 * fixed mode: the same input gives the same bytes. Hand-assembled from yazl, which writes each entry as it is given.
 */
export async function deterministicZip(files: readonly { path: string; bytes: Buffer; executable: boolean }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of sorted) {
    zip.addBuffer(file.bytes, file.path, {
      mtime: fixedMtime(),
      mode: file.executable ? EXECUTABLE_MODE : FILE_MODE,
      compress: false,
      forceDosTimestamp: true,
    });
  }
  const done = readAll(zip.outputStream);
  zip.end();
  return done;
}

function tooLarge(version: Pick<VersionRow, 'version' | 'file_count' | 'total_size'>, slug: string): AppError {
  return new AppError(
    422,
    'archive_too_large',
    `Version ${version.version} of "${slug}" has ${version.file_count} files and ${version.total_size} bytes unpacked; an archive ` +
      `with SKILL.md at its root is built only up to ${CLIENT_MAX_FILES} files and ${CLIENT_MAX_UNPACKED_BYTES} bytes (the most the ` +
      '`skills` command unpacks). Download the stored package instead.',
  );
}

/**
 * The service: which version a skill offers, its artifact's digest, and the built archives. `maxCachedBytes` bounds
 * the built zips kept in memory (their digests are kept apart, 16 bytes' worth each, for many more versions).
 */
export function agentArchives(deps: {
  skillService: SkillService;
  versions: VersionsRepository;
  blobs: BlobStore;
  maxCachedBytes?: number;
  maxCachedDigests?: number;
}) {
  const { skillService, versions, blobs } = deps;
  // Versions are immutable, so a digest or a built zip never goes stale: entries leave only to make room.
  const digests = new LRUCache<string, string>({ max: deps.maxCachedDigests ?? 10_000 });
  const built = new LRUCache<string, BuiltArchive>({
    maxSize: deps.maxCachedBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (archive) => Math.max(1, archive.bytes.length),
  });
  // One build per version at a time: concurrent asks for a version being built wait for that build.
  const building = new Map<string, Promise<BuiltArchive>>();

  async function build(version: VersionRow): Promise<BuiltArchive> {
    const prefix = prefixOf(version.skill_md_path);
    const index = await versions.files(version.id);
    const bytes = await filesUnder(await blobs.source(version.sha256), version.archive_format, index, prefix);
    const zip = await deterministicZip(
      index
        .filter((f) => f.path.startsWith(prefix))
        .map((f) => ({ path: f.path.slice(prefix.length), bytes: bytes.get(f.path) ?? Buffer.alloc(0), executable: f.executable })),
    );
    return { bytes: zip, sha256: createHash('sha256').update(zip).digest('hex') };
  }

  /** The built zip of a version whose SKILL.md sits in a top folder, from memory or built now. */
  async function builtArchive(version: VersionRow): Promise<BuiltArchive> {
    const kept = built.get(version.id);
    if (kept) return kept;
    let pending = building.get(version.id);
    if (!pending) {
      pending = build(version).finally(() => building.delete(version.id));
      building.set(version.id, pending);
    }
    const archive = await pending;
    built.set(version.id, archive);
    digests.set(version.id, archive.sha256);
    return archive;
  }

  /**
   * The skill's offer, as anyone may see it: a skill that is not published, is hidden or private is 404
   * `skill_not_found`, as for an unknown skill. Null when the skill is public but offers nothing the `skills` command
   * can install: no installable version (never a quarantined one), a slug outside its name rule, no description,
   * or a package larger than it unpacks.
   */
  async function offer(ref: string): Promise<AgentOffer | null> {
    const skill = await skillService.get(ANONYMOUS, ref);
    if (skill.status !== 'published' || skill.private || skill.hidden)
      throw notFound('skill_not_found', `No skill "${ref}" is visible to you.`);
    const name = bareSlug(skill.full_name);
    if (skill.latest_version === null || name.length > CLIENT_NAME_MAX || !CLIENT_NAME.test(name)) return null;
    const version = await versions.find(skill.id, skill.latest_version);
    if (!version || isQuarantined(version.scan_verdict) || !withinClientLimits(version)) return null;
    const description = describe(skill, version);
    if (description === null) return null;
    return { skill, name, description, version, prefix: prefixOf(version.skill_md_path) };
  }

  return {
    offer,

    /** The offered version's artifact: the stored package when SKILL.md is at its root, otherwise the built zip. */
    async artifact(version: VersionRow): Promise<AgentArtifact> {
      if (prefixOf(version.skill_md_path) === '') return { kind: 'stored', digest: `sha256:${version.sha256}` };
      // The digest alone answers an index: the bytes are built again only when the archive itself is asked for.
      const known = digests.get(version.id) ?? (await builtArchive(version)).sha256;
      return { kind: 'built', digest: `sha256:${known}` };
    },

    /**
     * The archive of a version with SKILL.md at its root, for a caller whose access the download check has passed:
     * null when the stored package already is one (serve it as stored), else the built zip. 422 `archive_too_large`
     * beyond what the `skills` command unpacks.
     */
    async rootArchive(download: { skill: { id: string; slug: string }; version: { version: string } }): Promise<BuiltArchive | null> {
      const version = await versions.find(download.skill.id, download.version.version);
      if (!version) throw notFound('version_not_found', `Skill "${download.skill.slug}" has no version "${download.version.version}".`);
      if (prefixOf(version.skill_md_path) === '') return null;
      if (!withinClientLimits(version)) throw tooLarge(version, download.skill.slug);
      return builtArchive(version);
    },

    /**
     * One file of the offered version, by its path below the package's top folder (the legacy index's layout):
     * null when the version has no such file.
     */
    async file(offered: AgentOffer, path: string): Promise<{ path: string; size: number; stream: Readable } | null> {
      if (path.includes('\u0000')) return null;
      const entry = await versions.file(offered.version.id, offered.prefix + path);
      if (!entry) return null;
      const stream = await openPackageEntry(await blobs.source(offered.version.sha256), offered.version.archive_format, entry.path);
      return stream === null ? null : { path, size: entry.size, stream };
    },

    /** The offered version's files, by path below the package's top folder. */
    async fileList(offered: AgentOffer): Promise<string[]> {
      const index = await versions.files(offered.version.id);
      return index.filter((f) => f.path.startsWith(offered.prefix)).map((f) => f.path.slice(offered.prefix.length));
    },
  };
}

export type AgentArchives = ReturnType<typeof agentArchives>;
