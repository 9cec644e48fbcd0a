/**
 * The cheap test every line passes before the rules read it: one pass over the characters of a block of lines
 * that splits it into words and looks each word up in a small hash table of anchors — words (and a few
 * character sequences) without which no rule of a group can match. A line is read only by the rule groups its
 * anchors name; a line without an anchor costs its characters and nothing more.
 *
 * Words are runs of ASCII letters and digits, compared in lower case: whole (`curl`), by their first two or four
 * characters (`akia…` access keys, `0x…` obfuscated names), or right after a dot (`~/.ssh`, `os.environ`).
 * The table is indexed by a 16-bit hash: a collision only makes a line be read needlessly, never skipped.
 * Punctuation anchors (`|`, `$(`, `<!--`, `://`, `/dev/`…) are checked where their first character appears, and
 * invisible characters are recognised by code point. test/packages/scan checks that the positive example of
 * every rule is anchored for its group.
 */

/** Rule groups, as bits. */
export const G = {
  hidden: 1,
  url: 2,
  secret: 4,
  agent: 8,
  pipe: 16,
  reverse: 32,
  remove: 64,
  startup: 128,
  persist: 256,
  keys: 512,
  cred: 1024,
  exfil: 2048,
  obfuscated: 4096,
  cover: 8192,
  packed: 16384,
  markdown: 32768,
} as const;
export const ALL_GROUPS = 65535;

const COMMAND_WORDS: [string[], number][] = [
  [['iex', 'invoke', 'downloadstring', 'webclient', 'urlopen', 'requests', 'httpx'], G.pipe | G.exfil],
  [
    [
      'curl',
      'wget',
      'fetch',
      'iwr',
      'irm',
      'aria2c',
      'urllib',
      'axios',
      'xmlhttprequest',
      'sendbeacon',
      'smtplib',
      'uploadstring',
      'uploadfile',
      'uploaddata',
      'scp',
      'rsync',
      'sftp',
      'telnet',
    ],
    G.exfil,
  ],
  [
    ['nc', 'ncat', 'netcat', 'socat', 'socket', 'tcpclient', 'tcpsocket', 'dup2', 'pty', 'getstream', 'spawn', 'createconnection'],
    G.reverse | G.exfil,
  ],
  [['rm', 'rmdir', 'rmtree', 'rmsync', 'rd', 'remove', 'mkfs'], G.remove | G.cover],
  [['bashrc', 'profile', 'zshrc', 'zprofile', 'zshenv', 'zlogin', 'kshrc', 'fish'], G.startup],
  [
    [
      'crontab',
      'cron',
      'reboot',
      'launchctl',
      'launchagents',
      'launchdaemons',
      'systemctl',
      'systemd',
      'schtasks',
      'currentversion',
      'startup',
    ],
    G.persist,
  ],
  [['authorized', 'authorized_keys2'], G.keys],
  [
    [
      'gcloud',
      'credentials',
      'gcloud',
      'netrc',
      'npmrc',
      'pypirc',
      'gnupg',
      'shadow',
      'login',
      'key3',
      'key4',
      'logins',
      'keychain',
      'keychains',
      'generic',
      'internet',
      'chrome',
      'firefox',
      'bravesoftware',
      'chromium',
      'wallet',
      'cookies',
    ],
    G.cred | G.exfil,
  ],
  [['printenv', 'environ', 'env', 'getenvironmentvariables', 'rsa', 'ed25519', 'ecdsa', 'dsa', 'gci'], G.exfil],
  [
    [
      'base64',
      'xxd',
      'openssl',
      'eval',
      'exec',
      'scriptblock',
      'atob',
      'b64decode',
      'b32decode',
      'b85decode',
      'a85decode',
      'decodebytes',
      'decode64',
      'frombase64string',
      'fromhex',
      'unhexlify',
      'decompress',
      'marshal',
      'gzinflate',
      'gzuncompress',
      'rot13',
      'fromcharcode',
      'powershell',
      'pwsh',
    ],
    G.obfuscated | G.pipe | G.packed,
  ],
  [['history', 'histfile', 'histsize', 'clear', 'wevtutil'], G.cover],
  [
    [
      'aws',
      'awssecretaccesskey',
      'glpat',
      'xoxa',
      'xoxb',
      'xoxp',
      'xoxo',
      'xoxs',
      'xoxr',
      'hooks',
      'sk',
      'rk',
      'ghp',
      'gho',
      'ghu',
      'ghs',
      'ghr',
      'pat',
      'npm',
      'hf',
    ],
    G.secret,
  ],
];

