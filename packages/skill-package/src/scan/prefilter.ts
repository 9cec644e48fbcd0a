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
 * every rule is anchored for its group. The pass itself runs in WebAssembly (assembly/anchors.ts), over tables
 * built here.
 */
import { AnchorPass, GROUPS, PIECE, type AnchorTables, type LineFacts } from './anchor-pass.js';

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
  /**
   * Not groups but what one rule's patterns all need, so a line anchored for the rule by other words is not searched
   * for it: a tool or call that sends over the network (command.exfiltrate), a negation or a word for hiding
   * (agent.conceal-from-user).
   */
  send: 1 << 21,
  negation: 1 << 22,
  /** A downloader or a call that fetches (command.pipe-to-shell). */
  fetch: 1 << 23,
  /** Sending rather than asking: data, a form, a file, a POST or PUT, a tool that only sends (a network-send fact). */
  post: 1 << 24,
  /** A word naming the whole environment (`env`, `printenv`, `environ`, `GetEnvironmentVariables`): an env-dump fact. */
  env: 1 << 25,
  /** The rest of a private key's file name (`id_rsa`, `id_ed25519`): what a key file sent away needs. */
  keyFile: 1 << 26,
  /**
   * The name of a shell start-up file (`.bashrc`, `.bash_login`, `/etc/environment`, `$PROFILE`): what a write to one
   * needs, where `~/`, `$HOME` or `>>` alone name none.
   */
  startupFile: 1 << 27,
} as const;
/** Every group and mark; the bits above them hold the line facts (FACTS). */
export const ALL_GROUPS = (1 << 28) - 1;
/** The marks: what rules of other groups need together, which start no rule of their own. */
export const MARKS = G.send | G.negation | G.fetch | G.post | G.env | G.keyFile | G.startupFile;
/** Every group of instructions to an agent. */
export const AGENT_GROUPS = G.agent | G.override | G.conceal | G.silent | G.bypass | G.ask;

const COMMAND_WORDS: [string[], number][] = [
  // Every downloader or fetching call a download run by a shell starts with, and `iex`, which runs a download named by
  // a longer word (`$c.DownloadStringAsync(u).Result | IEX`).
  [
    [
      'iex',
      'curl',
      'wget',
      'fetch',
      'iwr',
      'irm',
      'invoke',
      'aria2c',
      'downloadstring',
      'downloadfile',
      'webclient',
      'urlopen',
      'requests',
      'httpx',
    ],
    G.fetch,
  ],
  // Every sign of sending a network-send fact needs: `-d`, `--data`, `-F`, `--form`, `-T`, `--upload-file`, `POST`,
  // `.put(`, `data=`, the upload calls, `sendBeacon`, and the tools that only send.
  [
    [
      'd',
      'f',
      't',
      'data',
      'form',
      'upload',
      'post',
      'put',
      'uploadstring',
      'uploadfile',
      'uploaddata',
      'sendbeacon',
      'nc',
      'ncat',
      'netcat',
      'scp',
    ],
    G.post,
  ],
  // Every sending tool or call the exfiltration rule knows (with `.request` and `.send` after a dot).
  [
    [
      'curl',
      'wget',
      'nc',
      'ncat',
      'netcat',
      'socat',
      'scp',
      'rsync',
      'sftp',
      'telnet',
      'requests',
      'httpx',
      'urllib',
      'urlopen',
      'fetch',
      'axios',
      'xmlhttprequest',
      'sendbeacon',
      'smtplib',
      'webclient',
      'uploadstring',
      'uploadfile',
      'uploaddata',
      'invoke',
      'iwr',
      'irm',
    ],
    G.send,
  ],
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
  // Every start-up file rules-command.ts knows names one of these as a whole word (`.bash_login`: `login`).
  [['bashrc', 'profile', 'zshrc', 'zprofile', 'zshenv', 'zlogin', 'kshrc', 'fish', 'login', 'environment'], G.startupFile],
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
      'cookies',
    ],
    G.cred | G.exfil,
  ],
  [['printenv', 'environ', 'env', 'getenvironmentvariables', 'rsa', 'ed25519', 'ecdsa', 'dsa', 'gci'], G.exfil],
  // Every environment dump rules-command.ts knows names one of these as a whole word; `environment` alone does not.
  [['printenv', 'environ', 'env', 'getenvironmentvariables'], G.env],
  [['rsa', 'ed25519', 'ecdsa', 'dsa'], G.keyFile],
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
  // Every concealment pattern names one (`don't` is read as `don` and `t`).
  [['not', 'never', 'without', 'dont', 'don', 'hide', 'hiding', 'hidden', 'conceal', 'concealing'], G.negation],
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
  // `wallet.dat` by its extension: crypto wallets are a common subject, the file rarely named.
  [['ssh', 'aws', 'kube', 'docker', 'netrc', 'npmrc', 'pypirc', 'gnupg', 'azure', 'dat'], G.cred | G.exfil],
  [['env', 'environ', 'send', 'request', 'post', 'put'], G.exfil],
  [['env', 'environ'], G.env],
  [['request', 'send'], G.send],
  [['send'], G.post],
  [['pipe', 'connect', 'spawn'], G.reverse],
  [['profile', 'fish', 'bashrc', 'zshrc'], G.startup],
  [['loads', 'from'], G.obfuscated],
  [['slack'], G.secret],
];

