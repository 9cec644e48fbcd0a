// Skills that ship scripts doing ordinary work: the everyday topics with their helpers, and deployment, git,
// conversion and test scripts that read configuration from the environment and call documented APIs.
import { rng, type Rng } from '../prng.js';
import { topicSkillMd, variantName } from '../render.js';
import { frontMatter, pad2, type Sample, type SampleFile } from '../sample.js';
import { TOPICS } from '../topics.js';
import { benignSample, codeBlock, numbered, slug } from './common.js';

/** HTML comments as authors leave them in Markdown: for linters, for the next editor. */
const BENIGN_COMMENTS = [
  'markdownlint-disable MD033',
  'Keep the steps in the same order as the script.',
  'TODO: add a screenshot of the output.',
  'prettier-ignore',
  'Reviewed with the data team, see the wiki page for background.',
  'vale off',
];

function topicPackages(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const name = i < TOPICS.length ? topic.slug : variantName(r, topic);
    const files: SampleFile[] = [{ path: topic.script.file, content: topic.script.code }];
    const mentions: string[] = [topic.script.file];
    if (r.chance(0.4)) {
      files.push({
        path: 'references/REFERENCE.md',
        content: `# ${topic.title} reference\n\n## Inputs\n\n${topic.when.map((w) => `- ${w}`).join('\n')}\n\n## Details\n\n${topic.steps.map((s, k) => `### Step ${k + 1}\n\n${s}. Keep a note of anything surprising.\n`).join('\n')}`,
      });
      mentions.push('references/REFERENCE.md');
    }
    if (r.chance(0.25))
      files.push({
        path: 'assets/template.md',
        content: `# {{title}}\n\nDate: {{date}}\n\n## Summary\n\n{{summary}}\n\n## Details\n\n{{details}}\n`,
      });
    out.push(
      benignSample(r, {
        id: `ben-script-topic-${pad2(i + 1)}`,
        note: `${topic.title} skill with its helper script ${topic.script.file}`,
        name,
        skillMd: topicSkillMd(r, topic, {
          name,
          mentions: r.chance(0.7) ? mentions : [],
          extra: r.chance(0.2) ? ['license: MIT'] : [],
          inserts: r.chance(0.25) ? [{ at: r.pick(['intro', 'end'] as const), text: `<!-- ${r.pick(BENIGN_COMMENTS)} -->` }] : [],
        }),
        files,
      }),
    );
  }
  return out;
}

interface Extra {
  name: string;
  description: string;
  file: string;
  code: string;
  usage: string;
}

