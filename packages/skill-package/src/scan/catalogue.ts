/**
 * The scanner's rules, one record each: its stable id, family, severity (and its weight in each context where that
 * differs), title and explanation, and, for a rule found line by line, the anchor group its matcher reads and the
 * anchors that name that group. The prefilter's tables (prefilter.ts) and the groups' bits (G) are derived from these
 * records, so a rule, or a family of rules with a matcher of its own, is added here and in its matcher alone.
 *
 * A group is read by one matcher (rules-command.ts tests `groups & G.pipe` before it looks for a download run by a
 * shell); several rules may share one (the secret shapes, the URL kinds), each adding its own anchors. A mark is an
 * anchor set no rule is read for, which a matcher asks for beside its group (a downloader, a negation). Anchors are
 * lower-case words (`curl`), words read only as prose (instructions to an agent, left out of a script's lines but
 * for its comments), prefixes of a word of two or four characters (`akia…`), words right after a dot (`~/.ssh`),
 * punctuation (`|`, `://`), or the invisible characters the pass recognises by code point. A missing anchor only
 * makes a rule miss what it would have found: test/packages/scan checks that the positive example of every rule is
 * anchored for its group.
 *
 * RULES_VERSION changes whenever a rule is added, removed or made to match differently, so a stored report says
 * which rule set judged it.
 */
import type { ContextSeverities } from './severity.js';
import type { ScanRule, Severity } from './types.js';

export const RULES_VERSION = '2026.12.8.1';

/** What puts a line before a group's matcher (see the module's comment). */
export interface Anchors {
  words?: readonly string[];
  proseWords?: readonly string[];
  prefixes?: readonly string[];
  afterDot?: readonly string[];
  punctuation?: readonly string[];
  invisible?: boolean;
}

export interface RuleRecord<Group extends string = string> extends ScanRule {
  /**
   * Its weight in a script (the rule's `severity`), a Markdown code block and prose, for a rule weighed by where it
   * sits; a hidden Markdown comment weighs like a script and at least `high` (severity.ts).
   */
  weights?: ContextSeverities;
  /** The anchor group whose matcher finds it; absent for a rule found otherwise (a file's bytes, the front matter, line facts, combinations). */
  reads?: Group;
  /** The anchors that add a line to `reads`. */
  anchors?: Anchors;
  /**
   * For a credential: the shapes it is found by, each global (a line can hold several), starting with a literal prefix
   * and using only bounded or single character classes, so matching is linear in the line's length. They also say what
   * every excerpt redacts.
   */
  shapes?: readonly SecretShape[];
}

export interface SecretShape {
  pattern: RegExp;
  /** The part of a match that is the secret itself (a capture group), when it is not the whole match. */
  group?: number;
}

function rule<const Group extends string = never>(record: RuleRecord<Group>): RuleRecord<Group> {
  return record;
}

/** A list of anchor words, written as one string. */
function words(list: string): readonly string[] {
  return list.split(' ');
}

// Vocabularies several rules anchor on.
/** Decoders and interpreters of decoded text: what obfuscated code runs through. */
const DECODERS = words(
  'base64 xxd openssl eval exec scriptblock atob b64decode b32decode b85decode a85decode decodebytes decode64 frombase64string fromhex unhexlify decompress marshal gzinflate gzuncompress rot13 fromcharcode powershell pwsh',
);
/** Calls that fetch and run in one (`iex`, `urlopen`), or fetch what another word runs. */
const RUNS_DOWNLOADS = words('iex invoke downloadstring webclient urlopen requests httpx');
/** Tools and calls that send over the network, beside those of RUNS_DOWNLOADS and SOCKETS. */
const SENDING_TOOLS = words(
  'curl wget fetch iwr irm aria2c urllib axios xmlhttprequest sendbeacon smtplib uploadstring uploadfile uploaddata scp rsync sftp telnet',
);
const SOCKETS = words('nc ncat netcat socat socket tcpclient tcpsocket dup2 pty getstream spawn createconnection');
const DELETERS = words('rm rmdir rmtree rmsync rd remove mkfs find');
const STARTUP_FILES = words('bashrc profile zshrc zprofile zshenv zlogin kshrc fish');
const CREDENTIAL_STORES = words(
  'gcloud credentials netrc npmrc pypirc gnupg shadow login key3 key4 logins keychain keychains generic internet chrome firefox bravesoftware chromium cookies',
);
/** Credential folders and files named after a dot (`~/.ssh`, `wallet.dat`: crypto wallets are a common subject, the file rarely named). */
const CREDENTIAL_DIRS = words('ssh aws kube docker netrc npmrc pypirc gnupg azure dat');
/** Every environment dump rules-command.ts knows names one of these as a whole word; `environment` alone does not. */
const ENV_DUMPS = words('printenv environ env getenvironmentvariables');
/** The rest of a private key's file name (`id_rsa`, `id_ed25519`). */
const KEY_FILES = words('rsa ed25519 ecdsa dsa');
/** Words for hiding: concealment's own, and a negation's for it (`don't` is read as `don` and `t`). */
const HIDING = words('hide hiding hidden conceal concealing');

