/**
 * Dangerous commands, in scripts (all lines), in Markdown code blocks and hidden comments, and in prose.
 *
 * Weighing (each rule's weights, catalogue.ts): a script runs, so a match there weighs the rule's full severity; a
 * Markdown code block is usually documentation that a person or agent may run, and weighs less; prose mentions
 * it (a security skill explaining reverse shells) and weighs least; a hidden Markdown comment weighs like a
 * script and at least `high`. A download run straight from a raw IP address, a collector or tunnel, or a URL
 * shortener adds a `combo.remote-code` finding; a reverse shell aimed at a public IP weighs one step more.
 *
 * Every rule is a short literal-anchored expression followed by plain string checks on the same line, so no
 * expression has open-ended gaps to backtrack over.
 */
import { anyOf } from './alternation.js';
import { G, weightsOf } from './catalogue.js';
import type { LineInput } from './file-state.js';
import { noteFact, report } from './report.js';
import { inContext, raise } from './severity.js';
import { notableDestination } from './urls.js';
import type { Severity } from './types.js';

/** A loopback or private address, or localhost: where a training reverse shell points. */
const PRIVATE_HOST =
  /\b(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3})\b/;

function fire(input: LineInput, rule: string, index: number, length: number, steps = 0, message?: string): void {
  const severity: Severity = raise(inContext(weightsOf(rule), input.context), steps);
  report(input, rule, severity, index, length, message);
}

// Downloads run by a shell or interpreter.
const SHELL_SINK =
  /\|\s*(?:sudo\s+(?:-[A-Za-z]+\s+)?)?(?:env\s+)?(?:(?:ba|z|da|k|fi|c|tc)?sh|python[0-9.]*|node|perl|ruby|php|iex|invoke-expression|pwsh|powershell(?:\.exe)?)(?![\w-])/gi;