/**
 * Punctuation anchors, by the sequence that starts them; for one first character the first that matches counts.
 * Invisible characters are recognised by code point in the anchor pass itself.
 */
const PUNCTUATION: [string, number][] = [
  ['|', G.pipe],
  ['$(', G.pipe | G.startup],
  ['${', G.pipe | G.startup],
  ['$HOME', G.startup | G.cred],
  ['$PROFILE', G.startup | G.startupFile],
  ['<!--', G.markdown],
  ['<(', G.pipe],
  ['```', G.markdown],
  ['`', G.pipe],
  ['~~~', G.markdown],
  ['~/', G.startup | G.cred],
  ['://', G.url | G.ask],
  [':(', G.remove],
  ['-->', G.markdown],
  ['-----', G.secret],
  ['/dev/', G.reverse | G.remove],
  ['/bin/', G.reverse],
  ['/etc/', G.startup | G.cred],
  ['/spool/', G.startup | G.cred],
  ['>>', G.startup],
  ['\\', G.packed],
];

const SLOTS = 1 << 16;

function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 16)) & (SLOTS - 1);
}

/** A table of groups by word hash: a collision only makes a line be read needlessly, never skipped. */
function table(sets: [string[], number][]): Uint32Array {
  const out = new Uint32Array(SLOTS);
  for (const [words, groups] of sets) for (const w of words) out[hashWord(w)]! |= groups;
  return out;
}

/** Bits of the line facts' byte classes, as assembly/anchors.ts reads them (LINE_*). */
const LINE = { base64: 1, padding: 2, name: 4, nameStart: 8, prefix: 16, quote: 32, comment: 64 } as const;

/** Lines this long or longer are checked for wrapped base64 (rules-hidden.ts). */
export const WRAPPED_MIN = 60;
/** The shortest base64 run reported as a blob (rules-hidden.ts). */
export const BLOB_RUN = 200;

