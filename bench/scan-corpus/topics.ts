// Everyday skills the corpus dresses its packages as: benign packages are built from them, and malicious ones
// hide their payload inside them, so a skill's subject says nothing about its label.

export interface Snippet {
  lang: string;
  code: string;
}

export interface Topic {
  slug: string;
  title: string;
  description: string;
  when: string[];
  steps: string[];
  example: Snippet;
  /** A helper script the skill ships, doing the skill's real work. */
  script: { file: string; code: string };
}

export const TOPICS: Topic[] = [
  {
    slug: 'csv-cleaner',
    title: 'CSV Cleaner',
    description:
      'Cleans messy CSV exports: trims cells, normalises dates and drops duplicate rows. Use when a spreadsheet export needs tidying before analysis.',
    when: ['A CSV has inconsistent date formats', 'Rows are duplicated after a merge', 'Headers carry stray whitespace'],
    steps: [
      'Read the file with the delimiter sniffed from the first lines',
      'Trim every cell and collapse inner whitespace',
      'Parse dates into ISO 8601',
      'Drop exact duplicate rows and report how many went',
    ],
    example: { lang: 'bash', code: 'python scripts/clean_csv.py input.csv --out cleaned.csv --date-column created_at' },
    script: {
      file: 'scripts/clean_csv.py',
      code: `import csv
import sys
from datetime import datetime

FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y")


def parse_date(value):
    for fmt in FORMATS:
        try:
            return datetime.strptime(value.strip(), fmt).date().isoformat()
        except ValueError:
            continue
    return value


def main(path, out):
    seen = set()
    with open(path, newline="", encoding="utf-8") as src, open(out, "w", newline="", encoding="utf-8") as dst:
        reader = csv.DictReader(src)
        writer = csv.DictWriter(dst, fieldnames=[f.strip() for f in reader.fieldnames or []])
        writer.writeheader()
        for row in reader:
            clean = {k.strip(): " ".join((v or "").split()) for k, v in row.items()}
            if "created_at" in clean:
                clean["created_at"] = parse_date(clean["created_at"])
            key = tuple(clean.values())
            if key in seen:
                continue
            seen.add(key)
            writer.writerow(clean)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "cleaned.csv")
`,
    },
  },
  {
    slug: 'changelog-writer',
    title: 'Changelog Writer',
    description: 'Drafts CHANGELOG entries from merged pull requests and conventional commits. Use when preparing a release.',
    when: ['A release is being cut', 'Commits follow the conventional-commit style', 'The team wants Keep a Changelog sections'],
    steps: [
      'List commits since the last tag',
      'Group them by type: feat, fix, perf, docs',
      'Rewrite each subject as a user-facing sentence',
      'Insert the section under "Unreleased"',
    ],
    example: { lang: 'bash', code: 'git log --pretty=format:"%s" $(git describe --tags --abbrev=0)..HEAD' },
    script: {
      file: 'scripts/group_commits.sh',
      code: `#!/usr/bin/env bash
set -euo pipefail
since="\${1:-$(git describe --tags --abbrev=0)}"
for type in feat fix perf docs; do
  echo "## \${type}"
  git log --pretty=format:"- %s" "\${since}..HEAD" | grep -E "^- \${type}(\\(.+\\))?:" || true
  echo
done
`,
    },
  },
  {
    slug: 'pdf-text-extractor',
    title: 'PDF Text Extractor',
    description:
      'Extracts text and tables from PDF files page by page. Use when the user shares a PDF and asks for its contents or a summary.',
    when: ['The user uploads a PDF report', 'Tables need to become CSV', 'Scanned pages need OCR first'],
    steps: [
      'Check whether the PDF has a text layer',
      'Extract text page by page, keeping page numbers',
      'Detect tables and write them as CSV',
      'Summarise only after extraction succeeds',
    ],
    example: {
      lang: 'python',
      code: 'import pdfplumber\n\nwith pdfplumber.open("report.pdf") as pdf:\n    for page in pdf.pages:\n        print(page.page_number, page.extract_text()[:200])',
    },
    script: {
      file: 'scripts/extract.py',
      code: `import sys

import pdfplumber


def extract(path):
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            text = page.extract_text() or ""
            yield page.page_number, text


if __name__ == "__main__":
    for number, text in extract(sys.argv[1]):
        print(f"--- page {number} ---")
        print(text)
`,
    },
  },
  {
    slug: 'git-commit-helper',
    title: 'Git Commit Helper',
    description:
      'Writes clear commit messages from the staged diff, following the repository conventions. Use when the user asks to commit their work.',
    when: [
      'Changes are staged and need a message',
      'The repository uses conventional commits',
      'A large diff should be split into several commits',
    ],
    steps: [
      'Read `git diff --staged`',
      'Summarise the change in an imperative subject under 72 characters',
      'Explain why in the body, wrapped at 72',
      'Ask before committing',
    ],
    example: { lang: 'bash', code: 'git diff --staged --stat\ngit commit -m "Fix timezone handling in report export"' },
    script: {
      file: 'scripts/staged_summary.sh',
      code: `#!/bin/sh
# Prints the staged files and their line counts, for drafting a message.
git diff --staged --numstat | awk '{ added += $1; removed += $2; print } END { print "total +" added " -" removed }'
`,
    },
  },
  {
    slug: 'docker-compose-doctor',
    title: 'Docker Compose Doctor',
    description:
      'Diagnoses docker compose stacks that fail to start: port clashes, missing env files, unhealthy dependencies. Use when `docker compose up` fails.',
    when: ['A service exits right after starting', 'Two services bind the same port', 'A healthcheck never passes'],
    steps: [
      'Run `docker compose config` to see the resolved file',
      'List containers and their exit codes',
      'Read the last 100 log lines of each failing service',
      'Suggest the smallest fix',
    ],
    example: { lang: 'bash', code: 'docker compose ps --all\ndocker compose logs --tail=100 api' },
    script: {
      file: 'scripts/ports.sh',
      code: `#!/usr/bin/env bash
# Lists published ports per service, so clashes stand out.
docker compose config --format json | jq -r '.services | to_entries[] | .key as $s | (.value.ports // [])[] | "\\($s) \\(.published)"' | sort -k2
`,
    },
  },
  {
    slug: 'log-summarizer',
    title: 'Log Summarizer',
    description:
      'Summarises application logs: error counts by type, first and last occurrence, and the most frequent messages. Use when someone pastes or attaches a log file.',
    when: ['A log file is too long to read', 'An incident needs a timeline', 'Errors need grouping by message'],
    steps: [
      'Detect the log format (JSON lines, logfmt, plain)',
      'Group lines by level and normalised message',
      'Report counts, first and last timestamps',
      'Quote three representative lines per group',
    ],
    example: { lang: 'bash', code: 'jq -r \'select(.level=="error") | .msg\' app.log | sort | uniq -c | sort -rn | head' },
    script: {
      file: 'scripts/summarize.py',
      code: `import collections
import json
import re
import sys

NUMBERS = re.compile(r"\\d+")


def main(path):
    groups = collections.Counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                entry = json.loads(line)
                message = entry.get("msg", "")
                level = entry.get("level", "info")
            except json.JSONDecodeError:
                level, message = "plain", line.strip()
            groups[(level, NUMBERS.sub("N", message))] += 1
    for (level, message), count in groups.most_common(20):
        print(f"{count:6d} {level:5s} {message}")


if __name__ == "__main__":
    main(sys.argv[1])
`,
    },
  },
  {
    slug: 'image-resizer',
    title: 'Image Resizer',
    description:
      'Resizes and converts images in bulk (PNG, JPEG, WebP), keeping aspect ratio and stripping metadata. Use when preparing images for the web.',
    when: ['A folder of photos must be shrunk', 'Images need WebP versions', 'EXIF data should be removed before publishing'],
    steps: [
      'Collect images by extension',
      'Resize so the longer side is at most the target',
      'Write WebP and a JPEG fallback',
      'Print the size saved per file',
    ],
    example: { lang: 'bash', code: 'python scripts/resize.py photos/ --max 1600 --webp' },
    script: {
      file: 'scripts/resize.py',
      code: `import pathlib
import sys

from PIL import Image


def resize_all(folder, longest=1600):
    for path in sorted(pathlib.Path(folder).glob("*")):
        if path.suffix.lower() not in {".png", ".jpg", ".jpeg"}:
            continue
        with Image.open(path) as image:
            image.thumbnail((longest, longest))
            clean = Image.new(image.mode, image.size)
            clean.putdata(list(image.getdata()))
            clean.save(path.with_suffix(".webp"), "WEBP", quality=82)
            print(path.name, "->", path.with_suffix(".webp").name)


if __name__ == "__main__":
    resize_all(sys.argv[1])
`,
    },
  },
  {
    slug: 'release-notes',
    title: 'Release Notes',
    description:
      'Turns a milestone of closed issues into release notes grouped by area, with upgrade notes first. Use when a version ships.',
    when: ['A milestone is closed', 'Breaking changes need an upgrade guide', 'Marketing wants a short summary'],
    steps: [
      'Fetch the closed issues of the milestone',
      'Group them by label',
      'Write breaking changes and upgrade steps first',
      'Keep each line under 100 characters',
    ],
    example: { lang: 'bash', code: 'gh issue list --milestone "v2.4" --state closed --json number,title,labels' },
    script: {
      file: 'scripts/notes.js',
      code: `// Groups closed issues (from gh --json) by their first label.
import { readFileSync } from 'node:fs';

const issues = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const groups = new Map();
for (const issue of issues) {
  const label = issue.labels[0]?.name ?? 'other';
  if (!groups.has(label)) groups.set(label, []);
  groups.get(label).push(\`- \${issue.title} (#\${issue.number})\`);
}
for (const [label, lines] of groups) console.log(\`### \${label}\\n\${lines.join('\\n')}\\n\`);
`,
    },
  },
  {
    slug: 'terraform-plan-review',
    title: 'Terraform Plan Review',
    description:
      'Reviews terraform plan output for destructive changes, drift and risky IAM edits before apply. Use when a plan is pasted for review.',
    when: ['A plan destroys or replaces resources', 'IAM policies widen', 'State drift shows up unexpectedly'],
    steps: [
      'Render the plan as JSON with `terraform show -json`',
      'List every delete and replace action',
      'Flag IAM statements with wildcard actions',
      'Summarise the risk in three lines',
    ],
    example: {
      lang: 'bash',
      code: 'terraform plan -out tf.plan\nterraform show -json tf.plan | jq \'.resource_changes[] | select(.change.actions | index("delete"))\'',
    },
    script: {
      file: 'scripts/destructive.sh',
      code: `#!/usr/bin/env bash
set -euo pipefail
terraform show -json "\${1:-tf.plan}" \\
  | jq -r '.resource_changes[] | select(.change.actions | index("delete")) | .address'
`,
    },
  },
  {
    slug: 'markdown-linter',
    title: 'Markdown Linter',
    description:
      'Checks Markdown docs for broken relative links, heading order and overlong lines, and proposes fixes. Use before publishing documentation.',
    when: ['Docs are about to be published', 'Links may point to moved files', 'Headings skip levels'],
    steps: [
      'Collect every .md file',
      'Check relative links resolve',
      'Check headings increase one level at a time',
      'Report findings as file:line: message',
    ],
    example: { lang: 'bash', code: 'node scripts/links.mjs docs/' },
    script: {
      file: 'scripts/links.mjs',
      code: `import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (name.endsWith('.md')) yield full;
  }
}

for (const file of walk(process.argv[2] ?? '.')) {
  readFileSync(file, 'utf8').split('\\n').forEach((line, i) => {
    for (const [, target] of line.matchAll(/\\]\\(([^)#:]+)(#[^)]*)?\\)/g)) {
      if (!existsSync(path.resolve(path.dirname(file), target))) console.log(\`\${file}:\${i + 1}: broken link \${target}\`);
    }
  });
}
`,
    },
  },
  {
    slug: 'sql-migration-checker',
    title: 'SQL Migration Checker',
    description:
      'Reviews SQL migrations for locking hazards: adding NOT NULL columns without defaults, building indexes without CONCURRENTLY, renaming columns in use. Use when a migration is added.',
    when: ['A migration touches a large table', 'An index is created on a busy table', 'A column is renamed or dropped'],
    steps: [
      'Parse each statement of the migration',
      'Flag ALTER TABLE statements that rewrite the table',
      'Suggest CREATE INDEX CONCURRENTLY on PostgreSQL',
      'Propose an expand-and-contract sequence for renames',
    ],
    example: {
      lang: 'sql',
      code: 'ALTER TABLE orders ADD COLUMN region text;\nCREATE INDEX CONCURRENTLY orders_region_idx ON orders (region);',
    },
    script: {
      file: 'scripts/check_migration.py',
      code: `import re
import sys

RULES = [
    (re.compile(r"ADD COLUMN .* NOT NULL(?!.*DEFAULT)", re.I), "NOT NULL column without a default rewrites the table"),
    (re.compile(r"CREATE (UNIQUE )?INDEX (?!CONCURRENTLY)", re.I), "index built without CONCURRENTLY locks writes"),
    (re.compile(r"RENAME COLUMN", re.I), "renaming a column breaks running code; expand and contract instead"),
]

for number, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    for pattern, message in RULES:
        if pattern.search(line):
            print(f"{sys.argv[1]}:{number}: {message}")
`,
    },
  },
  {
    slug: 'k8s-manifest-validator',
    title: 'Kubernetes Manifest Validator',
    description:
      'Validates Kubernetes manifests: resource limits, probes, image tags and security contexts. Use when reviewing deployment YAML.',
    when: ['A Deployment lacks resource limits', 'Images use the latest tag', 'Containers run as root'],
    steps: [
      'Load every document in the YAML files',
      'Check each container has requests and limits',
      'Check liveness and readiness probes',
      'Check runAsNonRoot and readOnlyRootFilesystem',
    ],
    example: { lang: 'bash', code: 'kubectl apply --dry-run=server -f k8s/\nkubeconform -strict -summary k8s/' },
    script: {
      file: 'scripts/validate.py',
      code: `import sys

import yaml

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for doc in yaml.safe_load_all(f):
            if not doc or doc.get("kind") != "Deployment":
                continue
            for c in doc["spec"]["template"]["spec"]["containers"]:
                if "resources" not in c:
                    print(f"{path}: {c['name']}: no resource requests or limits")
                if c.get("image", "").endswith(":latest"):
                    print(f"{path}: {c['name']}: image uses the latest tag")
`,
    },
  },
  {
    slug: 'dependency-updater',
    title: 'Dependency Updater',
    description:
      'Plans dependency upgrades: lists outdated packages, reads their changelogs for breaking changes and batches safe updates. Use when dependencies are behind.',
    when: ['npm outdated shows many packages', 'A security advisory names a dependency', 'A major version needs a migration plan'],
    steps: [
      'List outdated packages with current, wanted and latest versions',
      'Group patch and minor updates into one batch',
      'Read the changelog of each major update',
      'Run the test suite after each batch',
    ],
    example: { lang: 'bash', code: 'npm outdated --json > outdated.json\nnpm update --save\nnpm test' },
    script: {
      file: 'scripts/outdated.mjs',
      code: `import { execFileSync } from 'node:child_process';

let raw = '{}';
try {
  raw = execFileSync('npm', ['outdated', '--json'], { encoding: 'utf8' });
} catch (err) {
  raw = err.stdout || '{}';
}
for (const [name, info] of Object.entries(JSON.parse(raw))) {
  const major = info.current?.split('.')[0] !== info.latest?.split('.')[0];
  console.log(\`\${major ? 'MAJOR' : 'minor'} \${name} \${info.current} -> \${info.latest}\`);
}
`,
    },
  },
  {
    slug: 'unit-test-writer',
    title: 'Unit Test Writer',
    description:
      'Writes focused unit tests for a function: happy path, edge cases and error cases, in the project test framework. Use when asked to add tests.',
    when: ['A function has no tests', 'A bug fix needs a regression test', 'Coverage reports a gap'],
    steps: [
      'Read the function and its callers',
      'List inputs at the boundaries',
      'Write one test per behaviour with a descriptive name',
      'Run the tests and show the output',
    ],
    example: { lang: 'python', code: 'def test_parse_date_accepts_day_first():\n    assert parse_date("31/12/2024") == "2024-12-31"' },
    script: {
      file: 'scripts/run_tests.sh',
      code: `#!/usr/bin/env bash
set -euo pipefail
if [ -f package.json ]; then
  npm test --silent
elif [ -f pyproject.toml ] || [ -f pytest.ini ]; then
  python -m pytest -q
else
  echo "No known test runner found" >&2
  exit 1
fi
`,
    },
  },
  {
    slug: 'api-client-generator',
    title: 'API Client Generator',
    description:
      'Generates a typed API client from an OpenAPI document, with retries and pagination helpers. Use when integrating a REST API.',
    when: ['An OpenAPI file is available', 'Requests need typed responses', 'Paginated endpoints need iteration helpers'],
    steps: [
      'Validate the OpenAPI document',
      'Generate types for every schema',
      'Wrap each operation in a function with typed arguments',
      'Add a retry on 429 and 503 honouring Retry-After',
    ],
    example: { lang: 'bash', code: 'npx openapi-typescript openapi.yaml -o src/api/types.ts' },
    script: {
      file: 'scripts/retry.ts',
      code: `export async function withRetry(request: () => Promise<Response>, attempts = 3): Promise<Response> {
  for (let i = 1; ; i++) {
    const response = await request();
    if (response.status !== 429 && response.status !== 503) return response;
    if (i >= attempts) return response;
    const wait = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}
`,
    },
  },
  {
    slug: 'invoice-parser',
    title: 'Invoice Parser',
    description:
      'Reads invoices (PDF or image) and extracts vendor, dates, line items, tax and totals into JSON. Use for bookkeeping imports.',
    when: ['Invoices arrive as PDF attachments', 'Totals must be checked against line items', 'An accounting tool needs JSON input'],
    steps: [
      'Extract text, using OCR for scans',
      'Find the vendor, invoice number and dates',
      'Parse line items into description, quantity and amount',
      'Check that the line items sum to the total',
    ],
    example: {
      lang: 'json',
      code: '{\n  "vendor": "Northwind Traders",\n  "number": "INV-2024-0193",\n  "total": "1180.00",\n  "currency": "EUR"\n}',
    },
    script: {
      file: 'scripts/check_totals.py',
      code: `import json
import sys
from decimal import Decimal

invoice = json.load(open(sys.argv[1], encoding="utf-8"))
items = sum(Decimal(i["amount"]) for i in invoice["items"])
tax = Decimal(invoice.get("tax", "0"))
if items + tax != Decimal(invoice["total"]):
    print(f"mismatch: items {items} + tax {tax} != total {invoice['total']}")
    sys.exit(1)
print("totals match")
`,
    },
  },
  {
    slug: 'meeting-notes',
    title: 'Meeting Notes',
    description:
      'Turns a meeting transcript into notes: decisions, action items with owners and dates, and open questions. Use after a call is recorded.',
    when: ['A transcript is available', 'Action items need owners', 'Decisions must be recorded'],
    steps: [
      'Read the whole transcript once',
      'List decisions in one sentence each',
      'List action items as owner, task, due date',
      'List open questions last',
    ],
    example: {
      lang: 'markdown',
      code: '## Decisions\n- Ship the beta on the 14th\n\n## Action items\n- Dana: update the pricing page (Fri)',
    },
    script: {
      file: 'scripts/speakers.py',
      code: `import collections
import re
import sys

SPEAKER = re.compile(r"^([A-Z][a-z]+):")
counts = collections.Counter()
for line in open(sys.argv[1], encoding="utf-8"):
    match = SPEAKER.match(line)
    if match:
        counts[match.group(1)] += len(line.split())
for name, words in counts.most_common():
    print(f"{name}: {words} words")
`,
    },
  },
  {
    slug: 'spreadsheet-formulas',
    title: 'Spreadsheet Formulas',
    description:
      'Writes and explains spreadsheet formulas (XLOOKUP, SUMIFS, array formulas) for Excel and Google Sheets. Use when the user asks how to compute something in a sheet.',
    when: ['A lookup across sheets is needed', 'Conditional sums over several criteria', 'A formula returns #N/A and needs fixing'],
    steps: [
      'Ask which columns hold the keys and values',
      'Prefer XLOOKUP over VLOOKUP',
      'Explain each argument',
      'Give the Google Sheets variant when it differs',
    ],
    example: { lang: 'text', code: '=SUMIFS(Sales[Amount], Sales[Region], "North", Sales[Date], ">="&DATE(2024,1,1))' },
    script: {
      file: 'scripts/check_formulas.py',
      code: `import sys

from openpyxl import load_workbook

book = load_workbook(sys.argv[1])
for sheet in book.worksheets:
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and "VLOOKUP" in cell.value.upper():
                print(f"{sheet.title}!{cell.coordinate}: consider XLOOKUP")
`,
    },
  },
  {
    slug: 'env-setup',
    title: 'Dev Environment Setup',
    description:
      'Sets up a local development environment for a repository: runtime versions, dependencies, database and seed data. Use when onboarding onto a project.',
    when: ['A new contributor clones the repository', 'The README setup steps are out of date', 'Runtime versions must match CI'],
    steps: [
      'Read .tool-versions, .nvmrc or pyproject.toml',
      'Install the runtimes with the version manager already present',
      'Install dependencies with the lockfile',
      'Start the database and load the seed data',
    ],
    example: { lang: 'bash', code: 'nvm install\nnpm ci\ndocker compose up -d db\nnpm run db:seed' },
    script: {
      file: 'scripts/check_versions.sh',
      code: `#!/usr/bin/env bash
# Compares the installed Node.js with the one the repository asks for.
wanted="$(cat .nvmrc 2>/dev/null || echo none)"
have="$(node --version 2>/dev/null || echo missing)"
echo "wanted: \${wanted}  installed: \${have}"
`,
    },
  },
  {
    slug: 'slack-digest',
    title: 'Slack Digest',
    description:
      'Summarises a Slack channel export into a daily digest: threads with decisions, unanswered questions and links shared. Use when catching up on a channel.',
    when: ['A channel had a busy day', 'Someone returns from leave', 'Decisions are buried in threads'],
    steps: [
      'Load the export JSON for the day',
      'Group messages by thread',
      'Pick threads with the most replies or reactions',
      'List questions nobody answered',
    ],
    example: { lang: 'bash', code: "jq -r '.[] | select(.reply_count > 3) | .text' general/2024-05-02.json" },
    script: {
      file: 'scripts/threads.py',
      code: `import json
import sys

messages = json.load(open(sys.argv[1], encoding="utf-8"))
threads = sorted((m for m in messages if m.get("reply_count")), key=lambda m: -m["reply_count"])
for m in threads[:10]:
    print(m["reply_count"], m.get("text", "")[:120].replace("\\n", " "))
`,
    },
  },
  {
    slug: 'jira-triage',
    title: 'Issue Triage',
    description:
      'Triages new issues: labels them, finds duplicates, asks for missing reproduction steps and suggests a priority. Use on the incoming issue queue.',
    when: ['New issues pile up', 'Reports lack reproduction steps', 'Duplicates need linking'],
    steps: [
      'Read the issue title and body',
      'Search for similar open issues',
      'Apply area and type labels',
      'Comment asking for whatever is missing',
    ],
    example: { lang: 'bash', code: 'gh issue list --label needs-triage --json number,title,body --limit 50' },
    script: {
      file: 'scripts/similar.py',
      code: `import difflib
import json
import sys

issues = json.load(open(sys.argv[1], encoding="utf-8"))
for i, a in enumerate(issues):
    for b in issues[i + 1 :]:
        ratio = difflib.SequenceMatcher(None, a["title"].lower(), b["title"].lower()).ratio()
        if ratio > 0.8:
            print(f"#{a['number']} ~ #{b['number']} ({ratio:.2f})")
`,
    },
  },
  {
    slug: 'web-accessibility-audit',
    title: 'Web Accessibility Audit',
    description:
      'Audits a web page for accessibility: alt text, contrast, labels, landmarks and keyboard focus, with WCAG references. Use when reviewing a page or component.',
    when: ['A page is about to launch', 'A form has unlabeled inputs', 'Contrast looks low'],
    steps: [
      'Run an automated check with axe',
      'Tab through the page and note focus order',
      'Check every image has meaningful alt text',
      'Map each finding to its WCAG criterion',
    ],
    example: { lang: 'bash', code: 'npx @axe-core/cli http://localhost:3000 --exit' },
    script: {
      file: 'scripts/alt_text.py',
      code: `import sys
from html.parser import HTMLParser


class Images(HTMLParser):
    def handle_starttag(self, tag, attrs):
        if tag == "img" and not dict(attrs).get("alt"):
            print(f"line {self.getpos()[0]}: img without alt text")


Images().feed(open(sys.argv[1], encoding="utf-8").read())
`,
    },
  },
  {
    slug: 'regex-helper',
    title: 'Regex Helper',
    description:
      'Builds and explains regular expressions, with test cases that match and do not match. Use when the user needs a pattern for validation or extraction.',
    when: ['A field needs validation', 'Values must be pulled out of text', 'An existing pattern is unreadable'],
    steps: [
      'Ask for examples that must match and must not',
      'Write the pattern with named groups',
      'Explain each part',
      'Show it in the target language with flags',
    ],
    example: {
      lang: 'python',
      code: 'import re\nORDER = re.compile(r"^(?P<prefix>[A-Z]{2})-(?P<number>\\d{6})$")\nassert ORDER.match("EU-004211")',
    },
    script: {
      file: 'scripts/try_pattern.py',
      code: `import re
import sys

pattern = re.compile(sys.argv[1])
for line in sys.stdin:
    match = pattern.search(line)
    print("MATCH " if match else "      ", line.rstrip())
`,
    },
  },
  {
    slug: 'translation-reviewer',
    title: 'Translation Reviewer',
    description:
      'Reviews translated UI strings for missing placeholders, inconsistent terminology and length overflows. Use when localisation files are updated.',
    when: ['A new locale file arrives', 'Placeholders like {count} go missing', 'Strings overflow buttons'],
    steps: [
      'Load the source and target locale files',
      'Check each key exists in both',
      'Check placeholders match exactly',
      'Flag translations much longer than the source',
    ],
    example: { lang: 'json', code: '{\n  "cart.items": "{count} items in your cart",\n  "cart.empty": "Your cart is empty"\n}' },
    script: {
      file: 'scripts/placeholders.py',
      code: `import json
import re
import sys

PLACEHOLDER = re.compile(r"\\{[a-zA-Z_]+\\}")
source = json.load(open(sys.argv[1], encoding="utf-8"))
target = json.load(open(sys.argv[2], encoding="utf-8"))
for key, text in source.items():
    if key not in target:
        print(f"missing: {key}")
    elif set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(target[key])):
        print(f"placeholders differ: {key}")
`,
    },
  },
  {
    slug: 'backup-verifier',
    title: 'Backup Verifier',
    description:
      'Verifies database backups by restoring them into a scratch database and running row-count and checksum checks. Use when backups need proving.',
    when: ['Backups have never been restored', 'An audit asks for restore evidence', 'A backup job changed'],
    steps: [
      'Pick the latest backup file',
      'Restore it into a throwaway database',
      'Compare row counts with production',
      'Record the result with the backup checksum',
    ],
    example: {
      lang: 'bash',
      code: 'createdb restore_check\npg_restore --no-owner -d restore_check backups/latest.dump\npsql restore_check -c "select count(*) from orders"',
    },
    script: {
      file: 'scripts/verify.sh',
      code: `#!/usr/bin/env bash
set -euo pipefail
dump="\${1:?backup file}"
sha256sum "\${dump}"
dropdb --if-exists restore_check
createdb restore_check
pg_restore --no-owner -d restore_check "\${dump}"
psql -At restore_check -c "select 'orders', count(*) from orders"
`,
    },
  },
  {
    slug: 'code-review-checklist',
    title: 'Code Review Checklist',
    description:
      'Reviews a pull request against a checklist: correctness, tests, naming, error handling, security and performance. Use when asked to review a diff.',
    when: ['A pull request is ready for review', 'A reviewer wants a second opinion', 'A diff touches error handling'],
    steps: [
      'Read the description and linked issue',
      'Read the diff file by file',
      'Note each concern with file and line',
      'Separate blocking issues from suggestions',
    ],
    example: { lang: 'bash', code: 'gh pr diff 412 | less\ngh pr review 412 --comment --body-file review.md' },
    script: {
      file: 'scripts/diff_stats.sh',
      code: `#!/bin/sh
# Files of a pull request by lines changed, largest first.
gh pr diff "$1" --name-only | while read -r f; do
  printf '%s %s\\n' "$(git diff --numstat origin/main -- "$f" | awk '{print $1+$2}')" "$f"
done | sort -rn
`,
    },
  },
  {
    slug: 'data-quality-report',
    title: 'Data Quality Report',
    description:
      'Profiles a dataset: null rates, distinct counts, outliers and type mismatches per column, as a Markdown report. Use before modelling or loading data.',
    when: ['A new dataset arrives', 'A pipeline output looks wrong', 'Columns have mixed types'],
    steps: [
      'Load the data with pandas',
      'Compute null rate and distinct count per column',
      'Flag numeric outliers beyond 3 IQR',
      'Write the report as a Markdown table',
    ],
    example: {
      lang: 'python',
      code: 'import pandas as pd\n\ndf = pd.read_parquet("events.parquet")\nprint(df.isna().mean().sort_values(ascending=False).head(10))',
    },
    script: {
      file: 'scripts/profile.py',
      code: `import sys

import pandas as pd

df = pd.read_csv(sys.argv[1])
print("| column | nulls | distinct | dtype |")
print("|---|---|---|---|")
for name in df.columns:
    col = df[name]
    print(f"| {name} | {col.isna().mean():.1%} | {col.nunique()} | {col.dtype} |")
`,
    },
  },
  {
    slug: 'email-drafter',
    title: 'Email Drafter',
    description:
      'Drafts professional emails from bullet points in the requested tone, with a clear subject line and call to action. Use when the user asks to write an email.',
    when: ['Bullet points need to become an email', 'A reply needs a firmer tone', 'A follow-up is overdue'],
    steps: [
      'Ask for the recipient and the goal',
      'Write a subject under 60 characters',
      'Keep the body under 150 words',
      'End with one clear request',
    ],
    example: {
      lang: 'text',
      code: 'Subject: Invoice 0193 due on Friday\n\nHi Sam,\nA quick reminder that invoice 0193 is due on Friday...',
    },
    script: {
      file: 'scripts/word_count.py',
      code: `import sys

text = sys.stdin.read()
words = len(text.split())
print(f"{words} words", "(over 150)" if words > 150 else "")
`,
    },
  },
  {
    slug: 'openapi-linter',
    title: 'OpenAPI Linter',
    description:
      'Lints OpenAPI documents: missing descriptions, inconsistent naming, undocumented error responses and unused schemas. Use when an API spec changes.',
    when: ['An endpoint is added', 'Error responses are undocumented', 'Schemas drift from the naming guide'],
    steps: [
      'Validate the document against the OpenAPI schema',
      'Check every operation has an operationId and summary',
      'Check 4xx responses are documented',
      'List components nobody references',
    ],
    example: { lang: 'bash', code: 'npx @redocly/cli lint openapi.yaml' },
    script: {
      file: 'scripts/unused_schemas.py',
      code: `import json
import sys

import yaml

doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
text = json.dumps(doc.get("paths", {}))
for name in doc.get("components", {}).get("schemas", {}):
    if f"#/components/schemas/{name}" not in text:
        print("unused schema:", name)
`,
    },
  },
  {
    slug: 'static-site-deployer',
    title: 'Static Site Deployer',
    description:
      'Builds a static site and deploys it to object storage behind a CDN, then purges the cache. Use when publishing docs or a marketing site.',
    when: ['The docs site needs publishing', 'A preview deploy is wanted for a branch', 'The CDN serves stale pages'],
    steps: [
      'Run the site build',
      'Sync the output folder to the bucket, deleting removed files',
      'Set cache headers: long for hashed assets, short for HTML',
      'Purge the CDN cache for HTML paths',
    ],
    example: { lang: 'bash', code: 'npm run build\naws s3 sync dist/ s3://$SITE_BUCKET --delete' },
    script: {
      file: 'scripts/deploy.sh',
      code: `#!/usr/bin/env bash
set -euo pipefail
: "\${SITE_BUCKET:?set SITE_BUCKET}"
npm run build
aws s3 sync dist/ "s3://\${SITE_BUCKET}" --delete --cache-control "public, max-age=31536000, immutable" --exclude "*.html"
aws s3 sync dist/ "s3://\${SITE_BUCKET}" --exclude "*" --include "*.html" --cache-control "no-cache"
`,
    },
  },
  {
    slug: 'notebook-cleaner',
    title: 'Notebook Cleaner',
    description:
      'Cleans Jupyter notebooks before commit: strips outputs and execution counts, sorts imports and checks cells run in order. Use before committing notebooks.',
    when: ['Notebook diffs are unreadable', 'Outputs contain large images', 'Cells were run out of order'],
    steps: [
      'Strip outputs and execution counts',
      'Remove empty cells',
      'Check execution counts were increasing',
      'Save with stable key order',
    ],
    example: { lang: 'bash', code: 'python scripts/strip.py analysis.ipynb' },
    script: {
      file: 'scripts/strip.py',
      code: `import json
import sys

path = sys.argv[1]
nb = json.load(open(path, encoding="utf-8"))
for cell in nb["cells"]:
    if cell["cell_type"] == "code":
        cell["outputs"] = []
        cell["execution_count"] = None
nb["cells"] = [c for c in nb["cells"] if "".join(c["source"]).strip()]
json.dump(nb, open(path, "w", encoding="utf-8"), indent=1, sort_keys=True)
`,
    },
  },
];
