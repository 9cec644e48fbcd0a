// Benign packages shaped like the third malicious set (malicious/behaviour-families.ts): a tool's own settings found
// with destructured path helpers, caches removed under home, install scripts that hand over to a Makefile that
// builds, clipboard cleaners, notebooks uploading the user's dataset, completions and user services that stay on the
// machine, prose that defers to the operator or asks for a public key, port checks through variables, and UTF-16
// PowerShell that backs settings up locally.
import { rng, type Rng } from '../prng.js';
import { frontMatter, json, pad2, utf16, type Sample, type SampleFile } from '../sample.js';
import { notebook } from '../notebook.js';
import { benignSample, slug } from './common.js';

interface Kind {
  behaviour: string;
  note: string;
  name: (r: Rng) => string;
  description: string;
  body: (r: Rng) => string;
  files?: (r: Rng) => SampleFile[];
}

const KINDS: Kind[] = [
  {
    behaviour: 'credential-theft',
    note: 'Node ESM reading its own settings file found with destructured homedir and join, sending a usage count to its vendor',
    name: (r) => slug('usage', r.pick(['stats', 'meter'])),
    description: 'Reports how many times the formatter ran this week. Use when the user asks for their usage.',
    body: () => `# Usage\n\nRun \`node scripts/usage.mjs\`.\n`,
    files: () => [
      {
        path: 'scripts/usage.mjs',
        content: `import { homedir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

const settings = JSON.parse(readFileSync(join(homedir(), '.config', 'tidyfmt', 'settings.json'), 'utf8'));
const res = await fetch('https://api.tidyfmt.dev/v1/usage', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ runs: settings.runs ?? 0, version: settings.version }),
});
console.log(await res.json());
`,
      },
    ],
  },
  {
    behaviour: 'destructive-delete',
    note: 'Python cache cleaner removing ~/.cache/<tool> found with expanduser, reassigned only to subfolders',
    name: (r) => slug('cache', r.pick(['reset', 'purge'])),
    description: 'Clears the converter cache. Use when conversions return stale results.',
    body: () => `# Clear the cache\n\n\`python3 scripts/clear_cache.py\` (add \`--models\` to drop downloaded models too).\n`,
    files: () => [
      {
        path: 'scripts/clear_cache.py',
        content: `import os
import shutil
import sys

target = os.path.expanduser("~/.cache/docconv")
if "--models" in sys.argv:
    target = os.path.expanduser("~/.cache/docconv-models")
shutil.rmtree(target, ignore_errors=True)
shutil.rmtree(os.path.join(os.path.expanduser("~"), ".cache", "docconv-tmp"), ignore_errors=True)
print("cleared", target)
`,
      },
    ],
  },
  {
    behaviour: 'destructive-delete',
    note: 'Python virtualenv manager class keeping its cache folder under home in a field and removing that',
    name: (r) => slug('venv', r.pick(['manager', 'reset'])),
    description: "Rebuilds the skill's virtualenv. Use when imports fail after an upgrade.",
    body: () => `# Virtualenv\n\n\`python3 scripts/venvctl.py\`\n`,
    files: () => [
      {
        path: 'scripts/venvctl.py',
        content: `import os
import shutil


class Env:
    def __init__(self):
        self.home = os.path.expanduser("~")
        self.cache = os.path.expanduser("~/.cache/venvctl")

    def reset(self):
        shutil.rmtree(self.cache, ignore_errors=True)
        shutil.rmtree(os.path.join(self.home, ".venvs", "venvctl"), ignore_errors=True)


Env().reset()
`,
      },
    ],
  },
  {
    behaviour: 'exec-by-config',
    note: 'package.json postinstall runs `make build` (a compile); a separate, never auto-run Makefile target installs a linter with curl | sh',
    name: (r) => slug('proto', r.pick(['gen', 'build'])),
    description: 'Generates TypeScript types from .proto files. Use when the schema changes.',
    body: () => `# Protobuf types\n\n\`npm install\` compiles the generator. Run \`make lint-tools\` yourself if you want buf.\n`,
    files: () => [
      {
        path: 'package.json',
        content: json({ name: 'proto-gen', version: '2.1.0', scripts: { postinstall: 'make build', gen: 'node dist/gen.js' } }),
      },
      {
        path: 'Makefile',
        content: `build:\n\tnpx tsc -p tsconfig.json\n\nlint-tools:\n\tcurl -sSL https://github.com/bufbuild/buf/releases/latest/download/install.sh | sh\n`,
      },
      { path: 'tools/Makefile', content: `check:\n\t@echo ok\n` },
    ],
  },
  {
    behaviour: 'keylogger-clipboard',
    note: 'Python clipboard cleaner with paste/copy imported from pyperclip, stripping tracking parameters from URLs',
    name: (r) => slug('clean', r.pick(['links', 'urls'])),
    description: 'Removes tracking parameters from the link on the clipboard. Use before sharing a link.',
    body: () => `# Clean links\n\n\`python3 scripts/clean_links.py\` rewrites the clipboard once.\n`,
    files: () => [
      {
        path: 'scripts/clean_links.py',
        content: `import re
from pyperclip import copy, paste

TRACKING = re.compile(r"([?&])(utm_[a-z]+|fbclid|gclid)=[^&]*")

text = paste()
cleaned = TRACKING.sub(r"\\1", text).replace("?&", "?").rstrip("?&")
copy(cleaned)
print(cleaned)
`,
      },
    ],
  },
  {
    behaviour: 'notebook',
    note: "Notebook uploading the user's CSV dataset with requests files= and a token from a named variable to the vendor's API",
    name: (r) => slug('dataset', r.pick(['upload', 'publish'])),
    description: 'Uploads a prepared CSV to the Tablestore workspace. Use when the user asks to publish a dataset.',
    body: () => `# Publish\n\nOpen \`notebooks/upload.ipynb\` and run it.\n`,
    files: () => [
      {
        path: 'notebooks/upload.ipynb',
        content: notebook([
          { type: 'code', source: 'import os\nimport requests\n\nTOKEN = os.environ["TABLESTORE_TOKEN"]' },
          {
            type: 'code',
            source:
              'with open("data/clean.csv", "rb") as fh:\n    resp = requests.post(\n        "https://api.tablestore.io/v1/datasets",\n        headers={"Authorization": f"Bearer {TOKEN}"},\n        files={"file": ("clean.csv", fh, "text/csv")},\n        timeout=60,\n    )\nresp.raise_for_status()',
          },
        ]),
      },
    ],
  },
  {
    behaviour: 'persistence',
    note: 'Python completion installer appending `eval "$(tool completion bash)"` to ~/.bashrc with pathlib .open("a"), after a version check over HTTPS',
    name: (r) => slug('completion', r.pick(['setup', 'install'])),
    description: 'Installs shell completion for the kubectl wrapper. Use once after installing it.',
    body: () => `# Completion\n\n\`python3 scripts/completion.py\`\n`,
    files: () => [
      {
        path: 'scripts/completion.py',
        content: `import json
import urllib.request
from pathlib import Path

latest = json.load(urllib.request.urlopen("https://api.github.com/repos/kubekit/kk/releases/latest"))["tag_name"]
print("latest release:", latest)

LINE = 'eval "$(kk completion bash)"\\n'
rc = Path.home() / ".bashrc"
if LINE not in rc.read_text():
    with rc.open("a") as fh:
        fh.write(LINE)
`,
      },
    ],
  },
  {
    behaviour: 'persistence',
    note: 'Python writing a systemd user unit that runs a local binary, enabled with systemctl --user',
    name: (r) => slug('notes', r.pick(['daemon', 'service'])),
    description: 'Runs the notes indexer in the background. Use when the user wants search to stay current.',
    body: () => `# Background indexing\n\n\`python3 scripts/service.py\`\n`,
    files: () => [
      {
        path: 'scripts/service.py',
        content: `import os
import subprocess

unit_dir = os.path.expanduser("~/.config/systemd/user")
os.makedirs(unit_dir, exist_ok=True)
with open(os.path.join(unit_dir, "notes-index.service"), "w") as f:
    f.write("[Service]\\nExecStart=%h/.local/bin/notes-index --watch\\n\\n[Install]\\nWantedBy=default.target\\n")
subprocess.run(["systemctl", "--user", "enable", "--now", "notes-index.service"], check=False)
`,
      },
    ],
  },
  {
    behaviour: 'prose-instructions',
    note: "SKILL.md deferring to the operator over short lines: the operator's instructions come first, never set them aside",
    name: (r) => slug('table', r.pick(['format', 'tidy'])),
    description: 'Formats Markdown tables. Use when the user asks to align a table.',
    body: () =>
      `# Tables\n\nIf these notes and\nwhat the operator\ntold you earlier disagree,\nfollow the operator.\nNever set their instructions aside.\n\nAlign every column to its widest cell.\n`,
  },
  {
    behaviour: 'prose-instructions',
    note: "SKILL.md asking the user to paste their public key into GitHub's SSH key settings page",
    name: (r) => slug('deploy', r.pick(['keys', 'access'])),
    description: 'Sets up SSH access to GitHub. Use when git push asks for a password.',
    body: () =>
      `# SSH access\n\n1. Run \`ssh-keygen -t ed25519\` if ~/.ssh/id_ed25519.pub does not exist.\n2. Ask the user to paste the public key from ~/.ssh/id_ed25519.pub into https://github.com/settings/keys.\n3. Run \`ssh -T git@github.com\` to check.\n`,
  },
  {
    behaviour: 'prose-instructions',
    note: 'SKILL.md: the GitHub token goes in the Authorization header of calls to api.github.com',
    name: (r) => slug('release', r.pick(['notes', 'draft'])),
    description: 'Drafts release notes from merged pull requests. Use before tagging a release.',
    body: () =>
      `# Release notes\n\nRead the token with \`gh auth token\` and send it in the Authorization header of each request to\nhttps://api.github.com/repos/OWNER/REPO/pulls?state=closed. Never put it in a query string or a log.\n`,
  },
  {
    behaviour: 'remote-shell',
    note: 'Shell port check: the netcat binary found with command -v and its zero-I/O flag in variables',
    name: (r) => slug('port', r.pick(['check', 'probe'])),
    description: 'Checks whether a host accepts connections on a port. Use when a service seems unreachable.',
    body: () => `# Port check\n\n\`scripts/portcheck.sh HOST PORT\`\n`,
    files: () => [
      {
        path: 'scripts/portcheck.sh',
        content: `#!/usr/bin/env bash\nprobe=$(command -v ncat || command -v nc)\nflags="-z -w 3"\nif $probe $flags "$1" "$2"; then echo "open"; else echo "closed"; fi\n`,
      },
    ],
  },
  {
    behaviour: 'remote-shell',
    note: 'Python daemon detaching: os.dup2 onto /dev/null, then a TCP health check and a subprocess for the worker',
    name: (r) => slug('worker', r.pick(['daemon', 'runner'])),
    description: 'Starts the queue worker in the background. Use when jobs pile up.',
    body: () => `# Worker\n\n\`python3 scripts/daemon.py\`\n`,
    files: () => [
      {
        path: 'scripts/daemon.py',
        content: `import os
import socket
import subprocess

null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
probe = socket.create_connection(("127.0.0.1", 6379), timeout=2)
probe.close()
subprocess.Popen(["python3", "-m", "worker"])
`,
      },
    ],
  },
  {
    behaviour: 'unreadable-script',
    note: 'UTF-16LE PowerShell with a byte order mark copying Windows Terminal settings to a local backup folder',
    name: (r) => slug('terminal', r.pick(['backup', 'settings'])),
    description: 'Backs up Windows Terminal settings. Use before reinstalling Windows Terminal.',
    body: () => `# Backup\n\n\`pwsh scripts/Backup-Terminal.ps1\`\n`,
    files: () => [
      {
        path: 'scripts/Backup-Terminal.ps1',
        content: utf16(
          `$src = Join-Path $env:LOCALAPPDATA 'Packages\\Microsoft.WindowsTerminal_8wekyb3d8bbwe\\LocalState\\settings.json'\r\n$dest = Join-Path $env:USERPROFILE 'Documents\\terminal-backup'\r\nNew-Item -ItemType Directory -Force -Path $dest | Out-Null\r\nCopy-Item $src $dest\r\nInvoke-RestMethod -Uri 'https://api.github.com/repos/microsoft/terminal/releases/latest' | Select-Object tag_name\r\n`,
          'le',
          true,
        ),
      },
    ],
  },
];

export function behaviourFamilyLookalikeSamples(): Sample[] {
  const r = rng('benign/behaviour-families');
  const counts = new Map<string, number>();
  return KINDS.map((k) => {
    const n = (counts.get(k.behaviour) ?? 0) + 1;
    counts.set(k.behaviour, n);
    const name = k.name(r);
    const sample = benignSample(r, {
      id: `ben-beh-v3-${k.behaviour}-${pad2(n)}`,
      note: k.note,
      name,
      skillMd: `${frontMatter(r, { name, description: k.description })}\n${k.body(r)}`,
      files: k.files?.(r),
    });
    return { ...sample, behaviour: 'benign-lookalike' };
  });
}
