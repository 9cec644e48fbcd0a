/**
 * What a value comes to when the variables it reads are unset, as an attacker arranges: an environment lookup with a
 * default is its default (`os.environ.get("X", "")`, `process.env.X ?? "."`, `ENV.fetch("X", "")`), one without is
 * empty inside a string (`"~/#{ENV['X']}"`, `"$HOME\$env:X"`), and a path joined from home and nothing is home
 * (`Path.home() / ""`, `path.resolve(os.homedir(), ".")`, `~/""`). Text is lower case and home is already `~`
 * (flow.ts); each rewrite is tried only when its telltale word is there.
 */

/** Variables every shell, runner and desktop sets: never read as unset. */
export const ENVIRONMENT_SET = new Set([
  'path',
  'pwd',
  'user',
  'shell',
  'tmpdir',
  'temp',
  'tmp',
  'term',
  'lang',
  'oldpwd',
  'hostname',
  'ifs',
  'random',
  'lineno',
  'home',
  'userprofile',
  'appdata',
  'localappdata',
  'programfiles',
  'systemroot',
  'windir',
  'computername',
  'username',
  'ppid',
]);

const Q = `["']`;
const NAME = `${Q}[\\w.-]{1,64}${Q}`;
/** A literal default: quoted text without quotes, or `~`. */
const DEFAULT = `(${Q}[^"'\\n]{0,200}${Q}|~)`;

/** Lookups that give their default when the variable is unset. */
const WITH_DEFAULT = new RegExp(
  [
    `\\bos\\.(?:environ\\.get|getenv)\\(\\s*${NAME}\\s*,\\s*${DEFAULT}\\s*\\)`,
    `\\bos\\.(?:environ\\.get|getenv)\\(\\s*${NAME}\\s*\\)\\s*or\\s+${DEFAULT}`,
    `\\bprocess\\.env(?:\\.\\w{1,64}|\\[\\s*${NAME}\\s*\\])\\s*(?:\\?\\?|\\|\\|)\\s*${DEFAULT}`,
    `\\benv\\.fetch\\(\\s*${NAME}\\s*,\\s*${DEFAULT}\\s*\\)`,
    `\\benv\\[\\s*${NAME}\\s*\\]\\s*\\|\\|\\s*${DEFAULT}`,
  ].join('|'),
  'g',
);

/** Lookups inside a string, interpolated: empty when unset (Ruby `#{ENV['X']}`, PowerShell `$env:X`). */
const INTERPOLATED = /#\{\s*env\[\s*["'](\w{1,64})["']\s*\]\s*\}|\$env:(\w{1,64})\b|\$\{env:(\w{1,64})\}/g;

/** Home joined with nothing, or with `.`: home. */
const HOME_JOINED = [
  /~\s*\/\s*(?:""|'')/g,
  /\b(?:path\.(?:resolve|join)|os\.path\.(?:join|abspath|realpath|expanduser)|file\.(?:expand_path|join))\( ?["']?~\/?["']?(?: ?, ?(?:""|''|["']\.\/?["']))? ?\)/g,
  /["']~[/\\]?(?:""|'')?["']/g,
  /~[/\\](?:""|'')/g,
];

export function unsetValues(text: string): string {
  let out = text;
  if (out.includes('env')) {
    out = out.replace(WITH_DEFAULT, (...m: unknown[]) => m.slice(1, 6).find((v): v is string => typeof v === 'string') ?? '""');
    out = out.replace(INTERPOLATED, (whole, ruby?: string, ps?: string, braced?: string) => {
      const name = ruby ?? ps ?? braced ?? '';
      return ENVIRONMENT_SET.has(name) ? whole : '';
    });
  }
  if (out.includes('~')) for (const joined of HOME_JOINED) out = out.replace(joined, '~');
  return out;
}

/**
 * A shell's `${VAR%pattern}`, `${VAR%%pattern}`, `${VAR#pattern}` and `${VAR##pattern}` of a known value, for a
 * pattern with at most one `*` at its end (suffixes) or its start (prefixes): the value with the piece removed. Written out rather than as a pattern built from the script's text, which could cost the product of its
 * lengths; a pattern of another shape leaves the value as it is.
 */
export function trimmed(value: string, operator: '%' | '%%' | '#' | '##', pattern: string): string {
  const suffix = operator.startsWith('%');
  const longest = operator.length === 2;
  const star = pattern.indexOf('*');
  if (pattern.length > 32 || pattern.slice(star + 1).includes('*')) return value;
  if (star === -1) {
    if (suffix) return value.endsWith(pattern) ? value.slice(0, value.length - pattern.length) : value;
    return value.startsWith(pattern) ? value.slice(pattern.length) : value;
  }
  if (suffix && star === pattern.length - 1) {
    const lit = pattern.slice(0, -1);
    const at = longest ? value.indexOf(lit) : value.lastIndexOf(lit);
    return at === -1 ? value : value.slice(0, at);
  }
  if (!suffix && star === 0) {
    const lit = pattern.slice(1);
    const at = longest ? value.lastIndexOf(lit) : value.indexOf(lit);
    return at === -1 ? value : value.slice(at + lit.length);
  }
  return value;
}

/** A call that joins path pieces; its arguments are read in code. */
const JOIN_CALL = /\b(?:os\.path\.join|path\.join|path\.resolve|file\.join|join-path|filepath\.join)\(([^()\n]{1,400})\)/g;
/** A pathlib join of literals: `~ / ".ssh" / "id_rsa"`, one step at a time. */
const PATHLIB_STEP = /(~|"[^"\n]{0,100}"|'[^'\n]{0,100}') ?\/ ?("[^"\n]{0,100}"|'[^'\n]{0,100}')/;
const LITERAL_ARGUMENT = /^\s*(?:~|"([^"\n]*)"|'([^'\n]*)')\s*$/;

function literalPieces(args: string): string[] | null {
  const pieces: string[] = [];
  for (const arg of args.split(',')) {
    const m = LITERAL_ARGUMENT.exec(arg);
    if (m === null) return null;
    pieces.push(m[1] ?? m[2] ?? '~');
  }
  return pieces;
}

/** Paths joined from literal pieces and home, written as the path they make (`~/.ssh/id_rsa`), quoted. */
export function joinedPaths(text: string): string {
  let out = text;
  if (out.includes('join') || out.includes('resolve'))
    out = out.replace(JOIN_CALL, (whole, args: string) => {
      const pieces = literalPieces(args);
      if (pieces === null) return whole;
      const path = pieces
        .filter((p) => p !== '' && p !== '.')
        .join('/')
        .replace(/\/{2,}/g, '/');
      return path.startsWith('~') ? (path === '~' ? '~' : path) : `"${path}"`;
    });
  if (out.includes('/') && (out.includes('"') || out.includes("'")))
    for (let i = 0; i < 8; i++) {
      const m = PATHLIB_STEP.exec(out);
      if (m === null) break;
      const left = m[1] === '~' ? '~' : m[1]!.slice(1, -1);
      const right = m[2]!.slice(1, -1);
      const joined = right === '' ? left : `${left}/${right}`;
      // Quoted, so that the next step joins onto it.
      out = `${out.slice(0, m.index)}${joined === '~' ? '~' : `"${joined}"`}${out.slice(m.index + m[0].length)}`;
    }
  return out;
}
