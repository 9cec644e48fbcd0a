/**
 * `skills-lock.json`: what `install` put where, so `list`, `update`, `uninstall` and `verify` know it. It sits in
 * the shared skills folder (`.agents/skills`, `~/.agents/skills`, or the `--dir` folder), beside the skill folders
 * and never inside one (a skill's folder holds exactly its package's files), and records for each skill every place
 * it went (each agent's folder: a copy, or a link to the shared copy), its version, the package's sha256 and each
 * file's. It is rewritten through a temporary file and a rename, and changes to it are serialised across processes by
 * an exclusive `.skills-lock.json.lock` file.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ArchiveFormat } from '@skill-registry/skill-package/format';
import { CliError } from './exit-codes.js';

export const LOCK_FILE = 'skills-lock.json';
const MUTEX_FILE = '.skills-lock.json.lock';
/** 2: each skill's places and per-file digests. Version 1 files (one folder, beside the lock) are read and upgraded. */
export const LOCKFILE_VERSION = 2;
const MUTEX_WAIT_MS = 15_000;
const MUTEX_STALE_MS = 120_000;

/** One place a skill was installed: its own copy of the files, or a link to the shared copy. */
export interface Place {
  /** The agents that read this folder (empty for the shared folder when no agent was chosen or detected for it). */
  agents: string[];
  /** The skill's folder: relative to the lock's base (the project, the home folder, the --dir folder), `/`-separated; absolute when outside it. */
  path: string;
  mode: 'copy' | 'symlink';
}

export interface InstalledSkill {
  /**
   * The skill's full name, `pdf-tools` or `@acme/pdf-tools` in a scope (the folder is named by the slug alone);
   * absent in entries written before scopes, whose full name is their folder's.
   */
  full_name?: string;
  /** The skill's id at the registry, which names it even after it moves to another scope; absent in older entries. */
  skill_id?: string;
  version: string;
  registry: string;
  /** The sha256 of the package (the archive) the registry served. */
  sha256: string;
  size: number;
  archive_format: ArchiveFormat;
  /** The files written into the skill's folder, sorted. */
  files: string[];
  /** Each file's sha256, by path; absent in entries upgraded from version 1 until the skill is installed again. */
  file_sha256?: Record<string, string>;
  /** Every place the skill was installed. */
  places: Place[];
  installed_at: string;
}

export interface LockFile {
  lockfile_version: number;
  skills: Record<string, InstalledSkill>;
}

/** Where a lock file is and what its paths are relative to. */
export interface LockLocation {
  /** The folder holding the lock file. */
  dir: string;
  /** What place paths are relative to. */
  base: string;
  /** The agents a version 1 entry's folder (beside the lock file) was for. */
  upgradeAgents: string[];
}

/** A place's path as the lock file records it. */
export function storedPath(base: string, absolute: string): string {
  const rel = path.relative(base, absolute);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return absolute;
  return rel.split(path.sep).join('/');
}

/** A recorded place's absolute path. */
export function placePath(base: string, place: Place): string {
  return path.isAbsolute(place.path) ? path.normalize(place.path) : path.join(base, ...place.path.split('/'));
}

/** The full name of the skill installed in folder `key`. */
export function fullNameOf(key: string, entry: InstalledSkill): string {
  return entry.full_name ?? key;
}

/** The folder (the lock file's key) a name given on the command line means: a folder's name, or a full name installed. */
export function installedFolder(lock: LockFile, name: string): string | undefined {
  if (Object.hasOwn(lock.skills, name)) return name;
  return Object.keys(lock.skills).find((key) => lock.skills[key]?.full_name === name);
}

function emptyLock(): LockFile {
  return { lockfile_version: LOCKFILE_VERSION, skills: {} };
}

/** A version 1 entry (one folder beside the lock file, no places) as version 2 has it. */
function upgraded(slug: string, entry: InstalledSkill, at: LockLocation): InstalledSkill {
  if (Array.isArray(entry.places)) return entry;
  return { ...entry, places: [{ agents: [...at.upgradeAgents], path: storedPath(at.base, path.join(at.dir, slug)), mode: 'copy' }] };
}

/** Reads `DIR/skills-lock.json` (no file: an empty lock), upgrading a version 1 file's entries. */
export async function readLock(at: LockLocation | string): Promise<LockFile> {
  const location = typeof at === 'string' ? { dir: at, base: at, upgradeAgents: [] } : at;
  const file = path.join(location.dir, LOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyLock();
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not valid JSON; fix or delete it.`);
  }
  const lock = data as Partial<LockFile>;
  // Parsed JSON may be anything, whatever the cast says.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  if (typeof lock !== 'object' || lock === null || typeof lock.skills !== 'object' || lock.skills === null) {
    throw new CliError(`${file} is not a skills lock file; fix or delete it.`);
  }
  if (typeof lock.lockfile_version === 'number' && lock.lockfile_version > LOCKFILE_VERSION) {
    throw new CliError(`${file} was written by a newer skill-registry (lock file version ${lock.lockfile_version}); upgrade to change it.`);
  }
  const skills: Record<string, InstalledSkill> = {};
  for (const [slug, entry] of Object.entries(lock.skills)) skills[slug] = upgraded(slug, entry, location);
  return { lockfile_version: LOCKFILE_VERSION, skills };
}

export async function writeLock(dir: string, lock: LockFile): Promise<void> {
  const skills: Record<string, InstalledSkill> = {};
  for (const slug of Object.keys(lock.skills).sort()) skills[slug] = lock.skills[slug]!;
  const file = path.join(dir, LOCK_FILE);
  const temp = path.join(dir, `.${LOCK_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify({ lockfile_version: LOCKFILE_VERSION, skills }, null, 2)}\n`, { flag: 'wx', mode: 0o644 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Runs `work` while holding the directory's mutex, re-reading the lock file under it and writing back what `work` returns. */
export async function updateLock<T>(at: LockLocation | string, work: (lock: LockFile) => Promise<T>): Promise<T> {
  const dir = typeof at === 'string' ? at : at.dir;
  const mutex = path.join(dir, MUTEX_FILE);
  const deadline = Date.now() + MUTEX_WAIT_MS;
  for (;;) {
    try {
      await (await open(mutex, 'wx')).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(mutex).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      // A process that died holding it leaves the file behind; past this age it cannot still be working.
      if (age > MUTEX_STALE_MS) await rm(mutex, { force: true });
      else if (Date.now() > deadline)
        throw new CliError(
          `Another skill-registry command is changing ${dir} (${mutex} exists); try again, or remove that file if no other command is running.`,
        );
      else await sleep(50);
    }
  }
  try {
    const lock = await readLock(at);
    const result = await work(lock);
    await writeLock(dir, lock);
    return result;
  } finally {
    await rm(mutex, { force: true });
  }
}
