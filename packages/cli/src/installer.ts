/**
 * Installing one version of a skill into a skills directory:
 *
 * 1. the version record gives the sha256 the package must have, and its scan verdict, which the scan policy may
 *    refuse before anything is downloaded (a version the registry never scanned is scanned here, after step 3's
 *    inspection, before anything is written);
 * 2. the package is downloaded into a private temporary directory (never into the skills directory) and hashed
 *    on the way; a mismatch with the record or with the download's Repr-Digest stops here, nothing changed;
 * 3. it is checked with the registry's inspector and extracted into a hidden sibling of the skill's folder;
 * 4. under the directory's lock, the new folder replaces the old one by rename and the lock file is updated.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RegistryClient, ScanSummary, Skill, Version } from '@skill-registry/client';
import { ARCHIVE_EXTENSIONS } from '@skill-registry/skill-package/format';
import { extractPackage } from './extract.js';
import { CliError, EXIT } from './exit-codes.js';
import type { Io } from './io.js';
import { fullNameOf, readLock, updateLock, type InstalledSkill, type LockFile } from './lockfile.js';
import { progressBar } from './progress.js';
import { checkLocalScan, checkRegistryScan, type ScanPolicy } from './scan-policy.js';
import { localScanView, summaryOf } from './scan-report.js';

/** A slug as the registry allows it: also what keeps the folder name safe whatever a registry answers. */
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface InstallRequest {
  client: RegistryClient;
  registry: string;
  /** Slug, `@scope/slug`, or id. */
  skill: string;
  /** A version, or `latest`. */
  version: string;
  dir: string;
  /**
   * What may be replaced. `install`: nothing (an installed copy of the same version is left as it is). `update`:
   * another version this command installed. `force`: anything, the same version included (a fresh copy).
   */
  mode: 'install' | 'update' | 'force';
  /** Which scan verdicts may be installed. */
  scanPolicy: ScanPolicy;
  /**
   * Told each verdict as it is known, before the package is installed: the registry's, and for a version the
   * registry never scanned, the local scanner's once the package is downloaded.
   */
  onScan?: (label: string, scan: ScanSummary, by: 'registry' | 'local') => void;
  io: Io;
}

export interface InstallOutcome {
  /** The skill's full name: `pdf-tools`, or `@acme/pdf-tools` in a scope (installed into the folder `pdf-tools`). */
  skill: string;
  version: string;
  previous: string | null;
  action: 'installed' | 'replaced' | 'unchanged';
  path: string;
  sha256: string;
  files: string[];
  /** The registry's scan of the version; null when it never scanned it. */
  scan: ScanSummary;
  /** The scan of the downloaded package on this machine, for a version the registry never scanned; else null. */
  local_scan: ScanSummary;
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    },
  );
}

function sameVersion(installed: InstalledSkill | undefined, version: Version): boolean {
  return installed?.version === version.version && installed.sha256 === version.sha256;
}

/**
 * Another skill installed in the folder this one would take: `pdf-tools` from `@acme/pdf-tools` and
 * `@other/pdf-tools` share the folder name, since a skill's folder is named by its slug alone. The same skill under
 * a new name (moved to another scope) keeps its id.
 */
function otherSkill(lock: LockFile, slug: string, skill: Skill, dir: string): CliError | null {
  const installed = Object.hasOwn(lock.skills, slug) ? lock.skills[slug] : undefined;
  if (installed === undefined) return null;
  const name = fullNameOf(slug, installed);
  if (name === skill.full_name || (installed.skill_id !== undefined && installed.skill_id === skill.id)) return null;
  return new CliError(
    `${path.join(dir, slug)} holds ${name}, and ${skill.full_name} would be installed into the same folder (a skill's folder is named ` +
      `by its slug). Uninstall ${name} first (skill-registry uninstall ${name}), or install into another --dir.`,
    EXIT.conflict,
  );
}

/** Refuses to replace what the request may not replace; null when installing may go ahead. */
function conflict(
  lock: LockFile,
  slug: string,
  skill: Skill,
  folderExists: boolean,
  version: Version,
  dir: string,
  mode: InstallRequest['mode'],
): CliError | null {
  // Not even --force replaces another skill: its lock entry would be lost with its folder.
  const other = otherSkill(lock, slug, skill, dir);
  if (other !== null) return other;
  if (mode === 'force' || !folderExists) return null;
  const installed = lock.skills[slug];
  if (installed === undefined) {
    return new CliError(
      `${path.join(dir, slug)} exists and was not installed by skill-registry; pass --force to replace it.`,
      EXIT.conflict,
    );
  }
  if (mode === 'install' && !sameVersion(installed, version)) {
    return new CliError(
      `${skill.full_name} ${installed.version} is installed in ${dir}; pass --force to replace it with ${version.version}.`,
      EXIT.conflict,
    );
  }
  return null;
}

