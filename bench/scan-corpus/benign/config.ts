// Skills that carry project configuration: lockfiles full of integrity hashes, .gitignore, CI workflows that
// reference secrets by name, Dockerfiles (some installing tools with their vendors' scripts), compose files.
import { rng, type Rng } from '../prng.js';
import { ALNUM, BASE64, HEX } from '../prng.js';
import { frontMatter, pad2, type Sample, type SampleFile } from '../sample.js';
import { benignSample, bullets, codeBlock, slug } from './common.js';

const NPM_PACKAGES = [
  'express',
  'zod',
  'pino',
  'undici',
  'yaml',
  'commander',
  'chalk',
  'dotenv',
  'fast-glob',
  'semver',
  'picocolors',
  'lru-cache',
  'p-limit',
  'ms',
  'debug',
];
const PY_PACKAGES = ['requests', 'pydantic', 'click', 'rich', 'httpx', 'pandas', 'pyyaml', 'python-dateutil', 'tenacity', 'orjson'];

function version(r: Rng): string {
  return `${r.int(0, 12)}.${r.int(0, 30)}.${r.int(0, 20)}`;
}

function packageLock(r: Rng, name: string): string {
  const deps = r.some(NPM_PACKAGES, r.int(4, 10)).map((d) => ({ name: d, version: version(r) }));
  const packages: Record<string, unknown> = {
    '': { name, version: '1.0.0', dependencies: Object.fromEntries(deps.map((d) => [d.name, `^${d.version}`])) },
  };
  for (const d of deps) {
    packages[`node_modules/${d.name}`] = {
      version: d.version,
      resolved: `https://registry.npmjs.org/${d.name}/-/${d.name}-${d.version}.tgz`,
      integrity: `sha512-${r.chars(BASE64, 86)}==`,
      license: 'MIT',
    };
  }
  return `${JSON.stringify({ name, version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

function requirementsWithHashes(r: Rng): string {
  return (
    r
      .some(PY_PACKAGES, r.int(3, 6))
      .map((p) => `${p}==${version(r)} \\\n    --hash=sha256:${r.chars(HEX, 64)} \\\n    --hash=sha256:${r.chars(HEX, 64)}`)
      .join('\n') + '\n'
  );
}

function goSum(r: Rng): string {
  const mods = [
    'github.com/spf13/cobra',
    'github.com/stretchr/testify',
    'golang.org/x/sync',
    'gopkg.in/yaml.v3',
    'github.com/google/go-cmp',
  ];
  return (
    r
      .some(mods, 4)
      .flatMap((m) => {
        const v = `v${version(r)}`;
        return [`${m} ${v} h1:${r.chars(BASE64, 43)}=`, `${m} ${v}/go.mod h1:${r.chars(BASE64, 43)}=`];
      })
      .join('\n') + '\n'
  );
}

const GITIGNORES = [
  'node_modules/\ndist/\ncoverage/\n.env\n.env.*\n!.env.example\n*.log\n.DS_Store\n',
  '__pycache__/\n*.py[cod]\n.venv/\n.pytest_cache/\n.mypy_cache/\ndist/\nbuild/\n*.egg-info/\n.env\n',
  '/bin/\n/vendor/\n*.test\ncoverage.out\n.idea/\n.vscode/\n',
  '_site/\n.jekyll-cache/\npublic/\nresources/_gen/\n.hugo_build.lock\n',
];

function ciWorkflow(r: Rng, kind: 'node' | 'python' | 'go'): string {
  const setup = {
    node: '      - uses: actions/setup-node@v4\n        with:\n          node-version: 20\n          cache: npm\n      - run: npm ci\n      - run: npm test',
    python:
      "      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.12'\n      - run: pip install -r requirements.txt\n      - run: python -m pytest -q",
    go: "      - uses: actions/setup-go@v5\n        with:\n          go-version: '1.23'\n      - run: go vet ./...\n      - run: go test ./...",
  }[kind];
  const publish = r.chance(0.5)
    ? `\n  publish:\n    needs: test\n    if: startsWith(github.ref, 'refs/tags/')\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/publish.sh\n        env:\n          REGISTRY_TOKEN: \${{ secrets.REGISTRY_TOKEN }}\n`
    : '';
  return `name: CI\n\non:\n  push:\n    branches: [main]\n  pull_request:\n\npermissions:\n  contents: read\n\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${setup}\n${publish}`;
}

function dockerfile(r: Rng, kind: 'node' | 'python' | 'go'): string {
  if (kind === 'node') {
    const nodesource = r.chance(0.4);
    return nodesource
      ? `FROM debian:bookworm-slim\nRUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates \\\n && curl -fsSL https://deb.nodesource.com/setup_20.x | bash - \\\n && apt-get install -y nodejs && rm -rf /var/lib/apt/lists/*\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci --omit=dev\nCOPY . .\nUSER node\nCMD ["node", "src/index.js"]\n`
      : `FROM node:20-alpine AS build\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci\nCOPY . .\nRUN npm run build\n\nFROM node:20-alpine\nWORKDIR /app\nCOPY --from=build /app/dist ./dist\nCOPY package*.json ./\nRUN npm ci --omit=dev\nUSER node\nEXPOSE 3000\nCMD ["node", "dist/index.js"]\n`;
  }
  if (kind === 'python') {
    return r.chance(0.5)
      ? `FROM python:3.12-slim\nCOPY --from=ghcr.io/astral-sh/uv:0.5 /uv /bin/uv\nWORKDIR /app\nCOPY pyproject.toml uv.lock ./\nRUN uv sync --frozen --no-dev\nCOPY . .\nCMD ["uv", "run", "python", "-m", "app"]\n`
      : `FROM python:3.12-slim\nRUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*\nRUN curl -LsSf https://astral.sh/uv/install.sh | sh\nENV PATH="/root/.local/bin:$PATH"\nWORKDIR /app\nCOPY . .\nRUN uv pip install --system -r requirements.txt\nCMD ["python", "-m", "app"]\n`;
  }
  return `FROM golang:1.23 AS build\nWORKDIR /src\nCOPY go.mod go.sum ./\nRUN go mod download\nCOPY . .\nRUN CGO_ENABLED=0 go build -o /out/app ./cmd/app\n\nFROM gcr.io/distroless/static-debian12\nCOPY --from=build /out/app /app\nUSER nonroot\nENTRYPOINT ["/app"]\n`;
}

