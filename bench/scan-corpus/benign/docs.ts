// Documentation-heavy skills that talk to HTTP APIs and install tools: full of curl and wget, bearer tokens read
// from the environment, and the install one-liners vendors publish, in code blocks.
import { rng, type Rng } from '../prng.js';
import { frontMatter, pad2, type Sample } from '../sample.js';
import { benignSample, bullets, codeBlock, numbered, slug, table } from './common.js';

interface Api {
  service: string;
  base: string;
  env: string;
  auth: 'bearer' | 'x-api-key' | 'basic' | 'token';
  resources: { method: string; path: string; summary: string; body?: Record<string, unknown> }[];
}

const APIS: Api[] = [
  {
    service: 'GitHub',
    base: 'https://api.github.com',
    env: 'GITHUB_TOKEN',
    auth: 'bearer',
    resources: [
      { method: 'GET', path: '/repos/{owner}/{repo}/pulls?state=open', summary: 'List open pull requests' },
      {
        method: 'POST',
        path: '/repos/{owner}/{repo}/issues',
        summary: 'Open an issue',
        body: { title: 'Flaky test in CI', labels: ['bug'] },
      },
      { method: 'GET', path: '/repos/{owner}/{repo}/actions/runs?per_page=5', summary: 'Latest workflow runs' },
    ],
  },
  {
    service: 'Anthropic Messages',
    base: 'https://api.anthropic.com',
    env: 'ANTHROPIC_API_KEY',
    auth: 'x-api-key',
    resources: [
      {
        method: 'POST',
        path: '/v1/messages',
        summary: 'Send a message',
        body: { model: 'claude-sonnet-4-5', max_tokens: 512, messages: [{ role: 'user', content: 'Summarise this changelog.' }] },
      },
    ],
  },
  {
    service: 'OpenAI',
    base: 'https://api.openai.com',
    env: 'OPENAI_API_KEY',
    auth: 'bearer',
    resources: [
      {
        method: 'POST',
        path: '/v1/embeddings',
        summary: 'Embed a text',
        body: { model: 'text-embedding-3-small', input: 'The quick brown fox' },
      },
      { method: 'GET', path: '/v1/models', summary: 'List models' },
    ],
  },
  {
    service: 'Stripe',
    base: 'https://api.stripe.com',
    env: 'STRIPE_SECRET_KEY',
    auth: 'basic',
    resources: [
      { method: 'GET', path: '/v1/charges?limit=3', summary: 'Recent charges' },
      { method: 'GET', path: '/v1/customers/{id}', summary: 'Fetch a customer' },
    ],
  },
  {
    service: 'Slack Web API',
    base: 'https://slack.com/api',
    env: 'SLACK_BOT_TOKEN',
    auth: 'bearer',
    resources: [
      {
        method: 'POST',
        path: '/chat.postMessage',
        summary: 'Post a message to a channel',
        body: { channel: '#releases', text: 'v2.3.0 is out' },
      },
    ],
  },
  {
    service: 'Linear',
    base: 'https://api.linear.app',
    env: 'LINEAR_API_KEY',
    auth: 'token',
    resources: [
      {
        method: 'POST',
        path: '/graphql',
        summary: 'Query assigned issues',
        body: { query: '{ viewer { assignedIssues(first: 10) { nodes { identifier title } } } }' },
      },
    ],
  },
  {
    service: 'Weatherly',
    base: 'https://api.weatherly.example.com',
    env: 'WEATHERLY_KEY',
    auth: 'x-api-key',
    resources: [
      { method: 'GET', path: '/v2/forecast?lat=48.85&lon=2.35&days=3', summary: 'Three-day forecast' },
      { method: 'GET', path: '/v2/alerts?country=FR', summary: 'Active weather alerts' },
    ],
  },
  {
    service: 'Invoicely',
    base: 'https://api.invoicely.example.io',
    env: 'INVOICELY_TOKEN',
    auth: 'bearer',
    resources: [
      { method: 'GET', path: '/v1/invoices?status=overdue', summary: 'Overdue invoices' },
      { method: 'POST', path: '/v1/invoices/{id}/remind', summary: 'Send a payment reminder', body: { channel: 'email' } },
    ],
  },
  {
    service: 'Shortlink',
    base: 'https://api.shortlink.example.app',
    env: 'SHORTLINK_API_KEY',
    auth: 'bearer',
    resources: [
      {
        method: 'POST',
        path: '/links',
        summary: 'Shorten a URL',
        body: { url: 'https://docs.example.com/guides/getting-started', domain: 'go.example.com' },
      },
    ],
  },
  {
    service: 'Jira Cloud',
    base: 'https://your-domain.atlassian.net/rest/api/3',
    env: 'JIRA_API_TOKEN',
    auth: 'basic',
    resources: [{ method: 'GET', path: '/search?jql=assignee=currentUser()+AND+status!=Done', summary: 'My open issues' }],
  },
  {
    service: 'Sentry',
    base: 'https://sentry.io/api/0',
    env: 'SENTRY_AUTH_TOKEN',
    auth: 'bearer',
    resources: [{ method: 'GET', path: '/projects/{org}/{project}/issues/?query=is:unresolved', summary: 'Unresolved issues' }],
  },
  {
    service: 'Notion',
    base: 'https://api.notion.com/v1',
    env: 'NOTION_TOKEN',
    auth: 'bearer',
    resources: [{ method: 'POST', path: '/databases/{database_id}/query', summary: 'Query a database', body: { page_size: 20 } }],
  },
];