/**
 * Why a skill has no version to install: none uploaded yet, or every one quarantined (judged malicious), which the
 * registry's bare "no version latest" would not say.
 */
async function noLatestVersion(client: RegistryClient, slug: string): Promise<CliError> {
  const { items } = await client.versions.list(slug, { page_size: 100 });
  const quarantined = items.filter((v) => v.scan?.verdict === 'malicious').map((v) => v.version);
  if (items.length > 0 && quarantined.length === items.length) {
    return new CliError(
      `Every version of ${slug} is quarantined (${quarantined.join(', ')}): the package scanner judged it malicious, so there is ` +
        `nothing to install. \`skill-registry info ${slug}@${quarantined[0] ?? ''}\` shows the verdict.`,
      EXIT.malicious,
    );
  }
  return new CliError(`${slug} has no version to install yet.`, EXIT.notFound);
}

export async function installSkill(request: InstallRequest): Promise<InstallOutcome> {
  const { client, dir, io } = request;
  const skill = await client.skills.get(request.skill);
  if (!SLUG.test(skill.slug)) throw new CliError(`The registry answered with an unusable slug ${JSON.stringify(skill.slug)}.`);
  // The folder is named by the slug alone; the registry is asked by the full name (`@acme/pdf-tools` in a scope).
  const slug = skill.slug;
  const name = skill.full_name;
  if (request.version === 'latest' && skill.latest_version === null) throw await noLatestVersion(client, name);
  const version = await client.versions.get(name, request.version);
  const label = `${name} ${version.version}`;
  request.onScan?.(label, version.scan, 'registry');
  // Before the installed copy is looked at: a version judged malicious since it was installed is reported too.
  await checkRegistryScan(client, name, version, request.scanPolicy);
  const dest = path.join(dir, slug);
  const lockNow = await readLock(dir);
  const installed = Object.hasOwn(lockNow.skills, slug) ? lockNow.skills[slug] : undefined;
  const folderExists = await exists(dest);
  const clash = otherSkill(lockNow, slug, skill, dir);
  if (clash !== null) throw clash;
  if (request.mode !== 'force' && folderExists && installed !== undefined && sameVersion(installed, version)) {
    return {
      skill: name,
      version: version.version,
      previous: installed.version,
      action: 'unchanged',
      path: dest,
      sha256: version.sha256,
      files: installed.files,
      scan: version.scan,
      local_scan: null,
    };
  }
  const early = conflict(lockNow, slug, skill, folderExists, version, dir, request.mode);
  if (early) throw early;

  const work = await mkdtemp(path.join(tmpdir(), 'skill-registry-'));
  try {
    const archive = path.join(work, `${slug}-${version.version}.${ARCHIVE_EXTENSIONS[version.archive_format]}`);
    const progress = progressBar(io, `Downloading ${name}@${version.version}`);
    try {
      await client.versions.downloadToFile(name, version.version, archive, {
        expectedSha256: version.sha256,
        onProgress: (done, total) => progress.update(done, total),
      });
    } finally {
      progress.finish();
    }

    await mkdir(dir, { recursive: true });
    const staging = path.join(dir, `.${slug}.installing-${randomBytes(6).toString('hex')}`);
    let files: string[];
    let localScan: ScanSummary = null;
    try {
      files = (
        await extractPackage(archive, staging, (inspection) => {
          if (version.scan !== null) return;
          const report = localScanView(inspection.scan);
          localScan = summaryOf(report);
          request.onScan?.(label, localScan, 'local');
          checkLocalScan(label, report, request.scanPolicy);
        })
      ).files;
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }

    try {
      return await updateLock(dir, async (lock) => {
        // Checked again under the lock: another command may have changed the directory meanwhile.
        const previous = lock.skills[slug]?.version ?? null;
        const present = await exists(dest);
        const late = conflict(lock, slug, skill, present, version, dir, request.mode);
        if (late) throw late;
        if (present) {
          const old = path.join(dir, `.${slug}.replaced-${randomBytes(6).toString('hex')}`);
          await rename(dest, old);
          try {
            await rename(staging, dest);
          } catch (error) {
            await rename(old, dest);
            throw error;
          }
          await rm(old, { recursive: true, force: true });
        } else {
          await rename(staging, dest);
        }
        const entry: InstalledSkill = {
          full_name: name,
          skill_id: skill.id,
          version: version.version,
          registry: request.registry,
          sha256: version.sha256,
          size: version.size,
          archive_format: version.archive_format,
          files: [...files].sort(),
          installed_at: new Date().toISOString(),
        };
        lock.skills[slug] = entry;
        return {
          skill: name,
          version: version.version,
          previous,
          action: present ? 'replaced' : 'installed',
          path: dest,
          sha256: version.sha256,
          files: entry.files,
          scan: version.scan,
          local_scan: localScan,
        } as const;
      });
    } finally {
      // Gone once renamed into place; otherwise (a conflict, a failure) it must not stay behind.
      await rm(staging, { recursive: true, force: true });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
