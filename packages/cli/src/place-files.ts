/**
 * What installing and removing does to a skill's folder in one place, and reading one back. Nothing here follows a
 * link: folders are walked and removed by lstat, so a link inside a skill's folder (or one put in place of it) never
 * leads a removal or a digest outside that folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink, rename, rm, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { checkEntryPath } from '@skill-registry/skill-package/paths';

/** A slug as the registry allows it: also what keeps a folder name safe whatever a registry or a lock file says. */
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export async function lstatOrNull(file: string): Promise<Awaited<ReturnType<typeof lstat>> | null> {
  return lstat(file).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  });
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A relative, `/`-separated file path that stays inside its folder (as the package rules define it), or null. */
export function safeRelative(file: string): string[] | null {
  const checked = checkEntryPath(file);
  if (!checked.ok || checked.isDirectory || checked.path !== file) return null;
  return file.split('/');
}

/** Each file's sha256, by path. */
export async function fileDigests(dir: string, files: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of [...files].sort()) out[file] = await sha256File(path.join(dir, ...file.split('/')));
  return out;
}

export interface Tree {
  /** Regular files, `/`-separated, sorted. */
  files: string[];
  /** Anything else that is not a folder: links, sockets, devices. */
  others: string[];
}

/** Every entry under `dir`, without following links. */
export async function walkTree(dir: string): Promise<Tree> {
  const tree: Tree = { files: [], others: [] };
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(dir, ...relative.split('/').filter(Boolean)), { withFileTypes: true });
    for (const entry of entries) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile()) tree.files.push(rel);
      else tree.others.push(rel);
    }
  };
  await walk('');
  tree.files.sort();
  tree.others.sort();
  return tree;
}

/** Removes a folder or a link by its own entry: a link is unlinked, never followed. */
export async function removeEntry(file: string): Promise<void> {
  const stats = await lstatOrNull(file);
  if (stats === null) return;
  if (stats.isDirectory()) await rm(file, { recursive: true, force: true });
  else await unlink(file);
}

function sideName(dest: string, what: string): string {
  return path.join(path.dirname(dest), `.${path.basename(dest)}.${what}-${randomBytes(6).toString('hex')}`);
}

/** Puts `ready` (a folder or a link beside `dest`) at `dest` by rename, replacing what is there; the old entry is removed. */
export async function swapIn(ready: string, dest: string): Promise<void> {
  if ((await lstatOrNull(dest)) === null) {
    await rename(ready, dest);
    return;
  }
  const old = sideName(dest, 'replaced');
  await rename(dest, old);
  try {
    await rename(ready, dest);
  } catch (error) {
    await rename(old, dest);
    throw error;
  }
  await removeEntry(old);
}

/** A link at `dest` to the folder `target`: relative, so a project moved or checked out elsewhere keeps working. */
export async function linkIn(target: string, dest: string): Promise<void> {
  const ready = sideName(dest, 'linking');
  // Windows makes folder links as junctions, which take absolute targets and need no privilege.
  if (process.platform === 'win32') await symlink(target, ready, 'junction');
  else await symlink(path.relative(path.dirname(dest), target), ready, 'dir');
  try {
    await swapIn(ready, dest);
  } catch (error) {
    await removeEntry(ready);
    throw error;
  }
}

/** Where a link points, resolved; null when `file` is not a link. */
export async function linkTarget(file: string): Promise<string | null> {
  const stats = await lstatOrNull(file);
  if (!stats?.isSymbolicLink()) return null;
  return path.resolve(path.dirname(file), await readlink(file));
}

export interface Removal {
  /** The folder is gone. */
  removed: boolean;
  /** What was left, and why. */
  kept: string[];
}

/**
 * Removes from a copy the files the lock file lists, and the folders they leave empty; the folder itself when nothing
 * else is in it. A file reached through a link (a folder of the skill replaced by a link) is not touched.
 */
export async function removeCopy(folder: string, files: readonly string[]): Promise<Removal> {
  const kept: string[] = [];
  const stats = await lstatOrNull(folder);
  if (stats === null) return { removed: true, kept };
  if (!stats.isDirectory()) return { removed: false, kept: [`${folder} is not a folder (it was replaced), so it was left as it is`] };
  const emptied = new Set<string>();
  for (const file of files) {
    const segments = safeRelative(file);
    if (segments === null) {
      kept.push(`${file}: not a path inside the skill's folder`);
      continue;
    }
    let at = folder;
    let blocked = false;
    for (const segment of segments.slice(0, -1)) {
      at = path.join(at, segment);
      const dir = await lstatOrNull(at);
      if (!dir?.isDirectory()) {
        blocked = dir !== null;
        break;
      }
    }
    if (blocked) {
      kept.push(`${file}: its folder is not a folder any more (a link?), so it was not followed`);
      continue;
    }
    const target = path.join(folder, ...segments);
    const entry = await lstatOrNull(target);
    if (entry === null) continue;
    if (entry.isDirectory()) {
      kept.push(`${file}: a folder now`);
      continue;
    }
    await unlink(target);
    for (let dir = path.dirname(target); dir.length > folder.length; dir = path.dirname(dir)) emptied.add(dir);
  }
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
    await rmdir(dir).catch(() => undefined);
  }
  try {
    await rmdir(folder);
    return { removed: true, kept };
  } catch {
    const rest = await walkTree(folder).catch(() => ({ files: [], others: [] }));
    const extra = [...rest.files, ...rest.others];
    kept.push(
      `${folder} holds files skill-registry did not install, so it was kept: ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', …' : ''}`,
    );
    return { removed: false, kept };
  }
}
