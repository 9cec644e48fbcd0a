/**
 * The lock file of a scope (a project, the user's folders, or one `--dir` folder), with the lock file earlier versions
 * wrote in `.claude/skills` (their only folder) merged in: read as if it were part of the scope's lock, and moved
 * into it the first time the scope's lock is written.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Scope } from './agents.js';
import {
  LOCK_FILE,
  placePath,
  readLock,
  updateLock,
  writeLock,
  type InstalledSkill,
  type LockFile,
  type LockLocation,
} from './lockfile.js';

/** The copy a skill's links point at: its copy in the shared folder, else its first copy. */
export function linkedCopy(scope: Scope, slug: string, entry: InstalledSkill): string | null {
  const copies = entry.places.filter((p) => p.mode === 'copy').map((p) => placePath(scope.base, p));
  return copies.find((p) => p === path.join(scope.shared, slug)) ?? copies[0] ?? null;
}

export function lockLocation(scope: Scope): LockLocation {
  return { dir: scope.shared, base: scope.base, upgradeAgents: [] };
}

function legacyLocation(scope: Scope): LockLocation | null {
  if (scope.legacy === null || scope.legacy === scope.shared) return null;
  return { dir: scope.legacy, base: scope.base, upgradeAgents: ['claude-code'] };
}

function samePackage(a: InstalledSkill, b: InstalledSkill): boolean {
  return a.version === b.version && a.sha256 === b.sha256 && (a.full_name ?? null) === (b.full_name ?? null);
}

/**
 * Moves the old lock's entries into `lock`; returns the slugs taken. An entry the scope's lock already has for another
 * skill or version stays in the old lock (the newer record wins; the old folder is then an untracked one).
 */
function merge(lock: LockFile, old: LockFile, base: string): string[] {
  const taken: string[] = [];
  for (const [slug, entry] of Object.entries(old.skills)) {
    const current = Object.hasOwn(lock.skills, slug) ? lock.skills[slug] : undefined;
    if (current === undefined) {
      lock.skills[slug] = entry;
      taken.push(slug);
    } else if (samePackage(current, entry)) {
      const known = new Set(current.places.map((p) => placePath(base, p)));
      current.places.push(...entry.places.filter((p) => !known.has(placePath(base, p))));
      taken.push(slug);
    }
  }
  return taken;
}

/** The scope's lock, with an older version's `.claude/skills` lock merged in (nothing is written). */
export async function readScopeLock(scope: Scope): Promise<LockFile> {
  const lock = await readLock(lockLocation(scope));
  const legacy = legacyLocation(scope);
  if (legacy !== null) merge(lock, await readLock(legacy), scope.base);
  return lock;
}

/** Changes the scope's lock under its mutex (see updateLock); an older version's lock is moved into it on the way. */
export async function updateScopeLock<T>(scope: Scope, work: (lock: LockFile) => Promise<T>): Promise<T> {
  const at = lockLocation(scope);
  const legacy = legacyLocation(scope);
  await mkdir(at.dir, { recursive: true });
  const moved: { old: LockFile | null; taken: string[] } = { old: null, taken: [] };
  const result = await updateLock(at, async (lock) => {
    if (legacy !== null) {
      moved.old = await readLock(legacy);
      moved.taken = merge(lock, moved.old, scope.base);
    }
    return work(lock);
  });
  // Once the scope's lock holds them, the old file keeps only what it could not take.
  if (legacy !== null && moved.old !== null && moved.taken.length > 0) {
    const rest = moved.old;
    const taken = moved.taken;
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the lock file's skills are a plain JSON object
    for (const slug of taken) delete rest.skills[slug];
    if (Object.keys(rest.skills).length === 0) await rm(path.join(legacy.dir, LOCK_FILE), { force: true });
    else await writeLock(legacy.dir, rest);
  }
  return result;
}
