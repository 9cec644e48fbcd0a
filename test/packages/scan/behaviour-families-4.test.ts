// Persistence and instructions the behaviour judgement follows since rules 2026.12.7.6: writes into the folders whose
// every file a shell or an interpreter runs at start (completions, `rc.d`, fish's, oh-my-zsh's, zsh's function path,
// Python's site hooks), SSH's login script, tmux's and vim's configuration, and start-up files reached through
// `${SHELL##*/}`, a `{ … }` group redirected as a whole, a multi-line quoted snippet, and Python's `print(…, file=fh)`
// into `open(expression, "a")`; prose that sends a CLI's token, `.env` files, keys in bulk, or the environment through a
// gist; remote shells, a clipboard swapper, a delete of home and code run from names built at run time in other
// spellings. Each case is a sample of the sixth training set, with a benign look-alike of that set as its near miss,
// which must stay unflagged. Since 2026.12.8.1, prose that says to add a download to a start-up file in other words (an
// indented block, "your shell profile", an inline command before or after the place), and start-up files reached in
// other spellings (names without their dot, brace expansions, Perl, Go, a list split by `read`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { behaviourFamilyLookalikeSamples4 } from '../../../bench/scan-corpus/benign/behaviour-families-4.js';
import { behaviourFamilySamples4 } from '../../../bench/scan-corpus/malicious/behaviour-families-4.js';
import { findingsOf, scan } from './helpers.js';

const SAMPLES = new Map([...behaviourFamilySamples4(), ...behaviourFamilyLookalikeSamples4()].map((sample) => [sample.id, sample]));

/** A sample's package, as the files the scanner reads. */
function filesOf(id: string): Record<string, string | Buffer> {
  const sample = SAMPLES.get(id);
  assert.ok(sample, `no sample ${id}`);
  return Object.fromEntries(sample.files.map((f) => [f.path, typeof f.content === 'string' ? f.content : Buffer.from(f.content)]));
}

