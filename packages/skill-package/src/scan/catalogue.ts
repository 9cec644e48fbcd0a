/**
 * The scanner's rules: one entry per stable rule id. A rule's `severity` is what it weighs in its strongest
 * context (a script that runs, or a hidden Markdown comment); the same match in a Markdown code block or in prose
 * weighs less (see context.ts), and combinations (combine.ts) add findings of their own.
 *
 * RULES_VERSION changes whenever a rule is added, removed or made to match differently, so a stored report says
 * which rule set judged it.
 */
import type { RuleFamily, ScanRule, Severity } from './types.js';

export const RULES_VERSION = '2026.11.18';

function rule(id: string, family: RuleFamily, severity: Severity, title: string, explanation: string): ScanRule {
  return { id, family, severity, title, explanation };
}

export const RULES: readonly ScanRule[] = [
  // Hidden content
  rule(
    'hidden.bidi-control',
    'hidden-content',
    'critical',
    'Bidirectional control character',
    'Bidirectional controls (U+202A–U+202E, U+2066–U+2069) make text display in a different order than it is read by a program or an agent; remove them or explain why they are needed.',
  ),
  rule(
    'hidden.zero-width',
    'hidden-content',
    'medium',
    'Zero-width character',
    'Zero-width characters are invisible to a reader but not to an agent or an interpreter; they can split keywords past review or carry hidden text. Remove them.',
  ),
  rule(
    'hidden.invisible-run',
    'hidden-content',
    'critical',
    'Run of invisible characters',
    'Several invisible characters in a row can encode a hidden message that an agent decodes but a reviewer never sees. Remove them.',
  ),
  rule(
    'hidden.unicode-tag',
    'hidden-content',
    'critical',
    'Unicode tag characters',
    'Characters of the tag block (U+E0000–U+E007F) are invisible and mirror ASCII, a known way to smuggle instructions to a language model. Remove them.',
  ),
  rule(
    'hidden.comment-instruction',
    'hidden-content',
    'high',
    'Instructions in an HTML comment',
    'An HTML comment in Markdown is not shown when the file is rendered, but an agent reads it; instructions there are hidden from the reviewer. Move them into visible text or remove them.',
  ),
  rule(
    'hidden.encoded-blob',
    'hidden-content',
    'medium',
    'Long base64 or hex blob',
    'A long base64 or hex run in a text file cannot be reviewed by reading and may hide code or data that is decoded later. Ship the data as a reviewable file, or explain what it is.',
  ),
  // Instructions aimed at the agent against its user
  rule(
    'agent.override-instructions',
    'agent-manipulation',
    'critical',
    'Overrides earlier instructions',
    'Text telling an agent to ignore or replace its earlier or system instructions is a prompt injection: a skill should add guidance, never revoke the user’s.',
  ),
  rule(
    'agent.conceal-from-user',
    'agent-manipulation',
    'critical',
    'Hides actions from the user',
    'Telling an agent to keep what it does from its user (not to mention, tell or show it) removes the user’s chance to say no; a legitimate skill has nothing to hide.',
  ),
  rule(
    'agent.silent-execution',
    'agent-manipulation',
    'medium',
    'Asks to run something silently',
    'Asking an agent to run commands silently or in the background hides them from the user; commands a skill needs should be shown before they run.',
  ),
  rule(
    'agent.exfiltrate-data',
    'agent-manipulation',
    'critical',
    'Asks to send data to a remote address',
    'Instructions to send files, environment variables or credentials to a remote address would leak the user’s data; a skill should never ask for that.',
  ),
  rule(
    'agent.bypass-safety',
    'agent-manipulation',
    'medium',
    'Asks to bypass safety checks',
    'Asking an agent to disable its confirmations, sandbox or safety checks lets every later command run unreviewed; leave those decisions to the user.',
  ),
  // Dangerous commands
  rule(
    'command.pipe-to-shell',
    'dangerous-command',
    'medium',
    'Download piped into a shell',
    'Piping a download straight into a shell or interpreter runs whatever the server returns at that moment, unreviewed; download, check and then run, or pin a checksum.',
  ),
  rule(
    'command.reverse-shell',
    'dangerous-command',
    'critical',
    'Reverse shell',
    'This connects a shell to a remote host, handing control of the machine to whoever listens there.',
  ),
  rule(
    'command.destructive-delete',
    'dangerous-command',
    'critical',
    'Deletes the home or root directory',
    'Recursively deleting the home directory, the root or a drive destroys the user’s data; no skill needs it.',
  ),
  rule(
    'command.shell-startup-write',
    'dangerous-command',
    'medium',
    'Writes a shell start-up file',
    'Writing to .bashrc, .zshrc, .profile or a PowerShell profile makes code run in every later shell; tell the user what to add instead.',
  ),
  rule(
    'command.persistence',
    'dangerous-command',
    'high',
    'Installs a scheduled or start-up task',
    'Crontab entries, launch agents, services and Run keys keep code running after the skill is done; a skill should not install them on its own.',
  ),
  rule(
    'command.authorized-keys',
    'dangerous-command',
    'critical',
    'Writes SSH authorized_keys',
    'Adding a key to authorized_keys grants its holder log-in access to the machine.',
  ),
  rule(
    'command.credential-read',
    'dangerous-command',
    'high',
    'Reads credentials or browser data',
    'This reads SSH or cloud credentials, keychains or browser profiles (cookies, saved passwords); a skill rarely needs them and they are what data thieves look for.',
  ),
  rule(
    'command.exfiltrate',
    'dangerous-command',
    'critical',
    'Sends environment or credentials away',
    'This sends environment variables, credential files or keys to a remote address, leaking the user’s secrets.',
  ),
  rule(
    'command.obfuscated-exec',
    'dangerous-command',
    'critical',
    'Runs decoded or obfuscated code',
    'Decoding data and executing it (base64 into a shell, eval of atob, exec of b64decode, PowerShell -EncodedCommand) hides what really runs from every reviewer.',
  ),
  rule(
    'command.cover-tracks',
    'dangerous-command',
    'high',
    'Erases shell history or logs',
    'Clearing shell history or logs hides what was run from the user afterwards.',
  ),
  // Secrets
  rule(
    'secret.private-key',
    'secret',
    'critical',
    'Private key',
    'A private key shipped in a package is public to everyone who downloads it; revoke it and remove it from the package.',
  ),
  rule(
    'secret.aws-access-key',
    'secret',
    'critical',
    'AWS access key',
    'An AWS access key id in a package is published to everyone who downloads it; deactivate the key and load credentials from the environment instead.',
  ),
  rule(
    'secret.aws-secret-key',
    'secret',
    'critical',
    'AWS secret access key',
    'An AWS secret access key grants the key’s permissions to anyone who reads the package; deactivate it at once.',
  ),
  rule(
    'secret.github-token',
    'secret',
    'critical',
    'GitHub token',
    'A GitHub token in a package gives its holder the token’s access to repositories; revoke it and read tokens from the environment.',
  ),
  rule(
    'secret.gitlab-token',
    'secret',
    'critical',
    'GitLab token',
    'A GitLab personal access token in a package is public; revoke it and read tokens from the environment.',
  ),
  rule(
    'secret.slack-token',
    'secret',
    'critical',
    'Slack token or webhook',
    'A Slack token or incoming-webhook URL lets anyone post as the app; revoke it and keep it out of the package.',
  ),
  rule(
    'secret.openai-key',
    'secret',
    'critical',
    'OpenAI API key',
    'An OpenAI API key in a package lets anyone spend on the account; revoke it and read keys from the environment.',
  ),
  rule(
    'secret.anthropic-key',
    'secret',
    'critical',
    'Anthropic API key',
    'An Anthropic API key in a package lets anyone spend on the account; revoke it and read keys from the environment.',
  ),
  rule(
    'secret.google-api-key',
    'secret',
    'critical',
    'Google API key',
    'A Google API key in a package is public; restrict or revoke it and read keys from the environment.',
  ),
  rule(
    'secret.stripe-key',
    'secret',
    'critical',
    'Stripe secret key',
    'A live Stripe secret or restricted key lets anyone act on the account; roll it and keep it out of the package.',
  ),
  rule(
    'secret.npm-token',
    'secret',
    'critical',
    'npm access token',
    'An npm token can publish packages as its owner; revoke it and keep it out of the package.',
  ),
  rule(
    'secret.huggingface-token',
    'secret',
    'critical',
    'Hugging Face token',
    'A Hugging Face token in a package is public; revoke it and read it from the environment.',
  ),
  rule(
    'secret.example-credential',
    'secret',
    'low',
    'Example or test credential',
    'This has the shape of a credential but is a well-known documentation example or a test key; make sure no real key sits beside it.',
  ),
  // Executables and oddities
  rule(
    'executable.elf',
    'executable',
    'critical',
    'ELF executable',
    'A compiled Linux program cannot be reviewed by reading and runs with its user’s rights: a version shipping one is quarantined. Ship the source and its build steps instead.',
  ),
  rule(
    'executable.pe',
    'executable',
    'critical',
    'Windows executable',
    'A compiled Windows program (PE) cannot be reviewed by reading and runs with its user’s rights: a version shipping one is quarantined. Ship the source and its build steps instead.',
  ),
  rule(
    'executable.disguised',
    'executable',
    'critical',
    'Executable under another file type’s name',
    'A compiled program named as an image, font, document, data file or script hides what it is; nothing legitimate ships that way. Remove it.',
  ),
  rule(
    'executable.macho',
    'executable',
    'critical',
    'Mach-O executable',
    'A compiled macOS program cannot be reviewed by reading and runs with its user’s rights: a version shipping one is quarantined. Ship the source and its build steps instead.',
  ),
  rule(
    'executable.nested-archive',
    'executable',
    'high',
    'Archive inside the package, not opened',
    'An archive inside the package that the registry did not open (a format it does not read, too large, too deeply nested, or refused by its strict reader): its contents are unknown to reviewers. Ship the files themselves.',
  ),
  rule(
    'executable.nested-archive-opened',
    'executable',
    'low',
    'Archive inside the package, opened',
    'An archive inside the package was opened and the files in it scanned like the others, under the archive’s path. An installed skill holds the archive, not its files: ship the files themselves where you can.',
  ),
  rule(
    'executable.packed-script',
    'executable',
    'critical',
    'Packed or obfuscated script',
    'This script is packed or obfuscated (packer signature or generated identifiers), so what it does cannot be reviewed; ship the readable source.',
  ),
  rule(
    'executable.minified',
    'executable',
    'low',
    'Minified script or very long line',
    'Very long lines (minified code or data) cannot be reviewed by reading; ship the readable source beside it or explain what it is.',
  ),
  // The Agent Skills specification
  rule(
    'spec.name-format',
    'skill-spec',
    'medium',
    'Skill name outside the specification',
    'The Agent Skills specification wants `name` of 1 to 64 lower-case letters, digits and single hyphens, not starting or ending with a hyphen.',
  ),
  rule(
    'spec.name-folder-mismatch',
    'skill-spec',
    'medium',
    'Skill name differs from its folder',
    'When SKILL.md sits in a folder, the specification wants `name` to equal the folder’s name; rename one of them.',
  ),
  rule(
    'spec.description-length',
    'skill-spec',
    'medium',
    'Description length outside the specification',
    'The specification wants `description` of 1 to 1,024 characters, saying what the skill does and when to use it.',
  ),
  rule(
    'spec.compatibility-length',
    'skill-spec',
    'low',
    'Compatibility field too long',
    'The specification wants `compatibility` to be a string of at most 500 characters.',
  ),
  rule(
    'spec.metadata-type',
    'skill-spec',
    'low',
    'Metadata is not a map of strings',
    'The specification wants `metadata` to map string keys to string values.',
  ),
  rule(
    'spec.unknown-field',
    'skill-spec',
    'low',
    'Unexpected front matter field',
    'The specification allows name, description, license, compatibility, metadata and allowed-tools at the top level; put anything else under `metadata`.',
  ),
  rule(
    'spec.invalid-front-matter',
    'skill-spec',
    'medium',
    'Front matter missing or unreadable',
    'SKILL.md should start with YAML front matter between two `---` lines holding at least name and description.',
  ),
  // External references
  rule(
    'url.raw-ip',
    'external-reference',
    'medium',
    'Address by raw IP',
    'A URL or connection to a public IP address names no domain that can be checked or revoked; it is typical of throw-away servers. Use a named host.',
  ),
  rule(
    'url.collector',
    'external-reference',
    'medium',
    'Request collector, paste or tunnel service',
    'Request collectors, paste sites, file drops, tunnels and chat webhooks are where stolen data is usually sent; check why the skill needs one.',
  ),
  rule(
    'url.shortener',
    'external-reference',
    'low',
    'Shortened URL',
    'A shortened URL hides where it leads and can be changed after review; use the real address.',
  ),
  // Combinations
  rule(
    'combo.credential-exfiltration',
    'dangerous-command',
    'critical',
    'Reads credentials and sends data away',
    'The package both reads credentials and sends data to a remote address or collector: together, the pattern of a credential thief.',
  ),
  rule(
    'combo.concealed-command',
    'agent-manipulation',
    'critical',
    'Dangerous command the user is not to see',
    'The package tells the agent to hide what it does or run it silently, and holds a dangerous command: together, an attempt to act against the user without their knowledge.',
  ),
  rule(
    'combo.remote-code',
    'dangerous-command',
    'critical',
    'Runs code fetched from a throw-away address',
    'A command runs code downloaded from a raw IP address, collector, tunnel or shortened URL; what runs can change at any time and cannot be traced to a publisher.',
  ),
];

const byId = new Map(RULES.map((r) => [r.id, r]));

/** The rule with this id; throws for an unknown id (a programming error). */
export function ruleById(id: string): ScanRule {
  const found = byId.get(id);
  if (found === undefined) throw new Error(`Unknown scan rule ${id}`);
  return found;
}