function curlFor(r: Rng, api: Api, res: Api['resources'][number]): string {
  const lines = [
    `curl ${r.pick(['-s', '-sS', '--silent --show-error', '-fsS'])}${res.method === 'GET' ? '' : ` -X ${res.method}`} "${api.base}${res.path}"`,
  ];
  if (api.auth === 'bearer') lines.push(`-H "Authorization: Bearer $${api.env}"`);
  else if (api.auth === 'x-api-key') lines.push(`-H "x-api-key: $${api.env}"`);
  else if (api.auth === 'token') lines.push(`-H "Authorization: $${api.env}"`);
  else lines.push(api.service === 'Stripe' ? `-u "$${api.env}:"` : `-u "you@example.com:$${api.env}"`);
  if (api.service.startsWith('Anthropic')) lines.push('-H "anthropic-version: 2023-06-01"');
  if (api.service === 'Notion') lines.push('-H "Notion-Version: 2022-06-28"');
  if (res.body) lines.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(res.body)}'`);
  if (r.chance(0.4)) lines.push(`| jq ${r.pick(['.', "'.data'", "'.[0]'", "'.items | length'"])}`);
  return lines.join(' \\\n  ');
}

function apiDocs(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const api = APIS[i % APIS.length]!;
    const verb = r.pick(['client', 'helper', 'assistant', 'tools', 'reporter', 'sync', 'integration']);
    const name = slug(api.service.split(' ')[0]!, verb, i >= APIS.length ? r.pick(['cli', 'docs', 'ops', 'daily', 'team']) : '');
    const description = `Calls the ${api.service} API to ${api.resources.map((x) => x.summary.toLowerCase()).join(', ')}. Use when the user asks about their ${api.service.split(' ')[0]!} data. Needs ${api.env} in the environment.`;
    const sections: string[] = [
      `# ${api.service} ${verb}`,
      '',
      `Talks to the ${api.service} REST API with \`curl\`. The token is read from \`$${api.env}\`; never paste it into the conversation or write it to a file.`,
      '',
      '## Setup',
      '',
      codeBlock('bash', `export ${api.env}="..."   # from your ${api.service.split(' ')[0]!} account settings`),
      '',
      '## Requests',
      '',
    ];
    for (const res of api.resources) {
      sections.push(`### ${res.summary}`, '', codeBlock('bash', curlFor(r, api, res)), '');
    }
    if (r.chance(0.5)) {
      sections.push(
        '## Errors',
        '',
        table(
          ['Status', 'Meaning', 'What to do'],
          [
            ['401', 'Token missing or wrong', `Check that \`$${api.env}\` is set`],
            ['403', 'Token lacks a scope', 'Ask the user to grant it'],
            ['429', 'Rate limited', 'Wait for `Retry-After` seconds, then retry once'],
            ['5xx', 'Service trouble', 'Retry with backoff; report if it persists'],
          ],
        ),
        '',
      );
    }
    const files = [];
    if (r.chance(0.5)) {
      files.push({
        path: `scripts/${slug(api.service.split(' ')[0]!)}.sh`,
        content: `#!/usr/bin/env bash\n# Thin wrapper: ${api.service} ${api.resources[0]!.summary.toLowerCase()}.\nset -euo pipefail\n: "\${${api.env}:?Set ${api.env} first}"\n${curlFor(r, api, api.resources[0]!)}\n`,
      });
      sections.push(
        '## Script',
        '',
        `\`scripts/${slug(api.service.split(' ')[0]!)}.sh\` wraps the first request and fails early when the token is missing.`,
        '',
      );
    }
    out.push(
      benignSample(r, {
        id: `ben-docs-api-${pad2(i + 1)}`,
        note: `${api.service} API documentation with curl examples authenticating from $${api.env}`,
        name,
        skillMd: `${frontMatter(r, { name, description, extra: r.chance(0.3) ? ['allowed-tools: Bash(curl:*) Bash(jq:*)'] : [] })}\n${sections.join('\n')}`,
        files,
      }),
    );
  }
  return out;
}

