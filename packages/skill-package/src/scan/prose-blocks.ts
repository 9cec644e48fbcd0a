/**
 * Prose that the line-by-line rules cannot read as sentences: a folded or literal YAML block in the front matter
 * (`description: >`), whose sentences are cut at every line, and a script's docstrings and comments, which are
 * written for whoever reads the script, an agent included, yet never anchored as instructions (prefilter.ts reads
 * scripts for commands only). Each block is joined into one text (capped at BLOCK_CAP) and given to the
 * instruction rules as prose, at the block's first line, with the groups its lines' words name read as prose (the
 * anchor pass notes them for every line, so a block is not read for anchors again once joined).
 */
import type { FileKind } from './file-state.js';

const BLOCK_CAP = 4096;
/** A front-matter key opening a folded (`>`) or literal (`|`) block, with optional chomping and indentation. */
const YAML_BLOCK = /^[\w-]+:\s*[>|][+-]?[0-9]?\s*$/;
const DOCSTRING = /^\s*(?:[rRuUbB]{0,2})("""|''')/;

type Mode = 'none' | 'yaml' | 'docstring' | 'block-comment' | 'comment';

export class ProseBlocks {
  private mode: Mode = 'none';
  private delimiter = '';
  private text = '';
  private start = 0;
  /** The groups of the block's lines so far. */
  private groups = 0;
  private frontMatter: 'before' | 'in' | 'after' = 'before';

  constructor(
    private readonly kind: FileKind,
    private readonly flush: (text: string, line: number, groups: number) => void,
  ) {}

  /** Whether the file's lines are read at all: Markdown until its front matter ends, scripts throughout. */
  get reading(): boolean {
    return this.kind === 'script' || (this.kind === 'markdown' && this.frontMatter !== 'after');
  }

  /**
   * For a script line, whether it cannot open a comment or docstring, as for most lines of code (`code`: its first
   * bytes rule out `#`, `//`, `/*` and quotes after at most two prefix letters; the anchor pass tells): it then only
   * ends an open comment block, without being decoded.
   */
  skipsCode(code: boolean): boolean {
    if (this.kind !== 'script' || this.mode === 'docstring' || this.mode === 'block-comment' || !code) return false;
    this.close();
    return true;
  }

  /** `groups`: those the line's words name read as prose (prefilter.ts), or any superset of them. */
  line(raw: string, line: number, groups: number): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.kind === 'markdown') this.frontMatterLine(text, line, groups);
    else if (this.kind === 'script') this.scriptLine(text, line, groups);
  }

  end(): void {
    this.close();
  }

  private frontMatterLine(text: string, line: number, groups: number): void {
    if (this.frontMatter === 'before') {
      this.frontMatter = line === 1 && text.trim() === '---' ? 'in' : 'after';
      return;
    }
    if (this.frontMatter !== 'in') return;
    if (this.mode === 'yaml' && (text.trim() === '' || /^\s/.test(text))) {
      this.append(text.trim(), groups);
      return;
    }
    this.close();
    if (text.trim() === '---') this.frontMatter = 'after';
    else if (YAML_BLOCK.test(text)) this.open('yaml', line + 1);
  }

  private scriptLine(text: string, line: number, groups: number): void {
    if (this.mode === 'docstring' || this.mode === 'block-comment') {
      const at = text.indexOf(this.delimiter);
      if (at === -1) {
        this.append(this.mode === 'block-comment' ? text.replace(/^\s*\*\s?/, '') : text.trim(), groups);
        return;
      }
      this.append(text.slice(0, at).trim(), groups);
      this.close();
      return;
    }
    const trimmed = text.trimStart();
    const comment = (trimmed.startsWith('#') && !trimmed.startsWith('#!')) || trimmed.startsWith('//');
    if (comment) {
      if (this.mode !== 'comment') this.open('comment', line);
      this.append(trimmed.replace(/^(?:#+|\/\/+)\s?/, ''), groups);
      return;
    }
    this.close();
    const doc = DOCSTRING.exec(text);
    const block = doc === null && trimmed.startsWith('/*') ? '*/' : null;
    if (doc === null && block === null) return;
    const delimiter = doc !== null ? doc[1]! : block!;
    const rest = doc !== null ? text.slice(doc[0].length) : trimmed.slice(2);
    this.open(doc !== null ? 'docstring' : 'block-comment', line);
    this.delimiter = delimiter;
    const at = rest.indexOf(delimiter);
    this.append((at === -1 ? rest : rest.slice(0, at)).trim(), groups);
    if (at !== -1) this.close();
  }

  private open(mode: Mode, line: number): void {
    this.mode = mode;
    this.start = line;
    this.text = '';
    this.groups = 0;
  }

  private append(part: string, groups: number): void {
    if (part === '' || this.text.length >= BLOCK_CAP) return;
    this.groups |= groups;
    const joined = this.text === '' ? part : `${this.text} ${part}`;
    // Cut only when over the cap: slicing a joined string copies it whole, so a block of many comment lines was copied
    // once per line.
    this.text = joined.length > BLOCK_CAP ? joined.slice(0, BLOCK_CAP) : joined;
  }

  private close(): void {
    if (this.mode !== 'none' && this.text !== '') this.flush(this.text, this.start, this.groups);
    this.mode = 'none';
    this.text = '';
    this.groups = 0;
  }
}
