// Text of real skills for the scanner's benchmarks: the text files of the skills under some directories (public
// collections checked out on the machine, not part of this repository), drawn in a fixed order so that every run with
// the same directories scans the same bytes. Real skills' text holds more URLs, commands and code than the mixed set's
// generated text, and costs the scanner more per MiB (docs/performance.md, "Package scanner").
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { generator } from './generate.js';

const MIB = 1024 * 1024;
const TEXT =
  /\.(?:md|markdown|mdx|txt|py|js|mjs|cjs|ts|tsx|jsx|sh|bash|zsh|ps1|rb|go|rs|php|lua|json|ya?ml|toml|ini|cfg|html?|css|xml|csv|sql)$/i;
/** Files larger than this are left out: generated data, not what a skill's author writes. */
const MAX_FILE = 4 * MIB;

function textPaths(directory: string, relative: string, found: [string, string][]): void {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === '.git' || entry.name === 'node_modules') continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) textPaths(full, `${relative}${entry.name}/`, found);
    else if (entry.isFile() && TEXT.test(entry.name)) found.push([`${relative}${entry.name}`, full]);
  }
}

/** About `mib` MiB of text files drawn from under `directories`, named by their path below each directory's name. */
export function collectionText(directories: readonly string[], mib: number): { path: string; bytes: Buffer }[] {
  const candidates: [string, string][] = [];
  for (const directory of directories) textPaths(directory, `${path.basename(path.resolve(directory))}/`, candidates);
  candidates.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const rand = generator(12345);
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
  }
  const files: { path: string; bytes: Buffer }[] = [];
  let bytes = 0;
  for (const [name, full] of candidates) {
    if (bytes >= mib * MIB) break;
    const size = statSync(full).size;
    if (size === 0 || size > MAX_FILE) continue;
    files.push({ path: name, bytes: readFileSync(full) });
    bytes += size;
  }
  if (files.length === 0) throw new Error(`No text files under ${directories.join(', ')}.`);
  return files;
}