interface Tool {
  tool: string;
  what: string;
  install: string[];
  verify: string;
  usage: string[];
}

const TOOLS: Tool[] = [
  {
    tool: 'Rust toolchain',
    what: 'build and test Rust crates',
    install: ["curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"],
    verify: 'rustc --version && cargo --version',
    usage: ['cargo build --release', 'cargo test', 'cargo clippy -- -D warnings'],
  },
  {
    tool: 'uv',
    what: 'manage Python environments and dependencies',
    install: ['curl -LsSf https://astral.sh/uv/install.sh | sh'],
    verify: 'uv --version',
    usage: ['uv venv', 'uv pip install -r requirements.txt', 'uv run pytest'],
  },
  {
    tool: 'Bun',
    what: 'run and bundle TypeScript',
    install: ['curl -fsSL https://bun.sh/install | bash'],
    verify: 'bun --version',
    usage: ['bun install', 'bun test', 'bun build ./src/index.ts --outdir dist'],
  },
  {
    tool: 'Deno',
    what: 'run TypeScript scripts with permissions',
    install: ['curl -fsSL https://deno.land/install.sh | sh'],
    verify: 'deno --version',
    usage: ['deno run --allow-read main.ts', 'deno fmt', 'deno test'],
  },
  {
    tool: 'nvm',
    what: 'switch Node.js versions per project',
    install: ['curl -o- https://raw.githubusercontent.com/nvm-sh/nvm/v0.40.1/install.sh | bash'],
    verify: 'nvm --version',
    usage: ['nvm install', 'nvm use', 'node --version'],
  },
  {
    tool: 'Homebrew',
    what: 'install command-line tools on macOS',
    install: ['/bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"'],
    verify: 'brew --version',
    usage: ['brew install jq ripgrep', 'brew upgrade'],
  },
  {
    tool: 'Poetry',
    what: 'package Python projects',
    install: ['curl -sSL https://install.python-poetry.org | python3 -'],
    verify: 'poetry --version',
    usage: ['poetry install', 'poetry run pytest', 'poetry build'],
  },
  {
    tool: 'pnpm',
    what: 'install Node.js dependencies quickly',
    install: ['wget -qO- https://get.pnpm.io/install.sh | sh -'],
    verify: 'pnpm --version',
    usage: ['pnpm install --frozen-lockfile', 'pnpm test'],
  },
  {
    tool: 'Example CLI',
    what: 'deploy previews to the Example platform',
    install: ['curl -fsSL https://get.example.dev/install.sh | sh'],
    verify: 'example --version',
    usage: ['example login', 'example deploy --preview'],
  },
  {
    tool: 'Tailscale',
    what: 'join machines to a private network',
    install: ['curl -fsSL https://tailscale.com/install.sh | sh'],
    verify: 'tailscale version',
    usage: ['sudo tailscale up', 'tailscale status'],
  },
  {
    tool: 'Docker Engine',
    what: 'run containers on a Linux server',
    install: ['curl -fsSL https://get.docker.com -o get-docker.sh', 'sudo sh get-docker.sh'],
    verify: 'docker version',
    usage: ['docker run --rm hello-world', 'docker compose up -d'],
  },
  {
    tool: 'kubectl',
    what: 'talk to Kubernetes clusters',
    install: [
      'curl -LO "https://dl.k8s.io/release/$(curl -L -s https://dl.k8s.io/release/stable.txt)/bin/linux/amd64/kubectl"',
      'sudo install -o root -g root -m 0755 kubectl /usr/local/bin/kubectl',
    ],
    verify: 'kubectl version --client',
    usage: ['kubectl get pods -A', 'kubectl logs deploy/api --tail=50'],
  },
  {
    tool: 'Helm',
    what: 'install charts into Kubernetes',
    install: [
      'curl -fsSL -o get_helm.sh https://raw.githubusercontent.com/helm/helm/main/scripts/get-helm-3',
      'chmod 700 get_helm.sh',
      './get_helm.sh',
    ],
    verify: 'helm version',
    usage: ['helm repo update', 'helm upgrade --install api ./chart'],
  },
  {
    tool: 'Acme Deploy CLI',
    what: 'ship builds to Acme Cloud',
    install: ['wget -qO- https://downloads.acme-cloud.example.com/cli/install.sh | bash'],
    verify: 'acme --version',
    usage: ['acme auth login', 'acme deploy ./dist'],
  },
];