export const RULE_RECORDS = [
  rule({
    id: 'hidden.bidi-control',
    family: 'hidden-content',
    severity: 'critical',
    title: 'Bidirectional control character',
    explanation:
      'Bidirectional controls (U+202A–U+202E, U+2066–U+2069) make text display in a different order than it is read by a program or an agent; remove them or explain why they are needed.',
    reads: 'hidden',
    anchors: { invisible: true },
  }),
  rule({
    id: 'hidden.zero-width',
    family: 'hidden-content',
    severity: 'medium',
    title: 'Zero-width character',
    explanation:
      'Zero-width characters are invisible to a reader but not to an agent or an interpreter; they can split keywords past review or carry hidden text. Remove them.',
    reads: 'hidden',
    anchors: { invisible: true },
  }),
  rule({
    id: 'hidden.invisible-run',
    family: 'hidden-content',
    severity: 'critical',
    title: 'Run of invisible characters',
    explanation:
      'Several invisible characters in a row can encode a hidden message that an agent decodes but a reviewer never sees. Remove them.',
    reads: 'hidden',
    anchors: { invisible: true },
  }),
  rule({
    id: 'hidden.unicode-tag',
    family: 'hidden-content',
    severity: 'critical',
    title: 'Unicode tag characters',
    explanation:
      'Characters of the tag block (U+E0000–U+E007F) are invisible and mirror ASCII, a known way to smuggle instructions to a language model. Remove them.',
    reads: 'hidden',
    anchors: { invisible: true },
  }),
  rule({
    id: 'hidden.comment-instruction',
    family: 'hidden-content',
    severity: 'high',
    title: 'Instructions in an HTML comment',
    explanation:
      'An HTML comment in Markdown is not shown when the file is rendered, but an agent reads it; instructions there are hidden from the reviewer. Move them into visible text or remove them.',
  }),
  rule({
    id: 'hidden.encoded-blob',
    family: 'hidden-content',
    severity: 'medium',
    title: 'Long base64 or hex blob',
    explanation:
      'A long base64 or hex run in a text file cannot be reviewed by reading and may hide code or data that is decoded later. Ship the data as a reviewable file, or explain what it is.',
  }),
  rule({
    id: 'agent.override-instructions',
    family: 'agent-manipulation',
    severity: 'critical',
    title: 'Overrides earlier instructions',
    explanation:
      'Text telling an agent to ignore or replace its earlier or system instructions is a prompt injection: a skill should add guidance, never revoke the user’s.',
    reads: 'override',
    anchors: {
      proseWords: words(
        'ignore disregard forget override bypass jailbroken jailbreak unrestricted unfiltered dan developer prompt void revoked overridden obsolete follow priority longer apply obey',
      ),
    },
  }),
  rule({
    id: 'agent.conceal-from-user',
    family: 'agent-manipulation',
    severity: 'critical',
    title: 'Hides actions from the user',
    explanation:
      'Telling an agent to keep what it does from its user (not to mention, tell or show it) removes the user’s chance to say no; a legitimate skill has nothing to hide.',
    reads: 'conceal',
    anchors: {
      proseWords: [
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
        ...HIDING,
      ],
    },
  }),
  rule({
    id: 'agent.silent-execution',
    family: 'agent-manipulation',
    severity: 'medium',
    title: 'Asks to run something silently',
    explanation:
      'Asking an agent to run commands silently or in the background hides them from the user; commands a skill needs should be shown before they run.',
    reads: 'silent',
    anchors: { proseWords: words('silently secretly covertly stealthily') },
  }),
  rule({
    id: 'agent.exfiltrate-data',
    family: 'agent-manipulation',
    severity: 'critical',
    title: 'Asks to send data to a remote address',
    explanation:
      'Instructions to send files, environment variables or credentials to a remote address would leak the user’s data; a skill should never ask for that.',
    reads: 'ask',
    anchors: { proseWords: words('webhook webhooks remote exfiltrate'), punctuation: ['://'] },
  }),
  rule({
    id: 'agent.bypass-safety',
    family: 'agent-manipulation',
    severity: 'medium',
    title: 'Asks to bypass safety checks',
    explanation:
      'Asking an agent to disable its confirmations, sandbox or safety checks lets every later command run unreviewed; leave those decisions to the user.',
    reads: 'bypass',
    anchors: {
      proseWords: words('dangerously yolo disable disabling circumvent bypass confirmation approval permission asking prompting'),
    },
  }),
  rule({
    id: 'command.pipe-to-shell',
    family: 'dangerous-command',
    severity: 'medium',
    title: 'Download piped into a shell',
    explanation:
      'Piping a download straight into a shell or interpreter runs whatever the server returns at that moment, unreviewed; download, check and then run, or pin a checksum.',
    weights: { script: 'medium', code: 'low', prose: 'info' },
    reads: 'pipe',
    // A download made executable and run (`wget … -O f && chmod +x f && ./f`) is read as a pipe to a shell.
    anchors: { words: [...RUNS_DOWNLOADS, 'chmod', ...DECODERS], punctuation: ['|', '$(', '${', '<(', '`'] },
  }),
  rule({
    id: 'command.reverse-shell',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Reverse shell',
    explanation: 'This connects a shell to a remote host, handing control of the machine to whoever listens there.',
    weights: { script: 'critical', code: 'high', prose: 'low' },
    reads: 'reverse',
    anchors: { words: SOCKETS, afterDot: words('pipe connect spawn'), punctuation: ['/dev/', '/bin/'] },
  }),
  rule({
    id: 'command.destructive-delete',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Deletes the home or root directory',
    explanation: 'Recursively deleting the home directory, the root or a drive destroys the user’s data; no skill needs it.',
    weights: { script: 'critical', code: 'critical', prose: 'low' },
    reads: 'remove',
    anchors: { words: DELETERS, punctuation: [':(', '/dev/'] },
  }),
  rule({
    id: 'command.shell-startup-write',
    family: 'dangerous-command',
    severity: 'medium',
    title: 'Writes a shell start-up file',
    explanation:
      'Writing to .bashrc, .zshrc, .profile or a PowerShell profile makes code run in every later shell; tell the user what to add instead.',
    weights: { script: 'medium', code: 'low', prose: 'info' },
    reads: 'startup',
    anchors: {
      words: STARTUP_FILES,
      afterDot: words('profile fish bashrc zshrc'),
      punctuation: ['$(', '${', '$HOME', '$PROFILE', '~/', '/etc/', '/spool/', '>>'],
    },
  }),
  rule({
    id: 'command.persistence',
    family: 'dangerous-command',
    severity: 'high',
    title: 'Installs a scheduled or start-up task',
    explanation:
      'Crontab entries, launch agents, services and Run keys keep code running after the skill is done; a skill should not install them on its own.',
    weights: { script: 'high', code: 'low', prose: 'info' },
    reads: 'persist',
    anchors: {
      words: words('crontab cron reboot launchctl launchagents launchdaemons systemctl systemd schtasks currentversion startup'),
    },
  }),
  rule({
    id: 'command.authorized-keys',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Writes SSH authorized_keys',
    explanation: 'Adding a key to authorized_keys grants its holder log-in access to the machine.',
    weights: { script: 'critical', code: 'medium', prose: 'low' },
    reads: 'keys',
    anchors: { words: ['authorized', 'authorized_keys2'] },
  }),
  rule({
    id: 'command.credential-read',
    family: 'dangerous-command',
    severity: 'high',
    title: 'Reads credentials or browser data',
    explanation:
      'This reads SSH or cloud credentials, keychains or browser profiles (cookies, saved passwords); a skill rarely needs them and they are what data thieves look for.',
    weights: { script: 'high', code: 'medium', prose: 'low' },
    reads: 'cred',
    anchors: { words: CREDENTIAL_STORES, afterDot: CREDENTIAL_DIRS, punctuation: ['$HOME', '~/', '/etc/', '/spool/'] },
  }),
  rule({
    id: 'command.exfiltrate',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Sends environment or credentials away',
    explanation: 'This sends environment variables, credential files or keys to a remote address, leaking the user’s secrets.',
    weights: { script: 'critical', code: 'high', prose: 'medium' },
    reads: 'exfil',
    anchors: {
      words: [...RUNS_DOWNLOADS, ...SENDING_TOOLS, ...SOCKETS, ...CREDENTIAL_STORES, ...ENV_DUMPS, ...KEY_FILES, 'gci'],
      afterDot: [...CREDENTIAL_DIRS, 'env', 'environ', 'send', 'request', 'post', 'put'],
    },
  }),
  rule({
    id: 'command.obfuscated-exec',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Runs decoded or obfuscated code',
    explanation:
      'Decoding data and executing it (base64 into a shell, eval of atob, exec of b64decode, PowerShell -EncodedCommand) hides what really runs from every reviewer.',
    weights: { script: 'critical', code: 'critical', prose: 'medium' },
    reads: 'obfuscated',
    anchors: { words: DECODERS, afterDot: ['loads', 'from'] },
  }),
  rule({
    id: 'command.cover-tracks',
    family: 'dangerous-command',
    severity: 'high',
    title: 'Erases shell history or logs',
    explanation: 'Clearing shell history or logs hides what was run from the user afterwards.',
    weights: { script: 'high', code: 'medium', prose: 'low' },
    reads: 'cover',
    anchors: { words: [...DELETERS, 'history', 'histfile', 'histsize', 'clear', 'wevtutil'] },
  }),
  rule({
    id: 'secret.private-key',
    family: 'secret',
    severity: 'critical',
    title: 'Private key',
    explanation: 'A private key shipped in a package is public to everyone who downloads it; revoke it and remove it from the package.',
    reads: 'secret',
    anchors: { punctuation: ['-----'] },
  }),
  rule({
    id: 'secret.aws-access-key',
    family: 'secret',
    severity: 'critical',
    title: 'AWS access key',
    explanation:
      'An AWS access key id in a package is published to everyone who downloads it; deactivate the key and load credentials from the environment instead.',
    shapes: [{ pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Za-z])/g }],
    reads: 'secret',
    anchors: { prefixes: words('akia asia abia acca') },
  }),
  rule({
    id: 'secret.aws-secret-key',
    family: 'secret',
    severity: 'critical',
    title: 'AWS secret access key',
    explanation: 'An AWS secret access key grants the key’s permissions to anyone who reads the package; deactivate it at once.',
    shapes: [{ pattern: /aws_?secret_?access_?key["']?\s{0,4}[:=]\s{0,4}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi, group: 1 }],
    reads: 'secret',
    anchors: { words: ['aws', 'awssecretaccesskey'] },
  }),
  rule({
    id: 'secret.github-token',
    family: 'secret',
    severity: 'critical',
    title: 'GitHub token',
    explanation:
      'A GitHub token in a package gives its holder the token’s access to repositories; revoke it and read tokens from the environment.',
    shapes: [{ pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g }],
    reads: 'secret',
    anchors: { words: words('ghp gho ghu ghs ghr pat') },
  }),
  rule({
    id: 'secret.gitlab-token',
    family: 'secret',
    severity: 'critical',
    title: 'GitLab token',
    explanation: 'A GitLab personal access token in a package is public; revoke it and read tokens from the environment.',
    shapes: [{ pattern: /\bglpat-[A-Za-z0-9_-]{20}/g }],
    reads: 'secret',
    anchors: { words: ['glpat'] },
  }),
  rule({
    id: 'secret.slack-token',
    family: 'secret',
    severity: 'critical',
    title: 'Slack token or webhook',
    explanation: 'A Slack token or incoming-webhook URL lets anyone post as the app; revoke it and keep it out of the package.',
    shapes: [
      { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,250}/g },
      { pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{16,32}/g },
    ],
    reads: 'secret',
    anchors: { words: words('xoxa xoxb xoxp xoxo xoxs xoxr hooks'), afterDot: ['slack'] },
  }),
  rule({
    id: 'secret.openai-key',
    family: 'secret',
    severity: 'critical',
    title: 'OpenAI API key',
    explanation: 'An OpenAI API key in a package lets anyone spend on the account; revoke it and read keys from the environment.',
    shapes: [{ pattern: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})/g }],
    reads: 'secret',
    anchors: { words: ['sk'] },
  }),
  rule({
    id: 'secret.anthropic-key',
    family: 'secret',
    severity: 'critical',
    title: 'Anthropic API key',
    explanation: 'An Anthropic API key in a package lets anyone spend on the account; revoke it and read keys from the environment.',
    shapes: [{ pattern: /\bsk-ant-(?:api|admin|oat)\d\d-[A-Za-z0-9_-]{20,250}/g }],
    reads: 'secret',
    anchors: { words: ['sk'] },
  }),
  rule({
    id: 'secret.google-api-key',
    family: 'secret',
    severity: 'critical',
    title: 'Google API key',
    explanation: 'A Google API key in a package is public; restrict or revoke it and read keys from the environment.',
    shapes: [{ pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g }],
    reads: 'secret',
    anchors: { prefixes: ['aiza'] },
  }),
  rule({
    id: 'secret.stripe-key',
    family: 'secret',
    severity: 'critical',
    title: 'Stripe secret key',
    explanation: 'A live Stripe secret or restricted key lets anyone act on the account; roll it and keep it out of the package.',
    shapes: [{ pattern: /\b[sr]k_(?:live|test)_[0-9a-zA-Z]{16,250}/g }],
    reads: 'secret',
    anchors: { words: ['sk', 'rk'] },
  }),
  rule({
    id: 'secret.npm-token',
    family: 'secret',
    severity: 'critical',
    title: 'npm access token',
    explanation: 'An npm token can publish packages as its owner; revoke it and keep it out of the package.',
    shapes: [{ pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g }],
    reads: 'secret',
    anchors: { words: ['npm'] },
  }),
  rule({
    id: 'secret.huggingface-token',
    family: 'secret',
    severity: 'critical',
    title: 'Hugging Face token',
    explanation: 'A Hugging Face token in a package is public; revoke it and read it from the environment.',
    shapes: [{ pattern: /\bhf_[A-Za-z0-9]{34}(?![A-Za-z0-9])/g }],
    reads: 'secret',
    anchors: { words: ['hf'] },
  }),
  rule({
    id: 'secret.example-credential',
    family: 'secret',
    severity: 'low',
    title: 'Example or test credential',
    explanation:
      'This has the shape of a credential but is a well-known documentation example or a test key; make sure no real key sits beside it.',
  }),
  rule({
    id: 'executable.elf',
    family: 'executable',
    severity: 'critical',
    title: 'ELF executable',
    explanation:
      'A compiled Linux program cannot be reviewed by reading and runs with its user’s rights: a version shipping one is quarantined. Ship the source and its build steps instead.',
  }),
  rule({
    id: 'executable.pe',
    family: 'executable',
    severity: 'critical',
    title: 'Windows executable',
    explanation:
      'A compiled Windows program (PE) cannot be reviewed by reading and runs with its user’s rights: a version shipping one is quarantined. Ship the source and its build steps instead.',
  }),
  rule({
    id: 'executable.disguised',
    family: 'executable',
    severity: 'critical',
    title: 'Executable under another file type’s name',
    explanation:
      'A compiled program named as an image, font, document, data file or script hides what it is; nothing legitimate ships that way. Remove it.',
  }),
  rule({
    id: 'executable.macho',
    family: 'executable',
    severity: 'critical',
    title: 'Mach-O executable',
    explanation:
      'A compiled macOS program cannot be reviewed by reading and runs with its user’s rights: a version shipping one is quarantined. Ship the source and its build steps instead.',
  }),
  rule({
    id: 'executable.nested-archive',
    family: 'executable',
    severity: 'high',
    title: 'Archive inside the package, not opened',
    explanation:
      'An archive inside the package that the registry did not open (a format it does not read, too large, too deeply nested, or refused by its strict reader): its contents are unknown to reviewers. Ship the files themselves.',
  }),
  rule({
    id: 'executable.nested-archive-opened',
    family: 'executable',
    severity: 'low',
    title: 'Archive inside the package, opened',
    explanation:
      'An archive inside the package was opened and the files in it scanned like the others, under the archive’s path. An installed skill holds the archive, not its files: ship the files themselves where you can.',
  }),
  rule({
    id: 'executable.packed-script',
    family: 'executable',
    severity: 'critical',
    title: 'Packed or obfuscated script',
    explanation:
      'This script is packed or obfuscated (packer signature or generated identifiers), so what it does cannot be reviewed; ship the readable source.',
    reads: 'packed',
    anchors: { words: DECODERS, prefixes: ['0x'], punctuation: ['\\'] },
  }),
  rule({
    id: 'executable.minified',
    family: 'executable',
    severity: 'low',
    title: 'Minified script or very long line',
    explanation:
      'Very long lines (minified code or data) cannot be reviewed by reading; ship the readable source beside it or explain what it is.',
  }),
  rule({
    id: 'spec.name-format',
    family: 'skill-spec',
    severity: 'medium',
    title: 'Skill name outside the specification',
    explanation:
      'The Agent Skills specification wants `name` of 1 to 64 lower-case letters, digits and single hyphens, not starting or ending with a hyphen.',
  }),
  rule({
    id: 'spec.name-folder-mismatch',
    family: 'skill-spec',
    severity: 'medium',
    title: 'Skill name differs from its folder',
    explanation: 'When SKILL.md sits in a folder, the specification wants `name` to equal the folder’s name; rename one of them.',
  }),
  rule({
    id: 'spec.description-length',
    family: 'skill-spec',
    severity: 'medium',
    title: 'Description length outside the specification',
    explanation: 'The specification wants `description` of 1 to 1,024 characters, saying what the skill does and when to use it.',
  }),
  rule({
    id: 'spec.compatibility-length',
    family: 'skill-spec',
    severity: 'low',
    title: 'Compatibility field too long',
    explanation: 'The specification wants `compatibility` to be a string of at most 500 characters.',
  }),
  rule({
    id: 'spec.metadata-type',
    family: 'skill-spec',
    severity: 'low',
    title: 'Metadata is not a map of strings',
    explanation: 'The specification wants `metadata` to map string keys to string values.',
  }),
  rule({
    id: 'spec.unknown-field',
    family: 'skill-spec',
    severity: 'low',
    title: 'Unexpected front matter field',
    explanation:
      'The specification allows name, description, license, compatibility, metadata and allowed-tools at the top level; put anything else under `metadata`.',
  }),
  rule({
    id: 'spec.invalid-front-matter',
    family: 'skill-spec',
    severity: 'medium',
    title: 'Front matter missing or unreadable',
    explanation: 'SKILL.md should start with YAML front matter between two `---` lines holding at least name and description.',
  }),
  rule({
    id: 'url.raw-ip',
    family: 'external-reference',
    severity: 'medium',
    title: 'Address by raw IP',
    explanation:
      'A URL or connection to a public IP address names no domain that can be checked or revoked; it is typical of throw-away servers. Use a named host.',
    weights: { script: 'high', code: 'medium', prose: 'medium' },
    reads: 'url',
    anchors: { punctuation: ['://'] },
  }),
  rule({
    id: 'url.collector',
    family: 'external-reference',
    severity: 'medium',
    title: 'Request collector, paste or tunnel service',
    explanation:
      'Request collectors, paste sites, file drops, tunnels and chat webhooks are where stolen data is usually sent; check why the skill needs one.',
    weights: { script: 'high', code: 'medium', prose: 'medium' },
    reads: 'url',
    anchors: { punctuation: ['://'] },
  }),
  rule({
    id: 'url.shortener',
    family: 'external-reference',
    severity: 'low',
    title: 'Shortened URL',
    explanation: 'A shortened URL hides where it leads and can be changed after review; use the real address.',
    weights: { script: 'medium', code: 'low', prose: 'low' },
    reads: 'url',
    anchors: { punctuation: ['://'] },
  }),
  // Behaviour: facts of a whole script, cell or paragraph joined (behaviour/). Each is one record here and one matcher in
  // behaviour/judgements.ts.
  rule({
    id: 'behaviour.environment-sent',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Sends the whole environment away',
    explanation:
      'Every environment variable (tokens and keys among them) is read at once and what was read reaches a network send; a skill needs one named variable, never all of them sent.',
    weights: { script: 'critical', code: 'critical', prose: 'medium' },
  }),
  rule({
    id: 'behaviour.credentials-sent',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Sends credential files away',
    explanation:
      'A credential store (SSH keys, cloud, browser or CLI tokens, keychains, .env files, shell history) is read, however its path is spelled, and what was read reaches a network send.',
    weights: { script: 'critical', code: 'critical', prose: 'medium' },
  }),
  rule({
    id: 'behaviour.remote-shell',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Hands a shell to a connection',
    explanation:
      'A network connection is joined to a shell or to code that runs what arrives: whoever is at the other end controls the machine.',
    weights: { script: 'critical', code: 'high', prose: 'low' },
  }),
  rule({
    id: 'behaviour.input-captured',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Captures keystrokes or the clipboard and sends them',
    explanation:
      'Keystrokes or the clipboard are read and the code sends data over the network: the pattern of a keylogger or a clipboard stealer.',
    weights: { script: 'critical', code: 'high', prose: 'low' },
  }),
  rule({
    id: 'behaviour.clipboard-swapped',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Replaces wallet addresses in the clipboard',
    explanation:
      'The clipboard is read and written back with a wallet address in play: the pattern of a clipboard hijacker that redirects payments.',
    weights: { script: 'critical', code: 'high', prose: 'low' },
  }),
  rule({
    id: 'behaviour.delete-everything',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Deletes the home folder or the root',
    explanation:
      'A recursive delete whose target is, or resolves to, the home folder or the root (an unset variable, a default, a home lookup) destroys the user’s files.',
    weights: { script: 'critical', code: 'critical', prose: 'low' },
  }),
  rule({
    id: 'behaviour.persistent-fetch',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Installs itself to run again and reaches the network',
    explanation:
      'The code writes to a start-up file, cron, a launch agent, a service or authorized_keys and reaches the network: it stays after the skill is gone and runs what a remote server says.',
    weights: { script: 'critical', code: 'critical', prose: 'low' },
  }),
  rule({
    id: 'behaviour.backdoor-key',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Adds a key to authorized_keys',
    explanation:
      'The code writes a public key it carries into SSH’s authorized_keys: whoever holds the matching private key can log in to this machine.',
    weights: { script: 'critical', code: 'critical', prose: 'low' },
  }),
  rule({
    id: 'behaviour.auto-run-download',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Runs downloaded code without being asked',
    explanation:
      'A hook, an install script or a task that a tool runs on its own (an agent’s session or tool hook, npm install, opening the folder, a git hook) downloads code and runs it: what runs can change at any time, and nobody chose to run it.',
    weights: { script: 'critical', code: 'high', prose: 'low' },
  }),
  rule({
    id: 'behaviour.hidden-code-run',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Runs code that was decoded, downloaded or named at run time',
    explanation:
      'Text is decoded, downloaded or looked up by a name built at run time and then run as code: what runs is not what a reviewer reads.',
    weights: { script: 'critical', code: 'critical', prose: 'medium' },
  }),
  rule({
    id: 'behaviour.instructed-exfiltration',
    family: 'agent-manipulation',
    severity: 'critical',
    title: 'Tells the agent to send secrets away',
    explanation:
      'A sentence tells the agent to send the environment, a credential file or keys to a remote address; a skill never needs the user’s secrets sent anywhere.',
  }),
  rule({
    id: 'behaviour.unreadable-script',
    family: 'dangerous-command',
    severity: 'high',
    title: 'Script that text tools cannot read',
    explanation:
      'A file that runs holds NUL bytes or another encoding that review tools and editors treat as binary, while its interpreter still runs it; save it as plain UTF-8.',
  }),
  rule({
    id: 'behaviour.partly-judged',
    family: 'dangerous-command',
    severity: 'high',
    title: 'Too much text to judge',
    explanation:
      'The package holds more text than the registry judges for behaviour (16 MiB; the largest public skills hold under 2 MiB), or a notebook over 8 MiB: what the rest does is unknown to reviewers. Ship data and outputs outside the skill.',
  }),
  rule({
    id: 'combo.credential-exfiltration',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Reads credentials and sends data away',
    explanation:
      'The package both reads credentials and sends data to a remote address or collector: together, the pattern of a credential thief.',
  }),
  rule({
    id: 'combo.concealed-command',
    family: 'agent-manipulation',
    severity: 'critical',
    title: 'Dangerous command the user is not to see',
    explanation:
      'The package tells the agent to hide what it does or run it silently, and holds a dangerous command: together, an attempt to act against the user without their knowledge.',
  }),
  rule({
    id: 'combo.remote-code',
    family: 'dangerous-command',
    severity: 'critical',
    title: 'Runs code fetched from a throw-away address',
    explanation:
      'A command runs code downloaded from a raw IP address, collector, tunnel or shortened URL; what runs can change at any time and cannot be traced to a publisher.',
    weights: { script: 'critical', code: 'critical', prose: 'medium' },
  }),
];

