/**
 * Archive entry path rules shared by the zip and tar.gz readers, and the content types files are served with.
 *
 * Decisions (beyond the refusals every registry makes):
 * - One leading `./` is stripped (`tar -czf x.tgz .` writes `./SKILL.md`); `./` and `.` alone name the archive
 *   root and are accepted as directory entries (counted, never listed).
 * - `.` segments anywhere else (`a/./b`) are refused like `..`: they are not canonical and would let two
 *   names reach one file.
 * - Control characters are C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
 * - A path longer than 4,096 UTF-8 bytes (Linux PATH_MAX) is refused.
 */

export const MAX_PATH_BYTES = 4096;

export type PathCheck =
  | { ok: true; /** Normalised path: no leading `./`, no trailing `/`; `''` for the root directory. */ path: string; isDirectory: boolean }
  | { ok: false; rule: string };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Checks an entry name as the archive gives it (zip: `/`-separated, directories end in `/`). */
export function checkEntryPath(name: string): PathCheck {
  if (name === '') return { ok: false, rule: 'its name is empty' };
  if (CONTROL.test(name)) return { ok: false, rule: 'its name contains a NUL or control character' };
  if (name.includes('\\')) return { ok: false, rule: 'its name contains a backslash' };
  if (name.startsWith('/')) return { ok: false, rule: 'its path is absolute' };
  if (/^[A-Za-z]:/.test(name)) return { ok: false, rule: 'its path starts with a drive letter' };
  if (Buffer.byteLength(name, 'utf8') > MAX_PATH_BYTES) {
    return { ok: false, rule: `its path is longer than ${MAX_PATH_BYTES} bytes` };
  }
  let rest = name.startsWith('./') ? name.slice(2) : name;
  if (rest === '' || rest === '.') return { ok: true, path: '', isDirectory: true };
  const isDirectory = rest.endsWith('/');
  if (isDirectory) rest = rest.slice(0, -1);
  for (const segment of rest.split('/')) {
    if (segment === '') return { ok: false, rule: 'its path has an empty segment ("//")' };
    if (segment === '..') return { ok: false, rule: 'its path has a ".." segment' };
    if (segment === '.') return { ok: false, rule: 'its path has a "." segment' };
  }
  return { ok: true, path: rest, isDirectory };
}

/** Code points that macOS (HFS+) ignores in names: zero-width and directional marks, the BOM. */
// eslint-disable-next-line no-misleading-character-class -- each mark is matched alone, on purpose.
const IGNORABLE = /[\u00ad\u034f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

/**
 * The key two paths collide on, so that two entries that one extractor somewhere writes to the same file are
 * refused as duplicates: NFC-normalised (a composed and a decomposed `é`), case-folded through upper and then
 * lower case (`Readme.md` and `README.md`, `ß` and `SS`, the Kelvin sign and `K`), without the code points
 * HFS+ ignores, and without the trailing dots and spaces Windows drops from each segment.
 */
export function pathKey(path: string): string {
  const folded = path.normalize('NFC').replace(IGNORABLE, '').toUpperCase().toLowerCase().normalize('NFC');
  return folded
    .split('/')
    .map((segment) => segment.replace(/[. ]+$/, ''))
    .join('/');
}

/** Plain code-unit order, the order files are listed in. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const TEXT_EXTENSIONS = new Set([
  'md',
  'markdown',
  'mdx',
  'txt',
  'text',
  'rst',
  'adoc',
  'json',
  'jsonc',
  'json5',
  'jsonl',
  'ndjson',
  'yaml',
  'yml',
  'toml',
  'ini',
  'cfg',
  'conf',
  'properties',
  'env',
  'csv',
  'tsv',
  'xml',
  'xsd',
  'xsl',
  'svg',
  'html',
  'htm',
  'css',
  'scss',
  'less',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'mts',
  'cts',
  'tsx',
  'vue',
  'svelte',
  'py',
  'pyi',
  'ipynb',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'kts',
  'scala',
  'swift',
  'c',
  'h',
  'cc',
  'cpp',
  'hpp',
  'cs',
  'fs',
  'php',
  'pl',
  'pm',
  'lua',
  'r',
  'jl',
  'dart',
  'ex',
  'exs',
  'erl',
  'hs',
  'clj',
  'el',
  'vim',
  'sql',
  'graphql',
  'gql',
  'proto',
  'sh',
  'bash',
  'zsh',
  'fish',
  'ps1',
  'psm1',
  'bat',
  'cmd',
  'tf',
  'hcl',
  'nix',
  'gradle',
  'cmake',
  'mk',
  'dockerfile',
  'gitignore',
  'gitattributes',
  'editorconfig',
  'npmignore',
  'dockerignore',
  'diff',
  'patch',
  'log',
  'tex',
  'bib',
  'srt',
  'vtt',
]);

const TEXT_NAMES = new Set([
  'license',
  'licence',
  'copying',
  'notice',
  'readme',
  'changelog',
  'changes',
  'authors',
  'contributors',
  'makefile',
  'dockerfile',
  'containerfile',
  'gemfile',
  'rakefile',
  'procfile',
  'justfile',
  'codeowners',
]);

/** True for files served as text: known text extensions, and well-known extension-less names (`LICENSE`). */
export function isTextPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (TEXT_NAMES.has(base)) return true;
  const dot = base.lastIndexOf('.');
  if (dot === -1) return false;
  return TEXT_EXTENSIONS.has(base.slice(dot + 1));
}

const MARKDOWN = /\.(md|markdown|mdx)$/i;

/**
 * The Content-Type a file inside a package is served with: Markdown is `text/markdown; charset=utf-8`
 * (current browsers show it as text), every other text file `text/plain; charset=utf-8` (HTML, SVG, CSV and
 * JSON included, so a browser shows the source and never renders, runs or downloads it); everything else
 * `application/octet-stream`. Serve it with `X-Content-Type-Options: nosniff`.
 */
export function contentTypeFor(path: string): string {
  if (!isTextPath(path)) return 'application/octet-stream';
  return MARKDOWN.test(path) ? 'text/markdown; charset=utf-8' : 'text/plain; charset=utf-8';
}