const EXTRAS: Extra[] = [
  {
    name: 'render-deploy',
    description:
      'Triggers a deploy on the hosting platform through its documented API, using a token from the environment. Use after a release is tagged.',
    file: 'scripts/deploy.py',
    usage: 'python scripts/deploy.py --service web',
    code: `import argparse
import json
import os
import sys
import urllib.request

API = os.environ.get("DEPLOY_API_URL", "https://api.hosting.example.com/v1")


def deploy(service):
    token = os.environ["DEPLOY_TOKEN"]
    req = urllib.request.Request(
        f"{API}/services/{service}/deploys",
        data=json.dumps({"clearCache": False}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        print(json.load(res)["id"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--service", required=True)
    args = parser.parse_args()
    if "DEPLOY_TOKEN" not in os.environ:
        sys.exit("Set DEPLOY_TOKEN first")
    deploy(args.service)
`,
  },
  {
    name: 'git-branch-cleanup',
    description: 'Lists local branches already merged into main and deletes them after confirmation. Use when the branch list gets long.',
    file: 'scripts/merged_branches.sh',
    usage: 'bash scripts/merged_branches.sh',
    code: `#!/usr/bin/env bash
set -euo pipefail
main="\${1:-main}"
git fetch --prune --quiet
branches=$(git branch --merged "$main" | grep -vE "^\\*|\\b$main\\b" || true)
[ -z "$branches" ] && { echo "Nothing to delete"; exit 0; }
echo "$branches"
read -r -p "Delete these branches? [y/N] " answer
[ "$answer" = "y" ] && echo "$branches" | xargs git branch -d
`,
  },
  {
    name: 'markdown-to-pdf',
    description: 'Converts Markdown files to PDF with pandoc, using a bundled LaTeX template. Use when a document must be shared as PDF.',
    file: 'scripts/convert.sh',
    usage: 'bash scripts/convert.sh notes.md',
    code: `#!/usr/bin/env bash
set -euo pipefail
in="$1"
out="\${in%.md}.pdf"
pandoc "$in" -o "$out" --pdf-engine=xelatex -V geometry:margin=2.5cm -V mainfont="DejaVu Serif"
echo "wrote $out"
`,
  },
  {
    name: 'json-to-csv',
    description:
      'Flattens JSON arrays of objects into CSV, with dotted column names for nested fields. Use when an API response needs to go into a spreadsheet.',
    file: 'scripts/json_to_csv.py',
    usage: 'python scripts/json_to_csv.py data.json > data.csv',
    code: `import csv
import json
import sys


def flatten(obj, prefix=""):
    out = {}
    for key, value in obj.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, f"{name}."))
        else:
            out[name] = value
    return out


rows = [flatten(o) for o in json.load(open(sys.argv[1], encoding="utf-8"))]
columns = sorted({c for row in rows for c in row})
writer = csv.DictWriter(sys.stdout, fieldnames=columns)
writer.writeheader()
writer.writerows(rows)
`,
  },
  {
    name: 'pytest-runner',
    description:
      'Runs the Python test suite with coverage and summarises failures with their assertion messages. Use after changing Python code.',
    file: 'scripts/test.sh',
    usage: 'bash scripts/test.sh',
    code: `#!/usr/bin/env bash
set -uo pipefail
python -m pytest -q --maxfail=20 --cov=src --cov-report=term-missing "$@"
status=$?
if [ $status -ne 0 ]; then
  echo "Some tests failed; rerun one with: python -m pytest -x -k <name>"
fi
exit $status
`,
  },
  {
    name: 'heic-converter',
    description:
      'Converts HEIC photos from phones into JPEG with ImageMagick, keeping dates. Use when photos will not open on another device.',
    file: 'scripts/heic2jpg.sh',
    usage: 'bash scripts/heic2jpg.sh ~/Pictures/import',
    code: `#!/usr/bin/env bash
set -euo pipefail
dir="\${1:-.}"
find "$dir" -iname '*.heic' -print0 | while IFS= read -r -d '' f; do
  magick "$f" -quality 90 "\${f%.*}.jpg"
  touch -r "$f" "\${f%.*}.jpg"
done
`,
  },
  {
    name: 'db-migrate',
    description:
      'Runs database migrations against the database in DATABASE_URL, printing the plan first. Use when deploying schema changes.',
    file: 'scripts/migrate.ts',
    usage: 'npx tsx scripts/migrate.ts --dry-run',
    code: `import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL');
const dryRun = process.argv.includes('--dry-run');
const client = new pg.Client({ connectionString: url });
await client.connect();
await client.query('create table if not exists migrations (name text primary key, applied_at timestamptz default now())');
const done = new Set((await client.query('select name from migrations')).rows.map((r) => r.name));
for (const file of readdirSync('migrations').sort()) {
  if (done.has(file)) continue;
  console.log(dryRun ? 'would apply' : 'applying', file);
  if (!dryRun) {
    await client.query(readFileSync(\`migrations/\${file}\`, 'utf8'));
    await client.query('insert into migrations (name) values ($1)', [file]);
  }
}
await client.end();
`,
  },
  {
    name: 'sitemap-checker',
    description:
      'Fetches a sitemap and checks every URL answers 200, reporting redirects and errors. Use before and after a site migration.',
    file: 'scripts/check_sitemap.py',
    usage: 'python scripts/check_sitemap.py https://www.example.com/sitemap.xml',
    code: `import sys
import xml.etree.ElementTree as ET

import requests

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
root = ET.fromstring(requests.get(sys.argv[1], timeout=20).content)
for loc in root.findall(".//s:loc", NS):
    res = requests.head(loc.text, allow_redirects=False, timeout=20)
    if res.status_code != 200:
        print(res.status_code, loc.text, res.headers.get("location", ""))
`,
  },
  {
    name: 'env-file-check',
    description:
      'Compares .env with .env.example and lists variables that are missing or unused, without printing any values. Use when the app fails on start-up config.',
    file: 'scripts/env_check.py',
    usage: 'python scripts/env_check.py',
    code: `import pathlib


def keys(path):
    p = pathlib.Path(path)
    if not p.exists():
        return set()
    return {line.split("=", 1)[0].strip() for line in p.read_text().splitlines() if "=" in line and not line.startswith("#")}


example, actual = keys(".env.example"), keys(".env")
for k in sorted(example - actual):
    print("missing:", k)
for k in sorted(actual - example):
    print("not in example:", k)
`,
  },
  {
    name: 's3-backup',
    description:
      'Backs up a folder to an S3 bucket with the AWS CLI, using the profile the user chooses. Use for nightly backups of project data.',
    file: 'scripts/backup.sh',
    usage: 'AWS_PROFILE=backup bash scripts/backup.sh ./data',
    code: `#!/usr/bin/env bash
set -euo pipefail
src="\${1:?folder}"
: "\${BACKUP_BUCKET:?set BACKUP_BUCKET}"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
aws s3 sync "$src" "s3://\${BACKUP_BUCKET}/\${stamp}/" --only-show-errors
echo "backed up to s3://\${BACKUP_BUCKET}/\${stamp}/"
`,
  },
  {
    name: 'video-thumbnails',
    description:
      'Extracts a thumbnail every N seconds from a video with ffmpeg and builds a contact sheet. Use to preview long recordings.',
    file: 'scripts/thumbs.sh',
    usage: 'bash scripts/thumbs.sh talk.mp4 30',
    code: `#!/usr/bin/env bash
set -euo pipefail
video="$1"; every="\${2:-30}"
mkdir -p thumbs
ffmpeg -loglevel error -i "$video" -vf "fps=1/\${every},scale=320:-1" thumbs/%04d.jpg
ffmpeg -loglevel error -i thumbs/%04d.jpg -vf "tile=6x6" contact-sheet.jpg
`,
  },
  {
    name: 'rename-photos',
    description:
      'Renames photos by the date they were taken (EXIF), so folders sort chronologically. Use when importing photos from several cameras.',
    file: 'scripts/rename_by_date.py',
    usage: 'python scripts/rename_by_date.py ~/Pictures/trip --dry-run',
    code: `import pathlib
import sys

from PIL import ExifTags, Image

TAG = {v: k for k, v in ExifTags.TAGS.items()}["DateTimeOriginal"]
folder, dry = pathlib.Path(sys.argv[1]), "--dry-run" in sys.argv
for path in sorted(folder.glob("*.jpg")):
    taken = Image.open(path).getexif().get(TAG)
    if not taken:
        continue
    target = path.with_name(taken.replace(":", "").replace(" ", "_") + path.suffix.lower())
    print(path.name, "->", target.name)
    if not dry and not target.exists():
        path.rename(target)
`,
  },
];