/**
 * Anchor sets no rule is read for. `marks` are what matchers ask for beside their group, never a reason to read a line
 * (a line whose anchors name only marks is passed over); `structure` is read by the reader itself: Markdown's fences
 * and comments change the context of the lines after them.
 */
const MARK_ANCHORS = {
  /** Every downloader or fetching call a download run by a shell starts with, and `iex`, which runs a download named by a longer word. */
  fetch: {
    words: words('iex curl wget fetch iwr irm invoke aria2c downloadstring downloadfile webclient urlopen requests httpx'),
  },
  /** Every sending tool or call command.exfiltrate knows (with `.request` and `.send` after a dot). */
  send: {
    words: words(
      'curl wget nc ncat netcat socat scp rsync sftp telnet requests httpx urllib urlopen fetch axios xmlhttprequest sendbeacon smtplib webclient uploadstring uploadfile uploaddata invoke iwr irm',
    ),
    afterDot: ['request', 'send'],
  },
  /** Sending rather than asking: `-d`, `--data`, `-F`, `--form`, `-T`, `--upload-file`, `POST`, `.put(`, `data=`, the upload calls, `sendBeacon`, the tools that only send. */
  post: {
    words: words('d f t data form upload post put uploadstring uploadfile uploaddata sendbeacon nc ncat netcat scp'),
    afterDot: ['send'],
  },
  /** A word naming the whole environment: an env-dump fact. */
  env: { words: ENV_DUMPS, afterDot: ['env', 'environ'] },
  keyFile: { words: KEY_FILES },
  /** The name of a shell start-up file (`.bash_login`: `login`), where `~/`, `$HOME` or `>>` alone name none. */
  startupFile: { words: [...STARTUP_FILES, 'login', 'environment'], punctuation: ['$PROFILE'] },
  /** A negation or a word for hiding, which every concealment pattern needs. */
  negation: { proseWords: ['not', 'never', 'without', 'dont', 'don', ...HIDING] },
} as const satisfies Record<string, Anchors>;

