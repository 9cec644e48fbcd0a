/**
 * Installing one version of a skill into every place it goes (each agent's skills folder: a copy, or a link to the
 * one copy in the shared `.agents/skills` folder):
 *
 * 1. the version record gives the sha256 the package must have, and its scan verdict, which the scan policy may
 *    refuse before anything is downloaded (a version the registry never scanned is scanned here, after step 3's
 *    inspection, before anything is written);
 * 2. the package is downloaded into a private temporary directory (never into a skills folder) and hashed on the way;
 *    a mismatch with the record or with the download's Repr-Digest stops here, nothing changed;
 * 3. it is checked with the registry's inspector and extracted into a hidden sibling of the skill's folder (one for
 *    each copy), and each file's sha256 taken;
 * 4. under the scope's lock, each new folder (or link) replaces the old one by rename and the lock file is updated.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RegistryClient, ScanSummary, Skill, Version } from '@skill-registry/client';
import { ARCHIVE_EXTENSIONS } from '@skill-registry/skill-package/format';
import type { LinkMode, Scope, Target } from './agents.js';
import { extractPackage } from './extract.js';
import { CliError, EXIT } from './exit-codes.js';
import type { Io } from './io.js';
import { fullNameOf, placePath, storedPath, type InstalledSkill, type LockFile, type Place } from './lockfile.js';
import { fileDigests, linkIn, lstatOrNull, removeEntry, SLUG, swapIn } from './place-files.js';
import { progressBar } from './progress.js';
import { checkLocalScan, checkRegistryScan, type ScanPolicy } from './scan-policy.js';
import { localScanView, summaryOf } from './scan-report.js';
import { readScopeLock, updateScopeLock } from './scope-lock.js';

export interface InstallRequest {
  client: RegistryClient;
  registry: string;
  /** Slug, `@scope/slug`, or id. */
  skill: string;
  /** A version, or `latest`. */
  version: string;
  scope: Scope;
  /**
   * The skills folders of the scope (agents.ts knownDirs): a place the lock file records elsewhere is refused, so
   * an edited lock file cannot have a folder outside them replaced.
   */
  knownDirs: Set<string>;
  /**
   * Where it goes, and how: the folders (with their agents) and copies or links. Null: every place the lock file
   * records for it (update).
   */
  targets: { targets: Target[]; mode: LinkMode } | null;
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

/** One place as an outcome reports it: the absolute folder. */
export interface PlacedAt {
  agents: string[];
  path: string;
  mode: Place['mode'];
}

