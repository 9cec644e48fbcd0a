// Secrets: live-looking credentials and private keys shipped inside a package — in .env files, configuration,
// scripts, SKILL.md examples and key files.
import { rng, type Rng } from '../prng.js';
import { fake } from '../fake-secrets.js';
import { pad2, type Sample } from '../sample.js';
import { maliciousSample } from './common.js';

function keys(r: Rng, n: number): Sample[] {
  const types = ['RSA PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'EC PRIVATE KEY', 'PRIVATE KEY'] as const;
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const type = types[i % types.length]!;
    const id = `mal-secret-privkey-${pad2(i + 1)}`;
    const pem = fake.pem(r, type);
    const variant = i % 3;
    if (variant === 0) {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${type} shipped as a deploy key file`,
          files: [{ path: r.pick(['keys/deploy_key', 'assets/id_rsa', 'config/server.key', '.ssh/id_ed25519']), content: pem }],
        }),
      );
    } else if (variant === 1) {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${type} embedded as a string constant in a deployment script`,
          files: [
            {
              path: r.pick(['scripts/deploy.py', 'scripts/connect.py']),
              content: `import paramiko\nimport io\n\nKEY = """${pem}"""\n\n\ndef client(host):\n    c = paramiko.SSHClient()\n    c.set_missing_host_key_policy(paramiko.AutoAddPolicy())\n    c.connect(host, username="deploy", pkey=paramiko.RSAKey.from_private_key(io.StringIO(KEY)))\n    return c\n`,
            },
          ],
        }),
      );
    } else {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${type} pasted into a reference document as "the key to use"`,
          files: [{ path: 'references/access.md', content: `# Access\n\nThe build server accepts this key:\n\n\`\`\`\n${pem}\`\`\`\n` }],
        }),
      );
    }
  }
  return out;
}

function tokens(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const kinds: { name: string; make: (r: Rng) => string; env: string }[] = [
    { name: 'AWS access key pair', make: fake.awsAccessKeyId, env: 'AWS_ACCESS_KEY_ID' },
    { name: 'GitHub personal access token', make: fake.githubPat, env: 'GITHUB_TOKEN' },
    { name: 'GitHub fine-grained token', make: fake.githubFineGrained, env: 'GH_TOKEN' },
    { name: 'Slack bot token', make: fake.slackBot, env: 'SLACK_BOT_TOKEN' },
    { name: 'Slack incoming webhook', make: fake.slackWebhook, env: 'SLACK_WEBHOOK_URL' },
    { name: 'OpenAI project key', make: fake.openai, env: 'OPENAI_API_KEY' },
    { name: 'Anthropic API key', make: fake.anthropic, env: 'ANTHROPIC_API_KEY' },
    { name: 'Stripe live secret key', make: fake.stripeLive, env: 'STRIPE_SECRET_KEY' },
    { name: 'Google API key', make: fake.googleApiKey, env: 'GOOGLE_API_KEY' },
    { name: 'npm automation token', make: fake.npmToken, env: 'NPM_TOKEN' },
    { name: 'OpenAI legacy key', make: fake.openaiLegacy, env: 'OPENAI_API_KEY' },
    { name: 'Slack user token', make: fake.slackUser, env: 'SLACK_USER_TOKEN' },
  ];
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % kinds.length]!;
    const value = kind.make(r);
    const id = `mal-secret-token-${pad2(i + 1)}`;
    const extraAws = kind.env === 'AWS_ACCESS_KEY_ID' ? `AWS_SECRET_ACCESS_KEY=${fake.awsSecretKey(r)}\n` : '';
    const variant = i % 4;
    if (variant === 0) {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${kind.name} in a committed .env file`,
          files: [{ path: '.env', content: `# local settings\nLOG_LEVEL=debug\n${kind.env}=${value}\n${extraAws}PORT=8080\n` }],
        }),
      );
    } else if (variant === 1) {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${kind.name} hard-coded in a helper script`,
          files: [
            {
              path: r.pick(['scripts/client.py', 'scripts/notify.py', 'scripts/upload.py']),
              content: `import os\n\nimport requests\n\n# fallback so the script works out of the box\nTOKEN = os.environ.get("${kind.env}", "${value}")\n${extraAws ? `SECRET = "${extraAws.split('=')[1]!.trim()}"\n` : ''}\n\ndef call(url, payload):\n    return requests.post(url, json=payload, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)\n`,
            },
          ],
        }),
      );
    } else if (variant === 2) {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${kind.name} given in SKILL.md as the value to configure`,
          skill: {
            inserts: [
              {
                at: 'steps',
                text: `Configure the integration with the shared team credential:\n\n\`\`\`bash\nexport ${kind.env}=${value}\n${extraAws ? `export ${extraAws.trim()}\n` : ''}\`\`\``,
              },
            ],
          },
        }),
      );
    } else {
      out.push(
        maliciousSample(r, {
          id,
          families: ['secret'],
          note: `A ${kind.name} inside a JSON configuration file`,
          files: [
            {
              path: r.pick(['config.json', 'assets/settings.json', 'config/default.json']),
              content: `${JSON.stringify({ service: 'reports', region: 'eu-west-1', credentials: { [kind.env.toLowerCase()]: value, ...(extraAws ? { aws_secret_access_key: extraAws.split('=')[1]!.trim() } : {}) }, retries: 3 }, null, 2)}\n`,
            },
          ],
        }),
      );
    }
  }
  return out;
}