const STRUCTURE_ANCHORS = {
  markdown: { punctuation: ['<!--', '```', '~~~', '-->'] },
} as const satisfies Record<string, Anchors>;

type Group = NonNullable<(typeof RULE_RECORDS)[number]['reads']> | keyof typeof MARK_ANCHORS | keyof typeof STRUCTURE_ANCHORS;

/** An anchor set and the group bits it names. */
export interface AnchorSet {
  anchors: Anchors;
  groups: number;
}

/** Bits of the groups, in order of first appearance (rules', then the structure's, then the marks'). */
function groupBits(): Record<Group, number> {
  const names = [
    ...new Set([
      ...RULE_RECORDS.flatMap((r) => (r.reads === undefined ? [] : [r.reads])),
      ...Object.keys(STRUCTURE_ANCHORS),
      ...Object.keys(MARK_ANCHORS),
    ]),
  ];
  if (names.length > GROUP_BITS) throw new Error(`${names.length} anchor groups, more than the anchor pass's ${GROUP_BITS} bits`);
  return Object.fromEntries(names.map((name, bit) => [name, (1 << bit) >>> 0])) as Record<Group, number>;
}

/**
 * How many groups and marks there can be: the anchor pass hands over a line's groups as one 32-bit word. Many rules can
 * share a group (each adds its anchors) and a matcher can ask for marks beside its group, so a group is a matcher and a
 * mark a vocabulary, not a rule.
 */
