/**
 * Checking installed skills: every place against the lock file (each file's sha256, files missing or added, links
 * pointing where they should), and the lock file against the registry (the installed version as the registry serves
 * it now: still there, not quarantined, the same package sha256, the same files).
 */
import path from 'node:path';
import { ProblemError, type RegistryClient } from '@skill-registry/client';
import type { Scope } from './agents.js';
import { fullNameOf, placePath, type InstalledSkill } from './lockfile.js';
import { linkTarget, lstatOrNull, sha256File, walkTree } from './place-files.js';
import { linkedCopy } from './scope-lock.js';

export type DifferenceKind =
  | 'place-missing'
  | 'not-a-folder'
  | 'not-a-link'
  | 'link-elsewhere'
  | 'file-missing'
  | 'file-changed'
  | 'file-added'
  | 'version-gone'
  | 'quarantined'
  | 'package-changed'
  | 'files-differ';

export interface Difference {
  kind: DifferenceKind;
  /** The file or folder concerned, absolute; null for the registry's. */
  path: string | null;
  detail: string;
}

export interface SkillCheck {
  skill: string;
  full_name: string;
  version: string;
  places: number;
  files: number;
  differences: Difference[];
  /** What could not be checked, and why (an entry written before per-file digests were recorded). */
  notes: string[];
}

function short(sha: string): string {
  return `${sha.slice(0, 12)}…`;
}

/** Every place of one skill against the lock file. */
export async function checkLocal(
  scope: Scope,
  slug: string,
  entry: InstalledSkill,
): Promise<{ differences: Difference[]; notes: string[] }> {
  const differences: Difference[] = [];
  const notes: string[] = [];
  const digests = entry.file_sha256;
  if (digests === undefined)
    notes.push(
      `no per-file sha256 recorded (installed by an earlier skill-registry): files were checked for presence only; install it again (--force) to record them`,
    );
  const listed = new Set(entry.files);
  for (const place of entry.places) {
    const folder = placePath(scope.base, place);
    const stats = await lstatOrNull(folder);
    if (stats === null) {
      differences.push({ kind: 'place-missing', path: folder, detail: `${place.mode === 'copy' ? 'the folder' : 'the link'} is gone` });
      continue;
    }
    if (place.mode === 'symlink') {
      const expected = linkedCopy(scope, slug, entry);
      if (!stats.isSymbolicLink()) {
        differences.push({ kind: 'not-a-link', path: folder, detail: `should be a link to ${expected ?? 'the shared copy'}, and is not` });
        continue;
      }
      const target = await linkTarget(folder);
      if (target !== expected)
        differences.push({
          kind: 'link-elsewhere',
          path: folder,
          detail: `points to ${target ?? '?'}, not to ${expected ?? 'the shared copy'}`,
        });
      continue;
    }
    if (!stats.isDirectory()) {
      differences.push({
        kind: 'not-a-folder',
        path: folder,
        detail: stats.isSymbolicLink()
          ? `should be a folder, and is a link to ${(await linkTarget(folder)) ?? '?'}`
          : 'should be a folder, and is not',
      });
      continue;
    }
    const tree = await walkTree(folder);
    const present = new Set(tree.files);
    for (const file of entry.files) {
      const full = path.join(folder, ...file.split('/'));
      if (!present.has(file)) {
        differences.push({ kind: 'file-missing', path: full, detail: 'is missing' });
        continue;
      }
      const want = digests?.[file];
      if (want === undefined) continue;
      const have = await sha256File(full);
      if (have !== want)
        differences.push({ kind: 'file-changed', path: full, detail: `its sha256 is ${short(have)}, the lock file says ${short(want)}` });
    }
    for (const file of tree.files)
      if (!listed.has(file))
        differences.push({
          kind: 'file-added',
          path: path.join(folder, ...file.split('/')),
          detail: 'was not installed by skill-registry',
        });
    for (const file of tree.others)
      differences.push({
        kind: 'file-added',
        path: path.join(folder, ...file.split('/')),
        detail: 'a link or special file skill-registry did not install',
      });
  }
  return { differences, notes };
}

/** The paths of a package's files as installed: a single top-level folder holding SKILL.md is the skill itself. */
export function installedPaths(files: readonly string[]): string[] {
  const first = files[0]?.split('/')[0];
  if (first === undefined || files.some((f) => f.toLowerCase() === 'skill.md')) return [...files];
  const prefix = `${first}/`;
  const wrapped = files.every((f) => f.startsWith(prefix)) && files.some((f) => f.toLowerCase() === `${prefix}skill.md`.toLowerCase());
  return wrapped ? files.map((f) => f.slice(prefix.length)) : [...files];
}

/** The lock file's record of one skill against what the registry serves now. */
export async function checkRegistry(client: RegistryClient, slug: string, entry: InstalledSkill): Promise<Difference[]> {
  const name = entry.skill_id ?? fullNameOf(slug, entry);
  const label = `${fullNameOf(slug, entry)} ${entry.version}`;
  const refused = (error: unknown): Difference[] | null => {
    if (!(error instanceof ProblemError)) return null;
    if (error.status === 404)
      return [{ kind: 'version-gone', path: null, detail: `the registry no longer serves ${label} (${error.detail})` }];
    if (error.code === 'version_quarantined')
      return [{ kind: 'quarantined', path: null, detail: `${label} is quarantined: the package scanner judged it malicious` }];
    return null;
  };
  const differences: Difference[] = [];
  let version;
  try {
    version = await client.versions.get(name, entry.version);
  } catch (error) {
    const found = refused(error);
    if (found === null) throw error;
    return found;
  }
  if (version.scan?.verdict === 'malicious')
    differences.push({ kind: 'quarantined', path: null, detail: `${label} is quarantined: the package scanner judged it malicious` });
  if (version.sha256 !== entry.sha256)
    differences.push({
      kind: 'package-changed',
      path: null,
      detail: `the registry's package of ${label} has sha256 ${short(version.sha256)}, the installed one ${short(entry.sha256)} (uploaded again since?)`,
    });
  let files;
  try {
    files = await client.versions.files(name, entry.version);
  } catch (error) {
    const found = refused(error);
    if (found === null) throw error;
    return [...differences, ...found.filter((d) => !differences.some((k) => k.kind === d.kind))];
  }
  const served = new Set(installedPaths(files.items.map((f) => f.path)));
  const installed = new Set(entry.files);
  const onlyServed = [...served].filter((f) => !installed.has(f)).sort();
  const onlyInstalled = [...installed].filter((f) => !served.has(f)).sort();
  if (onlyServed.length > 0 || onlyInstalled.length > 0) {
    const parts = [
      onlyServed.length ? `the registry's package has ${onlyServed.join(', ')} that the lock file does not list` : '',
      onlyInstalled.length ? `the lock file lists ${onlyInstalled.join(', ')} that the registry's package does not have` : '',
    ].filter(Boolean);
    differences.push({ kind: 'files-differ', path: null, detail: parts.join('; ') });
  }
  return differences;
}
