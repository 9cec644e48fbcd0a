import type { FileEntry } from '../../api/types';

/** Where the package's SKILL.md is: at the root, or inside a single top-level folder (as the registry looks). */
export function skillMdPath(files: readonly FileEntry[]): string | null {
  const root = files.find((f) => f.path === 'SKILL.md');
  if (root) return root.path;
  return files.find((f) => /^[^/]+\/SKILL\.md$/.test(f.path))?.path ?? null;
}