export const GROUP_BITS = 32;

/** Each group's bit. */
export const G = groupBits();
/** Every group and mark. */
export const ALL_GROUPS = Object.values<number>(G).reduce((a, b) => a | b, 0) >>> 0;
/** The marks: what rules of other groups need together, which start no rule of their own. */
export const MARKS = Object.keys(MARK_ANCHORS).reduce((bits, name) => bits | G[name as Group], 0) >>> 0;

/** Every anchor set with its groups: each rule's with its group, each mark's and the structure's with theirs. */
export const ANCHOR_SETS: readonly AnchorSet[] = [
  ...RULE_RECORDS.flatMap((r) => (r.reads === undefined || r.anchors === undefined ? [] : [{ anchors: r.anchors, groups: G[r.reads] }])),
  ...Object.entries<Anchors>(STRUCTURE_ANCHORS).map(([name, anchors]) => ({ anchors, groups: G[name as Group] })),
  ...Object.entries<Anchors>(MARK_ANCHORS).map(([name, anchors]) => ({ anchors, groups: G[name as Group] })),
];

/** The catalogue as reports and the API list it. */
export const RULES: readonly ScanRule[] = RULE_RECORDS.map(({ id, family, severity, title, explanation }) => ({
  id,
  family,
  severity,
  title,
  explanation,
}));

const byId = new Map<string, RuleRecord>(RULE_RECORDS.map((r) => [r.id, r]));

/** The rule with this id; throws for an unknown id (a programming error). */
export function ruleById(id: string): RuleRecord {
  const found = byId.get(id);
  if (found === undefined) throw new Error(`Unknown scan rule ${id}`);
  return found;
}

/** A rule's severity: what it weighs in its strongest context. */
export function severityOf(id: string): Severity {
  return ruleById(id).severity;
}

/** A rule's weights by context: its own, or its severity in every context. */
export function weightsOf(id: string): ContextSeverities {
  const r = ruleById(id);
  return r.weights ?? { script: r.severity, code: r.severity, prose: r.severity };
}