function compose(r: Rng): string {
  return `services:\n  api:\n    build: .\n    ports:\n      - "${r.pick([3000, 8000, 8080])}:${r.pick([3000, 8000, 8080])}"\n    environment:\n      DATABASE_URL: postgres://app:app@db:5432/app\n      LOG_LEVEL: info\n    depends_on:\n      db:\n        condition: service_healthy\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: app\n      POSTGRES_DB: app\n    healthcheck:\n      test: ["CMD-SHELL", "pg_isready -U app"]\n      interval: 5s\n    volumes:\n      - pgdata:/var/lib/postgresql/data\nvolumes:\n  pgdata: {}\n`;
}

const PURPOSES = [
  {
    what: 'project scaffolding',
    desc: 'Scaffolds a new service with the team defaults: CI, Dockerfile, lockfile and ignore rules. Use when starting a new repository.',
  },
  {
    what: 'CI setup',
    desc: 'Adds a GitHub Actions workflow that installs, lints and tests the project on every pull request. Use when a repository has no CI.',
  },
  {
    what: 'container packaging',
    desc: 'Packages the service as a small container image with a multi-stage Dockerfile. Use when the service needs to run in containers.',
  },
  {
    what: 'local stack',
    desc: 'Starts the service and its database locally with docker compose. Use when developing against a real database.',
  },
  {
    what: 'reproducible installs',
    desc: 'Pins dependencies with a lockfile and hashes so installs are reproducible. Use when builds differ between machines.',
  },
];

