/**
 * `skills-lock.json`: what `install` put in a skills directory, so `list`, `update` and `uninstall` know it.
 * It sits in the skills directory itself, beside the skill folders and never inside one (a skill's folder holds
 * exactly its package's files). It is rewritten through a temporary file and a rename, and changes to it are
 * serialised across processes by an exclusive `.skills-lock.json.lock` file.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ArchiveFormat } from '@skill-registry/skill-package/format';
import { CliError } from './exit-codes.js';

export const LOCK_FILE = 'skills-lock.json';
const MUTEX_FILE = '.skills-lock.json.lock';
const LOCKFILE_VERSION = 1;
const MUTEX_WAIT_MS = 15_000;
const MUTEX_STALE_MS = 120_000;

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
  sha256: string;
  size: number;
  archive_format: ArchiveFormat;
  /** The files written into the skill's folder, sorted. */
  files: string[];
  installed_at: string;
}

export interface LockFile {
  lockfile_version: number;
  skills: Record<string, InstalledSkill>;
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

export async function readLock(dir: string): Promise<LockFile> {
  const file = path.join(dir, LOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lockfile_version: LOCKFILE_VERSION, skills: {} };
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
  return { lockfile_version: LOCKFILE_VERSION, skills: lock.skills };
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
export async function updateLock<T>(dir: string, work: (lock: LockFile) => Promise<T>): Promise<T> {
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
    const lock = await readLock(dir);
    const result = await work(lock);
    await writeLock(dir, lock);
    return result;
  } finally {
    await rm(mutex, { force: true });
  }
}
