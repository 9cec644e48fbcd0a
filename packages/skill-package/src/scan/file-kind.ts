/** How a text file is read, from its name and first line: Markdown, a script that runs, or other text. */
import type { FileKind } from './file-state.js';

const MARKDOWN = /\.(?:md|markdown|mdx|mdown)$/i;
const SCRIPT =
  /\.(?:sh|bash|zsh|ksh|fish|command|py|pyw|js|mjs|cjs|jsx|ts|mts|cts|tsx|ps1|psm1|psd1|bat|cmd|vbs|rb|pl|pm|php|lua|applescript|scpt|r|jl|tcl|awk|swift|go|rs|java|kt|cs|c|cc|cpp|h)$/i;
/** Files whose commands run although they are not scripts by extension (package hooks, build and container files). */
const RUN_BY_TOOLS =
  /(?:^|\/)(?:package\.json|makefile|gnumakefile|dockerfile|containerfile|justfile|taskfile\.ya?ml|\.bashrc|\.zshrc|\.profile|[^/]*\.service|setup\.cfg|pyproject\.toml)$/i;

export function fileKind(path: string, firstBytes: Uint8Array): FileKind {
  if (MARKDOWN.test(path)) return 'markdown';
  if (SCRIPT.test(path) || RUN_BY_TOOLS.test(path)) return 'script';
  if (firstBytes[0] === 0x23 && firstBytes[1] === 0x21) return 'script';
  return 'text';
}
