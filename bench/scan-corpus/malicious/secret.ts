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

export function secretSamples(): Sample[] {
  const r = rng('malicious/secret');
  return [...keys(r, 6), ...tokens(r, 14), ...mixed(r, 2)];
}
