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
  /** Instructions to an agent, one group per rule, so a common word starts only the rule it belongs to. */
  override: 1 << 16,
  conceal: 1 << 17,
  silent: 1 << 18,
  bypass: 1 << 19,
  /** Requests to send data somewhere (agent.exfiltrate-data). */
  ask: 1 << 20,
} as const;
export const ALL_GROUPS = (1 << 21) - 1;
/** Every group of instructions to an agent. */
export const AGENT_GROUPS = G.agent | G.override | G.conceal | G.silent | G.bypass | G.ask;

const COMMAND_WORDS: [string[], number][] = [
  [['iex', 'invoke', 'downloadstring', 'webclient', 'urlopen', 'requests', 'httpx'], G.pipe | G.exfil],
  // A download made executable and run (`wget … -O f && chmod +x f && ./f`) is read as a pipe to a shell.
  [['chmod'], G.pipe],
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
  [['rm', 'rmdir', 'rmtree', 'rmsync', 'rd', 'remove', 'mkfs', 'find'], G.remove | G.cover],
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
      'priority',
      'longer',
      'apply',
      'obey',
    ],
    G.override,
  ],
  [
    [
      'errors',
      'commands',
      'actions',
      'steps',
      'failures',
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
      'hidden',
      'conceal',
      'concealing',
    ],
    G.conceal,
  ],
  [['silently', 'secretly', 'covertly', 'stealthily'], G.silent],
  [['webhook', 'webhooks', 'remote', 'exfiltrate'], G.ask],
  [
    [
      'dangerously',
      'yolo',
      'disable',
      'disabling',
      'circumvent',
      'bypass',
      'confirmation',
      'approval',
      'permission',
      'asking',
      'prompting',
    ],
    G.bypass,
  ],
];

/** Prefixes of a word (three or four characters), for tokens whose rest varies. */
const PREFIXES: [string[], number][] = [
  [['akia', 'asia', 'abia', 'acca', 'aiza'], G.secret],
  [['0x'], G.packed],
];

/** Words right after a dot: file names (`~/.ssh`), members (`os.environ`, `socket.send`, `.pipe(`). */
const AFTER_DOT: [string[], number][] = [
  [['ssh', 'aws', 'kube', 'docker', 'netrc', 'npmrc', 'pypirc', 'gnupg', 'git', 'azure'], G.cred | G.exfil],
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
  return mix(h);
}

function table(sets: [string[], number][]): Uint32Array {
  const out = new Uint32Array(SLOTS);
  for (const [words, groups] of sets) for (const w of words) out[hashWord(w)]! |= groups;
  return out;
}

const WORDS_ALL = table([...COMMAND_WORDS, ...INSTRUCTION_WORDS]);
const WORDS_SCRIPT = table(COMMAND_WORDS);
const PREFIX_2 = table(PREFIXES.map(([ws, g]) => [ws.filter((w) => w.length === 2), g]));
const PREFIX_4 = table(PREFIXES.map(([ws, g]) => [ws.filter((w) => w.length === 4), g]));
const DOT_WORDS = table(AFTER_DOT);

/**
 * The shapes of the anchor words, so a word that no anchor could be is skipped without hashing it: indexed by its
 * first character and its length (under 32), the last characters (bit: code & 31) of the anchors of that shape.
 */
const SHAPES = new Uint32Array(256 * 32);
for (const [ws] of [...COMMAND_WORDS, ...INSTRUCTION_WORDS, ...AFTER_DOT])
  for (const w of ws) if (w.length < 32) SHAPES[(w.charCodeAt(0) << 5) | w.length]! |= 1 << (w.charCodeAt(w.length - 1) & 31);

/**
 * Byte classes: 1 word character (ASCII letters and digits; lower-cased in LOWER), 2 punctuation that may start an
 * anchor, 3 a UTF-8 lead byte that may start an invisible character, 4 a line end. `_` separates words, so
 * `MY_AWS_KEY` holds `aws` and `authorized_keys` holds `authorized`. Non-ASCII letters end words.
 */
const CLASS = new Uint8Array(256);
const LOWER = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9]/.test(ch)) {
    CLASS[c] = 1;
    LOWER[c] = ch.toLowerCase().charCodeAt(0);
  } else if ('|$<`~:-/@>\\'.includes(ch)) CLASS[c] = 2;
}
CLASS[0x0a] = 4;
CLASS[0xe1] = 3;
CLASS[0xe2] = 3;
CLASS[0xef] = 3;
CLASS[0xf3] = 3;

function mix(h: number): number {
  return (h ^ (h >>> 16)) & (SLOTS - 1);
}

/**
 * Whether the UTF-8 sequence at `i` is one of the invisible characters rules-hidden.ts looks for: U+200B–U+200F,
 * U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+180E, U+FEFF, or a tag character (U+E0000–U+E007F).
 */
function invisibleAt(b: Uint8Array, i: number): boolean {
  const lead = b[i]!;
  const x = b[i + 1] ?? 0;
  const y = b[i + 2] ?? 0;
  if (lead === 0xe2) {
    if (x === 0x80) return (y >= 0x8b && y <= 0x8f) || (y >= 0xaa && y <= 0xae);
    if (x === 0x81) return (y >= 0xa0 && y <= 0xa4) || (y >= 0xa6 && y <= 0xa9);
    return false;
  }
  if (lead === 0xef) return x === 0xbb && y === 0xbf;
  if (lead === 0xe1) return x === 0xa0 && y === 0x8e;
  return x === 0xa0 && (y === 0x80 || y === 0x81);
}

