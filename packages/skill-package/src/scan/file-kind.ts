/** How a text file is read, from its name and first line: Markdown, a script that runs, or other text. */
import type { FileKind } from './file-state.js';

const MARKDOWN = /\.(?:md|markdown|mdx|mdown)$/i;
const SCRIPT =
  /\.(?:sh|bash|zsh|ksh|fish|command|py|pyw|js|mjs|cjs|jsx|ts|mts|cts|tsx|ps1|psm1|psd1|bat|cmd|vbs|rb|pl|pm|php|lua|applescript|scpt|r|jl|tcl|awk|swift|go|rs|java|kt|cs|c|cc|cpp|h)$/i;
/**
 * Configurations whose commands a tool runs on its own: agents' hooks and MCP servers, git hooks, a container's set-up.
 */
export const AUTO_RUN_CONFIG =
  /(?:^|\/)(?:hooks\.(?:json|ya?ml)|\.(?:claude|cursor|gemini|codex|windsurf)\/(?:settings(?:\.local)?|hooks)\.json|\.mcp\.json|\.(?:cursor|vscode)\/mcp\.json|\.husky\/[^/]+|\.devcontainer\.json|\.devcontainer\/(?:[^/]+\/)?devcontainer\.json|\.pre-commit-config\.ya?ml|lefthook\.ya?ml)$/i;
/** Files whose commands run although they are not scripts by extension (package hooks, build and container files, CI). */
const RUN_BY_TOOLS =
  /(?:^|\/)(?:package\.json|composer\.json|makefile|gnumakefile|dockerfile|containerfile|justfile|taskfile\.ya?ml|\.bashrc|\.zshrc|\.profile|[^/]*\.service|setup\.cfg|pyproject\.toml)$|(?:^|\/)(?:\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|\.vscode\/tasks\.json)$/i;
/**
 * A file without an extension in a folder of programs (`bin/install`, `scripts/setup`, `hooks/pre-commit`): run by
 * path or by a shell the instructions name, a script even without its shebang. Capitalised names (`LICENSE`) are notes.
 */
const PROGRAM_FOLDER = /(?:^|\/)(?:bin|scripts?|hooks|tools|libexec|\.githooks)\//;
const PROGRAM_NAME = /^[^/.A-Z][^/.]*$/;
function programInFolder(path: string): boolean {
  return PROGRAM_FOLDER.test(path) && PROGRAM_NAME.test(path.slice(path.lastIndexOf('/') + 1));
}
/** Configuration written as JSON, which has no comments. */
const JSON_FILE = /\.json$/i;

export function fileKind(path: string, firstBytes: Uint8Array): FileKind {
  if (MARKDOWN.test(path)) return 'markdown';
  if (SCRIPT.test(path) || RUN_BY_TOOLS.test(path) || AUTO_RUN_CONFIG.test(path) || programInFolder(path)) return 'script';
  if (firstBytes[0] === 0x23 && firstBytes[1] === 0x21) return 'script';
  return 'text';
}

/**
 * Scripts in which `#` starts a comment that runs to the line's end: shells, Python, Ruby, Perl, PowerShell, R and
 * others by name, the build, container and hook files of RUN_BY_TOOLS and AUTO_RUN_CONFIG (but JSON, which has no
 * comments), programs without an extension in a folder of programs (read as shell), and a file whose shebang names such
 * an interpreter.
 */
const HASH_COMMENTED = /\.(?:sh|bash|zsh|ksh|fish|command|py|pyw|ps1|psm1|psd1|rb|pl|pm|r|jl|tcl|awk)$/i;
const PACKAGE_JSON = /(?:^|\/)package\.json$/i;
const HASH_SHEBANG = /^#!.*\b(?:sh|bash|zsh|ksh|dash|fish|python[0-9.]*|ruby|perl)\b/;

/** Whether a whole line starting with `#` is a comment in this script (and so runs nothing). */
export function commentsWithHash(path: string, firstBytes: Uint8Array): boolean {
  if (
    HASH_COMMENTED.test(path) ||
    ((RUN_BY_TOOLS.test(path) || AUTO_RUN_CONFIG.test(path) || programInFolder(path)) && !PACKAGE_JSON.test(path) && !JSON_FILE.test(path))
  )
    return true;
  if (SCRIPT.test(path) || firstBytes[0] !== 0x23 || firstBytes[1] !== 0x21) return false;
  const head = Buffer.from(firstBytes.buffer, firstBytes.byteOffset, firstBytes.byteLength);
  const end = head.indexOf(0x0a);
  return HASH_SHEBANG.test(head.toString('latin1', 0, end === -1 ? Math.min(head.length, 200) : end));
}