function projects(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const kinds = ['node', 'python', 'go'] as const;
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % kinds.length]!;
    const purpose = PURPOSES[i % PURPOSES.length]!;
    const name = slug(kind, purpose.what, i >= 15 ? r.pick(['template', 'starter', 'kit']) : '');
    const files: SampleFile[] = [
      { path: 'assets/template/.gitignore', content: GITIGNORES[kind === 'node' ? 0 : kind === 'python' ? 1 : 2]! },
    ];
    // The purpose's own file is always there; the others come and go.
    if (purpose.what === 'CI setup' || r.chance(0.6))
      files.push({ path: 'assets/template/.github/workflows/ci.yml', content: ciWorkflow(r, kind) });
    if (purpose.what === 'container packaging' || purpose.what === 'local stack' || r.chance(0.6))
      files.push({ path: 'assets/template/Dockerfile', content: dockerfile(r, kind) });
    if (purpose.what === 'local stack' || r.chance(0.3)) files.push({ path: 'assets/template/docker-compose.yml', content: compose(r) });
    if (kind === 'node') files.push({ path: 'assets/template/package-lock.json', content: packageLock(r, name) });
    if (kind === 'python') files.push({ path: 'assets/template/requirements.txt', content: requirementsWithHashes(r) });
    if (kind === 'go') files.push({ path: 'assets/template/go.sum', content: goSum(r) });
    const listed = files.map((f) => `\`${f.path.replace('assets/template/', '')}\``);
    const body = [
      `# ${purpose.what[0]!.toUpperCase()}${purpose.what.slice(1)} (${kind})`,
      '',
      `Copies the files in \`assets/template/\` into the user's repository, adjusting names. Never overwrite an existing file without showing a diff first.`,
      '',
      '## Files',
      '',
      bullets(listed),
      '',
      '## After copying',
      '',
      codeBlock(
        'bash',
        kind === 'node'
          ? 'npm ci && npm test'
          : kind === 'python'
            ? 'pip install --require-hashes -r requirements.txt && python -m pytest -q'
            : 'go mod verify && go test ./...',
      ),
      '',
      r.chance(0.5)
        ? `CI reads publishing credentials from repository secrets (for example \`REGISTRY_TOKEN\`); they are never written into the files.\n`
        : '',
    ];
    out.push(
      benignSample(r, {
        id: `ben-config-project-${pad2(i + 1)}`,
        note: `${kind} ${purpose.what} template: ${files.map((f) => f.path.split('/').pop()).join(', ')}`,
        name,
        skillMd: `${frontMatter(r, { name, description: purpose.desc })}\n${body.join('\n')}`,
        files,
      }),
    );
  }
  return out;
}