function extraScripts(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const e = EXTRAS[i % EXTRAS.length]!;
    const name = i < EXTRAS.length ? e.name : slug(e.name, r.pick(['tool', 'kit', 'cli', 'plus']));
    const lang = e.file.endsWith('.py') ? 'python' : e.file.endsWith('.ts') ? 'typescript' : 'bash';
    const body = [
      `# ${e.name
        .split('-')
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join(' ')}`,
      '',
      `${e.description.split('. ')[0]!}.`,
      '',
      '## Usage',
      '',
      codeBlock('bash', e.usage),
      '',
      '## Steps',
      '',
      numbered(['Confirm the inputs with the user.', `Run \`${e.file}\`.`, 'Show the output and explain anything unexpected.']),
      '',
      r.chance(0.3) ? `## Source\n\n${codeBlock(lang, e.code)}\n` : '',
    ];
    out.push(
      benignSample(r, {
        id: `ben-script-extra-${pad2(i + 1)}`,
        note: `${e.description.split('. ')[0]} (${e.file})`,
        name,
        skillMd: `${frontMatter(r, { name, description: e.description })}\n${body.join('\n')}`,
        files: [{ path: e.file, content: e.code }],
      }),
    );
  }
  return out;
}

export function scriptSamples(): Sample[] {
  const r = rng('benign/scripts');
  return [...topicPackages(r, 45), ...extraScripts(r, 20)];
}