/** The tables the anchor pass reads. */
function tables(): AnchorTables {
  const wordClass = new Uint8Array(256);
  const lower = new Uint8Array(256);
  // Word characters are ASCII letters and digits; `_` separates words, so `MY_AWS_KEY` holds `aws` and
  // `authorized_keys` holds `authorized`. Non-ASCII letters end words.
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[A-Za-z0-9]/.test(ch)) {
      wordClass[c] = 1;
      lower[c] = ch.toLowerCase().charCodeAt(0);
    }
  }
  wordClass[0x0a] = 4;
  wordClass[0x22] = 5;
  wordClass[0x27] = 5;
  const lineClass = new Uint8Array(256);
  const mark = (chars: string, bit: number) => {
    for (const ch of chars) lineClass[ch.charCodeAt(0)]! |= bit;
  };
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  mark(`${letters}0123456789+/`, LINE.base64);
  mark('=\r', LINE.padding);
  mark(`_${letters}0123456789`, LINE.name);
  mark(`_${letters}`, LINE.nameStart);
  mark('rRuUbB', LINE.prefix);
  mark('"\'', LINE.quote);
  mark('#/', LINE.comment);
  // Lead bytes of the invisible characters: U+180E, U+200B…U+2069, U+FEFF, the tags.
  for (const lead of [0xe1, 0xe2, 0xef, 0xf3]) wordClass[lead] = 3;
  // Sequences of one first character together, in their order of precedence.
  const punctuation = [...PUNCTUATION.entries()]
    .sort(([a, [x]], [b, [y]]) => x.charCodeAt(0) - y.charCodeAt(0) || a - b)
    .map(([, [sequence, groups]]): [Uint8Array, number] => [Buffer.from(sequence, 'latin1'), groups]);
  for (const [sequence] of punctuation) wordClass[sequence[0]!] = 2;
  // The shapes of the anchor words, so a word that no anchor could be is skipped without hashing it: indexed by
  // its first character and its length (under 32), the last characters (bit: code & 31) of the anchors of that shape.
  const shapes = new Uint32Array(256 * 32);
  for (const [ws] of [...COMMAND_WORDS, ...INSTRUCTION_WORDS, ...AFTER_DOT])
    for (const w of ws) if (w.length < 32) shapes[(w.charCodeAt(0) << 5) | w.length]! |= 1 << (w.charCodeAt(w.length - 1) & 31);
  return {
    wordClass,
    lower,
    lineClass,
    punctuation,
    shapes,
    wordsAll: table([...COMMAND_WORDS, ...INSTRUCTION_WORDS]),
    wordsScript: table(COMMAND_WORDS),
    prefix2: table(PREFIXES.map(([ws, g]) => [ws.filter((w) => w.length === 2), g])),
    prefix4: table(PREFIXES.map(([ws, g]) => [ws.filter((w) => w.length === 4), g])),
    dotWords: table(AFTER_DOT),
    hidden: G.hidden,
    wrappedMin: WRAPPED_MIN,
    blobRun: BLOB_RUN,
    facts: FACTS,
  };
}

/** Loaded on first use: a registry that scans on worker threads never loads it on the thread serving requests. */
let loaded: AnchorPass | null = null;

function pass(): AnchorPass {
  loaded ??= new AnchorPass(tables());
  return loaded;
}

/** What the anchor pass notes of each line beside its groups, as bits of the `facts` given to LineSink.line. */
export const FACTS: LineFacts = {
  blob: 1 << 28,
  base64: 2 << 28,
  assigns: 4 << 28,
  code: 8 << 28,
  // Noted in the top bits of a line's third word, and handed over in the free low bits of its facts.
  emptyQuotes: 1,
  dollar: 2,
};

export interface LineSink {
  /**
   * Line `line` spans bytes[start, end), its anchors name `groups` (0: none), and `facts` (FACTS) hold of it. `prose`:
   * the groups its words name read as prose, instruction words included even in a script (to be or'd with `groups`).
   */
  line(start: number, end: number, line: number, groups: number, facts: number, prose: number): void;
}

/**
 * Splits bytes[start, end) (whole lines separated by 0x0A) into lines and calls `sink.line` for each with the
 * groups its anchors name and the facts that hold of it; returns the number of lines. `forScript` leaves out the instruction words, which only
 * prose is read for.
 */
export function anchorLines(b: Uint8Array, start: number, end: number, firstLine: number, forScript: boolean, sink: LineSink): number {
  let line = firstLine;
  let at = start;
  for (;;) {
    // A piece ends at a line end: the last one within PIECE bytes, or else the first one after (a single long line).
    let pieceEnd = end;
    if (end - at > PIECE) {
      const last = b.lastIndexOf(0x0a, at + PIECE - 1);
      pieceEnd = last >= at ? last : b.indexOf(0x0a, at + PIECE);
      if (pieceEnd === -1 || pieceEnd > end) pieceEnd = end;
    }
    const found = pass().lines(b.subarray(at, pieceEnd), forScript);
    let lineStart = at;
    for (let k = 0; k < found.length; k += 3) {
      const lineEnd = at + found[k]!;
      const word = found[k + 1]!;
      const prose = found[k + 2]!;
      sink.line(lineStart, lineEnd, line, word & GROUPS, (word & ~GROUPS) | (prose >>> 28), prose & GROUPS);
      lineStart = lineEnd + 1;
      line += 1;
    }
    if (pieceEnd >= end) return line - firstLine;
    at = pieceEnd + 1;
  }
}

/** The groups a text's anchors name, read as one line (line ends in it separate words as spaces do). */
export function groupsOfLine(text: string, forScript: boolean): number {
  return pass().text(text, forScript);
}
