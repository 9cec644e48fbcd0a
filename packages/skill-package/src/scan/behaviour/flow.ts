/**
 * A piece of code as statements whose facts can be joined: lower case, continued lines joined, brackets left open
 * carried to the line that closes them, literal strings built by concatenation folded (`"ex" + "ec"` is `"exec"`),
 * variables that hold one literal replaced by it (`$N -e` with `N=nc` is `nc -e`; an unset shell variable is empty),
 * and the many spellings of the home folder written `~`. A statement joins a source to a sink when it holds both, or
 * when it names a variable or a file an earlier statement filled from the source (data flows through names).
 */
import { printedMessage, withoutQuotedPatterns } from '../signature.js';
import { CREDENTIAL_PIECES, FACT_RECORDS, FILE_WRITE, factsOf, recordsFor } from './facts.js';
import { functionSpans, type FunctionSpan } from './functions.js';
import { ENVIRONMENT_SET, joinedPaths, trimmed, unsetValues } from './values.js';

/** Longest piece of code read as statements (a skill's largest script is far smaller). */
export const FLOW_TEXT_CAP = 256 * 1024;
/**
 * Longest statement read whole; a longer one (a minified line, a padded one) is read in windows of this many characters
 * that overlap by STATEMENT_OVERLAP. Several fact patterns (`xclip … -o`) cost the product of a word's repeats and the
 * text's length: a 400 KiB line took 97 s before statements were windowed, and windows keep each at most this squared.
 */
const STATEMENT_CHARS = 1024;
const STATEMENT_OVERLAP = 256;
/** Most lines one statement gathers while its brackets are open. */
const STATEMENT_LINES = 30;

