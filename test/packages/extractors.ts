/**
 * Real extractors for the differential test: unzip, GNU tar, and Python's zipfile and tarfile (extract.py),
 * each extracting into its own folder, and a walker that reports what landed on disk (and anything that
 * landed outside the extraction folder).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, readdirSync, readFileSync, readlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./extract.py', import.meta.url));
const ENV = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', TZ: 'UTC' };

/** Fails (never skips) when an extractor the test needs is missing. */
export function requireExtractors(): void {
  const missing: string[] = [];
  const probes: [string, string[]][] = [
    ['unzip', ['-v']],
    ['tar', ['--version']],
    ['python3', ['--version']],
  ];
  for (const [tool, args] of probes) {
    const r = spawnSync(tool, args, { encoding: 'utf8' });
    if (r.error || r.status !== 0) missing.push(tool);
    else if (tool === 'tar' && !r.stdout.includes('GNU tar')) missing.push('tar (GNU tar, found another)');
  }
  if (missing.length > 0) {
    throw new Error(
      `The differential test needs these extractors on the PATH: ${missing.join(', ')}. Install them (Debian: apt-get install unzip tar python3).`,
    );
  }
}

export type Format = 'zip' | 'tar.gz';

/**
 * Extractor messages that change nothing written, documented as harmless: GNU tar says it extracts
 * contiguous files (typeflag 7) as regular files, which is what the registry lists them as.
 */
const HARMLESS_MESSAGES = [/^exit 0: tar: Extracting contiguous files as regular files$/];

export function isHarmless(message: string): boolean {
  return HARMLESS_MESSAGES.some((m) => m.test(message));
}

export interface Node {
  type: 'file' | 'dir' | 'symlink' | 'other';
  sha256?: string;
  size?: number;
  target?: string;
}

/** What an extractor left: paths inside `out` as they are, anything elsewhere under its folder with a `!`. */
export type Tree = Map<string, Node>;

export function walk(jail: string): Tree {
  const tree: Tree = new Map();
  const outRoot = path.join(jail, 'a', 'b', 'out');
  const visit = (dir: string) => {
    chmodSync(dir, 0o700);
    // Names as bytes: an extractor may write names that are not UTF-8.
    for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
      const name = raw.toString('utf8');
      const full = path.join(dir, raw.toString('latin1') === name ? name : Buffer.from(raw).toString('utf8'));
      if (name.includes('\uFFFD')) {
        tree.set(`${path.relative(outRoot, dir)}/${raw.toString('hex')} (name not UTF-8)`, { type: 'other' });
        continue;
      }
      const st = lstatSync(full);
      const inside = full.startsWith(outRoot + path.sep);
      const key = inside ? path.relative(outRoot, full).split(path.sep).join('/') : `!${path.relative(jail, full)}`;
      if (st.isSymbolicLink()) tree.set(key, { type: 'symlink', target: readlinkSync(full) });
      else if (st.isDirectory()) {
        const isScaffold = !inside && (full === path.join(jail, 'a') || full === path.join(jail, 'a', 'b') || full === outRoot);
        if (!isScaffold) tree.set(key, { type: 'dir' });
        visit(full);
      } else if (st.isFile()) {
        chmodSync(full, 0o600);
        const bytes = readFileSync(full);
        tree.set(key, { type: 'file', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
      } else tree.set(key, { type: 'other' });
    }
  };
  visit(jail);
  return tree;
}

export interface ExtractorRun {
  extractor: string;
  /** Set when the extractor failed or complained (a warning comes with the tree). */
  error?: string;
  /** What it wrote, when it finished. */
  tree?: Tree;
}

export interface Extraction {
  /** Python's pre-check found an unsafe name or a link: nothing was extracted. */
  unsafe?: string;
  runs: ExtractorRun[];
}

function jailFor(root: string, extractor: string): string {
  const jail = path.join(root, extractor);
  mkdirSync(path.join(jail, 'a', 'b', 'out'), { recursive: true });
  return jail;
}

function runTool(extractor: string, command: string, args: string[], jail: string): ExtractorRun {
  // A command that cannot start (not installed) leaves stdout and stderr null, whatever the types say.
  const r: SpawnSyncReturns<string | null> = spawnSync(command, args, { encoding: 'utf8', env: ENV, timeout: 20_000 });
  const stderr = (r.stderr ?? '').trim();
  if (r.error || r.status !== 0)
    return { extractor, error: `exit ${r.status ?? r.error?.message}: ${stderr || (r.stdout ?? '').trim()}`.slice(0, 500) };
  // Exit 0 with a message on stderr (a warning) is reported too; the caller decides whether it is harmless.
  return { extractor, tree: walk(jail), error: stderr !== '' ? `exit 0: ${stderr}`.slice(0, 500) : undefined };
}

/**
 * Extracts each archive with every extractor for its format. `dir` is a fresh temporary folder; archive i
 * is written and extracted under dir/i.
 */
export function extractAll(dir: string, archives: { bytes: Buffer; format: Format }[]): Extraction[] {
  const items = archives.map((a, i) => {
    const root = path.join(dir, String(i));
    mkdirSync(root, { recursive: true });
    const archive = path.join(root, a.format === 'zip' ? 'package.zip' : 'package.tar.gz');
    writeFileSync(archive, a.bytes);
    return { archive, format: a.format, root };
  });
  if (items.length === 0) return [];
  const py = spawnSync('python3', [SCRIPT], {
    input: JSON.stringify(items),
    encoding: 'utf8',
    env: ENV,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (py.status !== 0) throw new Error(`extract.py failed: ${py.stderr}`);
  const results = JSON.parse(py.stdout) as {
    safe: boolean;
    reason: string | null;
    runs: Record<string, { dir?: string; error?: string }>;
  }[];
  return items.map((item, i): Extraction => {
    const result = results[i]!;
    if (!result.safe) return { unsafe: result.reason ?? 'unknown', runs: [] };
    const runs: ExtractorRun[] = Object.entries(result.runs).map(([extractor, run]) =>
      run.error !== undefined ? { extractor, error: run.error } : { extractor, tree: walk(run.dir!) },
    );
    if (item.format === 'zip') {
      const jail = jailFor(item.root, 'unzip');
      runs.push(runTool('unzip', 'unzip', ['-q', '-o', item.archive, '-d', path.join(jail, 'a', 'b', 'out')], jail));
    } else {
      const jail = jailFor(item.root, 'gnu-tar');
      runs.push(
        runTool(
          'gnu-tar',
          'tar',
          [
            '-xzf',
            item.archive,
            '-C',
            path.join(jail, 'a', 'b', 'out'),
            '--no-same-owner',
            '--no-same-permissions',
            '--warning=no-timestamp',
          ],
          jail,
        ),
      );
    }
    return { runs };
  });
}