function mixed(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      maliciousSample(r, {
        id: `mal-secret-mixed-${pad2(i + 1)}`,
        families: ['secret'],
        note: 'Several live-looking credentials in an .npmrc and a git credentials file left in the package',
        files: [
          { path: '.npmrc', content: `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${fake.npmToken(r)}\n` },
          { path: '.git-credentials', content: `https://deploy-bot:${fake.githubPat(r)}@github.com\n` },
        ],
        withScript: true,
      }),
    );
  }
  return out;
}

/** Credentials leaked the way people leak them: inside examples, URLs and tool configuration. */
function leaks(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const variants: { note: string; files: (g: Rng) => { path: string; content: string }[]; inSkill?: (g: Rng) => string }[] = [
    {
      note: 'A real-looking GitHub token left in a curl example in SKILL.md',
      files: () => [],
      inSkill: (g) =>
        `\`\`\`bash\ncurl -H "Authorization: Bearer ${fake.githubPat(g)}" https://api.github.com/repos/acme/site/issues\n\`\`\``,
    },
    {
      note: 'Terraform variables file with an AWS key pair',
      files: (g) => [
        {
          path: 'infra/terraform.tfvars',
          content: `region            = "eu-central-1"\naccess_key        = "${fake.awsAccessKeyId(g)}"\nsecret_key        = "${fake.awsSecretKey(g)}"\ninstance_type     = "t3.small"\n`,
        },
      ],
    },
    {
      note: 'A docker-compose file with a Stripe live key and an OpenAI key in the environment block',
      files: (g) => [
        {
          path: 'docker-compose.yml',
          content: `services:\n  worker:\n    image: ghcr.io/acme/worker:1.2\n    environment:\n      STRIPE_SECRET_KEY: ${fake.stripeLive(g)}\n      OPENAI_API_KEY: ${fake.openai(g)}\n`,
        },
      ],
    },
    {
      note: 'A token embedded in a git remote URL in a config file',
      files: (g) => [
        {
          path: 'config/repos.ini',
          content: `[origin]\nurl = https://x-access-token:${fake.githubFineGrained(g)}@github.com/acme/data-pipeline.git\nbranch = main\n`,
        },
      ],
    },
    {
      note: 'A .pypirc with a PyPI-style upload token and a Slack webhook in a notebook output cell',
      files: (g) => [
        {
          path: '.pypirc',
          content: `[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc${g.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', 150)}\n`,
        },
        {
          path: 'notebooks/explore.ipynb',
          content: `${JSON.stringify({ cells: [{ cell_type: 'code', execution_count: 3, metadata: {}, source: ['import os\n', 'os.environ["SLACK_WEBHOOK_URL"]'], outputs: [{ output_type: 'execute_result', execution_count: 3, metadata: {}, data: { 'text/plain': [`'${fake.slackWebhook(g)}'`] } }] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`,
        },
      ],
    },
    {
      note: 'An Anthropic API key in a JavaScript client default, with a comment saying to replace it later',
      files: (g) => [
        {
          path: 'scripts/summarise.mjs',
          content: `// TODO: move to env before publishing\nconst apiKey = process.env.ANTHROPIC_API_KEY ?? '${fake.anthropic(g)}';\n\nexport async function summarise(text) {\n  const res = await fetch('https://api.anthropic.com/v1/messages', {\n    method: 'POST',\n    headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },\n    body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 300, messages: [{ role: 'user', content: text }] }),\n  });\n  return (await res.json()).content[0].text;\n}\n`,
        },
      ],
    },
  ];
  for (let i = 0; i < n; i++) {
    const v = variants[i % variants.length]!;
    const inSkill = v.inSkill?.(r);
    out.push(
      maliciousSample(r, {
        id: `mal-secret-leak-${pad2(i + 1)}`,
        families: ['secret'],
        note: v.note,
        files: v.files(r),
        skill: inSkill ? { inserts: [{ at: 'example', text: inSkill }] } : undefined,
      }),
    );
  }
  return out;
}

export function secretSamples(): Sample[] {
  const r = rng('malicious/secret');
  return [...keys(r, 6), ...tokens(r, 14), ...mixed(r, 2), ...leaks(r, 6)];
}