function dataExamples(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const formats = ['JSON Schema', 'OpenAPI', 'YAML config', 'Kubernetes', 'GitHub issue forms', 'JSON Lines'];
  for (let i = 0; i < n; i++) {
    const format = formats[i % formats.length]!;
    const name = slug(format, r.pick(['examples', 'authoring', 'validator', 'cookbook']));
    const id = `${r.chars(HEX, 8)}-${r.chars(HEX, 4)}-4${r.chars(HEX, 3)}-8${r.chars(HEX, 3)}-${r.chars(HEX, 12)}`;
    const examples: Record<string, string> = {
      'JSON Schema': codeBlock(
        'json',
        JSON.stringify(
          {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            type: 'object',
            required: ['id', 'email'],
            properties: {
              id: { type: 'string', format: 'uuid' },
              email: { type: 'string', format: 'email' },
              age: { type: 'integer', minimum: 0 },
            },
          },
          null,
          2,
        ),
      ),
      OpenAPI: codeBlock(
        'yaml',
        `openapi: 3.1.0\ninfo:\n  title: Orders\n  version: 1.0.0\npaths:\n  /orders/{id}:\n    get:\n      operationId: getOrder\n      parameters:\n        - name: id\n          in: path\n          required: true\n          schema: { type: string }\n      responses:\n        '200': { description: The order }\n        '404': { description: No such order }\ncomponents:\n  securitySchemes:\n    bearer:\n      type: http\n      scheme: bearer`,
      ),
      'YAML config': codeBlock(
        'yaml',
        `server:\n  port: 8080\n  read_timeout: 10s\ndatabase:\n  url: \${DATABASE_URL}\n  pool: 10\nfeatures:\n  exports: true\n  beta_dashboard: false\nrequest_id: ${id}`,
      ),
      Kubernetes: codeBlock(
        'yaml',
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 2\n  selector:\n    matchLabels: { app: api }\n  template:\n    metadata:\n      labels: { app: api }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/api:1.4.2@sha256:${r.chars(HEX, 64)}\n          envFrom:\n            - secretRef: { name: api-secrets }\n          resources:\n            requests: { cpu: 100m, memory: 128Mi }\n            limits: { memory: 256Mi }`,
      ),
      'GitHub issue forms': codeBlock(
        'yaml',
        'name: Bug report\ndescription: Something is broken\nbody:\n  - type: textarea\n    id: steps\n    attributes:\n      label: Steps to reproduce\n    validations:\n      required: true\n  - type: input\n    id: version\n    attributes:\n      label: Version',
      ),
      'JSON Lines': codeBlock(
        'jsonl',
        Array.from({ length: 4 }, (_, k) =>
          JSON.stringify({
            ts: `2024-05-0${k + 1}T10:0${k}:00Z`,
            level: k === 2 ? 'error' : 'info',
            msg: k === 2 ? 'upstream timeout' : 'request done',
            trace_id: r.chars(HEX, 32),
          }),
        ).join('\n'),
      ),
    };
    out.push(
      benignSample(r, {
        id: `ben-config-data-${pad2(i + 1)}`,
        note: `${format} examples with explanations`,
        name,
        skillMd: `${frontMatter(r, { name, description: `Writes and checks ${format} documents with worked examples. Use when authoring or reviewing ${format}.` })}\n# ${format}\n\nWrite ${format} that validates on the first try. Start from the example, change one thing at a time, and validate after each change.\n\n## Example\n\n${examples[format]!}\n\n## Checklist\n\n${bullets(['Required fields present', 'No tabs for indentation in YAML', 'Identifiers stable across versions', 'Validate with the official tool before committing'])}\n`,
        files: r.chance(0.3)
          ? [
              {
                path: `references/${slug(format)}.md`,
                content: `# ${format} notes\n\nKeep examples small and valid. Identifiers such as ${id} are random UUIDs, not secrets.\n`,
              },
            ]
          : [],
      }),
    );
  }
  return out;
}

function envExamples(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const name = slug(r.pick(['twelve-factor', 'app-config', 'env', 'settings']), r.pick(['setup', 'guide', 'check']));
    const session = r.chars(ALNUM, 8);
    out.push(
      benignSample(r, {
        id: `ben-config-envexample-${pad2(i + 1)}`,
        note: 'A .env.example with empty and clearly placeholder values, and guidance to keep real values out of the repository',
        name,
        skillMd: `${frontMatter(r, { name, description: 'Sets up environment-based configuration with a documented .env.example. Use when a project reads settings from the environment.' })}\n# Environment configuration\n\nCopy \`.env.example\` to \`.env\` and fill in real values locally. \`.env\` is ignored by git; only the example is committed.\n\n${codeBlock('bash', 'cp .env.example .env\n$EDITOR .env')}\n\nThe session cookie name (\`${session}\`) is not a secret.\n`,
        files: [
          {
            path: '.env.example',
            content: `# Copy to .env and fill in.\nDATABASE_URL=postgres://user:password@localhost:5432/app\nREDIS_URL=redis://localhost:6379\nOPENAI_API_KEY=\nSTRIPE_SECRET_KEY=sk_test_...\nGITHUB_TOKEN=<your token>\nSLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ\nAWS_ACCESS_KEY_ID=YOUR_ACCESS_KEY_ID\nAWS_SECRET_ACCESS_KEY=YOUR_SECRET_ACCESS_KEY\nSESSION_SECRET=change-me\n`,
          },
          { path: '.gitignore', content: '.env\n.env.local\nnode_modules/\n' },
        ],
      }),
    );
  }
  return out;
}

export function configSamples(): Sample[] {
  const r = rng('benign/config');
  return [...projects(r, 30), ...dataExamples(r, 14), ...envExamples(r, 6)];
}