function installDocs(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const t = TOOLS[i % TOOLS.length]!;
    const name = slug(t.tool.replace(/ CLI| toolchain| Engine/, ''), r.pick(['setup', 'workflow', 'guide', 'helper', 'dev']));
    const alternatives = r.chance(0.5)
      ? ['', '### Alternatives', '', 'If you prefer a package manager, use it instead; the result is the same binary.', '']
      : [];
    const body = [
      `# Working with ${t.tool}`,
      '',
      `Use ${t.tool} to ${t.what}. Check whether it is installed before suggesting an install.`,
      '',
      '## Install',
      '',
      `Only if \`${t.verify.split(' ')[0]!}\` is missing, and after the user agrees:`,
      '',
      codeBlock(r.pick(['bash', 'sh', 'console']), t.install.join('\n')),
      ...alternatives,
      '',
      '## Verify',
      '',
      codeBlock('bash', t.verify),
      '',
      '## Everyday commands',
      '',
      codeBlock('bash', t.usage.join('\n')),
      '',
      r.chance(0.5) ? `The install script is published by the ${t.tool} project; read it first if your policy requires it.` : '',
    ];
    out.push(
      benignSample(r, {
        id: `ben-docs-install-${pad2(i + 1)}`,
        note: `Install guide for ${t.tool}: the vendor's published install command (${t.install[0]!.split(' ')[0]} …) in a code block`,
        name,
        skillMd: `${frontMatter(r, { name, description: `Installs and uses ${t.tool} to ${t.what}. Use when a project needs ${t.tool} and it is not installed yet.` })}\n${body.join('\n')}\n`,
      }),
    );
  }
  return out;
}

const DATASETS = [
  { name: 'city populations', url: 'https://data.example.org/cities/2023/cities.csv.gz', file: 'cities.csv.gz' },
  { name: 'airport codes', url: 'https://datasets.example.net/airports/airports.csv', file: 'airports.csv' },
  { name: 'public holiday calendar', url: 'https://calendar.example.com/holidays/2025.ics', file: '2025.ics' },
  { name: 'exchange rates', url: 'https://rates.example.org/eurofxref-hist.zip', file: 'eurofxref-hist.zip' },
  { name: 'word frequency list', url: 'https://corpora.example.edu/en/freq-50k.txt', file: 'freq-50k.txt' },
  { name: 'timezone database', url: 'https://data.iana.org/time-zones/releases/tzdata2024b.tar.gz', file: 'tzdata2024b.tar.gz' },
];