function startsWith(b: Uint8Array, i: number, ascii: string): boolean {
  if (i + ascii.length > b.length) return false;
  for (let k = 0; k < ascii.length; k++) if (b[i + k] !== ascii.charCodeAt(k)) return false;
  return true;
}

/** The prefix groups of the word b[from, to), which starts with `a` or `0` and is at least two bytes long. */
function prefixGroups(b: Uint8Array, from: number, to: number): number {
  let p = Math.imul(0x811c9dc5 ^ LOWER[b[from]!]!, 0x01000193);
  p = Math.imul(p ^ LOWER[b[from + 1]!]!, 0x01000193);
  let groups = PREFIX_2[mix(p)]!;
  if (to - from >= 4) {
    p = Math.imul(p ^ LOWER[b[from + 2]!]!, 0x01000193);
    p = Math.imul(p ^ LOWER[b[from + 3]!]!, 0x01000193);
    groups |= PREFIX_4[mix(p)]!;
  }
  return groups;
}

/** Groups started by punctuation at `i` (whose byte is `c`). */
function punctuation(b: Uint8Array, i: number, c: number): number {
  switch (c) {
    case 0x7c: // |
      return G.pipe;
    case 0x24: // $
      return startsWith(b, i, '$(') || startsWith(b, i, '${')
        ? G.pipe | G.startup
        : startsWith(b, i, '$HOME')
          ? G.startup | G.cred
          : startsWith(b, i, '$PROFILE')
            ? G.startup
            : 0;
    case 0x3c: // <
      return startsWith(b, i, '<!--') ? G.markdown : startsWith(b, i, '<(') ? G.pipe : 0;
    case 0x60: // `
      return startsWith(b, i, '```') ? G.markdown : G.pipe;
    case 0x7e: // ~
      return startsWith(b, i, '~~~') ? G.markdown : startsWith(b, i, '~/') ? G.startup | G.cred : 0;
    case 0x3a: // :
      return startsWith(b, i, '://') ? G.url | G.ask : startsWith(b, i, ':(') ? G.remove : 0;
    case 0x2d: // -
      return startsWith(b, i, '-->') ? G.markdown : startsWith(b, i, '-----') ? G.secret : 0;
    case 0x2f: // /
      return startsWith(b, i, '/dev/')
        ? G.reverse | G.remove
        : startsWith(b, i, '/bin/')
          ? G.reverse
          : startsWith(b, i, '/etc/') || startsWith(b, i, '/spool/')
            ? G.startup | G.persist | G.cred
            : 0;
    case 0x40: // @
      return G.persist;
    case 0x3e: // >
      return startsWith(b, i, '>>') ? G.startup | G.persist | G.keys : 0;
    case 0x5c: // \
      return G.persist | G.packed;
    default:
      return 0;
  }
}

export interface LineSink {
  /** Line `line` spans bytes[start, end) and its anchors name `groups` (0: none). */
  line(start: number, end: number, line: number, groups: number): void;
}

/**
 * Splits bytes[start, end) (whole lines separated by 0x0A) into lines and calls `sink.line` for each with the
 * groups its anchors name; returns the number of lines. `forScript` leaves out the instruction words, which only
 * prose is read for.
 */
export function anchorLines(b: Uint8Array, start: number, end: number, firstLine: number, forScript: boolean, sink: LineSink): number {
  const words = forScript ? WORDS_SCRIPT : WORDS_ALL;
  let lineStart = start;
  let line = firstLine;
  let groups = 0;
  let i = start;
  while (i < end) {
    const c = b[i]!;
    const cls = CLASS[c]!;
    if (cls === 0) {
      i++;
      continue;
    }
    if (cls === 1) {
      // A whole word at once; it is hashed only if an anchor starts with its first character and has its length.
      const wordStart = i;
      i++;
      while (i < end && CLASS[b[i]!] === 1) i++;
      const length = i - wordStart;
      const first = LOWER[c]!;
      if (length < 32 && (SHAPES[(first << 5) | length]! & (1 << (LOWER[b[i - 1]!]! & 31))) !== 0) {
        let h = 0x811c9dc5;
        for (let k = wordStart; k < i; k++) h = Math.imul(h ^ LOWER[b[k]!]!, 0x01000193);
        const slot = mix(h);
        groups |= words[slot]!;
        if (wordStart > 0 && b[wordStart - 1] === 0x2e) groups |= DOT_WORDS[slot]!;
      }
      // Only words starting with `a` (access keys) or `0` (0x names) have prefix anchors.
      if ((first === 0x61 || first === 0x30) && length >= 2) groups |= prefixGroups(b, wordStart, i);
      continue;
    }
    if (cls === 4) {
      sink.line(lineStart, i, line, groups);
      lineStart = i + 1;
      line += 1;
      groups = 0;
    } else if (cls === 2) groups |= punctuation(b, i, c);
    else if (invisibleAt(b, i)) groups |= G.hidden;
    i++;
  }
  sink.line(lineStart, end, line, groups);
  return line - firstLine + 1;
}

/** The groups a single line's anchors name (for tests). */
export function groupsOfLine(text: string, forScript: boolean): number {
  let out = 0;
  const bytes = Buffer.from(text.replace(/\n/g, ' '));
  anchorLines(bytes, 0, bytes.length, 1, forScript, { line: (_s, _e, _l, g) => (out |= g) });
  return out;
}
