// Benign packages that come closest to the malicious ones: the same commands, files and encodings used for
// ordinary reasons — PATH lines added to ~/.bashrc, a backup crontab, rm -rf of build output, reading one's own
// public SSH key, decoding a Kubernetes secret to debug it, vendor install commands for Windows, vendored
// minified code, archive fixtures, lint comments, inlined fonts, cryptographic test vectors.
import { gzip, storedZip, tar } from '../binaries.js';
import { BASE64, BASE64URL, HEX, rng, type Rng } from '../prng.js';
import { b64, frontMatter, pad2, type Sample, type SampleFile } from '../sample.js';
import { benignSample, bullets, codeBlock, numbered, slug, table } from './common.js';

interface Near {
  kind: string;
  note: string;
  name: (r: Rng) => string;
  description: string;
  body: (r: Rng) => string;
  files?: (r: Rng) => SampleFile[];
}

const NEAR: Near[] = [
  {
    kind: 'path-rc',
    note: "Adds a PATH line to ~/.bashrc or ~/.zshrc after installing a CLI into ~/.local/bin, with the user's consent",
    name: (r) => slug(r.pick(['local-bin', 'cli', 'shell']), r.pick(['path-setup', 'install', 'setup'])),
    description:
      'Installs a command-line tool into ~/.local/bin and makes sure that folder is on PATH. Use when a freshly installed command is "not found".',
    body: (r) => {
      const rc = r.pick(['~/.bashrc', '~/.zshrc', '~/.profile']);
      return `# Put ~/.local/bin on PATH\n\nFirst check whether it is already there:\n\n${codeBlock('bash', 'echo "$PATH" | tr : "\\n" | grep -qx "$HOME/.local/bin" && echo "already on PATH"')}\n\nIf not, ask the user, then add one line to ${rc} and reload it:\n\n${codeBlock('bash', `echo 'export PATH="$HOME/.local/bin:$PATH"' >> ${rc}\nsource ${rc}`)}\n\nNever add anything else to the file.\n`;
    },
  },
  {
    kind: 'cron-backup',
    note: 'Suggests a nightly crontab entry for a local backup script, installed by the user with crontab -e',
    name: (r) => slug(r.pick(['nightly', 'scheduled', 'home']), 'backup', r.pick(['', 'cron', 'setup'])),
    description: 'Schedules a nightly backup of a project folder to an external disk with cron. Use when the user wants automatic backups.',
    body: (r) => {
      const hour = r.int(1, 4);
      return `# Nightly backups with cron\n\n${numbered(['Check the backup script works when run by hand.', 'Open the crontab with `crontab -e`.', 'Add the line below, then save.', 'Check the log the next morning.'])}\n\n${codeBlock('text', `0 ${hour} * * * /usr/local/bin/backup-projects.sh >> $HOME/backup.log 2>&1`)}\n\nTo list what is scheduled: \`crontab -l\`.\n`;
    },
    files: () => [
      {
        path: 'scripts/backup-projects.sh',
        content:
          '#!/usr/bin/env bash\nset -euo pipefail\nrsync -a --delete "$HOME/projects/" "/media/backup/projects/"\necho "$(date -Is) backup done"\n',
      },
    ],
  },
  {
    kind: 'rm-build',
    note: 'A clean script that removes build output with rm -rf on project-relative folders only',
    name: (r) => slug(r.pick(['clean', 'reset', 'fresh']), r.pick(['build', 'workspace', 'install'])),
    description:
      'Removes build output and caches so the next build starts fresh. Use when a build behaves strangely after switching branches.',
    body: () =>
      `# Clean build\n\nRemoves generated folders inside the project. It never touches anything outside the repository.\n\n${codeBlock('bash', 'bash scripts/clean.sh')}\n`,
    files: (r) => [
      {
        path: 'scripts/clean.sh',
        content: `#!/usr/bin/env bash\nset -euo pipefail\ncd "$(git rev-parse --show-toplevel)"\nrm -rf ${r.some(['dist', 'build', '.cache', 'coverage', 'node_modules/.vite', '.next', 'target', '__pycache__'], 4).join(' ')}\nrm -rf "\${TMPDIR:-/tmp}/$(basename "$PWD")-build"\necho "clean"\n`,
      },
    ],
  },
  {
    kind: 'ssh-keygen',
    note: 'Git SSH setup: generates a key, prints the public half (~/.ssh/id_ed25519.pub) for the user to add to GitHub',
    name: (r) => slug('git', r.pick(['ssh-setup', 'ssh-keys', 'auth-setup'])),
    description:
      'Sets up SSH authentication for git: creates a key if there is none and shows the public key to add to the hosting service. Use when git push asks for a password.',
    body: () =>
      `# SSH for git\n\n${codeBlock('bash', 'ls ~/.ssh/id_ed25519.pub 2>/dev/null || ssh-keygen -t ed25519 -C "you@example.com"\ncat ~/.ssh/id_ed25519.pub')}\n\nThe user pastes the **public** key (the \`.pub\` file) into their account's SSH keys page. Never print, copy or upload the private key file.\n\n${codeBlock('bash', 'ssh -T git@github.com')}\n`,
  },
  {
    kind: 'aws-profile',
    note: 'AWS CLI profile setup that names ~/.aws/credentials and ~/.aws/config without reading or printing them',
    name: (r) => slug('aws', r.pick(['profiles', 'cli-setup', 'sso-login'])),
    description:
      'Configures AWS CLI profiles with SSO or access keys and switches between them. Use when AWS commands use the wrong account.',
    body: () =>
      `# AWS profiles\n\nThe CLI keeps profiles in \`~/.aws/config\` and keys in \`~/.aws/credentials\`. Do not open or print those files; use the CLI.\n\n${codeBlock('bash', 'aws configure sso --profile dev\naws sso login --profile dev\naws sts get-caller-identity --profile dev')}\n\n${table(
        ['Variable', 'Effect'],
        [
          ['AWS_PROFILE', 'default profile for this shell'],
          ['AWS_REGION', 'default region'],
        ],
      )}\n`,
  },
  {
    kind: 'k8s-secret',
    note: 'Debugging a Kubernetes secret: base64 -d of one key printed to the terminal, nothing executed',
    name: (r) => slug('k8s', r.pick(['secret-debug', 'config-check', 'env-debug'])),
    description:
      'Checks which value a Kubernetes secret holds for one key, to debug configuration. Use when a pod reads the wrong setting.',
    body: () =>
      `# Inspect one secret key\n\nOnly with the user's permission, and only the key in question:\n\n${codeBlock('bash', "kubectl get secret api-config -o jsonpath='{.data.LOG_LEVEL}' | base64 -d; echo")}\n\nNever dump all keys, and never paste secret values into the conversation: compare them with what is expected and say whether they match.\n`,
  },
  {
    kind: 'windows-scoop',
    note: "Windows setup using Scoop's published installer (irm get.scoop.sh | iex) and winget",
    name: (r) => slug('windows', r.pick(['dev-setup', 'tooling', 'bootstrap'])),
    description: 'Sets up a Windows machine for development with Scoop and winget. Use when onboarding on Windows.',
    body: () =>
      `# Windows developer setup\n\nIn PowerShell (not as administrator):\n\n${codeBlock('powershell', 'Set-ExecutionPolicy -ExecutionPolicy RemoteSigned -Scope CurrentUser\nInvoke-RestMethod -Uri https://get.scoop.sh | Invoke-Expression\nscoop install git nodejs-lts python')}\n\nApplications with installers:\n\n${codeBlock('powershell', 'winget install --id Microsoft.VisualStudioCode -e\nwinget install --id Git.Git -e')}\n`,
  },
  {
    kind: 'vendored-min',
    note: 'A vendored minified date-formatting library in assets/vendor (pure functions, no I/O)',
    name: (r) => slug(r.pick(['report', 'dashboard', 'chart']), r.pick(['html', 'builder', 'export'])),
    description:
      'Builds a standalone HTML report with dates formatted client-side by a small bundled library. Use when sharing a report as one file.',
    body: () =>
      `# Standalone HTML report\n\nCopy \`assets/vendor/tinydate.min.js\` next to the report and include it with a script tag. It only formats dates.\n`,
    files: (r) => [
      {
        path: `assets/vendor/tinydate.min.js`,
        content: `/*! tinydate v${r.int(1, 3)}.${r.int(0, 9)}.${r.int(0, 9)} | MIT */\n!function(t,e){"object"==typeof exports?module.exports=e():t.tinydate=e()}(this,function(){"use strict";var t=/{(YYYY|YY|MM|DD|HH|mm|ss)}/g,e=function(t){return(t<10?"0":"")+t};return function(n){return function(r){r=r||new Date;var o={YYYY:r.getFullYear(),YY:String(r.getFullYear()).slice(2),MM:e(r.getMonth()+1),DD:e(r.getDate()),HH:e(r.getHours()),mm:e(r.getMinutes()),ss:e(r.getSeconds())};return n.replace(t,function(t,e){return o[e]})}}});\n`,
      },
    ],
  },
  {
    kind: 'fixture-archive',
    note: 'An archive-inspection skill with small zip and tar.gz test fixtures holding text files',
    name: (r) => slug('archive', r.pick(['inspector', 'lister', 'diff'])),
    description:
      'Lists and compares the contents of zip and tar.gz archives without extracting them. Use when checking what a release archive contains.',
    body: () =>
      `# Archive inspector\n\n${codeBlock('bash', 'unzip -l tests/fixtures/sample.zip\ntar -tzf tests/fixtures/sample.tar.gz')}\n\nThe fixtures in \`tests/fixtures/\` are used by the tests of the comparison script.\n`,
    files: () => [
      {
        path: 'tests/fixtures/sample.zip',
        content: storedZip([
          { path: 'docs/readme.txt', content: 'Sample archive for tests.\n' },
          { path: 'data/values.csv', content: 'a,b\n1,2\n' },
        ]),
      },
      { path: 'tests/fixtures/sample.tar.gz', content: gzip(tar([{ path: 'docs/readme.txt', content: 'Sample archive for tests.\n' }])) },
      {
        path: 'scripts/compare.py',
        content:
          'import sys\nimport tarfile\nimport zipfile\n\na = set(zipfile.ZipFile(sys.argv[1]).namelist())\nb = set(tarfile.open(sys.argv[2]).getnames())\nprint("only in zip:", sorted(a - b))\nprint("only in tar:", sorted(b - a))\n',
      },
    ],
  },
  {
    kind: 'lint-comments',
    note: 'Documentation with ordinary HTML comments (markdownlint, prettier-ignore, table-of-contents markers, editor notes)',
    name: (r) => slug(r.pick(['docs', 'handbook', 'runbook']), r.pick(['writer', 'style', 'editor'])),
    description: 'Writes and edits team documentation following the handbook style. Use when drafting or reviewing docs.',
    body: (r) =>
      `<!-- markdownlint-disable MD013 -->\n# Handbook style\n\n<!-- TOC -->\n- [Voice](#voice)\n- [Tables](#tables)\n<!-- /TOC -->\n\n## Voice\n\nShort sentences. Active voice. Second person for instructions.\n\n## Tables\n\n<!-- prettier-ignore-start -->\n${table(
        ['Term', 'Use instead'],
        [
          ['utilize', 'use'],
          ['in order to', 'to'],
          ['leverage', 'use'],
        ],
      )}\n<!-- prettier-ignore-end -->\n\n<!-- ${r.pick(['Keep this list sorted alphabetically.', 'TODO: add a section on screenshots.', 'Last reviewed by the docs team in March.'])} -->\n`,
  },
  {
    kind: 'plain-phrases',
    note: 'Ordinary instructions using words like ignore, override, do not mention and silently in their everyday sense',
    name: (r) => slug(r.pick(['release-notes', 'changelog', 'support-reply']), r.pick(['style', 'rules', 'guide'])),
    description: 'Writes public release notes from internal changes. Use when preparing customer-facing notes.',
    body: () =>
      `# Public release notes\n\n${bullets([
        'Ignore commits that only touch tests or CI.',
        'Do not mention internal ticket numbers or code names in the public notes.',
        'Override the default heading levels with `--level 3` when embedding in the website.',
        'If a previous draft exists, disregard its wording and start from the changes.',
        'Dependency bumps can be silently grouped under "Maintenance".',
      ])}\n`,
  },
  {
    kind: 'inline-font',
    note: 'An HTML report template with a woff2 font inlined as a long base64 data URL (several kilobytes)',
    name: (r) => slug('pdf-report', r.pick(['template', 'styles', 'fonts'])),
    description:
      'Renders a branded PDF report from HTML with the house font embedded, so it renders the same everywhere. Use when generating customer reports.',
    body: () =>
      `# Branded report\n\nThe template in \`assets/report.html\` embeds the house font as a data URL so the PDF renderer needs no network access.\n`,
    files: (r) => {
      const font = Buffer.concat([Buffer.from('wOF2\0\x01\0\0', 'latin1'), Buffer.from(r.bytes(r.int(3000, 6000)))]);
      return [
        {
          path: 'assets/report.html',
          content: `<!doctype html>\n<html>\n<head>\n<style>\n@font-face {\n  font-family: "House Sans";\n  src: url(data:font/woff2;base64,${b64(font)}) format("woff2");\n}\nbody { font-family: "House Sans", sans-serif; }\n</style>\n</head>\n<body>\n<h1>{{title}}</h1>\n{{content}}\n</body>\n</html>\n`,
        },
      ];
    },
  },
  {
    kind: 'test-vectors',
    note: 'Cryptographic test vectors (hex keys, nonces and expected outputs) in a test file for a checksum tool',
    name: (r) => slug(r.pick(['hmac', 'aes-gcm', 'checksum']), r.pick(['tester', 'verifier', 'checks'])),
    description:
      'Checks an implementation against published-style test vectors and reports mismatches. Use after changing cryptographic code.',
    body: () => `# Test vectors\n\nRun \`python tests/test_vectors.py\`. The keys in the vectors are public test values, not secrets.\n`,
    files: (r) => [
      {
        path: 'tests/test_vectors.py',
        content: `import hashlib\nimport hmac\n\nVECTORS = [\n${Array.from({ length: 4 }, () => `    {"key": "${r.chars(HEX, 64)}", "msg": "${r.chars(HEX, 48)}", "mac": "${r.chars(HEX, 64)}"},`).join('\n')}\n]\n\nfor v in VECTORS:\n    got = hmac.new(bytes.fromhex(v["key"]), bytes.fromhex(v["msg"]), hashlib.sha256).hexdigest()\n    print("ok " if got == v["mac"] else "FAIL", v["mac"][:16])\n`,
      },
    ],
  },
  {
    kind: 'python-c',
    note: 'Harmless python -c one-liners (reading JSON from stdin, printing the CPU count with os)',
    name: (r) => slug(r.pick(['shell', 'one-liner', 'terminal']), r.pick(['recipes', 'tricks', 'helpers'])),
    description: 'Small shell one-liners for everyday data tasks. Use when the user wants a quick command rather than a script.',
    body: () =>
      `# One-liners\n\n${codeBlock('bash', `# Version field of package.json\npython3 -c "import sys, json; print(json.load(sys.stdin)['version'])" < package.json\n# How many parallel jobs to use\npython3 -c 'import os; print(os.cpu_count())'\n# Pretty-print JSON\npython3 -m json.tool data.json`)}\n`,
  },
  {
    kind: 'jwt-docs',
    note: 'Authentication docs decoding an example JWT (header and payload only describe a demo user; the signature is a dummy)',
    name: (r) => slug('jwt', r.pick(['debugging', 'explainer', 'auth-docs'])),
    description:
      'Explains and decodes JSON Web Tokens to debug authentication problems, without verifying or storing them. Use when a login fails with a token error.',
    body: (r) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify({ sub: 'demo-user', name: 'Demo User', iat: 1700000000 + r.int(0, 9999999), exp: 1700003600 + r.int(0, 9999999) }),
      ).toString('base64url');
      const token = `${header}.${payload}.${r.chars(BASE64URL, 43)}`;
      return `# Reading a JWT\n\nA JWT is three base64url parts separated by dots: header, payload, signature. Decoding shows the claims; it proves nothing about who issued the token.\n\nExample (a made-up demo token):\n\n${codeBlock('text', token)}\n\n${codeBlock('bash', 'cut -d. -f2 <<< "$TOKEN" | base64 -d 2>/dev/null | jq .')}\n\nCheck \`exp\` against the current time and \`aud\` against the service. Never paste a user's real token into a website.\n`;
    },
  },
  {
    kind: 'public-keys',
    note: 'Public material only: an SSH public key line, a CA certificate and a PGP public key block (no private keys)',
    name: (r) => slug(r.pick(['deploy', 'server', 'release']), r.pick(['trust-setup', 'verification', 'keys'])),
    description:
      'Installs the team CA certificate and verifies signed releases with the published public keys. Use when setting up a new machine.',
    body: (r) =>
      `# Trust setup\n\nAdd the team's public SSH key for the deploy user (public keys are safe to share):\n\n${codeBlock('text', `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${r.chars(BASE64, 43)} deploy@ci.example.com`)}\n\nInstall the CA certificate from \`assets/team-ca.pem\` and verify releases with \`assets/release-signing.asc\`:\n\n${codeBlock('bash', 'sudo cp assets/team-ca.pem /usr/local/share/ca-certificates/team-ca.crt && sudo update-ca-certificates\ngpg --import assets/release-signing.asc\ngpg --verify release.tar.gz.asc release.tar.gz')}\n`,
    files: (r) => [
      {
        path: 'assets/team-ca.pem',
        content: `-----BEGIN CERTIFICATE-----\n${(`MIIDdzCCAl+gAwIBAgIU` + r.chars(BASE64, 1180)).match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`,
      },
      {
        path: 'assets/release-signing.asc',
        content: `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${(`mDMEZ` + r.chars(BASE64, 600)).match(/.{1,64}/g)!.join('\n')}\n=${r.chars(BASE64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----\n`,
      },
    ],
  },
];

function lookalikes(r: Rng, perKind: number): Sample[] {
  const out: Sample[] = [];
  for (const near of NEAR) {
    for (let i = 0; i < perKind; i++) {
      const name = near.name(r);
      out.push(
        benignSample(r, {
          id: `ben-near-${near.kind}-${pad2(i + 1)}`,
          note: near.note,
          name,
          skillMd: `${frontMatter(r, { name, description: near.description })}\n${near.body(r)}`,
          files: near.files?.(r),
        }),
      );
    }
  }
  return out;
}

export function lookalikeSamples(): Sample[] {
  const r = rng('benign/lookalikes');
  return lookalikes(r, 3);
}