const DOWNLOADER = /\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|aria2c|downloadstring)\b|\bnet\.webclient\b/i;
const SUBSHELL = /(?:^|[\s;&("'])(?:(?:ba|z|da|k)?sh|source|eval|python[0-9.]*|\.)\s+(?:-c\s+)?\\?["']?(?:\$\(|<\(|`)\s*(?:curl|wget)\b/gi;
const IEX = /\b(?:iex|invoke-expression)\b/i;
const PS_DOWNLOAD = /downloadstring|downloadfile|\biwr\b|\birm\b|invoke-webrequest|invoke-restmethod|net\.webclient/i;
const EXEC_REMOTE = [
  /\b(?:exec|eval)\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|httpx\.get)\s*\(/i,
  /\beval\(\s?(?:await )?\(?(?:await )?fetch\(/i,
];

/**
 * A download piped into a shell within one command list: one left-to-right pass over downloaders, separators
 * and shell sinks, so a line of many pipes costs no more than one of few.
 */
export const PIPE_TOKENS = new RegExp(`(${DOWNLOADER.source})|(;|&&|\\|\\|)|(${SHELL_SINK.source})`, 'gi');

/**
 * The option that makes an interpreter run code given on its command line rather than what it reads: `sh -c`,
 * `python -c`, `perl -e`, `ruby -e`, `node -e`, `php -r`. A download piped into `python3 -c "…decompress(stdin)…"`
 * is data for that code, not a program. (`sh -e` is errexit and `bash -s` reads the program from the pipe.)
 */
const INLINE_CODE: readonly [RegExp, RegExp][] = [
  [/(?:^|[\s|])(?:ba|z|da|k|fi|c|tc)?sh$/i, /^-[abd-z]*c[a-z]*$/],
  [/python[0-9.]*$/i, /^-[a-zA-Z]*c$/],
  [/(?:perl|ruby)$/i, /^-[a-zA-Z]*[eE]$/],
  [/node$/i, /^(?:-[ep]|--eval|--print)$/],
  [/php$/i, /^-r$/],
];

/** Inline code that runs what it reads after all: `sh -c "$(cat)"`, `python -c "exec(sys.stdin.read())"`. */
const RUNS_INPUT =
  /\b(?:exec|eval|source|system|popen|subprocess|spawn\w*|execSync|compile|Function|runpy|do|sh|bash)\b|\$\(|`|\/dev\/stdin/;

/**
 * Whether the interpreter named at the end of `sink` is given inline code by one of the next options in `rest`,
 * code that does not run what it reads.
 */
function runsInlineCode(sink: string, rest: string): boolean {
  const flag = INLINE_CODE.find(([name]) => name.test(sink))?.[1];
  if (flag === undefined) return false;
  for (const word of rest.trimStart().split(/\s+/, 4)) {
    if (!word.startsWith('-')) return false;
    if (flag.test(word)) return !RUNS_INPUT.test(rest.slice(rest.indexOf(word) + word.length));
  }
  return false;
}

function downloadIntoShell(text: string): { index: number; length: number } | null {
  PIPE_TOKENS.lastIndex = 0;
  let downloader = -1;
  let m: RegExpExecArray | null;
  while ((m = PIPE_TOKENS.exec(text)) !== null) {
    if (m[1] !== undefined) {
      if (downloader === -1) downloader = m.index;
    } else if (m[2] !== undefined) downloader = -1;
    else if (downloader !== -1 && !runsInlineCode(m[0], text.slice(m.index + m[0].length, m.index + m[0].length + 200)))
      return { index: downloader, length: m.index + m[0].length - downloader };
  }
  return null;
}

/**
 * What every way of running a download names: a downloader, or a call that fetches. A line without one (a table
 * row, a template literal) is not read further.
 */
const FETCHES =
  /curl|wget|fetch|iwr|irm|invoke-(?:webrequest|restmethod)|aria2c|download(?:string|file)|webclient|urlopen|requests\.get|httpx\.get/;

/**
 * Whether a line may run a download: every way pipeToShell knows starts from a downloader or fetching call the anchors
 * mark (G.fetch), or from `iex` running a download named by a longer word (`DownloadStringAsync`), which they mark too.
 * (Its text is not read: most lines anchored for a pipe are a Markdown table's row or inline code.)
 */
function mayRunDownload(groups: number): boolean {
  return (groups & G.fetch) !== 0;
}

function pipeToShell(input: LineInput, lower: string, groups: number): void {
  if (!FETCHES.test(lower)) return;
  const { text } = input;
  let at: { index: number; length: number } | null = null;
  if (lower.includes('|')) at = downloadIntoShell(text);
  // Each pattern below names what it needs; a line without it is not searched (most lines that fetch run nothing).
  const fetcher = lower.includes('curl') || lower.includes('wget');
  if (at === null && fetcher && (lower.includes('$(') || lower.includes('<(') || lower.includes('`'))) {
    SUBSHELL.lastIndex = 0;
    const m = SUBSHELL.exec(text);
    if (m !== null) at = { index: m.index, length: m[0].length };
  }
  let cradle = false;
  if (at === null && (lower.includes('iex') || lower.includes('invoke-expression')) && IEX.test(text) && PS_DOWNLOAD.test(text)) {
    const m = IEX.exec(text)!;
    at = { index: m.index, length: m[0].length };
    // A PowerShell download cradle runs a string from the network without ever writing a file: malware's way.
    cradle = true;
  }
  // `exec` and `eval` are words the anchors mark for decoded code (G.obfuscated).
  if ((groups & G.obfuscated) !== 0 && (lower.includes('exec') || lower.includes('eval'))) {
    for (const pattern of EXEC_REMOTE) {
      const m = at === null ? pattern.exec(text) : null;
      if (m !== null) at = { index: m.index, length: m[0].length };
    }
  }
  if (at === null && fetcher && lower.includes('chmod')) at = downloadThenRun(text);
  if (at === null) return;
  // An installer shown to a person is typed into a shell; one wrapped in another program's shell call (python -c
  // "os.system(…)", execSync(…)) is meant to run unseen: two steps more.
  const wrapped = SHELL_CALL.test(text);
  fire(input, 'command.pipe-to-shell', at.index, at.length, (cradle ? 1 : 0) + (wrapped ? 2 : 0));
  const destination = notableDestination(text, true);
  if (destination !== null) {
    const what =
      destination.kind === 'raw-ip'
        ? 'a raw IP address'
        : destination.throwaway === true
          ? 'a host under a throw-away domain or named like a vendor it does not belong to'
          : destination.kind === 'collector' || destination.kind === 'messaging'
            ? 'a collector or tunnel service'
            : 'a shortened URL';
    // A top-level domain cheap to register is a hint, not a verdict: real projects publish installers under them too.
    // Shown in documentation it weighs a step less; a script that runs it keeps the full weight.
    const steps = destination.throwaway === true && input.context !== 'script' ? -1 : 0;
    fire(
      input,
      'combo.remote-code',
      destination.index,
      destination.length,
      steps,
      `A command runs code downloaded from ${what}; what runs can change at any time and cannot be traced to a publisher.`,
    );
  }
}

/** A program handing a command line to the shell: Python's os.system and subprocess, Node's child_process, popen. */
const SHELL_CALL =
  /\bos\.(?:system|popen)\s*\(|\bsubprocess\.\w+\s*\(|\b(?:execSync|exec|spawnSync|spawn|execFileSync)\s*\(\s*["'`]|\bpopen\s*\(/;
const CHMOD_X = /\bchmod\s+(?:[ugoa]*\+x|0?[0-7]?[1357][0-7]{2})\s+(["']?)([\w./~$-]{1,200})\1/g;
/** The next command of the list, as a path run directly or by a shell. */
const RUN_NEXT = /^\s*(?:&&|;)\s*(?:(?:ba|z)?sh\s+|sudo\s+)?([\w./~$-]{1,200})/;
const FETCHER = /\b(?:curl|wget)\b/g;
const OUTPUT_FILE = /\s(?:-o|-O|--output|--output-document)(?:\s+|=)["']?([\w./~$-]{1,200})/;

/**
 * A file downloaded, made executable and run in one command list (`wget URL -O f && chmod +x f && ./f`): a pipe to
 * a shell by another name. The downloaded path must be the one made executable, and run after it.
 */
function downloadThenRun(text: string): { index: number; length: number } | null {
  FETCHER.lastIndex = 0;
  const fetched = FETCHER.exec(text);
  if (fetched === null) return null;
  // The download's own command: up to the next separator, at most 400 characters.
  const rest = text.slice(fetched.index, fetched.index + 400);
  const end = rest.search(/[;&|]/);
  const output = OUTPUT_FILE.exec(end === -1 ? rest : rest.slice(0, end));
  if (output === null) return null;
  const file = output[1]!;
  CHMOD_X.lastIndex = fetched.index;
  let m: RegExpExecArray | null;
  while ((m = CHMOD_X.exec(text)) !== null) {
    if (m[2] !== file) continue;
    const run = RUN_NEXT.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 400));
    if (run !== null && run[1]!.replace(/^\.\//, '') === file.replace(/^\.\//, '')) {
      return { index: fetched.index, length: m.index + m[0].length - fetched.index };
    }
  }
  return null;
}

/** Matches of one anchor looked at per line: real lines hold a few; a window of repeated decoys stops here. */
const MAX_TRIES = 64;

// Reverse shells.
const DEV_TCP = /\/dev\/(?:tcp|udp)\/[^\s/]{1,253}\/\d{1,5}/gi;
const DEV_TCP_SHELL = /\b(?:ba|z)?sh\s+-i\b|0>&1|>&\s*\/dev\/(?:tcp|udp)|\bwhile\s+read\b|<&\s*\d/i;
const NETCAT = /\b(?:nc|ncat|netcat)(?:\.exe)?\b/gi;
/** A flag group holding -e or -c, then a program: `nc -e /bin/sh`, `nc -lvp 4444 -c bash`. */
const NETCAT_FLAG = /\s-([a-z]{1,6})\s{1,4}(\S{1,60})/gi;
const NETCAT_LONG_EXEC = /--(?:sh-)?exec\b/i;
const SHELL_PROGRAM = /(?:sh|cmd|powershell)(?:\.exe)?$/i;

function netcatRunsShell(tail: string): boolean {
  if (NETCAT_LONG_EXEC.test(tail)) return true;
  NETCAT_FLAG.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = NETCAT_FLAG.exec(tail)) !== null) {
    if (/[ec]/i.test(m[1]!) && SHELL_PROGRAM.test(m[2]!.replace(/["']/g, ''))) return true;
  }
  return false;
}
const INTERACTIVE_SHELL = /\b(?:ba|z)?sh\s+-i\b|\bmkfifo\b/i;
const SOCAT = /\bsocat\b/i;
const SOCAT_EXEC = /\b(?:exec|system):/i;
const SOCKET = /\bsocket\b|\bTCPSocket\b|\bnet\.Socket\b|\bnet\.connect\b|Net\.Sockets\.TCPClient/i;
const SOCKET_SHELL = [
  /\bdup2\b|pty\.spawn|GetStream\s*\(/i,
  /\bexec(?:\s*\()?\s*["']\/bin\/(?:ba)?sh/i,
  /subprocess\.(?:call|Popen|run)\s*\(\s*\[\s*["']\/bin\/(?:ba)?sh/i,
  /spawn\s*\(\s*["'](?:\/bin\/)?(?:ba)?sh["']/i,
];
/** Lines of a reverse shell spread over a script: the connection, and the shell attached to it. */
const SOCKET_CONNECT = [
  // A Unix-domain socket stays on the machine.
  /\bsocket\.socket\s*\((?!\s*(?:socket\.)?AF_UNIX)/i,
  /\.connect\s*\(\s*\(/i,
  /Net\.Sockets\.TCPClient/i,
  /\bnet\.(?:connect|createConnection)\s*\(/i,
  /\bnew\s+net\.Socket\b/i,
  /\bTCPSocket\.(?:new|open)\b/i,
];
const SHELL_ATTACH = [
  // Pointing the standard streams at /dev/null (a daemon detaching) attaches nothing.
  /\bos\.dup2\s*\((?!\s*\w*null\b)/i,
  /pty\.spawn\s*\(/i,
  /\.GetStream\s*\(/i,
  /spawn\s*\(\s*["'](?:\/bin\/)?(?:ba)?sh["']/i,
  /\bexec\s+["']\/bin\/(?:ba)?sh/i,
];
const PIPE_TO = /\.pipe\s*\(\s*(\w{1,40})\s*\)/i;
/** The lists above asked at once (alternation.ts): each is asked of every line naming a socket or a stream. */
const ANY_SOCKET_SHELL = anyOf(SOCKET_SHELL);
const ANY_SOCKET_CONNECT = anyOf(SOCKET_CONNECT);
const ANY_SHELL_ATTACH = anyOf(SHELL_ATTACH);

function any(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((p) => p.test(text));
}

function reverseShell(input: LineInput, lower: string): void {
  const { text } = input;
  let at: { index: number; length: number } | null = null;
  if (lower.includes('/dev/tcp') || lower.includes('/dev/udp')) {
    DEV_TCP.lastIndex = 0;
    const m = DEV_TCP.exec(text);
    if (m !== null && DEV_TCP_SHELL.test(text)) at = { index: m.index, length: m[0].length };
  }
  if (at === null && (lower.includes('nc') || lower.includes('netcat'))) {
    NETCAT.lastIndex = 0;
    const interactive = INTERACTIVE_SHELL.test(text);
    let m: RegExpExecArray | null;
    let tries = 0;
    while (at === null && tries++ < MAX_TRIES && (m = NETCAT.exec(text)) !== null) {
      const tail = text.slice(m.index + m[0].length, m.index + m[0].length + 160);
      if (interactive || netcatRunsShell(tail)) at = { index: m.index, length: m[0].length + Math.min(tail.length, 60) };
    }
  }
  if (at === null && SOCAT.test(text) && SOCAT_EXEC.test(text) && /\btcp/i.test(text)) {
    const m = SOCAT.exec(text)!;
    at = { index: m.index, length: text.length - m.index };
  }
  if (at === null && SOCKET.test(text) && ANY_SOCKET_SHELL.test(text)) {
    const m = SOCKET.exec(text)!;
    at = { index: m.index, length: text.length - m.index };
  }
  if (at !== null) {
    // A code block's reverse shell weighs one step more unless it stays on the local network (a lab exercise).
    const local = PRIVATE_HOST.test(text.slice(at.index, at.index + at.length + 160));
    fire(input, 'command.reverse-shell', at.index, at.length, !local && input.context !== 'script' ? 1 : 0);
    return;
  }
  // A reverse shell spread over several lines of a script: noted here, decided at the end of the file.
  if (input.context === 'script' || input.context === 'code') {
    const { facts } = input.file;
    if (!facts.has('socket-connect') && ANY_SOCKET_CONNECT.test(text)) noteFact(input, 'socket-connect');
    if (!facts.has('shell-attach')) {
      const piped = PIPE_TO.exec(text);
      if (ANY_SHELL_ATTACH.test(text) || (piped !== null && /sock|client|conn/i.test(piped[1]!))) noteFact(input, 'shell-attach');
    }
  }
}

// Deleting the home or root directory, wiping disks.
const RM = /(?:^|[\s;&|(`$])(?:sudo\s)?rm\s([^;&|\n`)]{1,300})/g;
const RECURSIVE_FLAG = /^-[a-zA-Z]*[rR]/;
const QUOTES = /["']/g;
const DANGEROUS_TARGET =
  /^(?:\/|\/\*|~|~\/|~\/\*|\$HOME|\$HOME\/|\$HOME\/\*|\$\{HOME\}|\$\{HOME\}\/|\$\{HOME\}\/\*|\/(?:home|etc|usr|var|boot|bin|sbin|lib|lib64|opt|root|srv|System|Users|Library)\/?\*?)$/;
/** Other ways to wipe a home directory or a disk, each behind a literal its match must contain. */
const OTHER_DELETES: [string, RegExp][] = [
  ['/s', /\b(?:rd|rmdir)\s+\/s\s+\/q\s+["']?(?:[a-z]:\\?|%userprofile%|%homepath%|%systemroot%)["']?(?=\s|$)/gi],
  [
    'rmtree',
    /\brmtree\s*\(\s*(?:os\.path\.expanduser\(\s*["']~\/?["']\s*\)|Path\.home\(\)|os\.environ\[["']HOME["']\]|["']\/["']|["']~["'])\s*[,)]/g,
  ],
  ['rm', /\b(?:rm|rmdir|rmSync|rmdirSync)\s*\(\s*(?:(?:os\.)?homedir\(\)|["']\/["'])\s*[,)]/g],
  ['mkfs', /\bmkfs(?:\.\w+)?\s+\/dev\//g],
  ['of=/dev/', /\bof=\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcblk\d)/g],
  [':(', /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/g],
];
/** `find ~ … -delete` or `find / … -exec rm`: the start here, the deleting action checked in the same command. */
const FIND_HOME = /\bfind\s+["']?(?:~|\$HOME|\$\{HOME\}|\/)["']?\/?(?=\s)/g;
const FIND_DELETES = /\s-delete\b|\s-exec\s+rm\b/;
/**
 * A name or path test that picks some files out (`-name '.pytest_cache'`, `-name "*.tmp"`): a clean-up of those files,
 * not a wipe. A pattern of wildcards alone (`-name '*'`, `"*.*"`) picks nothing out.
 */
const FIND_PICKS = /\s-(?:i?name|i?path|i?wholename|i?regex)\s+["']?[^\s"']*[A-Za-z0-9_][^\s"']*/;
const PS_REMOVE = /\bRemove-Item\b/i;
const PS_HOME_TARGET = /(?:\s|["'])(?:~|\$HOME|\$env:USERPROFILE|\$env:HOMEPATH|[A-Za-z]:\\)\\?\*?["']?(?:\s|$)/i;

/** White space other than ASCII's, as `\s` knows it. */
const WIDE_BLANK = /\s/;

/**
 * The words of `text` between white space, as `text.trim().split(/\s+/)` gives them (none for a blank text): read by
 * character code, since a split by an expression cost a tenth of a megabyte of short `rm -rf` lines.
 */
function words(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let at = 0; at <= text.length; at++) {
    const code = at < text.length ? text.charCodeAt(at) : 0x20;
    const blank = code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0xa0 && WIDE_BLANK.test(text.charAt(at)));
    if (!blank && start === -1) start = at;
    else if (blank && start !== -1) {
      out.push(text.slice(start, at));
      start = -1;
    }
  }
  return out;
}

function destructiveDelete(input: LineInput, lower: string): void {
  const { text } = input;
  if (lower.includes('rm ') || lower.includes('rm\t')) {
    RM.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = RM.exec(text)) !== null) {
      const tokens = words(m[1]!);
      const flags = tokens.filter((t) => t.startsWith('-'));
      const recursive = flags.some((f) => RECURSIVE_FLAG.test(f) || f === '--recursive');
      if (!recursive) continue;
      const targets = tokens.filter((t) => !t.startsWith('-')).map((t) => (t.includes('"') || t.includes("'") ? t.replace(QUOTES, '') : t));
      if (flags.includes('--no-preserve-root') || targets.some((t) => DANGEROUS_TARGET.test(t))) {
        fire(input, 'command.destructive-delete', m.index, m[0].length);
        return;
      }
    }
  }
  for (const [gate, pattern] of OTHER_DELETES) {
    if (!lower.includes(gate)) continue;
    pattern.lastIndex = 0;
    const m = pattern.exec(text);
    if (m !== null) {
      fire(input, 'command.destructive-delete', m.index, m[0].length);
      return;
    }
  }
  if (lower.includes('find')) {
    FIND_HOME.lastIndex = 0;
    const m = FIND_HOME.exec(text);
    if (m !== null) {
      const rest = text.slice(m.index, m.index + 300);
      const end = rest.search(/[;|&]/);
      const command = end === -1 ? rest : rest.slice(0, end);
      if (FIND_DELETES.test(command) && !FIND_PICKS.test(command)) {
        fire(input, 'command.destructive-delete', m.index, m[0].length);
        return;
      }
    }
  }
  if (lower.includes('remove-item') && /-Recurse\b/i.test(text) && PS_HOME_TARGET.test(text)) {
    const m = PS_REMOVE.exec(text)!;
    fire(input, 'command.destructive-delete', m.index, text.length - m.index);
  }
}

// Writes to start-up files, scheduled tasks and authorized_keys.
const WRITE_OPS = [
  />>/,
  /[^<>&0-9=-]>(?![>&=])/,
  /\btee\b|\bopen\s*\(|appendFile|writeFile|write_text|write_bytes|Add-Content|Set-Content|Out-File/i,
  /\bsed\s+-i|\bcp\s|\bmv\s|\bln\s+-s|\binstall\s+-m/i,
];

/** Where the first write operation on the line is (a redirect, tee, open, copy…), or -1. */
function firstWrite(text: string): number {
  let first = text.startsWith('>') && !text.startsWith('>&') ? 0 : -1;
  for (const pattern of WRITE_OPS) {
    const m = pattern.exec(text);
    if (m !== null && (first === -1 || m.index < first)) first = m.index;
  }
  return first;
}
const STARTUP_FILE =
  /(?:~|\$HOME|\$\{HOME\}|\/root|\/home\/[\w.-]{1,64}|["'])\/?\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|config\/fish\/config\.fish)\b|\/etc\/(?:profile|bash\.bashrc|zshrc|zsh\/zshrc|environment)\b|\/etc\/profile\.d\/|\$PROFILE\b/gi;

/** The first match of `pattern` after a write operation on the line (a redirect, tee, open, copy…). */
function writesTo(text: string, pattern: RegExp): RegExpExecArray | null {
  // Most lines name no such file at all: the write operations are looked for only on those that do.
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return null;
  const write = firstWrite(text);
  if (write === -1) return null;
  pattern.lastIndex = write;
  return pattern.exec(text);
}

/**
 * Writing a crontab: the command `crontab` at a command's start (line start, after a pipe, `;`, `&`, `(`, `$(`, a
 * backtick or the opening quote of a string handed to a shell) given a file or `-` (standard input). `crontab -l`
 * reads, `-e` opens an editor, `-r` removes; the word elsewhere (a message, a key, a variable) is no command.
 */
const CRONTAB_WRITE =
  /(?:^\s*(?:\$\s+)?|[|;&(`]\s*|\(\s*(?:\[\s*)?["'`])(?:sudo\s+)?crontab(?:\s+-u\s+\S+)?\s+(?:-(?=\s|$|["'`)])|[^\s\-"'`)][^\s;&|"'`)]*)/g;
const CRON_FILES =
  /\/etc\/cron(?:tab|\.d|\.daily|\.hourly|\.weekly|\.monthly)\b|\/var\/spool\/cron\b|\/etc\/systemd\/system\/|\.config\/systemd\/user\/|Library\/Launch(?:Agents|Daemons)\b/gi;
const PERSISTENCE_COMMANDS: [string, RegExp][] = [
  ['@reboot', /@reboot\s/g],
  ['launchctl', /\blaunchctl\s+(?:load|bootstrap|submit)\b/g],
  ['systemctl', /\bsystemctl\s+(?:--user\s+)?enable\b/g],
  ['schtasks', /\bschtasks(?:\.exe)?\s+\/create\b/gi],
  ['currentversion', /\\CurrentVersion\\Run(?:Once)?\b/gi],
  ['startup', /Start Menu\\Programs\\Startup|shell:startup/gi],
];

const PERSISTENT_DOWNLOAD =
  'This makes a download run again and again (at every shell start or on a schedule): whatever the server returns later runs unreviewed. No skill needs it.';

/** A schedule that fetches code is a standing remote-code channel wherever it is written: critical even from a code block. */
function persist(input: LineInput, m: RegExpExecArray): void {
  const fetching = DOWNLOADER.test(input.text);
  fire(input, 'command.persistence', m.index, m[0].length, fetching ? 3 : 0, fetching ? PERSISTENT_DOWNLOAD : undefined);
}

function persistence(input: LineInput, lower: string): void {
  const { text } = input;
  if (lower.includes('crontab')) {
    CRONTAB_WRITE.lastIndex = 0;
    const m = CRONTAB_WRITE.exec(text);
    if (m !== null) {
      persist(input, m);
      return;
    }
  }
  const file = writesTo(text, CRON_FILES);
  if (file !== null) {
    persist(input, file);
    return;
  }
  for (const [gate, pattern] of PERSISTENCE_COMMANDS) {
    if (!lower.includes(gate)) continue;
    pattern.lastIndex = 0;
    const m = pattern.exec(text);
    if (m !== null) {
      persist(input, m);
      return;
    }
  }
}

// Credentials and browser data. A folder whose name only starts like one (`~/.ssh-workdir`, `~/.aws-vault`) is another
// folder, SSH's connection sockets (`~/.ssh/sockets/…`, a `ControlPath`) hold no keys, and a tool's `config` in its
// folder (`~/.aws/config`: profiles and regions; `~/.kube/config` excepted, which holds tokens) holds none.
const CRED_PATH =
  /~\/\.ssh\b(?!-|\/(?:config|known_hosts|authorized_keys|sockets)\b|\/[\w.-]+\.pub\b)|\$(?:HOME|\{HOME\})\/\.ssh\b(?!-|\/(?:config|known_hosts|authorized_keys|sockets)\b|\/[\w.-]+\.pub\b)|(?:~|\$HOME|\$\{HOME\})\/\.(?:aws|kube|docker|gnupg|azure)\b(?!-|\/config\b)|\.ssh\/id_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|["']\.ssh["'](?!\s*[/,]\s*["'](?:config|known_hosts|authorized_keys)["'])|\.aws\/credentials\b|["']\.aws["'](?!\s*[/,]\s*["']config["'])|\.config\/gcloud\b|application_default_credentials\.json|\.kube\/config\b|\.docker\/config\.json|~\/\.(?:netrc|npmrc|pypirc|gnupg)\b|\.git-credentials\b|\/etc\/shadow\b|\bLogin Data\b|\bkey[34]\.db\b|\blogins\.json\b|Library\/Keychains|login\.keychain|\bsecurity\s+(?:find-generic-password|find-internet-password|dump-keychain)\b|Google\/Chrome\/|Chrome\\User Data|Mozilla\/Firefox\/Profiles|Firefox\\Profiles|BraveSoftware|\.config\/(?:google-chrome|chromium)\b|\bwallet\.dat\b|\bcookies\.sqlite\b/gi;
/**
 * Using a key (ssh -i, ssh-add, permissions, stat, listing with find, a configuration value naming the key to
 * use) is not reading it out, nor is asking the keychain for the one
 * item a skill stored under its own service name (`security find-generic-password -s NAME`).
 */
const KEY_USE =
  /^\s*(?:\$\s+)?(?:sudo\s+)?(?:ssh|ssh-keygen|ssh-add|ssh-copy-id|chmod|chown|mkdir|touch|ls|git\s+config)\b|\s-i\s+\S*\.ssh|IdentityFile|GIT_SSH_COMMAND|^\s*(?:\$\s+)?stat\b/i;
const FIND_LIST = /^\s*(?:\$\s+)?find\s/;
const FIND_READS = /-exec|-delete|xargs|\|/;
const KEY_SETTING = /(?:key|identity)(?:_?(?:file|path))?["']?\s*[:=]\s*["']/i;
const KEY_PATH_VALUE = /\.ssh\/id_[\w.-]+["'][\s,;)}\]]*$/;
const KEYCHAIN_ITEM = /\bsecurity\s+find-(?:generic|internet)-password\b/;

function usesKey(text: string): boolean {
  if (KEY_USE.test(text)) return true;
  if (FIND_LIST.test(text) && !FIND_READS.test(text)) return true;
  if (KEY_SETTING.test(text) && KEY_PATH_VALUE.test(text)) return true;
  return KEYCHAIN_ITEM.test(text) && /\s-[sa]\s/.test(text) && !text.includes('Safe Storage');
}

/** An archiver run from the home folder (`tar … -C ~`, `-C "$HOME"`) … */
const ARCHIVER = /\b(?:tar|zip|7z|rsync)\b/;
const FROM_HOME = /\s-C\s*["']?(?:~|\$HOME|\$\{HOME\})\/?["']?(?=\s)/;
/** … naming a credential folder relative to it (`.ssh`, `.gnupg`, `.aws`, …). */
const HOME_CRED_DIR = /\s["']?\.(?:ssh|gnupg|aws|kube|docker|azure|config\/gh|config\/gcloud)(?![\w.-])/;

function credentialRead(input: LineInput): boolean {
  const { text } = input;
  CRED_PATH.lastIndex = 0;
  let m: RegExpExecArray | null = CRED_PATH.exec(text);
  // `\.aws/credentials` is a regular expression that looks for the file (a scanner's pattern), not a path: nothing
  // reading a file escapes its dots.
  while (m !== null && text.charCodeAt(m.index - 1) === 0x5c) m = CRED_PATH.exec(text);
  if (m === null && ARCHIVER.test(text) && FROM_HOME.test(text)) m = HOME_CRED_DIR.exec(text);
  if (m === null || usesKey(text)) return false;
  fire(input, 'command.credential-read', m.index, m[0].length);
  if (input.context !== 'prose') noteFact(input, 'credential-read');
  return true;
}

// Sending the environment or credential files away.
// Command names are matched case-sensitively (a colour variable such as `${NC}` is not netcat); PowerShell's are not.
const NET_SEND =
  /\b(?:curl|wget|nc|ncat|netcat|socat|scp|rsync|sftp|telnet|requests\.(?:post|put|patch|get)|httpx\.(?:post|put|get)|urllib\.request|urlopen|fetch|axios|XMLHttpRequest|sendBeacon|http\.request|https\.request|smtplib|WebClient|UploadString|UploadFile|UploadData)\b|socket\.send|\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b/;
const PS_NET_SEND = /\b(?:Invoke-WebRequest|Invoke-RestMethod)\b/i;
/**
 * The copying commands that send only when given a remote side (`host:path`, `user@host:path`, `host::module`,
 * `rsync://`). `sftp` is not one: its host has no colon (`sftp user@host`), and in code it is a session that sends
 * (`sftp.put(…)`).
 */
const COPIER = /^(?:scp|rsync)$/;
// A host may be a variable (`$HOST:`, `"${USER}@${HOST}:${DIR}"`); a default (`${DIR:-.}`) reads as a remote side too,
// which errs on the side of sending. One class holds the user, the host and the `@` between them: two quantifiers over
// the same characters would backtrack quadratically on a long word.
const REMOTE_SIDE = /(?:^|\s)["']?[\w.@${}-]+::?(?!\/\/)\S|rsync:\/\//;
const NET_SENDERS = new RegExp(NET_SEND.source, 'g');

/**
 * The first sender on a line that sends over the network: a copy between two local folders (`rsync -a "$DIR/.env"
 * "$STAGE/"`), or the word in a comment ("then scp to remote"), sends nothing; a later sender on the line still counts.
 * One pass over the line's senders, whatever their number.
 */
function networkSender(text: string): RegExpExecArray | null {
  let remote: boolean | null = null;
  NET_SENDERS.lastIndex = 0;
  for (let m = NET_SENDERS.exec(text); m !== null; m = NET_SENDERS.exec(text)) {
    if (!COPIER.test(m[0])) return m;
    remote ??= REMOTE_SIDE.test(text);
    if (remote) return m;
  }
  return PS_NET_SEND.exec(text);
}
/** Sending, not only asking: data, a form or a file in the request, a POST, or a tool that only sends. */
const NET_POST = [
  new RegExp(
    [
      /\s(?:-d|--data|--data-binary|--data-raw|--data-urlencode|-F|--form|-T|--upload-file)\s/,
      /\s-X\s*POST\b|--post-(?:file|data)|-Method\s+Post/,
      /method\s*[:=]\s*["']POST/,
      /\.(?:post|put)\s*\(|UploadString|UploadFile|UploadData|sendBeacon|socket\.send/,
      /\b(?:nc|ncat|netcat|scp)\s/,
    ]
      .map((pattern) => pattern.source)
      .join('|'),
    'i',
  ),
  // Case-sensitive: Python's keyword argument, not a DATA constant.
  /\bdata\s?=\s?(?!None\b)\w/,
];
/**
 * The whole environment: `env` or `printenv` as a command of its own (at a command's start, after `| `, `;`, `&`, a
 * subshell's `(` or `$(`, or a backtick, and ending there), or the environment object taken whole. "from env" in a
 * comment is a word, not a command; `env: Env` in a signature is a parameter. Not a dump, though each names the whole
 * environment (public skills' scripts do all of these every day, and a file doing one and calling an API was
 * quarantined for it):
 * - `get(env)`, `Path(env)`: a variable passed to a call, where a subshell's `(` follows no name;
 * - `(md|json|env)`, `|secret|env|token|`: alternatives of a pattern, where a pipe to a command has a space after it;
 * - `if key in os.environ`, `os.environ.copy()`, `{**os.environ}`, `env.update(os.environ)`, `env=os.environ`: a name
 *   looked up, or the environment handed on to a child process with a few variables added (going through it all,
 *   `for k, v in os.environ.items()`, is still a dump: it is how secrets are harvested by their names);
 * - `{...process.env}`, `env: process.env`, `opts.env || process.env`, `process.env && …`: the same in JavaScript.
 */
const ENV_DUMP =
  /(?:^[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+)?|(?:\|[ \t]|[;&`]|\$\(|(?<![\w.$])\()[ \t]*)(?:env|printenv)(?=[ \t]*(?:\||\)|$|`|>))|(?<!\*\*[ \t]*|\.update\([ \t]*|\benv[ \t]*=[ \t]*)\bos\.environ\b(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b|\.update\b|\.copy\b))|(?<!\}\s?=\s?|\.\.\.\s?|\benv\s?[:=]\s?|\|\|\s?)\bprocess\.env\b(?!\s*(?:\.|\[|\?\.|&&))/g;
const IN_AT_END = /\bin[ \t]+$/;
const CONDITION = /\b(?:if|elif|and|or|not|while|assert|return)\b/;

/** Whether `before` (the line up to `os.environ`) looks a name up in it (`if key in`), not goes through all of it (`for k in`). */
function lookedUp(before: string): boolean {
  const at = before.search(IN_AT_END);
  if (at === -1) return false;
  const head = before.slice(0, at);
  const condition = head.search(CONDITION);
  return condition !== -1 && !/\bfor\b/.test(head.slice(condition));
}

/** The first environment dump on a line (ENV_DUMP), passing over the environment's names looked up. */
function envDump(text: string): RegExpExecArray | null {
  ENV_DUMP.lastIndex = 0;
  for (let m = ENV_DUMP.exec(text); m !== null; m = ENV_DUMP.exec(text)) {
    if (!m[0].startsWith('os.') || !lookedUp(text.slice(Math.max(0, m.index - 120), m.index))) return m;
  }
  return null;
}

const PS_ENV_DUMP = /\bGet-ChildItem\s+env:|\b(?:gci|ls|dir)\s+env:|\[Environment\]::GetEnvironmentVariables\(\)/i;
const SECRET_FILE = /(?:^|[\s"'=@/(])\.env\b(?![.\w-])|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)/i;

/**
 * `socket.send` in any case, inside a longer name too (`mysocket.sendall`): the one sender that is not a word of G.send,
 * and the one sign of sending that is not a word of G.post. (A case-insensitive test of the line finds what lowering it
 * would: no other character lowers to one of these letters, but for the Kelvin sign, which NET_SEND and NET_POST, read
 * without lowering, do not take for a `k` either.)
 */
const SOCKET_SEND = /socket\.send/i;

/**
 * Whether exfiltrate can find anything on a line, from the marks of its anchors: something to send (an environment
 * dump, a credential read, a secret file's name), or a sender that sends, for the network-send fact. Most lines that
 * name a sender or the environment have neither (`fetch(url)`, `process.env.HOME`): they need not be read for it.
 */
function mayExfiltrate(groups: number, line: { readonly text: string }): boolean {
  return (
    (groups & (G.env | G.keyFile | G.cred)) !== 0 || ((groups & G.send) !== 0 && (groups & G.post) !== 0) || SOCKET_SEND.test(line.text)
  );
}

function exfiltrate(input: LineInput, readsCredentials: boolean, groups: number): void {
  const { text } = input;
  // Both dumps name the environment as a word the anchors mark (`env`, `printenv`, `environ`, `env:`,
  // `GetEnvironmentVariables`); a line that only says "environment" is not searched for one. Every PowerShell dump
  // holds a colon (`env:`, `::`): most lines naming the environment (`process.env.HOME`) need not be lowered for one.
  const env =
    (groups & G.env) !== 0
      ? (envDump(text) ??
        (text.includes(':') && (lowered(input).includes('env:') || lowered(input).includes('getenvironmentvariables'))
          ? PS_ENV_DUMP.exec(text)
          : null))
      : null;
  if (env !== null && input.context !== 'prose') noteFact(input, 'env-dump');
  // Only a file's first sending line is kept as a fact: once noted, later lines need not be read for it.
  const wantsSend = input.context !== 'prose' && !input.file.facts.has('network-send');
  // A secret file is `.env` (a word after a dot) or a key's `id_rsa`, `id_ed25519`, …: both marked by the anchors.
  const sendsSecret = env !== null || readsCredentials || ((groups & (G.env | G.keyFile)) !== 0 && SECRET_FILE.test(text));
  // A sender matters only with something to send or a sending fact still to note: most lines have neither.
  if (!wantsSend && !sendsSecret) return;
  // Every sender is a word the anchors know, but for `socket.send` inside a longer name (`socket.sendall`).
  if ((groups & G.send) === 0 && !SOCKET_SEND.test(text)) return;
  const sender = networkSender(text);
  if (sender === null) return;
  if (wantsSend && ((groups & G.post) !== 0 || SOCKET_SEND.test(text)) && any(NET_POST, text)) noteFact(input, 'network-send');
  if (sendsSecret) {
    const index = Math.min(sender.index, env?.index ?? sender.index);
    fire(input, 'command.exfiltrate', index, Math.min(text.length - index, 120));
  }
}

// Decoding and running hidden code.
const B64_DECODE = /\bbase64\s+(?:-d|-D|-di|-id|--decode)\b|\bxxd\s+-r\b|\bopenssl\s+(?:enc\s+)?-?base64\s+-d\b/gi;
// `| python3 -m json.tool` pretty-prints what was decoded (a token's payload), it runs none of it.
const PIPE_RUN = /\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh\b|python[0-9.]*\b(?!\s+-m\s+json\.tool\b)|perl\b|ruby\b|node\b|php\b)/i;
const SHELL_EVAL = /\beval\b|\b(?:ba|z)?sh\s+-c\b|\bexec\b|\bsource\b/i;
// `re.compile(…)` builds a regular expression (a scanner's list of patterns holds many), not code.
const EXEC_CALL =
  /(?<!\bre\.)\b(?:eval|exec|Function|assert|Invoke-Expression|iex|instance_eval|compile|system|popen|spawn|execSync|check_output|Popen)\s*\(|\bsubprocess\.\w+\s*\(|\[ScriptBlock\]::Create\s*\(|\biex\s/gi;
const DECODE_WORD =
  /\b(?:atob|b64decode|b32decode|b85decode|a85decode|decodebytes|base64_decode|decode_base64|decode64|FromBase64String|unhexlify|fromhex|decompress|marshal\.loads|gzinflate|gzuncompress|str_rot13|fromCharCode)\b/i;
const BUFFER_FROM = /\bBuffer\.from\s*\(/i;

/**
 * `exec(code)` or `eval(code)` of a variable, which with decoding elsewhere in the file hides what runs. A method of that
 * name is another thing: `pattern.exec(text)` matches a regular expression (every minified bundle does it), and
 * `db.exec(sql)` runs a query.
 */
const DYNAMIC_EXEC = /(?<!\.)\b(?:exec|eval)\s*\(\s*[A-Za-z_]\w*\s*\)/;

/** How far after the start of a call that runs code its decoding call may start, and how many such calls a line is read for. */
const DECODE_REACH = 200;
const MAX_EXEC_CALLS = 32;

/** The first decoding call in `text`: a decoder by name, or Buffer.from(…, 'base64' | 'hex'). */
function decodeCall(text: string): { index: number; length: number } | null {
  let word = DECODE_WORD.exec(text);
  // `String\.fromCharCode`, `base64\.b64decode`: a regular expression that looks for the call (a scanner's pattern).
  if (word !== null && text.charCodeAt(word.index - 1) === 0x2e && text.charCodeAt(word.index - 2) === 0x5c) word = null;
  const buffer = BUFFER_FROM.exec(text);
  const bufferDecodes = buffer !== null && /["'](?:base64|hex)["']/.test(text.slice(buffer.index, buffer.index + 400));
  if (bufferDecodes && (word === null || buffer.index < word.index)) return { index: buffer.index, length: buffer[0].length };
  return word === null ? null : { index: word.index, length: word[0].length };
}
const PS_ENCODED = /\s[-/]e(?:nc(?:odedcommand)?|c)?\s+[A-Za-z0-9+/=]{16,}/i;
const POWERSHELL = /\b(?:powershell|pwsh)(?:\.exe)?\b/i;
const PACKER = /\beval\s*\(\s*function\s*\(\s*p\s*,\s*a\s*,\s*c\s*,\s*k\s*,\s*e\s*,\s*[rd]\s*\)/;

function obfuscatedExec(input: LineInput, lower: string): void {
  const { text } = input;
  if (lower.includes('base64') || lower.includes('xxd')) {
    B64_DECODE.lastIndex = 0;
    const m = B64_DECODE.exec(text);
    if (m !== null && (PIPE_RUN.test(text.slice(m.index)) || SHELL_EVAL.test(text))) {
      fire(input, 'command.obfuscated-exec', m.index, m[0].length);
      return;
    }
  }
  EXEC_CALL.lastIndex = 0;
  let exec = EXEC_CALL.exec(text);
  if (exec !== null) {
    // What is run must be what is decoded: the decoding call inside the call that runs it (`eval(atob(…))`,
    // `exec(base64.b64decode(…))`), not anywhere after it on the line. A minified bundle's line holds `Function(`,
    // `.exec(` and `atob(` thousands of characters apart; public skills shipping one were quarantined for it.
    for (let calls = 0; exec !== null && calls < MAX_EXEC_CALLS; exec = EXEC_CALL.exec(text)) {
      // `function(l){…}` declares a function; only `Function(…)` builds one from a string. A minified React bundle
      // declares one just before `String.fromCharCode(l)` (its key events), and skills shipping one were quarantined.
      if (exec[0].startsWith('function')) continue;
      calls++;
      const decode = decodeCall(text.slice(exec.index, exec.index + DECODE_REACH));
      if (decode !== null && !PACKER.test(text)) {
        fire(input, 'command.obfuscated-exec', exec.index, exec[0].length + decode.index + decode.length);
        return;
      }
    }
    if (input.context === 'script' && !input.file.facts.has('dynamic-exec') && DYNAMIC_EXEC.test(text)) noteFact(input, 'dynamic-exec');
  }
  if ((input.context === 'script' || input.context === 'code') && !input.file.facts.has('decode') && decodeCall(text) !== null)
    noteFact(input, 'decode');
  if (POWERSHELL.test(text)) {
    const m = PS_ENCODED.exec(text);
    if (m !== null) fire(input, 'command.obfuscated-exec', m.index, m[0].length);
  }
}

// Erasing traces.
const COVER =
  /\bunset\s+HISTFILE\b|\bHISTFILE=\/dev\/null\b|\bexport\s+HISTSIZE=0\b|\bhistory\s+-c\b|\bset\s+\+o\s+history\b|(?:^|[;|&{(]\s*)Clear-History\b|\bwevtutil(?:\.exe)?\s+cl\b|\bClear-EventLog\b/gi;
const HISTORY_FILE = /\.(?:bash|zsh)_history\b/g;
const ERASE = /\b(?:rm|shred|truncate|unlink)\b|>\s*$|\/dev\/null/i;

function coverTracks(input: LineInput, lower: string): void {
  const { text } = input;
  if (!lower.includes('hist') && !lower.includes('clear-') && !lower.includes('wevtutil')) return;
  COVER.lastIndex = 0;
  let m = COVER.exec(text);
  if (m === null) {
    HISTORY_FILE.lastIndex = 0;
    m = HISTORY_FILE.exec(text);
    if (m !== null && !ERASE.test(text.slice(0, m.index)) && !/ln\s+-sf?\s+\/dev\/null/.test(text)) m = null;
  }
  if (m !== null) fire(input, 'command.cover-tracks', m.index, m[0].length);
}

const AUTHORIZED_KEYS = /authorized_keys2?\b/g;

/** The prefilter groups some command rule reads: a line anchored by none of them (only invisible characters, say) is not read. */
const COMMAND_GROUPS = G.pipe | G.reverse | G.remove | G.startup | G.persist | G.keys | G.cred | G.exfil | G.obfuscated | G.cover;

/**
 * The groups of a line's anchors whose command rules can find something on it (its text is read only where the marks
 * alone do not tell): a download run needs a downloader or `iex`, a start-up file write the name of a start-up file,
 * exfiltration something to send or a sender that sends. The others are returned as they are.
 */
export function commandGroupsThatAct(groups: number, line: { readonly text: string }): number {
  let acting = groups;
  if ((groups & G.startupFile) === 0) acting &= ~G.startup;
  if (groups & G.pipe && !mayRunDownload(groups)) acting &= ~G.pipe;
  if (groups & G.exfil && !mayExfiltrate(groups, line)) acting &= ~G.exfil;
  return acting;
}

/**
 * The last line lowered, and its lower case: lowered once, and only for a rule that reads it (a line anchored by `${`
 * alone needs none). Kept by the line's input rather than in a closure per line, which was most of what reading a
 * line for its command rules allocated.
 */
let loweredInput: LineInput | null = null;
let loweredText = '';

function lowered(input: LineInput): string {
  if (input !== loweredInput) {
    loweredText = input.text.toLowerCase();
    loweredInput = input;
  }
  return loweredText;
}

/** Runs the command rules of the groups (catalogue.ts) the line's anchors name. */
export function scanCommands(input: LineInput, groups: number): void {
  if ((groups & COMMAND_GROUPS) === 0) return;
  if (groups & G.pipe && mayRunDownload(groups)) pipeToShell(input, lowered(input), groups);
  if (groups & G.reverse) reverseShell(input, lowered(input));
  if (groups & G.remove) destructiveDelete(input, lowered(input));
  // A start-up file or scheduled task that fetches code runs whatever the server returns, every time: two steps more.
  // Asked only of a line that writes one.
  if (groups & G.startup) {
    const startup = writesTo(input.text, STARTUP_FILE);
    if (startup !== null) {
      const fetching = DOWNLOADER.test(input.text);
      fire(
        input,
        'command.shell-startup-write',
        startup.index,
        startup[0].length,
        fetching ? 2 : 0,
        fetching ? PERSISTENT_DOWNLOAD : undefined,
      );
    }
  }
  if (groups & G.persist) persistence(input, lowered(input));
  if (groups & G.keys && lowered(input).includes('authorized_keys')) {
    const keys = writesTo(input.text, AUTHORIZED_KEYS);
    if (keys !== null) fire(input, 'command.authorized-keys', keys.index, keys[0].length);
  }
  const reads = (groups & G.cred) !== 0 && credentialRead(input);
  if (groups & (G.exfil | G.cred)) exfiltrate(input, reads, groups);
  if (groups & G.obfuscated) obfuscatedExec(input, lowered(input));
  if (groups & G.cover) coverTracks(input, lowered(input));
}

/** Two facts noted anywhere in one file that together make a finding, on the later of their lines. */
const FACT_PAIRS: readonly { facts: [string, string]; rule: string; scriptsOnly: boolean; message: string }[] = [
  {
    facts: ['socket-connect', 'shell-attach'],
    rule: 'command.reverse-shell',
    scriptsOnly: false,
    message:
      'This file opens a network connection and attaches a shell or its input and output to it: a reverse shell, handing control of the machine to the remote end.',
  },
  {
    facts: ['env-dump', 'network-send'],
    rule: 'command.exfiltrate',
    scriptsOnly: false,
    message:
      'This file collects the whole environment (every variable, tokens included) and sends data over the network: the environment leaves the machine.',
  },
  {
    facts: ['credential-read', 'network-send'],
    rule: 'command.exfiltrate',
    scriptsOnly: true,
    message:
      'This script reads a credential store (SSH or GPG keys, cloud credentials) and sends data over the network: the credentials can leave the machine.',
  },
];

/** Rules over several lines of one file, decided when the file ends. */
export function finishCommands(
  file: { facts: Map<string, number>; factTexts: Map<string, string>; kind: string },
  reportAt: (rule: string, severity: Severity, line: number, message: string, text: string) => void,
): void {
  const { facts } = file;
  // A finding from two facts sits on the later line and shows that line's text (never an empty excerpt).
  const at = (fact: string): [number, string] => [facts.get(fact)!, file.factTexts.get(fact) ?? ''];
  const later = (a: string, b: string): [number, string] => (facts.get(a)! >= facts.get(b)! ? at(a) : at(b));
  const context = file.kind === 'script' ? 'script' : 'code';
  for (const pair of FACT_PAIRS) {
    const [a, b] = pair.facts;
    if ((pair.scriptsOnly && file.kind !== 'script') || !facts.has(a) || !facts.has(b)) continue;
    const [line, text] = later(a, b);
    reportAt(pair.rule, inContext(weightsOf(pair.rule), context), line, pair.message, text);
  }
  const decode = facts.get('decode');
  const exec = facts.get('dynamic-exec');
  if (file.kind === 'script' && decode !== undefined && exec !== undefined && exec >= decode) {
    reportAt(
      'command.obfuscated-exec',
      'high',
      exec,
      'This script decodes data and later executes a value with eval or exec; what finally runs is hidden from every reviewer.',
      at('dynamic-exec')[1],
    );
  }
}