const HOME_SPELLINGS: readonly RegExp[] = [
  /os\.path\.expanduser\(\s*["']~["']\s*\)/g,
  /(?:pathlib\.)?path\.home\(\)/g,
  /(?:os|require\(["']os["']\))\.homedir\(\)|\bos\.userinfo\(\)\.homedir\b/g,
  // `expanduser("~")` imported bare, and pathlib's `Path("~").expanduser()`.
  /(?<![\w.])expanduser\(\s*u?["']~["']\s*\)|\bpath\(\s*u?["']~["']\s*\)\.expanduser\(\)/g,
  /os\.environ\[\s*["']home["']\s*\]|os\.environ\.get\(\s*["']home["']\s*\)|os\.getenv\(\s*["']home["']\s*\)/g,
  /process\.env\.(?:home|userprofile)\b|process\.env\[\s*["'](?:home|userprofile)["']\s*\]/g,
  /\$\{home\}|\$home\b|\$env:userprofile\b|\$env:home\b|%userprofile%|\$\{userprofile\}/g,
  // Ruby's and Go's.
  /\bdir\.home\b|\benv\[\s*["']home["']\s*\]|\bos\.userhomedir\(\)/g,
  // A shell asked where home is: `$(cd ~ && pwd)`, `$(eval echo ~)`, `$(getent passwd "$USER" | cut -d: -f6)`.
  /\$\(\s*cd(?:\s+(?:~|\$home))?\s*(?:&&|;)\s*pwd(?:\s+-p)?\s*\)|\$\(\s*(?:eval\s+)?echo\s+~\s*\)|\$\(\s*getent\s+passwd\s+["']?\$\{?(?:user|logname)\}?["']?\s*\|\s*cut\s+-d\s?:?\s?-f\s?6\s*\)/g,
];

/** A literal path under home expanded (`os.path.expanduser("~/.config/x")`, `Path("~/.x").expanduser()`): that path. */
const EXPANDED =
  /(?:\bos\.path\.|(?<![\w.]))expanduser\(\s*u?(["'])(~\/[^"'\n]{0,200})\1\s*\)|\bpath\(\s*u?(["'])(~\/[^"'\n]{0,200})\3\s*\)\.expanduser\(\)/g;

/** `~ || ~`, `~ or ~`: home either way. */
const HOME_EITHER = /(?<![\w/.~])~[ \t]*(?:\|\||\?\?|\bor\b)[ \t]*~(?![\w/])/g;
/**
 * `~ if full else venv`, `full ? ~ : venv`: a choice with home as one branch is home, as an attacker makes it choose.
 * Read in code: as one expression its condition and branches could be split in many ways.
 */
function homeBranch(text: string): string {
  let out = text;
  for (let guard = 0; guard < 8; guard++) {
    const ternary = out.indexOf('? ~ :');
    const python = out.indexOf('~ if ');
    let from: number;
    let end: number;
    if (python !== -1 && (ternary === -1 || python < ternary) && !/[\w/.~]/.test(out[python - 1] ?? '')) {
      const other = out.indexOf(' else ', python + 5);
      if (other === -1 || other - python > 200 || /[(),\n]/.test(out.slice(python + 5, other))) break;
      from = python;
      end = stopAt(out, other + 6);
    } else if (ternary !== -1) {
      from =
        Math.max(
          out.lastIndexOf('(', ternary),
          out.lastIndexOf(',', ternary),
          out.lastIndexOf('=', ternary),
          out.lastIndexOf('\n', ternary),
        ) + 1;
      if (ternary - from > 200) break;
      end = stopAt(out, ternary + 5);
    } else break;
    out = `${out.slice(0, from)}${from > 0 && out[from - 1] !== ' ' ? ' ' : ''}~${out.slice(end)}`;
  }
  return out;
}

/** Where a branch that starts at `from` ends: a closing bracket, a comma, a semicolon or the line's end. */
function stopAt(text: string, from: number): number {
  for (let i = from; i < Math.min(text.length, from + 200); i++) if (')],;\n'.includes(text[i]!)) return i;
  return Math.min(text.length, from + 200);
}

const FALLS_BACK_TO_HOME = /(?<![\w.[\]"'])[\w.[\]"']+\s*(?:\bor\b|\|\||\?\?)\s*~(?![\w/])/g;

/** `"a" + "b"`, `'a' 'b'` (Python), `"a""b"` (a shell): one literal. */
const CONCAT = /(["'])([^"'\n]{0,200})\1\s*(?:\+\s*)?(["'])([^"'\n]{0,200})\3/g;
/** A word broken by empty quotes, which a shell drops (`c""url`). */
const EMPTY_QUOTES = /(?<=\w)(?:""|'')(?=\w)/g;

/**
 * `NAME=value` (a shell), `name = "value"` (Python, JavaScript with const/let/var, a type annotation allowed: `home:
 * string = …`; Perl's `my $name = …`; Go's `name, _ := …`), one literal or `~`.
 */
const ASSIGNMENT =
  /^\s*(?:export\s+|local\s+|readonly\s+|(?:const|let|var)\s+|(?:my|our)\s+\$|\$)?([a-z_][a-z0-9_]*)(?:[ \t]*,[ \t]*_)?(?::[ \t]*[\w$.]{1,40}(?:<[^<>=\n]{0,60}>)?(?:\[\])*(?:[ \t]*\|[ \t]*[\w$.]{1,40}(?:\[\])*){0,3}[ \t]*(?==))?\s*(?:=|:=)\s*(?:(["'])([^"'\n]{0,300})\2|(~[^\s;]*|[a-z0-9_./:-]{1,100}))\s*(?:;\s*)?$/;
/** An assignment of any value: the names data flows into. */
const ANY_ASSIGNMENT =
  /^\s*(?:export\s+|local\s+|readonly\s+|(?:const|let|var)\s+|(?:my|our)\s+\$|\$)?([a-z_][a-z0-9_]*)(?:[ \t]*,[ \t]*_)?(?::[ \t]*[\w$.]{1,40}(?:<[^<>=\n]{0,60}>)?(?:\[\])*(?:[ \t]*\|[ \t]*[\w$.]{1,40}(?:\[\])*){0,3}[ \t]*(?==))?\s*(?:=|:=|\+=)(?!=)/;
/** The name a statement assigns: `x = …`, `with … as f:`, `… as f` (a Python alias). */
export const ASSIGNED = new RegExp(`${ANY_ASSIGNMENT.source}|\\bas\\s+([a-z_][a-z0-9_]*)\\s*(?::\\s*)?$`);
/**
 * What else fills a name: a tuple's first name (`reader, writer = …`), a walrus (`while line := …`), a workflow's
 * `env:` entry set from an expression (`TOKEN: ${{ secrets.X }}`), an item or field set (`found[k] = …`, `d.x = …`), a collection added to (`xs.append(…)`,
 * `list.push(…)`, `d.update(…)`), a loop's variable (`for x in`, `foreach ($x in`, `for k, v in`, `while read -r x`), a
 * tuple's first name declared (`f, err := …`).
 */
const WALRUS = /\b([a-z_][a-z0-9_]*)[ \t]*:=/;
const FILLED: readonly RegExp[] = [
  /^[ \t]*([a-z_][a-z0-9_]*)[ \t]*,[ \t]*[a-z_][a-z0-9_]*[ \t]*:?=(?!=)/,
  WALRUS,
  /^[ \t]*(?:-[ \t]+)?([a-z_][a-z0-9_]*):[ \t]+\$\{\{/,
  /^[ \t]*\$?([a-z_][a-z0-9_]*)(?:\[[^\]\n]{0,200}\]|\.[a-z_]\w{0,40})[ \t]*=(?!=)/,
  /^[ \t]*\$?([a-z_][a-z0-9_]*)\.(?:append|extend|push|update|add|insert|write|concat)\(/,
  // A loop's value when it takes pairs (`for (const [name, file] of …)`, `for name, path in ….items()`): the last name.
  /\bfor(?:each)?(?:[ \t]*\([ \t]*|[ \t]+)(?:(?:const|let|var|my)[ \t]+)?[[(]?(?:\$?[a-z_][a-z0-9_]*[ \t]*,[ \t]*){0,3}\$?([a-z_][a-z0-9_]*)[\])]?[ \t]+(?:in|of)\b/,
  /\bwhile[ \t]+(?:ifs=[^\s]*[ \t]+)?read((?:[ \t]+-[a-z]+)*)[ \t]+([a-z_][a-z0-9_]*)/,
  // Perl's loop (`for my $rc (…)`) and its `open(my $fh, …)`; the shell's `read -ra files <<< "$list"` on its own.
  /\bfor(?:each)?[ \t]+my[ \t]+\$([a-z_]\w*)[ \t]*\(/,
  /\bopen[ \t]*\([ \t]*my[ \t]+\$([a-z_]\w*)/,
  /^[ \t]*(?:ifs=[^\s]*[ \t]+)?read((?:[ \t]+-[a-z]+)*)[ \t]+([a-z_][a-z0-9_]*)/,
  // A callback's or a block's item: `.forEach((rc) =>`, `.each do |rc|`.
  /\.(?:foreach|each|map)[ \t]*(?:\([ \t]*(?:async[ \t]+)?(?:\([ \t]*)?([a-z_$][\w$]*)[ \t]*[,)=]|(?:do|\{)[ \t]*\|[ \t]*([a-z_]\w*)[ \t]*[|,])/,
];
function assignedName(text: string): string | undefined {
  // `if (cond) x[k] = …`: what a one-line condition guards is assigned as well.
  if (text.startsWith('if')) text = afterCondition(text);
  // A shell `case` branch (`*/zsh) rc="$home/.zshrc" ;;`) assigns what follows its pattern.
  if (text.trimEnd().endsWith(';;')) text = text.replace(CASE_BRANCH, '');
  // `IFS=: read -ra files`: the separator set for the one command, which fills `files`.
  text = text.replace(/^[ \t]*ifs=\S*[ \t]+(?=read\b)/, '');
  const m = ASSIGNED.exec(text);
  const name = m?.[1] ?? m?.[2];
  if (name !== undefined) return name;
  for (const pattern of FILLED) {
    // The walrus is the one form not anchored at the start: tried only where one is written.
    if (pattern === WALRUS && !text.includes(':=')) continue;
    const f = pattern.exec(text);
    if (f !== null) return f[2] ?? f.at(-1) ?? f[1];
  }
  return undefined;
}

/** A shell `case` branch's pattern and the spaces after it. */
const CASE_BRANCH = /^[ \t]*[^()\s][^()\n]{0,80}\)[ \t]*/;

/** The text after a leading `if (…)` (balanced, within 400 characters), or the text. */
function afterCondition(text: string): string {
  const open = /^if\s*\(/.exec(text);
  if (open === null) return text;
  let depth = 0;
  for (let i = open[0].length - 1; i < Math.min(text.length, 400); i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(i + 1);
  }
  return text;
}

/** Files a statement writes: redirections, archives, `-o`, `open(…, 'w')`. */
const WRITTEN_FILES = [
  /(?:^|[^<>&\d])>{1,2}\s*["']?([~/.$\w][^\s"'|;&)]*)/g,
  // PowerShell's and .NET's archives: `Compress-Archive … -DestinationPath $zip`, `[ZipFile]::CreateFromDirectory($src, $zip)`.
  /\s-destination(?:path)?\s+["']?([~/.$\w][^\s"'|;&)]*)/g,
  /\b(?:compress-archive|copy-item)\s+(?:-(?:literal)?path\s+)?["']?[^\s"'|;&-][^\s"'|;&]*["']?\s+["']?([~/.$\w][^\s"'|;&)]*)/g,
  /\bcreatefromdirectory\([^,()\n]{1,200},\s*["']?([~/.$\w][^\s"',|;&)]*)/g,
  /\b(?:tar|zip|7z)\b(?:(?!\b(?:tar|zip|7z)\b)[^\n|;])*?\s(?:-?[a-z]*f\s+|-r\s+)?["']?([~/.\w$][^\s"';|]*\.(?:tgz|tar\.gz|tar|zip|7z|gz|b64|txt|dat|bin|log))\b/g,
  /\s(?:-o|--output|-outfile)\s+["']?([~/.\w$][^\s"';|]*)/g,
  /\bopen\(\s*["']([^"']+)["']\s*,\s*["'][wa]/g,
];

// Each rewrite is tried only when its telltale character is there: most lines have none, and a regular expression tried
// at every position of every line was a tenth of reading public skills' code.
function fold(text: string): string {
  let out = text.includes('""') || text.includes("''") ? text.replace(EMPTY_QUOTES, '') : text;
  // Text written out with escaped line ends (`printf '…\ncurl … | source' > file`) holds the commands on its lines.
  if (out.includes('\\n')) out = out.replace(/\\n/g, ' ');
  if (out.includes('"') || out.includes("'"))
    for (let i = 0; i < 8; i++) {
      const next = out.replace(CONCAT, (_m, q: string, a: string, _q2: string, b: string) => `${q}${a}${b}${q}`);
      if (next === out) break;
      out = next;
    }
  if (/home|userprofile|expanduser|homedir|pwd|echo\s+~|getent/.test(out)) {
    for (const spelling of HOME_SPELLINGS) out = out.replace(spelling, '~');
    if (out.includes('expanduser'))
      out = out.replace(EXPANDED, (_m, _q: string, a: string | undefined, _q2: string, b: string | undefined) => `"${a ?? b}"`);
  }
  out = joinedPaths(unsetValues(out));
  // Windows paths under home (`~\.aws\credentials`, `~\.azure`) written with slashes, as the facts name them.
  if (out.includes('~\\')) out = out.replace(/(?<=[\w.~$-])\\(?=[\w.$-])/g, '/');
  // A value with home as its fallback (`target or ~`, `x || ~`, `x ?? ~`) or as one branch of a choice can be home.
  return out.includes('~')
    ? out
        .replace(FALLS_BACK_TO_HOME, '~')
        .replace(HOME_EITHER, '~')
        .replace(/^[\s\S]*$/, homeBranch)
        .replace(/\b(?:os\.path\.(?:expanduser|abspath|realpath|normpath)|expanduser|(?:pathlib\.)?path|str|os\.fspath)\(\s*~\s*\)/g, '~')
    : out;
}

function windowed(line: { text: string; offset: number }): { text: string; offset: number }[] {
  if (line.text.length <= STATEMENT_CHARS) return [line];
  const out: { text: string; offset: number }[] = [];
  for (let at = 0; at < line.text.length; at += STATEMENT_CHARS - STATEMENT_OVERLAP)
    out.push({ text: line.text.slice(at, at + STATEMENT_CHARS), offset: line.offset });
  return out;
}

/** `<<EOF`, `<<-'EOF'`, `<< "EOF"`: a here-document and the word that ends it. */
const HEREDOC = /<<-?[ \t]*["']?([a-z_][a-z0-9_]{0,30})["']?/;

/** A line that continues a chain of calls: `.then(…)`, `.map(…)` (a shell's `. file` has a space after the dot). */
const CHAINED = /^[ \t]*\??\.[a-z_$]/;

/** A shell variable given a quoted value that the line leaves open: its next lines are the value, up to the closing quote. */
const OPENS_QUOTED = /^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-[a-z]+\s+)?)?[a-z_][a-z0-9_]*=(["'])/i;
/** How many times `quote` stands in `line` unescaped. */
function quotesIn(line: string, quote: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\' && quote === '"') i++;
    else if (line[i] === quote) n++;
  }
  return n;
}

/** A shell's group closed and redirected or piped as a whole: `} >> "$rc"`, `} | tee -a …`. */
const GROUP_REDIRECTED = /^[ \t]*\}[ \t]*(?:\d?>{1,2}|\|)/;

/**
 * Lines joined where a shell continues them (`\`) or where parentheses or brackets are still open; a shell's group
 * (`{` alone on a line … `} >> file`) is one statement, since what its commands print goes where the group's does.
 */
function logicalLines(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  // Where each shell group still open began in `out`.
  const groups: number[] = [];
  let current = '';
  let depth = 0;
  let gathered = 0;
  let offset = 0;
  // Braces open since the statement began, each a literal (a dict or an object, counted as a bracket) or a block.
  const braces: boolean[] = [];
  // Inside a triple-quoted string (Python's `"""`), whose lines are one value.
  let triple = false;
  // Inside a shell variable's quoted value that spans lines (`SNIPPET="` … `"`): the quote that closes it.
  let quoted: string | null = null;
  const raws = text.split(/\r?\n/);
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i]!;
    if (current === '') offset = i;
    if (raw.includes('"""') || raw.includes("'''")) {
      const marks = (raw.match(/"""|'''/g) ?? []).length;
      if (marks % 2 === 1) triple = !triple;
    }
    // A here-document is what its command writes or reads: its lines (at most STATEMENT_LINES) join the statement.
    const here = raw.includes('<<') ? HEREDOC.exec(raw) : null;
    if (here !== null && depth === 0) {
      const lines = [raw];
      let j = i + 1;
      for (; j < raws.length && raws[j]!.trim() !== here[1] && lines.length < STATEMENT_LINES; j++) lines.push(raws[j]!.trim());
      out.push({ text: (current === '' ? '' : `${current} `) + lines.join(' ⏎ '), offset });
      current = '';
      gathered = 0;
      i = j;
      continue;
    }
    const line = raw.endsWith('\\') ? raw.slice(0, -1) : raw;
    if (current === '' && depth === 0) {
      const trimmed = raw.trim();
      if (trimmed === '{' && groups.length < 16) groups.push(out.length);
      else if (trimmed.startsWith('}') && groups.length > 0) {
        const start = groups.pop()!;
        if (GROUP_REDIRECTED.test(raw) && out.length - start < STATEMENT_LINES) {
          const inside = out.splice(start);
          braces.pop();
          out.push({ text: [...inside.map((l) => l.text.trim()), trimmed].join('; '), offset: inside[0]?.offset ?? i });
          continue;
        }
      }
    }
    if (quoted !== null) {
      if (quotesIn(raw, quoted) % 2 === 1) quoted = null;
    } else if (current === '') {
      const opens = OPENS_QUOTED.exec(raw);
      if (opens !== null && quotesIn(raw, opens[1]!) % 2 === 1) quoted = opens[1]!;
    }
    current = current === '' ? line : `${current} ${line.trim()}`;
    gathered++;
    let before = '';
    for (const c of line) {
      // Braces open blocks (a function, a loop) whose lines are statements of their own, unless they open a value (after
      // `=`, `(`, `[`, `,` or `:`: a dict, an object); brackets open calls and lists.
      if (c === '(' || c === '[') depth++;
      else if ((c === ')' || c === ']') && depth > 0) depth--;
      else if (c === '{') {
        const literal = before === '=' || before === '(' || before === '[' || before === ',' || before === ':' || before === '@';
        if (braces.length < 64) braces.push(literal);
        if (literal) depth++;
      } else if (c === '}' && braces.pop() === true && depth > 0) depth--;
      if (c !== ' ' && c !== '\t') before = c;
    }
    // A chain of calls continued on the next line (`.then((texts) => …)`) is one statement with this one.
    const chained = gathered < STATEMENT_LINES && !raw.trimEnd().endsWith(';') && CHAINED.test(raws[i + 1] ?? '');
    if (!raw.endsWith('\\') && !chained && ((depth === 0 && !triple && quoted === null) || gathered >= STATEMENT_LINES)) {
      out.push({ text: current, offset });
      current = '';
      depth = 0;
      gathered = 0;
      triple = false;
      quoted = null;
      if (braces.includes(true)) braces.length = 0;
    }
  }
  if (current !== '') out.push({ text: current, offset });
  return out;
}

/** Names a script gives a value (`x=…`, `local x`, `read x`, `for x in`, `declare x`): never read as unset. */
const DECLARES =
  /\b(?:local|declare|typeset|readonly|export|read(?:\s+-(?!read\b)[a-z]+)*)\s+((?:[a-z_][a-z0-9_]*\s*)+)|\bfor\s+([a-z_][a-z0-9_]*)\s+in\b/g;

/**
 * A program looked up by name or a shell array of words: `nc=$(command -v ncat || command -v nc)`, `p = shutil.which("nc")`,
 * `args=(-e /bin/sh)`: the first name looked up, the words.
 */
const FOUND_PROGRAM =
  /^\s*(?:local\s+|readonly\s+|declare\s+(?:-[a-z]+\s+)?|(?:const|let|var)\s+)?([a-z_][a-z0-9_]*)\s*=\s*(?:\$\(\s*(?:command\s+-v|which|type\s+-p)\s+([\w.-]{1,40})[^)\n]{0,200}\)|(?:shutil\.)?which\(\s*["']([\w.-]{1,40})["']\s*\)|\(([^()\n$`"',]{1,200})\))\s*(?:;\s*)?$/;

/** A shell loop's name and the words it takes. */
const LOOP_WORDS = /\bfor\s+([a-z_][a-z0-9_]*)\s+in\s+([^;\n]{1,400})/;
/** The literal each variable assigned exactly once holds, and every name given a value at all. */
function literals(lines: readonly string[]): { values: Map<string, string>; assigned: Set<string> } {
  const seen = new Map<string, string | null>();
  const assigned = new Set<string>();
  for (const line of lines) {
    for (const m of line.matchAll(DECLARES)) for (const name of (m[1] ?? m[2]!).split(/\s+/)) if (name !== '') assigned.add(name);
    const m = ASSIGNMENT.exec(line) ?? FOUND_PROGRAM.exec(line);
    if (m === null) {
      const any = ANY_ASSIGNMENT.exec(line);
      if (any !== null) seen.set(any[1]!, null);
      continue;
    }
    const value = (m[3] ?? m[4] ?? (m[2] !== undefined && !/["']/.test(m[2]) ? m[2] : '')).trim();
    seen.set(m[1]!, seen.has(m[1]!) ? null : value);
  }
  // A shell loop over words, one of them home or the root (`for d in ~ /tmp/cache`, an array holding them): the loop's
  // name holds that word in one of its turns, which is the turn a delete of it takes everything.
  for (const line of lines) {
    const loop = LOOP_WORDS.exec(line);
    if (loop === null) continue;
    const list = loop[2]!.replace(ARRAY_WHOLE, (_m, name: string) => seen.get(name) ?? '').replace(/["']/g, ' ');
    const whole = list.split(/\s+/).find((word) => word === '~' || word === '/');
    if (whole !== undefined) seen.set(loop[1]!, whole);
  }
  const values = new Map<string, string>();
  for (const [name, value] of seen) {
    assigned.add(name);
    if (value !== null) values.set(name, value);
  }
  return { values, assigned };
}

/**
 * `${name}`, `${name:-fallback}` (`${name-fallback}`), `${name%pattern}` (and `%%`, `#`, `##`), a positional `${1:-x}`
 * or `$name`, up to where a fallback or a pattern would begin.
 */
const SHELL_VARIABLE = /\$(?:\{([a-z_][a-z0-9_]*|\d)(:?-|%%?|##?|\})|([a-z_][a-z0-9_]*))/g;

/**
 * `line` with each `${name}`, `${name:-fallback}` and `$name` replaced, as `line.replace(/\$\{(name)(?::?-([^}]*))?\}|
 * \$(name)/g, …)` would: read in code, since that expression reads to the end of the line for each `${x-` left open.
 */
export function replaceVariables(
  line: string,
  by: (whole: string, braced?: string, fallback?: string, bare?: string, operator?: string) => string,
): string {
  let out = '';
  let from = 0;
  // No `}` at or after this place: a fallback opened there or later is never closed.
  let unclosedFrom = Infinity;
  const pattern = new RegExp(SHELL_VARIABLE.source, 'g');
  for (let m = pattern.exec(line); m !== null; m = pattern.exec(line)) {
    let end = m.index + m[0].length;
    let fallback: string | undefined;
    if (m[2] !== undefined && m[2] !== '}') {
      const close = end >= unclosedFrom ? -1 : line.indexOf('}', end);
      if (close < 0) {
        unclosedFrom = Math.min(unclosedFrom, end);
        pattern.lastIndex = m.index + 1;
        continue;
      }
      fallback = line.slice(end, close);
      end = close + 1;
    }
    const operator = m[2]?.startsWith('%') || m[2]?.startsWith('#') ? m[2] : undefined;
    out +=
      line.slice(from, m.index) +
      by(line.slice(m.index, end), m[1], operator === undefined ? fallback : undefined, m[3], operator && `${operator}${fallback ?? ''}`);
    from = end;
    pattern.lastIndex = end;
  }
  return out + line.slice(from);
}

/** `import socket as s`, `from subprocess import Popen as P`, `cp = require('child_process')`, `m = __import__('os')`: the alias → the module. */
const ALIAS =
  /^\s*(?:import\s+([\w.]+)\s+as\s+(\w+)|from\s+[\w.]+\s+import\s+(\w+)\s+as\s+(\w+)|(?:(?:const|let|var)\s+)?(\w+)\s*=\s*(?:require|__import__|importlib\.import_module)\(\s*["'](?:node:)?([\w./-]+)["']\s*\))/;

/**
 * Names imported from a module one by one: `from pyperclip import copy, paste`, `const { homedir } = require('os')`,
 * `import { join as j } from 'node:path'`. Each is written as the module's member (`paste(` is `pyperclip.paste(`).
 */
const NAMED_IMPORT =
  /^\s*(?:from\s+([\w.]+)\s+import[ \t]+\(?([\w,][\w, \t]*)\)?$|(?:const|let|var)\s+\{([^}\n]+)\}\s*=\s*require\(\s*["'](?:node:)?([\w/-]+)["']\s*\)|import\s+\{([^}\n]+)\}\s+from\s+["'](?:node:)?([\w/-]+)["'])/;

function aliases(lines: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines) {
    const named = line.includes('import') || line.includes('require') ? NAMED_IMPORT.exec(line) : null;
    if (named !== null) {
      const module = named[1] ?? named[4] ?? named[6]!;
      // A package's own module (`./lib`, `.report`) is not a library whose members the facts name.
      if (!module.startsWith('.'))
        for (const entry of (named[2] ?? named[3] ?? named[5]!).split(',').slice(0, 24)) {
          const [name, alias] = entry
            .trim()
            .split(/\sas\s|:/)
            .map((w) => w.trim());
          const local = (alias ?? name)?.trim();
          if (name !== undefined && local !== undefined && /^[a-z_]\w*$/.test(name) && /^[a-z_]\w*$/.test(local))
            out.set(local, `${module.replace(/\//g, '.')}.${name}`);
        }
      continue;
    }
    const m = ALIAS.exec(line);
    if (m === null) continue;
    const [alias, module] = m[2] !== undefined ? [m[2], m[1]!] : m[4] !== undefined ? [m[4], m[3]!] : [m[5]!, m[6]!];
    // A package's own module is followed by modules.ts; its name stays as written.
    if (alias !== module && !module.startsWith('.')) out.set(alias, module);
  }
  return out;
}

/** `line` with each imported name written as its module's member (`paste(` is `pyperclip.paste(`). */
function withModules(line: string, modules: Map<string, string>, pattern: RegExp): string {
  // One expression of every imported name, tried once per line: most lines name none.
  pattern.lastIndex = 0;
  return pattern.test(line) ? line.replace(pattern, (alias) => modules.get(alias) ?? alias) : line;
}

/** A statement with its variables replaced by what they hold (shell `$x`, and names of other languages). */
function resolve(line: string, values: Map<string, string>, assigned: Set<string>, shell: boolean): string {
  // The line's words are looked up in the aliases and values: a piece may hold hundreds of each.
  const words = !shell && values.size > 0 ? new Set(line.match(WORDS) ?? []) : EMPTY;
  if (shell && line.includes('[')) line = line.replace(ARRAY_WHOLE, '$${$1}');
  let out = replaceVariables(line, (whole, braced, fallback, bare, trim) => {
    const name = (braced ?? bare)!;
    const value = values.get(name);
    if (trim !== undefined) {
      // `${W%/*}` of a known value is that value trimmed; of an unset variable, empty.
      const operator = trim.startsWith('%%') || trim.startsWith('##') ? trim.slice(0, 2) : trim.slice(0, 1);
      const known = value ?? (shell && !ENVIRONMENT_SET.has(name) && !assigned.has(name) ? '' : undefined);
      return known === undefined ? whole : trimmed(known, operator as '%' | '%%' | '#' | '##', trim.slice(operator.length));
    }
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    // An unset variable of a script is empty when it runs: `"$D/"*` deletes `/*`.
    return shell && !ENVIRONMENT_SET.has(name) && /^[a-z]/.test(name) && !assigned.has(name) ? '' : whole;
  });
  // A value that names other variables (`ROOT="${1:-/}"`) is read once more.
  if (out !== line && out.includes('$'))
    out = replaceVariables(out, (whole, braced, fallback, bare) => values.get((braced ?? bare)!) ?? fallback ?? whole);
  if (!shell)
    for (const name of words) {
      const value = values.get(name);
      if (value !== undefined && name.length >= 2 && out.includes(name))
        out = out.replace(cached(`(?<![\\w.$"'])${name}(?![\\w"'])(?!\\s*=[^=])`), `"${value}"`);
    }
  // A value put into a string (`f"{prog} {flag}"`, `` `${prog}` ``, `"#{prog}"`) is its text there.
  if (!shell && out.includes('{"')) out = out.replace(INTERPOLATED_VALUE, '$1');
  return out;
}

/** Where a list of literals may be: a quote, a comma, a quote. */
const ADJACENT_LITERALS = /["'~][ \t]*,[ \t]*["'~]/;
/** Two or more quoted literals separated by commas, and one of them. */
const LITERAL_LIST = /(?:(?:"[^"\n]{1,100}"|'[^'\n]{1,100}'|~)[ \t]*,[ \t]*){1,16}(?:"[^"\n]{1,100}"|'[^'\n]{1,100}'|~(?![\w/]))/g;
const LITERAL = /"([^"\n]*)"|'([^'\n]*)'|(~)/g;

/** A shell array taken whole (`"${args[@]}"`): its words. */
const ARRAY_WHOLE = /\$\{([a-z_][a-z0-9_]*)\[[@*]\]\}/g;

const INTERPOLATED_VALUE = /[$#]?\{"([^"{}\n]{0,300})"\}/g;

/**
 * A message printed and nothing else done: its text is shown, not run (a call inside it, `$(…)`, still runs); printed
 * into a file (`print(line, file=fh)`, `>> rc`, Perl's `print $fh …`) it is written.
 */
function printedOnly(line: string): boolean {
  if (!printedMessage(line)) return false;
  // Perl's print to a file handle (`print $fh $line`, `print {$fh} …`) writes the file.
  if (/^\s*(?:print|printf|say)\s+(?:\{\s*\$[a-z_]\w*\s*\}|\$[a-z_]\w*\s+[^\s,;.=])/i.test(line)) return false;
  const args = line.replace(/^\s*[\w.-]+\s*\(?/, '');
  const unquoted = args.replace(/`[^`]*`|"[^"]*"|'[^']*'/g, '');
  return (
    !args.includes('$(') && !/[\w\]]\s*\(|[>|]|\btee\b|\bfile\s*=/.test(unquoted.replace(/[12]?>&[12]|>\s*\/dev\/(?:null|stderr)/g, ''))
  );
}

/** A list a detector keeps of what it looks for (`reverse_shell_patterns=(…)`, `IOCS = [`). */
const PATTERN_LIST =
  /^\s*(?:(?:const|let|var|local|readonly|declare(?:\s+-a)?)\s+)?[\w]*(?:patterns?|signatures?|iocs?|indicators?|regex(?:es|ps)?|blocklist|denylist)\s*[:=]/i;

/** A whole-line comment (`#`, `//`) or a shebang. */
const COMMENT = /^\s*(?:#|\/\/)/;

export interface Statement {
  line: number;
  /** As written (lower case, continuations joined): what is spelled out, before literals are folded. */
  raw: string;
  text: string;
  facts: Set<string>;
}

export interface Flow {
  statements: Statement[];
  /** Facts of the whole piece. */
  facts: Set<string>;
  /** Whether data from a statement with `from` reaches a statement with `to` (or one statement holds both). */
  joins(from: string, to: string): Statement | null;
  /** A statement where data from `a` and data from `b` meet; unless `loose`, one of the two is there itself. */
  meets(a: string, b: string, loose: boolean): Statement | null;
  /** The statements that hold data from statements with `fact` (those included). */
  holding(fact: string): ReadonlySet<Statement>;
}

/** The statements of a piece of code, from its first line `firstLine` (1-based), resolved and with their facts. */
export function flowOf(code: string, firstLine: number, shell: boolean, isSignature: (line: string) => boolean = () => false): Flow {
  // Signatures (a table of denied commands, a quoted pattern) describe what they look for: they are read as not there.
  const kept = code
    .slice(0, FLOW_TEXT_CAP)
    .split('\n')
    .map((line) => (isSignature(line) || PATTERN_LIST.test(line) ? '' : withoutQuotedPatterns(line)))
    .join('\n');
  const lines = logicalLines(kept.toLowerCase())
    .flatMap(windowed)
    .map((l) => ({ ...l, raw: l.text, text: fold(l.text) }));
  const modules = aliases(lines.map((l) => l.text));
  // Imported names written as the module's members before values are read (`root = homedir()` holds home).
  if (modules.size > 0) {
    const names = new RegExp(`(?<![\\w./'"-])(?:${[...modules.keys()].join('|')})(?=\\s*[.(])`, 'g');
    for (const l of lines) {
      const named = withModules(l.text, modules, names);
      if (named !== l.text) l.text = fold(named);
    }
  }
  if (!shell) joinedByHelpers(lines);
  const { values, assigned } = literals(lines.map((l) => l.text));
  if (!shell) derivedLiterals(lines, values, assigned);
  const tables = shell ? null : tablesOf(lines);
  const spans = functionSpans(kept.toLowerCase().split('\n'), shell).filter((span) => span.name !== 'module.exports');
  const statements: Statement[] = [];
  for (const { text: line, raw, offset } of lines) {
    // Comments and the interpreter line run nothing; a message printed whole (a usage text over lines) is shown.
    if (line.trim() === '' || COMMENT.test(line) || printedOnly(raw)) continue;
    const resolved = resolve(line, values, assigned, shell);
    // Indentation runs nothing (a Makefile recipe's tab, a block's spaces): statements start at their first word.
    let joined = (resolved === line ? line : `${line}\n${fold(resolved)}`).trimStart();
    if (tables !== null) joined = withTableEntries(joined, tables);
    // A list of literal words is a command's argv (`["nc", "-e", "/bin/sh"]`) or a path's pieces (`('.codex', 'auth.json')`):
    // both are read as they run.
    if (joined.includes(',') && ADJACENT_LITERALS.test(joined)) {
      const lists = [...joined.matchAll(LITERAL_LIST)]
        .slice(0, 8)
        .map((m) => [...m[0].matchAll(LITERAL)].map((l) => l[1] ?? l[2] ?? l[3]!));
      // Between the statement's lines, so that what is read at its end (`… as f:`) is still there.
      if (lists.length > 0)
        joined += `\n${lists.map((words) => `${words.join(' ')} ; "${words.join('/')}"`).join(' ; ')}\n${joined.slice(joined.lastIndexOf('\n') + 1)}`;
    }
    // Records of literals (`{ dir: '.claude', file: '.credentials.json' }`): their values in order, as a list's.
    if (joined.includes(':') && RECORD.test(joined)) {
      const records = [...joined.matchAll(RECORDS)]
        .slice(0, 8)
        .map((m) => [...m[0].matchAll(TABLE_ENTRY)].map((e) => e[4] ?? e[5] ?? ''))
        .filter((words) => words.length >= 2);
      if (records.length > 0) joined += `\n${records.map((words) => `"${words.join('/')}"`).join(' ; ')}`;
    }
    statements.push({ line: firstLine + offset, raw, text: joined, facts: new Set() });
  }
  passArguments(statements, spans, firstLine);
  const records = recordsFor(statements.map((s) => s.text));
  for (const s of statements) s.facts = factsOf(s.text, records);
  credentialPieces(statements);
  // A name a connection or a request was made into sends what it is handed (`conn.request(…)`, `req.write(body)`).
  const handles = new Set<string>();
  for (const s of statements) {
    // Looked up by the statement's words: a piece may hold hundreds of requests made into names.
    if (handles.size > 0)
      for (const word of new Set(s.text.match(WORDS) ?? []))
        if (handles.has(word) && cached(`(?<![\\w.])${word}\\s*[.(]`).test(s.text)) {
          s.facts.add('network-send');
          break;
        }
    const assigned = assignedName(s.text);
    if (assigned !== undefined && s.facts.has('network-send')) handles.add(assigned);
  }
  descriptorSockets(statements);
  deletesFromHome(statements);
  deletesByLastValue(statements, shell);
  callsTakeBodies(statements, spans, firstLine);
  const facts = new Set<string>();
  for (const s of statements) for (const f of s.facts) facts.add(f);

  const carried = new Map<string, { names: Set<string>; holding: Set<Statement> }>();
  const wordsIn = new Map<Statement, Set<string>>();
  /**
   * Whether the statement names one of `names`: a variable's name as one of its words (looked up, so that a piece with
   * hundreds of names held is not read once per name), a file's path by its text.
   */
  const namesAny = (s: Statement, names: ReadonlySet<string>, paths: ReadonlySet<string>): boolean => {
    let words = wordsIn.get(s);
    if (words === undefined) {
      words = new Set(s.text.match(WORDS) ?? []);
      wordsIn.set(s, words);
    }
    for (const word of words) if (names.has(word)) return true;
    for (const path of paths) if (s.text.includes(path)) return true;
    return false;
  };
  const assignedNames = new Map<Statement, string | undefined>();
  const assignedOf = (s: Statement): string | undefined => {
    if (!assignedNames.has(s)) assignedNames.set(s, assignedName(s.text));
    return assignedNames.get(s);
  };

  /**
   * Names (variables, files) that hold data from statements with `fact`, and the statements that hold it: a statement
   * that names one holds it too, and passes it on to what it assigns or writes; a name given another value lets it go.
   */
  function carriersOf(fact: string): { names: Set<string>; holding: Set<Statement> } {
    const known = carried.get(fact);
    if (known !== undefined) return known;
    const names = new Set<string>();
    // Names that are not one word (a file's path): looked for by their text.
    const paths = new Set<string>();
    const holding = new Set<Statement>();
    const hold = (name: string) => {
      names.add(name);
      if (!WORD_NAME.test(name)) paths.add(name);
    };
    for (const s of statements) {
      if (!s.facts.has(fact) && (names.size === 0 || !namesAny(s, names, paths))) {
        const assigned = names.size === 0 ? undefined : assignedOf(s);
        if (assigned !== undefined) {
          names.delete(assigned);
          paths.delete(assigned);
        }
        continue;
      }
      const assigned = assignedOf(s);
      holding.add(s);
      if (assigned !== undefined) hold(assigned);
      for (const pattern of WRITTEN_FILES)
        for (const m of s.text.matchAll(pattern)) if (m[1]!.length >= 3 || m[1]!.startsWith('$')) hold(m[1]!);
      const forName = /\bfor\s+(?:\(\s*(?:const|let|var)\s+)?([a-z_$][\w$]*)\s+(?:in|of)\b/.exec(s.text);
      if (forName !== null) hold(forName[1]!);
    }
    const result = { names, holding };
    carried.set(fact, result);
    return result;
  }

  function joins(from: string, to: string): Statement | null {
    const source = carriersOf(from);
    return statements.find((s) => source.holding.has(s) && s.facts.has(to)) ?? null;
  }

  function meets(a: string, b: string, loose: boolean): Statement | null {
    const first = carriersOf(a).holding;
    const second = carriersOf(b).holding;
    return statements.find((s) => first.has(s) && second.has(s) && (loose || s.facts.has(a) || s.facts.has(b))) ?? null;
  }
  return { statements, facts, joins, meets, holding: (fact) => carriersOf(fact).holding };
}

/** Where a call of a function starts: not inside another name, unless it is one's own method (`this.`, `self.`). */
const CALLED = String.raw`(?:(?<![\w.$])|(?<=(?<![\w.$])(?:this|self)\.))`;

/** A quoted literal of a statement, and a home folder named anywhere in a piece. */
const QUOTED = /["']([^"'\n]{1,200})["']/g;
const NAMES_HOME = /~|\bhomedir\b|\bhome\b|\buserprofile\b|\bexpanduser\b/;

/**
 * A credential store's folder and file named by literals apart from each other in a piece that names home
 * (CREDENTIAL_PIECES): the statements holding either piece read the store, as a path joined from them would.
 */
function credentialPieces(statements: readonly Statement[]): void {
  if (statements.some((s) => s.facts.has('credential-store'))) return;
  const piecesOf = new Map<Statement, string[]>();
  for (const s of statements) {
    if (!s.raw.includes('"') && !s.raw.includes("'")) continue;
    const pieces = [...s.raw.matchAll(QUOTED)].flatMap((m) => m[1]!.split('/'));
    if (pieces.length > 0) piecesOf.set(s, pieces);
  }
  const all = [...piecesOf.values()].flat();
  const found = CREDENTIAL_PIECES.filter(([folder, file]) => all.some((p) => folder.test(p)) && all.some((p) => file.test(p)));
  if (found.length === 0 || !statements.some((s) => NAMES_HOME.test(s.text))) return;
  for (const [s, pieces] of piecesOf)
    if (found.some(([folder, file]) => pieces.some((p) => folder.test(p) || file.test(p)))) s.facts.add('credential-store');
}

/**
 * Names given a value built from names that hold literals (`claude = path.join(home, ".claude")` with `home = ~`): the
 * literal it comes to, read once more after the first values are put in. A name given a value more than once keeps none.
 */
function derivedLiterals(lines: readonly { text: string }[], values: Map<string, string>, assigned: Set<string>): void {
  if (values.size === 0) return;
  const times = new Map<string, number>();
  const candidates: { name: string; text: string }[] = [];
  for (const { text } of lines) {
    const any = ANY_ASSIGNMENT.exec(text);
    if (any === null) continue;
    times.set(any[1]!, (times.get(any[1]!) ?? 0) + 1);
    if (!values.has(any[1]!) && !text.includes('\n')) candidates.push({ name: any[1]!, text });
  }
  for (const { name, text } of candidates) {
    if (times.get(name) !== 1) continue;
    const resolved = resolve(text, values, assigned, false);
    if (resolved === text) continue;
    const m = ASSIGNMENT.exec(fold(resolved));
    if (m !== null && m[1] === name) values.set(name, (m[3] ?? m[4] ?? '').trim());
  }
}

/**
 * A helper that only joins its arguments (`const j = (...xs) => xs.join('')`, `def j(*p): return "".join(p)`): each
 * call of it with literal arguments is the literal it makes (`j('.', 'co', 'dex')` is `".codex"`).
 */
const JOINER = [
  /^\s*(?:const|let|var)\s+([a-z_$][\w$]*)\s*=\s*(?:\(\s*\.{3}([a-z_$][\w$]*)\s*\)|\.{3}([a-z_$][\w$]*))\s*=>\s*(?:\{\s*)?(?:return\s+)?([a-z_$][\w$]*)\.join\(\s*(?:(?:''|""|``)\s*)?\)/,
  /^\s*function\s+([a-z_$][\w$]*)\s*\(\s*\.{3}([a-z_$][\w$]*)\s*\)\s*\{\s*return\s+()([a-z_$][\w$]*)\.join\(\s*(?:(?:''|"")\s*)?\)/,
  /^\s*(?:def\s+([a-z_]\w*)\(\s*\*([a-z_]\w*)\s*\)\s*:\s*return|([a-z_]\w*)\s*=\s*lambda\s+\*([a-z_]\w*)\s*:)\s*(?:''|"")\.join\(\s*([a-z_]\w*)\s*\)/,
];
const LITERAL_ARGUMENTS = /^\s*(?:(?:"[^"\n]{0,100}"|'[^'\n]{0,100}')\s*,\s*){0,15}(?:"[^"\n]{0,100}"|'[^'\n]{0,100}')\s*$/;

function joinedByHelpers(lines: { text: string }[]): void {
  const helpers = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.text;
    if (!text.includes('join')) continue;
    // Python's body may be on the next line.
    const python = /^\s*def\s/.test(text) && !text.includes('return') ? `${text} ${lines[i + 1]?.text.trim() ?? ''}` : text;
    for (const pattern of JOINER) {
      const m = pattern.exec(pattern === JOINER[2] ? python : text);
      if (m === null) continue;
      const name = m[1] ?? m[3];
      const rest = pattern === JOINER[2] ? (m[2] ?? m[4]) : (m[2] ?? m[3]);
      const joined = pattern === JOINER[2] ? m[5] : m[4];
      if (pattern === JOINER[2] ? name !== undefined && rest === joined : m[1] !== undefined && rest === joined) helpers.add(name!);
    }
  }
  if (helpers.size === 0) return;
  const call = new RegExp(`(?<![\\w.$])(${[...helpers].map((h) => h.replace(/\$/g, '\\$')).join('|')})\\(([^()\\n]{0,800})\\)`, 'g');
  for (const l of lines)
    if ([...helpers].some((h) => l.text.includes(`${h}(`)))
      l.text = fold(
        l.text.replace(call, (whole, _name: string, args: string) =>
          LITERAL_ARGUMENTS.test(args) ? `"${[...args.matchAll(LITERAL)].map((m) => m[1] ?? m[2] ?? '').join('')}"` : whole,
        ),
      );
}

/** An object of two or more literal values, and such objects: `{ name: 'claude', dir: '.claude', file: '…' }`. */
const RECORD = /\{\s*(?:[a-z_$][\w$]*|"[^"\n]{1,60}"|'[^'\n]{1,60}')\s*:\s*(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')\s*,/;
const RECORDS =
  /\{\s*(?:(?:[a-z_$][\w$]*|"[^"\n]{1,60}"|'[^'\n]{1,60}')\s*:\s*(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')\s*,\s*){1,15}(?:[a-z_$][\w$]*|"[^"\n]{1,60}"|'[^'\n]{1,60}')\s*:\s*(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')\s*(?:,\s*)?\}/g;
/** A table of literals given once (`DIRS = { claude: '.claude', codex: '.codex' }`): its name, each key's value. */
const TABLE =
  /^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?([a-z_$][\w$]*)\s*=\s*\{\s*((?:(?:[a-z_$][\w$]*|"[^"\n]{1,60}"|'[^'\n]{1,60}')\s*:\s*(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')\s*,\s*){0,31}(?:[a-z_$][\w$]*|"[^"\n]{1,60}"|'[^'\n]{1,60}')\s*:\s*(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')\s*(?:,\s*)?)\}\s*(?:;\s*)?$/;
const TABLE_ENTRY = /(?:(?<![\w$])([a-z_$][\w$]*)|"([^"\n]{1,60})"|'([^'\n]{1,60})')\s*:\s*(?:"([^"\n]{0,200})"|'([^'\n]{0,200})')/g;

function tablesOf(lines: readonly { text: string }[]): Map<string, Map<string, string>> | null {
  const tables = new Map<string, Map<string, string> | null>();
  for (const { text } of lines) {
    if (!text.includes('{')) {
      const any = ANY_ASSIGNMENT.exec(text);
      if (any !== null && tables.has(any[1]!)) tables.set(any[1]!, null);
      continue;
    }
    const m = TABLE.exec(text);
    if (m === null) continue;
    const entries = new Map<string, string>();
    for (const e of m[2]!.matchAll(TABLE_ENTRY)) entries.set((e[1] ?? e[2] ?? e[3])!, e[4] ?? e[5] ?? '');
    tables.set(m[1]!, tables.has(m[1]!) ? null : entries);
  }
  const out = new Map<string, Map<string, string>>();
  for (const [name, entries] of tables) if (entries !== null && name.length > 1) out.set(name, entries);
  return out.size === 0 ? null : out;
}

/**
 * A statement with its tables' entries put in: `DIRS.claude` and `DIRS['claude']` are the value; entries picked by a name
 * known when the code runs (`DIRS[agent]`, `FILES[agent]`) are read once for each key, tables picked by the same name
 * together, as lines added to the statement.
 */
function withTableEntries(text: string, tables: Map<string, Map<string, string>>): string {
  const last = text.slice(text.lastIndexOf('\n') + 1);
  let named = false;
  for (const name of tables.keys()) if (last.includes(`${name}.`) || last.includes(`${name}[`)) named = true;
  if (!named) return text;
  const pattern = new RegExp(
    `(?<![\\w.$])(${[...tables.keys()].map((n) => n.replace(/\$/g, '\\$')).join('|')})(?:\\.([a-z_$][\\w$]*)|\\[\\s*(?:"([^"\\n]{1,60})"|'([^'\\n]{1,60})'|([a-z_$][\\w$.]*))\\s*\\])`,
    'g',
  );
  let picked: { by: string; table: string } | undefined;
  const direct = last.replace(pattern, (whole, table: string, member?: string, q1?: string, q2?: string, by?: string) => {
    const key = member ?? q1 ?? q2;
    if (key !== undefined) {
      const value = tables.get(table)!.get(key);
      return value === undefined ? whole : `"${value}"`;
    }
    picked ??= { by: by!, table };
    return whole;
  });
  const readings = direct === last ? [] : [direct];
  if (picked !== undefined) {
    const { by } = picked;
    for (const key of [...tables.get(picked.table)!.keys()].slice(0, 8))
      readings.push(
        fold(
          direct.replace(pattern, (whole, table: string, _m?: string, _q1?: string, _q2?: string, index?: string) => {
            const value = index === by ? tables.get(table)!.get(key) : undefined;
            return value === undefined ? whole : `"${value}"`;
          }),
        ),
      );
  }
  return readings.length === 0 ? text : `${text}\n${readings.map(fold).join('\n')}`;
}

/** A statement that writes a file, deletes recursively or walks a folder: what its parameters are handed matters there. */
export const USES_PATH = new RegExp(
  `${FILE_WRITE.source}|\\brmtree\\(|\\brm(?:sync)?\\(|\\brimraf\\b|\\bremove-item\\b|\\brm_rf?\\(|\\bremoveall\\(|\\brm\\s+-|\\bfor\\s+[a-z_]\\w*\\s+in\\s`,
);
/** A definition's parameter's name, before its type annotation and default. */
const PARAMETER_NAME = /^\s*(?:\*{1,2}|\.{3})?([a-z_$][\w$]*)/;
/** A shell function's positional parameter: `$1`, `${1}`. */
const POSITIONAL = /\$\{?([1-9])\}?/g;

/** The text between the bracket at `open` and the one that closes it, split at its top-level commas; null if unclosed. */
function argumentsAt(text: string, open: number): string[] | null {
  let depth = 0;
  let quote = '';
  let from = open + 1;
  const out: string[] = [];
  for (let i = open; i < Math.min(text.length, open + 1000); i++) {
    const c = text[i]!;
    if (quote !== '') {
      if (c === quote && text[i - 1] !== '\\') quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (--depth === 0) {
        out.push(text.slice(from, i));
        return out.map((a) => a.trim()).filter((a, n, all) => a !== '' || n < all.length - 1);
      }
    } else if (c === ',' && depth === 1) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  return null;
}

/** A shell command's words after its name, quotes kept, up to where the command ends. */
function shellWords(text: string): string[] {
  return (text.split(/[;&|\n]/, 1)[0]!.match(/"[^"]*"|'[^']*'|[^\s"']+/g) ?? []).slice(0, 9);
}

/**
 * What a call hands a function reaches its body: a statement of the body that writes a file, deletes or walks a
 * folder through a parameter is read once more with each call's argument (or the parameter's default) in its place, so
 * that `append ~/.bashrc "$line"` or `wipe(expanduser("~"))` writes or deletes where the call says. Other statements
 * keep their parameters: a helper that runs whatever it is handed is not a shell joined to each caller's data.
 */
function passArguments(statements: Statement[], spans: readonly FunctionSpan[], firstLine: number): void {
  if (spans.length === 0 || !statements.some((s) => USES_PATH.test(s.text))) return;
  for (const span of spans) {
    const inside = (s: Statement) => s.line - firstLine >= span.first && s.line - firstLine <= span.last;
    // A body on the definition's own line (`append() { echo … >> "$1"; }`) is that line.
    const body = statements.filter(
      (s) => inside(s) && (s.line - firstLine > span.first || span.last === span.first) && USES_PATH.test(s.text),
    );
    if (body.length === 0) continue;
    const definition = statements.find((s) => s.line - firstLine === span.first);
    // The parameters and their defaults (a shell function's are positional).
    let parameters: { name: string; fallback?: string }[] = [];
    if (!span.command && definition !== undefined) {
      const open = definition.text.indexOf('(', definition.text.indexOf(span.name) + span.name.length);
      const list = open < 0 ? null : argumentsAt(definition.text, open);
      if (list === null) continue;
      parameters = list
        .map((p) => {
          // `name: type = default`: the default is what follows the first `=`.
          const equals = p.indexOf('=');
          const fallback = equals < 0 ? '' : p.slice(equals + 1).trim();
          return { name: PARAMETER_NAME.exec(p)?.[1], fallback: fallback === '' ? undefined : fallback };
        })
        .filter((p): p is { name: string; fallback: string | undefined } => p.name !== undefined && p.name !== 'self' && p.name !== 'cls');
      if (parameters.length === 0) continue;
    }
    const calls: { at?: Statement; args: string[] }[] = [];
    const call = span.command
      ? cached(`(?:^|[;&|(\`]\\s*|\\$\\(\\s*|\\b(?:do|then|else)\\s+)${span.name}(?=\\s)`)
      : cached(`${CALLED}${span.name}\\s*\\(`);
    for (const s of statements) {
      if (inside(s) || !s.text.includes(span.name) || calls.length >= 4) continue;
      const last = s.text.slice(s.text.lastIndexOf('\n') + 1);
      call.lastIndex = 0;
      const m = call.exec(last);
      if (m === null) continue;
      const args = span.command ? shellWords(last.slice(m.index + m[0].length)) : argumentsAt(last, m.index + m[0].length - 1);
      if (args !== null) calls.push({ at: s, args });
    }
    if (calls.length === 0 && parameters.every((p) => p.fallback === undefined)) continue;
    if (calls.length === 0) calls.push({ args: [] });
    const added = new Map<Statement, Set<string>>();
    const add = (s: Statement, reading: string) => {
      const set = added.get(s) ?? new Set<string>();
      set.add(reading);
      added.set(s, set);
    };
    for (const s of body) {
      const last = s.text.slice(s.text.lastIndexOf('\n') + 1);
      for (const { at, args } of calls) {
        const reading = span.command
          ? last.replace(POSITIONAL, (whole, n: string) => args[Number(n) - 1] ?? whole)
          : parameters.reduce(
              (text, p, i) =>
                (args[i] ?? p.fallback) === undefined
                  ? text
                  : text.replace(
                      cached(`(?<![\\w.$"'])${p.name.replace(/\$/g, '\\$')}(?![\\w"'])(?!\\s*=[^=])`),
                      () => args[i] ?? p.fallback!,
                    ),
              last,
            );
        if (reading === last) continue;
        const folded = fold(reading);
        add(s, folded);
        // The call does what the body does with its arguments: read at the call, with the names known there.
        if (at !== undefined) add(at, folded);
      }
    }
    for (const [s, readings] of added) s.text += `\n${[...readings].slice(0, 8).join('\n')}`;
  }
}

/** `exec 3<>/dev/tcp/host/port`: the descriptor a shell opened onto a connection. */
const DESCRIPTOR_SOCKET = /\bexec\s+(\d{1,2})\s*<?>\s*["']?\/dev\/(?:tcp|udp)\//;

/** What is written to (or read from) a descriptor opened onto a connection is sent (or arrives) over it. */
function descriptorSockets(statements: readonly Statement[]): void {
  const sockets: string[] = [];
  for (const s of statements) {
    const opened = DESCRIPTOR_SOCKET.exec(s.text);
    if (opened !== null) sockets.push(opened[1]!);
    else if (sockets.some((fd) => s.text.includes('&') && cached(`[<>]&\\s*["']?${fd}(?!\\d)`).test(s.text))) {
      s.facts.add('network-send');
      s.facts.add('socket');
    }
  }
}

const CHANGES_FOLDER = /(?:^|[;&|(]\s*)cd\b([^;&|\n]{0,200})/;
const RM = /\brm\s/;
const RECURSIVE = /\s-[a-qs-z]{0,8}r|\s--recursive\b/;
const EVERYTHING_HERE = /\s(?:--\s+)?["']?(?:\*|\.\/\*|\.\/?|\.\[[^\]\n]{0,10}\]\*)["']?(?=\s|$|;)/;
const FIND_HERE = /\bfind\s+\.\/?\s/;
const FIND_DELETES = /\s-delete\b|\s-exec\s+rm\b/;

/** A recursive delete of everything in the folder a script moved to, when that folder is home or the root. */
function deletesFromHome(statements: readonly Statement[]): void {
  let inHome = false;
  for (const s of statements) {
    const cd = CHANGES_FOLDER.exec(s.text.split('\n').at(-1)!);
    if (cd !== null) {
      const target = cd[1]!
        .trim()
        .replace(/["']/g, '')
        .replace(/^--\s*/, '');
      inHome = target === '' || target === '~' || target === '~/' || target === '/';
    }
    const rm = RM.test(s.text) && RECURSIVE.test(s.text) && EVERYTHING_HERE.test(s.text);
    if (inHome && (rm || (FIND_HERE.test(s.text) && FIND_DELETES.test(s.text)))) s.facts.add('delete-all');
  }
}

/** Calls and commands that delete recursively, whose target may be a name given its value earlier. */
const DELETES = /\brmtree\(|\brm(?:sync)?\(|\brimraf\b|\bremove-item\b|\brm_rf?\(|\bremoveall\(|\bremove_dir(?:_all)?\(|\brm\s+-/;
const DELETE_ALL_PATTERNS = FACT_RECORDS.find((r) => r.name === 'delete-all')!.patterns;

/** Home or the root as one value of a table or a list: `{"full": ~}`, `["/", …]`. */
const HOME_AMONG = /[:,[{(]\s*["']?(?:~|\/)["']?\s*[,}\])]/;
/** An object's field given one literal or home (`self.root = ~`, `this.dir = "/"`). */
const FIELD_ASSIGNMENT = /^\s*((?:self|this|cls)\.[a-z_][a-z0-9_]*)\s*=\s*(?:(["'])([^"'\n]{0,300})\2|(~[^\s;]*|\/))\s*(?:;\s*)?$/;
const LISTS_HOME =
  /\bfor\s+([a-z_][a-z0-9_]*)\s+in\s+(?:os\.(?:listdir|scandir)\(\s*["']?(?:~|\/)["']?\s*\)|glob\.glob\(\s*["'](?:~|)\/\*["']\s*\)|["']?~["']?\.(?:iterdir|glob)\(|["']?(?:~|)\/\*["']?(?:\s|;|$))/;

/**
 * A delete whose target is a name holding home or the root where the delete runs: the value given last before it
 * (`target = CACHE; if all: target = os.path.expanduser("~"); shutil.rmtree(target)`). A name given a value that is
 * not one literal lets its last literal go.
 */
function deletesByLastValue(statements: readonly Statement[], shell: boolean): void {
  if (!statements.some((s) => DELETES.test(s.text))) return;
  const last = new Map<string, string>();
  // Loop variables over every entry of home or the root (`for name in os.listdir(~)`, `for f in ~/*`), and names
  // given a value built from one (`target = os.path.join(root, name)`).
  const entries = new Set<string>();
  // Tables with home or the root among their values (`{"venv": ".venv", "full": ~}`): an entry picked by a value known
  // only when the code runs may be that one.
  const tables = new Set<string>();
  for (const s of statements) {
    const text = s.text;
    const listing = LISTS_HOME.exec(text);
    if (listing !== null) entries.add(listing[1]!);
    const words = entries.size > 0 || tables.size > 0 ? new Set(text.match(/[a-z_][a-z0-9_]*/g) ?? []) : EMPTY;
    if (entries.size > 0 && !s.facts.has('delete-all') && DELETES.test(text)) {
      if ([...entries].some((e) => words.has(e))) s.facts.add('delete-all');
    }
    if (tables.size > 0 && !s.facts.has('delete-all') && DELETES.test(text))
      for (const table of tables)
        if (words.has(table) && cached(`(?<![\\w.])${table}\\[(?!\\s*["'\\d])`).test(text)) s.facts.add('delete-all');
    if (!s.facts.has('delete-all') && DELETES.test(text) && last.size > 0) {
      const substituted = shell
        ? replaceVariables(text, (whole, braced, _fallback, bare) => last.get((braced ?? bare)!) ?? whole)
        : text.replace(/(?:(?:self|this|cls)\.)?[a-z_][a-z0-9_]*/g, (word, at: number) =>
            last.has(word) && !/[\w.$"']/.test(text[at - 1] ?? '') && !/[\w"']/.test(text[at + word.length] ?? '')
              ? `"${last.get(word)}"`
              : word,
          );
      if (substituted !== text && DELETE_ALL_PATTERNS.some((p) => p.test(substituted))) s.facts.add('delete-all');
    }
    const first = text.split('\n', 1)[0]!;
    const assigned = ASSIGNMENT.exec(first);
    const field = assigned === null ? FIELD_ASSIGNMENT.exec(first) : null;
    if (assigned !== null) last.set(assigned[1]!, assigned[3] ?? assigned[4] ?? '');
    else if (field !== null) last.set(field[1]!, field[3] ?? field[4] ?? '');
    else {
      const any = ANY_ASSIGNMENT.exec(first) ?? /^\s*((?:self|this|cls)\.[a-z_]\w*)\s*=(?!=)/.exec(first);
      if (any !== null) {
        last.delete(any[1]!);
        const value = text.slice(text.lastIndexOf('\n') + 1);
        if (HOME_AMONG.test(value) && /=\s*[[{(]/.test(value)) tables.add(any[1]!);
        else if (entries.size > 0 && [...entries].some((e) => e !== any[1] && words.has(e))) entries.add(any[1]!);
        // A name given a table's entry picked at run time holds what the table may give.
        else
          for (const table of tables) if (words.has(table) && cached(`=\\s*${table}\\[(?!\\s*["'\\d])`).test(value)) last.set(any[1]!, '~');
      }
    }
  }
}

/**
 * How a body's fact reaches its callers: sinks take what the call hands in; sources come out. Traits (a connection, a
 * shell) stay in the body: results gathered from a port check and a program run are not a remote shell.
 */
const FLOWS_AS = new Map<string, 'in' | 'out'>(
  FACT_RECORDS.flatMap((record): [string, 'in' | 'out'][] =>
    record.kind === 'sink' ? [[record.name, 'in']] : record.kind === 'source' ? [[record.name, 'out']] : [],
  ),
);

/**
 * A call to a function the piece defines does what its body does: its arguments reach the body's sinks and its
 * value holds what the body read. The body's facts are added to each statement outside it that calls it.
 */
function callsTakeBodies(statements: readonly Statement[], spans: readonly FunctionSpan[], firstLine: number): void {
  if (spans.length === 0) return;
  // With many functions, each statement's words are looked up by name: a piece with thousands of functions and
  // statements is then read once, not once per function (indexing every word costs more for a few functions).
  const byWord = spans.length > 16 ? new Map<string, Statement[]>() : null;
  if (byWord !== null)
    for (const s of statements)
      for (const word of new Set(s.text.match(WORD) ?? [])) {
        const list = byWord.get(word);
        if (list === undefined) byWord.set(word, [s]);
        else list.push(s);
      }
  const offsets = statements.map((s) => s.line - firstLine);
  // Names filled from a source (`FILES = [~/.codex/auth.json, …]`): a body that reads one reads the source.
  const sourceNames = new Map<string, string[]>();
  for (const s of statements) {
    const sources = [...s.facts].filter((f) => FLOWS_AS.get(f) === 'out');
    if (sources.length === 0) continue;
    const name = assignedName(s.text);
    if (name !== undefined && name.length > 1) sourceNames.set(name, sources);
  }
  for (const span of spans) {
    const callers = byWord === null ? statements.filter((s) => s.text.includes(span.name)) : byWord.get(span.name);
    if (callers === undefined || callers.length === 0) continue;
    const body = new Set<string>();
    // Statements are in line order: the body's are a run of them.
    for (let i = firstAtOrAfter(offsets, span.first); i < statements.length && offsets[i]! <= span.last; i++) {
      for (const f of statements[i]!.facts) body.add(f);
      if (sourceNames.size > 0)
        for (const word of new Set(statements[i]!.text.match(WORD) ?? [])) for (const f of sourceNames.get(word) ?? []) body.add(f);
    }
    if (body.size === 0) continue;
    const bareCall = cached(`^\\s*(?:await\\s+)?${span.name}\\s*\\([^()]*\\)\\s*;?\\s*$`);
    // A shell calls a function as a command: first on a line, after `;`, `&&`, `|`, `(`, `$(` or a loop's or a condition's
    // keyword (`do write_hook >> "$rc"`).
    const call = span.command
      ? cached(`(?:^|[;&|(\`]\\s*|\\$\\(\\s*|\\b(?:do|then|else)\\s+)${span.name}(?![\\w-])`)
      : cached(`${CALLED}${span.name}\\s*\\(`);
    for (const s of callers) {
      const offset = s.line - firstLine;
      if (offset >= span.first && offset <= span.last) continue;
      call.lastIndex = 0;
      if (!call.test(s.text)) continue;
      // What it is handed reaches the body's sinks; what it returns, where the value is used (assigned, passed on),
      // holds what the body read. A bare call takes no sources.
      bareCall.lastIndex = 0;
      const used = !bareCall.test(s.text.split('\n')[0]!);
      for (const f of body) {
        const role = FLOWS_AS.get(f);
        if (role === 'in' || (used && role === 'out')) s.facts.add(f);
      }
    }
  }
}

const WORD = /[a-z_$][\w$-]{0,63}/g;

/** The index of the first offset at or after `at` in ascending `offsets`. */
function firstAtOrAfter(offsets: readonly number[], at: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid]! < at) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A statement's words, as `mentions` reads a name: runs of word characters. */
const WORDS = /\w+/g;
const WORD_NAME = /^\w+$/;
const EMPTY: ReadonlySet<string> = new Set();

const NAME_PATTERNS = new Map<string, RegExp>();

/** A global pattern for a name, made once: names repeat across statements and files. */
function cached(source: string): RegExp {
  let pattern = NAME_PATTERNS.get(source);
  if (pattern === undefined) {
    if (NAME_PATTERNS.size > 10_000) NAME_PATTERNS.clear();
    pattern = new RegExp(source, 'g');
    NAME_PATTERNS.set(source, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}
