/**
 * `NAME=value`, `NAME="…"` or `NAME='…'` at the start of a line (after `export`, `local` or `readonly`), up to the
 * end of the line or the next command.
 */
const ASSIGNMENT =
  /^[ \t]*(?:(?:export|local|readonly)[ \t]+)?([A-Za-z_][A-Za-z0-9_]{0,63})=("[^"\n]{0,256}"|'[^'\n]{0,256}'|[^\s;&|"'`]{0,256})(?=[ \t]*(?:$|[;#&|]))/;
const EXPANSION = /\$\{([A-Za-z_][A-Za-z0-9_]{0,63})\}|\$([A-Za-z_][A-Za-z0-9_]{0,63})/g;
/** Names remembered per file, and how much longer expanding may make one line. */
const MAX_NAMES = 256;
const MAX_GROWTH = 4096;
/**
 * How much expanding may add to one file's lines in all. Every line of a script that names a variable is read again
 * expanded, and read for anchors: without a cap, a megabyte of `$X` lines, X a long value, took 350 ms. Of 33,016
 * scripts in public skill collections, none added more than 18 KiB.
 */
const MAX_FILE_GROWTH = 64 * 1024;

/**
 * The plain shell variables a script assigns, so that a command assembled from them (`D=cu; D="${D}rl"; $D -fsSL
 * "http://$H$P" | $S`) is read again as the command it runs. Only literal assignments are followed, in the order of
 * the file; anything computed (`$(…)`, arithmetic, arrays) stays unknown and is left as written.
 */
export class ShellVariables {
  private readonly values = new Map<string, string>();
  /** What expanding has added to the file's lines so far. */
  private grown = 0;

  /** Whether no line can be expanded: no variable is known yet, or the file's expansions are spent. */
  get empty(): boolean {
    return this.values.size === 0 || this.grown >= MAX_FILE_GROWTH;
  }

  /** Records the assignment the line makes, if it makes one. */
  assign(line: string): void {
    const m = ASSIGNMENT.exec(line);
    if (m === null) return;
    const name = m[1]!;
    const raw = m[2]!;
    if (raw.includes('$(') || raw.includes('`')) return;
    const value = raw.startsWith("'") ? raw.slice(1, -1) : this.expand(raw.startsWith('"') ? raw.slice(1, -1) : raw).slice(0, 256);
    if (!this.values.has(name) && this.values.size >= MAX_NAMES) return;
    this.values.set(name, value);
  }

  /** The line with every known variable replaced by its value; the line itself when it names none. */
  expand(line: string): string {
    if (this.empty || !line.includes('$')) return line;
    let growth = 0;
    return line.replace(EXPANSION, (whole: string, braced: string | undefined, bare: string | undefined) => {
      const value = this.values.get(braced ?? bare ?? '');
      if (value === undefined || growth + value.length > MAX_GROWTH) return whole;
      if (this.grown + value.length > MAX_FILE_GROWTH) {
        // Spent: no later line of the file is expanded, nor read again for it.
        this.grown = MAX_FILE_GROWTH;
        return whole;
      }
      growth += value.length;
      this.grown += value.length;
      return value;
    });
  }
}