/** Words that start an instruction to an agent (Markdown and other text, not scripts). */
const INSTRUCTION_WORDS: [string[], number][] = [
  [
    [
      'ignore',
      'disregard',
      'forget',
      'override',
      'bypass',
      'jailbroken',
      'jailbreak',
      'unrestricted',
      'unfiltered',
      'dan',
      'developer',
      'prompt',
      'void',
      'revoked',
      'overridden',
      'obsolete',
      'follow',
      'tell',
      'telling',
      'inform',
      'informing',
      'mention',
      'mentioning',
      'notify',
      'notifying',
      'alert',
      'alerting',
      'show',
      'showing',
      'reveal',
      'revealing',
      'disclose',
      'disclosing',
      'let',
      'know',
      'notice',
      'aware',
      'told',
      'informed',
      'learn',
      'hide',
      'hiding',
      'conceal',
      'concealing',
      'silently',
      'secretly',
      'covertly',
      'stealthily',
      'webhook',
      'webhooks',
      'remote',
      'dangerously',
      'yolo',
      'disable',
      'disabling',
      'circumvent',
      'confirmation',
      'approval',
      'permission',
      'asking',
      'prompting',
      'exfiltrate',
    ],
    G.agent,
  ],
];

/** Prefixes of a word (three or four characters), for tokens whose rest varies. */
const PREFIXES: [string[], number][] = [
  [['akia', 'asia', 'abia', 'acca', 'aiza'], G.secret],
  [['0x'], G.packed],
];

/** Words right after a dot: file names (`~/.ssh`), members (`os.environ`, `socket.send`, `.pipe(`). */
const AFTER_DOT: [string[], number][] = [
  [['ssh', 'aws', 'kube', 'docker', 'netrc', 'npmrc', 'pypirc', 'gnupg', 'git'], G.cred | G.exfil],
  [['env', 'environ', 'send', 'request', 'post', 'put'], G.exfil],
  [['pipe', 'connect', 'spawn'], G.reverse],
  [['profile', 'fish', 'bashrc', 'zshrc'], G.startup],
  [['loads', 'from'], G.obfuscated],
  [['slack'], G.secret],
];

const SLOTS = 1 << 16;

function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) & (SLOTS - 1);
}

function table(sets: [string[], number][]): Uint16Array {
  const out = new Uint16Array(SLOTS);
  for (const [words, groups] of sets) for (const w of words) out[hashWord(w)]! |= groups;
  return out;
}

const WORDS_ALL = table([...COMMAND_WORDS, ...INSTRUCTION_WORDS]);
const WORDS_SCRIPT = table(COMMAND_WORDS);
const PREFIX_2 = table(PREFIXES.map(([ws, g]) => [ws.filter((w) => w.length === 2), g]));
const PREFIX_4 = table(PREFIXES.map(([ws, g]) => [ws.filter((w) => w.length === 4), g]));
const DOT_WORDS = table(AFTER_DOT);

/**
 * Character classes: 1 word character (letters and digits, lower-cased code in LOWER), 2 punctuation that may start
 * an anchor. `_` separates words, so `MY_AWS_KEY` holds `aws` and `authorized_keys` holds `authorized`.
 */
const CLASS = new Uint8Array(128);
const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9]/.test(ch)) {
    CLASS[c] = 1;
    LOWER[c] = ch.toLowerCase().charCodeAt(0);
  } else if ('|$<`~:-/@>\\'.includes(ch)) CLASS[c] = 2;
}

function isInvisible(c: number): boolean {
  return (
    (c >= 0x200b && c <= 0x200f) ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0xfeff ||
    c === 0x180e ||
    c === 0xdb40
  );
}