export interface InstallOutcome {
  /** The skill's full name: `pdf-tools`, or `@acme/pdf-tools` in a scope (installed into the folder `pdf-tools`). */
  skill: string;
  version: string;
  previous: string | null;
  action: 'installed' | 'replaced' | 'unchanged';
  /** The skill's folder: the shared copy when there is one, else the first place. */
  path: string;
  /** Every place it is installed. */
  places: PlacedAt[];
  sha256: string;
  files: string[];
  /** The registry's scan of the version; null when it never scanned it. */
  scan: ScanSummary;
  /** The scan of the downloaded package on this machine, for a version the registry never scanned; else null. */
  local_scan: ScanSummary;
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

/** Where the skill goes: the places asked for, with those the lock file already records (every one gets the version). */
function plan(request: InstallRequest, slug: string, installed: InstalledSkill | undefined): PlacedAt[] {
  const { scope } = request;
  const recorded = (installed?.places ?? []).map((p) => ({ agents: [...p.agents], path: placePath(scope.base, p), mode: p.mode }));
  for (const place of recorded) {
    if (path.basename(place.path) !== slug || !request.knownDirs.has(path.dirname(place.path))) {
      throw new CliError(
        `The lock file records ${place.path} for ${slug}, which is not a skill's folder in a skills folder of ${scope.base}; ` +
          'fix or remove that place in the lock file (or uninstall the skill) first.',
      );
    }
  }
  if (request.targets === null) return recorded;
  const { targets, mode } = request.targets;
  const wanted: PlacedAt[] = targets.map((t) => ({
    agents: [...t.agents],
    path: path.join(t.dir, slug),
    mode: mode === 'symlink' && t.dir !== scope.shared ? 'symlink' : 'copy',
  }));
  const places = new Map<string, PlacedAt>();
  for (const place of [...recorded, ...wanted]) {
    const known = places.get(place.path);
    places.set(place.path, { ...place, agents: [...new Set([...(known?.agents ?? []), ...place.agents])].sort() });
  }
  return ordered([...places.values()], path.join(scope.shared, slug));
}

/** Links point at the shared copy, which must then be one of the places, and first (it is written before them). */
function ordered(places: PlacedAt[], shared: string): PlacedAt[] {
  const out = places.map((p) => (p.path === shared ? { ...p, mode: 'copy' as const } : p));
  if (out.some((p) => p.mode === 'symlink') && !out.some((p) => p.path === shared)) out.push({ agents: [], path: shared, mode: 'copy' });
  return out.sort((a, b) => Number(b.path === shared) - Number(a.path === shared));
}

/** What is at a place now: the copy or the link it should be, something else, or nothing. */
async function placeState(place: PlacedAt): Promise<'ok' | 'other' | 'absent'> {
  const stats = await lstatOrNull(place.path);
  if (stats === null) return 'absent';
  return (place.mode === 'copy' ? stats.isDirectory() : stats.isSymbolicLink()) ? 'ok' : 'other';
}

/** Refuses to replace what the request may not replace; null when installing may go ahead. */
async function conflict(
  lock: LockFile,
  slug: string,
  skill: Skill,
  places: PlacedAt[],
  version: Version,
  request: InstallRequest,
): Promise<CliError | null> {
  // Not even --force replaces another skill: its lock entry would be lost with its folder.
  const other = otherSkill(lock, slug, skill, request.scope.shared);
  if (other !== null) return other;
  if (request.mode === 'force') return null;
  const installed = lock.skills[slug];
  const recorded = new Set((installed?.places ?? []).map((p) => placePath(request.scope.base, p)));
  for (const place of places) {
    if (!recorded.has(place.path) && (await lstatOrNull(place.path)) !== null) {
      return new CliError(`${place.path} exists and was not installed by skill-registry; pass --force to replace it.`, EXIT.conflict);
    }
  }
  if (installed !== undefined && request.mode === 'install' && !sameVersion(installed, version)) {
    return new CliError(
      `${skill.full_name} ${installed.version} is installed in ${installed.places.map((p) => placePath(request.scope.base, p)).join(', ') || request.scope.shared}; ` +
        `pass --force to replace it with ${version.version}.`,
      EXIT.conflict,
    );
  }
  return null;
}

function outcomePath(places: PlacedAt[]): string {
  return places.find((p) => p.mode === 'copy')?.path ?? places[0]?.path ?? '';
}

function storedPlaces(scope: Scope, places: PlacedAt[]): Place[] {
  return places.map((p) => ({ agents: p.agents, path: storedPath(scope.base, p.path), mode: p.mode }));
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
  const { client, scope, io } = request;
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
  const lockNow = await readScopeLock(scope);
  const clash = otherSkill(lockNow, slug, skill, scope.shared);
  if (clash !== null) throw clash;
  const installed = Object.hasOwn(lockNow.skills, slug) ? lockNow.skills[slug] : undefined;
  const places = plan(request, slug, installed);
  if (places.length === 0) throw new CliError(`${name} has no place to be installed in.`);
  const recorded = new Set((installed?.places ?? []).map((p) => `${placePath(scope.base, p)}\0${p.mode}`));
  const states = await Promise.all(places.map(placeState));
  if (
    request.mode !== 'force' &&
    installed !== undefined &&
    sameVersion(installed, version) &&
    places.every((p, i) => recorded.has(`${p.path}\0${p.mode}`) && states[i] === 'ok')
  ) {
    const agentsChanged = places.some((p) => {
      const was = installed.places.find((q) => placePath(scope.base, q) === p.path);
      return was?.agents.join(',') !== p.agents.join(',');
    });
    // Another agent now reads a folder the skill is already in: recorded, nothing downloaded.
    if (agentsChanged) {
      await updateScopeLock(scope, async (lock) => {
        const entry = lock.skills[slug];
        if (sameVersion(entry, version)) entry!.places = storedPlaces(scope, places);
        return Promise.resolve();
      });
    }
    return {
      skill: name,
      version: version.version,
      previous: installed.version,
      action: 'unchanged',
      path: outcomePath(places),
      places,
      sha256: version.sha256,
      files: installed.files,
      scan: version.scan,
      local_scan: null,
    };
  }
  const early = await conflict(lockNow, slug, skill, places, version, request);
  if (early) throw early;

  const work = await mkdtemp(path.join(tmpdir(), 'skill-registry-'));
  const staged: string[] = [];
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

    // Each copy is staged beside its place, so that putting it there is a rename on the same file system.
    const copies = places.filter((p) => p.mode === 'copy');
    for (const place of places) await mkdir(path.dirname(place.path), { recursive: true });
    const stagingOf = (place: PlacedAt) => path.join(path.dirname(place.path), `.${slug}.installing-${randomBytes(6).toString('hex')}`);
    const first = stagingOf(copies[0]!);
    staged.push(first);
    let localScan: ScanSummary = null;
    const files = (
      await extractPackage(archive, first, (inspection) => {
        if (version.scan !== null) return;
        const report = localScanView(inspection.scan);
        localScan = summaryOf(report);
        request.onScan?.(label, localScan, 'local');
        checkLocalScan(label, report, request.scanPolicy);
      })
    ).files.sort();
    const digests = await fileDigests(first, files);
    for (const place of copies.slice(1)) {
      const staging = stagingOf(place);
      staged.push(staging);
      await cp(first, staging, { recursive: true, errorOnExist: true, force: false });
    }

    return await updateScopeLock(scope, async (lock) => {
      // Checked again under the lock: another command may have changed the folders meanwhile.
      const previous = lock.skills[slug]?.version ?? null;
      const present = (await Promise.all(places.map((p) => lstatOrNull(p.path)))).some((s) => s !== null);
      const late = await conflict(lock, slug, skill, places, version, request);
      if (late) throw late;
      // The shared copy first: the links point at it.
      for (const [i, place] of copies.entries()) await swapIn(staged[i]!, place.path);
      const shared = copies[0]!.path;
      for (const place of places) if (place.mode === 'symlink') await linkIn(shared, place.path);
      const entry: InstalledSkill = {
        full_name: name,
        skill_id: skill.id,
        version: version.version,
        registry: request.registry,
        sha256: version.sha256,
        size: version.size,
        archive_format: version.archive_format,
        files,
        file_sha256: digests,
        places: storedPlaces(scope, places),
        installed_at: new Date().toISOString(),
      };
      lock.skills[slug] = entry;
      return {
        skill: name,
        version: version.version,
        previous,
        action: present ? 'replaced' : 'installed',
        path: outcomePath(places),
        places,
        sha256: version.sha256,
        files,
        scan: version.scan,
        local_scan: localScan,
      } as const;
    });
  } finally {
    // Gone once renamed into place; otherwise (a conflict, a failure) they must not stay behind.
    for (const staging of staged) await removeEntry(staging);
    await rm(work, { recursive: true, force: true });
  }
}