function downloads(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const d = DATASETS[i % DATASETS.length]!;
    const sha = r.chars('0123456789abcdef', 64);
    const name = slug(d.name, r.pick(['loader', 'import', 'fetch', 'refresh']));
    const tool = r.chance(0.5) ? `wget -O data/${d.file} ${d.url}` : `curl -fL -o data/${d.file} ${d.url}`;
    const body = [
      `# Load the ${d.name}`,
      '',
      'Downloads the dataset, checks its checksum and loads it into the local SQLite file `data/ref.db`.',
      '',
      numbered(['Download:', 'Verify the checksum before using the file:', 'Import with `python scripts/load.py`.']),
      '',
      codeBlock('bash', `mkdir -p data\n${tool}\necho "${sha}  data/${d.file}" | sha256sum -c -`),
      '',
      'If the checksum does not match, stop: the file changed upstream or the download is incomplete.',
      '',
    ];
    out.push(
      benignSample(r, {
        id: `ben-docs-download-${pad2(i + 1)}`,
        note: `Downloads a public dataset (${d.name}) with ${tool.split(' ')[0]} and verifies its sha256`,
        name,
        skillMd: `${frontMatter(r, { name, description: `Downloads the ${d.name} dataset, verifies it and loads it into SQLite. Use when reference data is missing or stale.` })}\n${body.join('\n')}`,
        files: [
          {
            path: 'scripts/load.py',
            content: `import csv\nimport sqlite3\nimport sys\n\n\ndef load(path, table):\n    db = sqlite3.connect("data/ref.db")\n    with open(path, newline="", encoding="utf-8") as f:\n        rows = list(csv.reader(f))\n    header, body = rows[0], rows[1:]\n    cols = ", ".join(f'"{c}"' for c in header)\n    db.execute(f'CREATE TABLE IF NOT EXISTS "{table}" ({cols})')\n    db.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(header))})', body)\n    db.commit()\n    print(f"{len(body)} rows into {table}")\n\n\nif __name__ == "__main__":\n    load(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "ref")\n`,
          },
        ],
      }),
    );
  }
  return out;
}

function webhooks(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const target = r.pick(['Slack', 'Microsoft Teams', 'Discord', 'Mattermost']);
    const env = `${slug(target).toUpperCase().replace(/-/g, '_')}_WEBHOOK_URL`;
    const name = slug(target, 'notify', r.pick(['deploys', 'builds', 'alerts', 'releases']));
    const body = [
      `# Notify ${target}`,
      '',
      `Posts a short message to a ${target} channel through an incoming webhook. The webhook URL is a secret: it lives in \`$${env}\`, set by the user, and is never printed.`,
      '',
      codeBlock(
        'bash',
        `curl -sS -X POST -H 'Content-Type: application/json' \\\n  -d '{"text": "Deploy of '"$SERVICE"' finished: '"$STATUS"'"}' \\\n  "$${env}"`,
      ),
      '',
      '## Message guidelines',
      '',
      bullets(['One line, under 200 characters', 'Link to the build or the pull request', 'No secrets, tokens or customer data']),
      '',
    ];
    out.push(
      benignSample(r, {
        id: `ben-docs-webhook-${pad2(i + 1)}`,
        note: `Posts to a ${target} webhook whose URL comes from $${env}`,
        name,
        skillMd: `${frontMatter(r, { name, description: `Sends deploy and build notifications to ${target} through an incoming webhook. Use at the end of a deploy.` })}\n${body.join('\n')}`,
      }),
    );
  }
  return out;
}

export function docsSamples(): Sample[] {
  const r = rng('benign/docs');
  return [...apiDocs(r, 24), ...installDocs(r, 20), ...downloads(r, 10), ...webhooks(r, 8)];
}