/** Groups started by punctuation at `i` (whose code is `c`). */
function punctuation(text: string, i: number, c: number): number {
  switch (c) {
    case 0x7c: // |
      return G.pipe | G.exfil | G.obfuscated;
    case 0x24: // $
      return text.startsWith('$(', i) || text.startsWith('${', i)
        ? G.pipe | G.exfil | G.startup
        : text.startsWith('$HOME', i)
          ? G.startup | G.cred
          : text.startsWith('$PROFILE', i)
            ? G.startup
            : 0;
    case 0x3c: // <
      return text.startsWith('<!--', i) ? G.markdown : text.startsWith('<(', i) ? G.pipe : 0;
    case 0x60: // `
      return text.startsWith('```', i) ? G.markdown : G.pipe | G.exfil;
    case 0x7e: // ~
      return text.startsWith('~~~', i) ? G.markdown : text.startsWith('~/', i) ? G.startup | G.cred : 0;
    case 0x3a: // :
      return text.startsWith('://', i) ? G.url | G.agent : text.startsWith(':(', i) ? G.remove : 0;
    case 0x2d: // -
      return text.startsWith('-->', i) ? G.markdown : text.startsWith('-----', i) ? G.secret : 0;
    case 0x2f: // /
      return text.startsWith('/dev/', i)
        ? G.reverse | G.remove
        : text.startsWith('/bin/', i)
          ? G.reverse
          : text.startsWith('/etc/', i) || text.startsWith('/spool/', i)
            ? G.startup | G.persist | G.cred
            : 0;
    case 0x40: // @
      return G.persist;
    case 0x3e: // >
      return text.startsWith('>>', i) ? G.startup | G.persist | G.keys : 0;
    case 0x5c: // \
      return G.persist;
    default:
      return 0;
  }
}

export interface LineSink {
  /** Line `line` spans text[start, end) and its anchors name `groups` (0: none). */
  line(start: number, end: number, line: number, groups: number): void;
}

/**
 * Splits text[start, end) (whole lines joined by `\n`) into lines and calls `sink.line` for each with the groups its
 * anchors name. `forScript` leaves out the instruction words, which only prose is read for.
 */
export function anchorLines(text: string, start: number, end: number, firstLine: number, forScript: boolean, sink: LineSink): void {
  const words = forScript ? WORDS_SCRIPT : WORDS_ALL;
  const n = end;
  let lineStart = start;
  let line = firstLine;
  let groups = 0;
  let wordStart = -1;
  let h = 0;
  let h2 = 0;
  let h4 = 0;
  let afterDot = false;
  for (let i = start; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0x0a;
    const cls = c < 128 ? CLASS[c]! : 0;
    if (cls === 1) {
      if (wordStart === -1) {
        wordStart = i;
        h = 0x811c9dc5;
        afterDot = i > start && text.charCodeAt(i - 1) === 0x2e;
      }
      h = Math.imul(h ^ LOWER[c]!, 0x01000193);
      const length = i - wordStart + 1;
      if (length === 2) h2 = h;
      else if (length === 4) h4 = h;
      continue;
    }
    if (wordStart !== -1) {
      const length = i - wordStart;
      const slot = (h ^ (h >>> 16)) & (SLOTS - 1);
      groups |= words[slot]!;
      if (afterDot) groups |= DOT_WORDS[slot]!;
      if (length >= 2) groups |= PREFIX_2[(h2 ^ (h2 >>> 16)) & (SLOTS - 1)]!;
      if (length >= 4) groups |= PREFIX_4[(h4 ^ (h4 >>> 16)) & (SLOTS - 1)]!;
      wordStart = -1;
    }
    if (c === 0x0a) {
      sink.line(lineStart, i, line, groups);
      lineStart = i + 1;
      line += 1;
      groups = 0;
    } else if (cls === 2) groups |= punctuation(text, i, c);
    else if (c >= 0x180e && isInvisible(c)) groups |= G.hidden;
  }
}

/** The groups a single line's anchors name (for tests). */
export function groupsOfLine(text: string, forScript: boolean): number {
  let out = 0;
  const flat = text.replace(/\n/g, ' ');
  anchorLines(flat, 0, flat.length, 1, forScript, { line: (_s, _e, _l, g) => (out |= g) });
  return out;
}