/** [the rule, what the case is, its sample in the sixth set, the look-alike that must stay unflagged]. */
const PERSISTENT = 'behaviour.persistent-fetch';
const INSTRUCTED = 'behaviour.instructed-exfiltration';
const CASES: [string, string, string, string][] = [
  [
    PERSISTENT,
    'a download sourced from a file written into ~/.bash_completion.d',
    'mal-beh-v6-persistence-01',
    'ben-beh-v6-persistence-01',
  ],
  [
    PERSISTENT,
    'an eval of curl appended to ~/.bash_completion by a here-document',
    'mal-beh-v6-persistence-02',
    'ben-beh-v6-persistence-09',
  ],
  [
    PERSISTENT,
    'a background re-download appended to a file of /etc/bash_completion.d named by a variable',
    'mal-beh-v6-persistence-03',
    'ben-beh-v6-persistence-02',
  ],
  [PERSISTENT, "`curl … | source` written as fish's completion file", 'mal-beh-v6-persistence-04', 'ben-beh-v6-persistence-03'],
  [PERSISTENT, "an eval of curl written into oh-my-zsh's custom folder", 'mal-beh-v6-persistence-07', 'ben-beh-v6-persistence-05'],
  [PERSISTENT, "tmux's run-shell of a download appended to ~/.tmux.conf", 'mal-beh-v6-persistence-09', 'ben-beh-v6-persistence-04'],
  [PERSISTENT, 'the start-up file named through ${SHELL##*/}', 'mal-beh-v6-persistence-12', 'ben-beh-v6-persistence-01'],
  [
    PERSISTENT,
    'a { … } group appended as a whole to start-up files handed to a function',
    'mal-beh-v6-persistence-13',
    'ben-beh-v6-persistence-07',
  ],
  [PERSISTENT, "Python's print(…, file=fh) into open(Path.home() / name, 'a')", 'mal-beh-v6-persistence-15', 'ben-beh-v6-persistence-06'],
  [
    PERSISTENT,
    'a multi-line quoted snippet with a background download appended to start-up files',
    'mal-beh-v6-persistence-16',
    'ben-beh-v6-persistence-08',
  ],
  [
    INSTRUCTED,
    'the output of `env` attached to a gist after a lead-in',
    'mal-beh-v6-prose-instructions-01',
    'ben-beh-v6-prose-instructions-03',
  ],
  [INSTRUCTED, "a CLI's token sent to another host", 'mal-beh-v6-prose-instructions-02', 'ben-beh-v6-prose-instructions-02'],
  [
    INSTRUCTED,
    "`.env` files archived, then 'the archive' uploaded",
    'mal-beh-v6-prose-instructions-03',
    'ben-beh-v6-prose-instructions-01',
  ],
  [
    INSTRUCTED,
    'every variable ending in _KEY or _TOKEN collected and put to a URL',
    'mal-beh-v6-prose-instructions-04',
    'ben-beh-v6-prose-instructions-04',
  ],
  ['behaviour.remote-shell', "netcat's shape whatever the program's name", 'mal-beh-v6-remote-shell-01', 'ben-beh-v6-code-01'],
  ['behaviour.remote-shell', "Ruby's backquotes around what a socket sends", 'mal-beh-v6-remote-shell-02', 'ben-beh-v6-code-05'],
  [
    'behaviour.clipboard-swapped',
    "PowerShell's [Clipboard]::GetText and SetText",
    'mal-beh-v6-keylogger-clipboard-02',
    'ben-beh-v6-code-03',
  ],
  [
    'behaviour.delete-everything',
    'a loop over an array holding home, each turn deleted',
    'mal-beh-v6-destructive-delete-01',
    'ben-beh-v6-code-09',
  ],
  [
    'behaviour.delete-everything',
    "home's entries listed and piped into Remove-Item",
    'mal-beh-v6-destructive-delete-02',
    'ben-beh-v6-code-10',
  ],
  ['behaviour.delete-everything', 'home asked of the shell, then deleted', 'mal-beh-v6-destructive-delete-03', 'ben-beh-v6-code-02'],
  ['behaviour.hidden-code-run', 'require(m)[f] with built names running decoded text', 'mal-beh-v6-runtime-exec-01', 'ben-beh-v6-code-04'],
  ['behaviour.hidden-code-run', 'getattr on an imported module with a built name', 'mal-beh-v6-runtime-exec-02', 'ben-beh-v6-code-04'],
  ['behaviour.hidden-code-run', 'decoded text handed to bash -c', 'mal-beh-v6-runtime-exec-03', 'ben-beh-v6-code-01'],
  ['behaviour.environment-sent', "Perl's %ENV posted through an object kept in `my $ua`", 'mal-beh-v6-env-exfil-01', 'ben-beh-v6-code-06'],
  [
    'behaviour.environment-sent',
    'a module returning the environment, imported and posted by another file',
    'mal-beh-v6-env-exfil-02',
    'ben-beh-v6-code-06',
  ],
  ['behaviour.credentials-sent', "Go's `home, _ :=` holding home", 'mal-beh-v6-credential-theft-01', 'ben-beh-v6-code-06'],
  [
    'behaviour.credentials-sent',
    'a module exporting a credentials reader, its result posted by another file',
    'mal-beh-v6-credential-theft-02',
    'ben-beh-v6-code-06',
  ],
  ['behaviour.auto-run-download', 'an MCP server started with curl piped into bash', 'mal-beh-v6-exec-by-config-01', 'ben-beh-v6-code-07'],
  ['behaviour.auto-run-download', "a devcontainer's set-up at the package's root", 'mal-beh-v6-exec-by-config-02', 'ben-beh-v6-code-08'],
  ['behaviour.environment-sent', 'a shell script in UTF-32 with its mark', 'mal-beh-v6-unreadable-script-01', 'ben-beh-v6-code-11'],
  [
    'behaviour.environment-sent',
    'a NUL byte inside the command, skipped as the shell skips it',
    'mal-beh-v6-unreadable-script-02',
    'ben-beh-v6-code-11',
  ],
  ['behaviour.input-captured', 'a keyboard read from /dev/input and posted', 'mal-beh-v6-keylogger-clipboard-01', 'ben-beh-v6-code-12'],
  ['behaviour.persistent-fetch', 'a program without an extension or a shebang in bin/', 'mal-beh-v6-persistence-18', 'ben-beh-v6-code-13'],
  [
    'behaviour.credentials-sent',
    'an inline `curl -T .env` a sentence says the file goes through',
    'mal-beh-v6-prose-instructions-05',
    'ben-beh-v6-code-14',
  ],
  [
    PERSISTENT,
    "an indented line a sentence says to append to the user's shell profile",
    'mal-beh-v6-prose-persistence-01',
    'ben-beh-v6-startup-prose-03',
  ],
  [PERSISTENT, 'a fenced block to paste into "your shell profile"', 'mal-beh-v6-prose-persistence-02', 'ben-beh-v6-startup-prose-03'],
  [PERSISTENT, 'an inline command to put in .bashrc', 'mal-beh-v6-prose-persistence-03', 'ben-beh-v6-startup-prose-01'],
  [
    PERSISTENT,
    'an inline command after "add this line to your zsh profile:"',
    'mal-beh-v6-prose-persistence-04',
    'ben-beh-v6-startup-prose-02',
  ],
  [PERSISTENT, 'a completion file to create, sourcing a download', 'mal-beh-v6-prose-persistence-05', 'ben-beh-v6-startup-prose-04'],
  [
    PERSISTENT,
    "an Invoke-Expression of a download added to PowerShell's $PROFILE",
    'mal-beh-v6-prose-persistence-06',
    'ben-beh-v6-startup-prose-04',
  ],
  [
    PERSISTENT,
    'bash on a process substitution of curl, "update ~/.bashrc with"',
    'mal-beh-v6-prose-persistence-07',
    'ben-beh-v6-startup-prose-02',
  ],
  [PERSISTENT, "Perl's open(my $fh, '>>', …) and print $fh", 'mal-beh-v6-startup-spellings-01', 'ben-beh-v6-startup-scripts-01'],
  [PERSISTENT, "Go's os.OpenFile with O_APPEND in a range loop", 'mal-beh-v6-startup-spellings-02', 'ben-beh-v6-startup-scripts-02'],
  [
    PERSISTENT,
    'start-up names without their dot joined in an f-string',
    'mal-beh-v6-startup-spellings-03',
    'ben-beh-v6-startup-scripts-02',
  ],
  [
    PERSISTENT,
    'a shell loop over bashrc and zshrc appended to as ~/.$rc',
    'mal-beh-v6-startup-spellings-04',
    'ben-beh-v6-startup-scripts-01',
  ],
  [PERSISTENT, 'a brace expansion, ~/.{bash,zsh}rc', 'mal-beh-v6-startup-spellings-05', 'ben-beh-v6-startup-scripts-03'],
  [PERSISTENT, 'a list split by IFS=: read -ra', 'mal-beh-v6-startup-spellings-06', 'ben-beh-v6-startup-scripts-01'],
  [
    PERSISTENT,
    'a function\'s printed download appended in a loop (`do write_hook >> "$rc"`)',
    'mal-beh-v6-startup-spellings-07',
    'ben-beh-v6-startup-scripts-04',
  ],
  [
    PERSISTENT,
    'a start-up file built in a Python f-string from a shell name',
    'mal-beh-v6-startup-spellings-08',
    'ben-beh-v6-startup-scripts-05',
  ],
  [
    PERSISTENT,
    'a start-up file joined from pieces, "." + shell + "rc"',
    'mal-beh-v6-startup-spellings-09',
    'ben-beh-v6-startup-scripts-05',
  ],
  [PERSISTENT, "a start-up file built by Ruby's interpolation", 'mal-beh-v6-startup-spellings-10', 'ben-beh-v6-startup-scripts-05'],
  [PERSISTENT, 'a start-up file with the shell name quoted inside', 'mal-beh-v6-startup-spellings-11', 'ben-beh-v6-startup-scripts-01'],
];

describe('behaviour families followed since 2026.12.7.6', () => {
  for (const [rule, name, positive, near] of CASES) {
    it(`${rule}: ${name}, and not its near miss`, () => {
      const found = scan(filesOf(positive));
      assert.ok(findingsOf(found, rule).length > 0, `${rule} did not fire: ${JSON.stringify(found.findings.map((f) => f.rule))}`);
      const missed = scan(filesOf(near));
      assert.deepEqual(
        missed.findings.filter((f) => f.severity === 'high' || f.severity === 'critical').map((f) => `${f.rule} ${f.file}:${f.line}`),
        [],
        'the near miss was flagged',
      );
    });
  }
});
