// Reference-heavy skills and the legitimate look-alikes of risky content: long reference documents, credentials
// that are plainly placeholders, short data-URL images, checksums and commit hashes, and real media files.
import { rng, type Rng } from '../prng.js';
import { HEX } from '../prng.js';
import { b64, frontMatter, pad2, type Sample, type SampleFile } from '../sample.js';
import { benignSample, bullets, codeBlock, numbered, slug, table } from './common.js';
import { gif, pdf, png } from './media.js';

const HTTP_STATUSES: [string, string, string][] = [
  ['200', 'OK', 'The request succeeded.'],
  ['201', 'Created', 'A resource was created; Location names it.'],
  ['204', 'No Content', 'Success with no body.'],
  ['301', 'Moved Permanently', 'Use the new URL from now on.'],
  ['304', 'Not Modified', 'The cached copy is still fresh.'],
  ['400', 'Bad Request', 'The request is malformed.'],
  ['401', 'Unauthorized', 'Credentials missing or invalid.'],
  ['403', 'Forbidden', 'Authenticated, but not allowed.'],
  ['404', 'Not Found', 'No resource at this URL.'],
  ['409', 'Conflict', 'The request conflicts with current state.'],
  ['413', 'Content Too Large', 'The body is over the limit.'],
  ['422', 'Unprocessable Content', 'Well-formed but semantically wrong.'],
  ['429', 'Too Many Requests', 'Rate limited; honour Retry-After.'],
  ['500', 'Internal Server Error', 'A bug on the server.'],
  ['502', 'Bad Gateway', 'An upstream answered badly.'],
  ['503', 'Service Unavailable', 'Overloaded or in maintenance.'],
  ['504', 'Gateway Timeout', 'An upstream did not answer in time.'],
];

const GIT_COMMANDS: [string, string][] = [
  ['git switch -c <branch>', 'Create a branch and switch to it'],
  ['git restore --staged <file>', 'Unstage a file, keeping the change'],
  ['git commit --amend --no-edit', 'Add staged changes to the last commit'],
  ['git rebase -i HEAD~3', 'Reorder, squash or reword the last three commits'],
  ['git stash push -m "wip"', 'Put work aside with a name'],
  ['git bisect start', 'Find the commit that introduced a bug'],
  ['git log --oneline --graph --all', 'See the history as a graph'],
  ['git blame -L 10,20 <file>', 'Who changed lines 10 to 20'],
  ['git worktree add ../hotfix main', 'A second working copy on another branch'],
  ['git reflog', 'Find commits lost by a reset or rebase'],
  ['git cherry-pick <sha>', 'Apply one commit onto the current branch'],
  ['git clean -nd', 'Preview which untracked files would be removed'],
];

const SQL_FUNCS: [string, string, string][] = [
  ['COALESCE(a, b)', 'first non-null argument', 'COALESCE(nickname, name)'],
  ['NULLIF(a, b)', 'null when a equals b', 'total / NULLIF(count, 0)'],
  ['DATE_TRUNC(unit, ts)', 'truncate a timestamp', "DATE_TRUNC('month', created_at)"],
  ['STRING_AGG(x, sep)', 'concatenate values of a group', "STRING_AGG(tag, ', ')"],
  ['ROW_NUMBER() OVER (...)', 'number rows within a window', 'ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY ts)'],
  ['LAG(x) OVER (...)', 'previous row value', 'amount - LAG(amount) OVER (ORDER BY day)'],
  ['PERCENTILE_CONT(p)', 'interpolated percentile', 'PERCENTILE_CONT(0.95) WITHIN GROUP (ORDER BY ms)'],
  ['GENERATE_SERIES(a, b)', 'a set of values', "GENERATE_SERIES('2024-01-01'::date, '2024-12-31', '1 day')"],
  ['JSONB_EXTRACT_PATH_TEXT', 'text at a JSON path', "data->>'email'"],
  ['REGEXP_REPLACE(s, p, r)', 'replace by pattern', "REGEXP_REPLACE(phone, '[^0-9]', '', 'g')"],
];

function longReferences(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    let name: string;
    let title: string;
    let reference: string;
    if (kind === 0) {
      name = slug('http-status', r.pick(['reference', 'guide', 'explainer']));
      title = 'HTTP status codes';
      reference = HTTP_STATUSES.map(
        ([code, phrase, meaning]) =>
          `## ${code} ${phrase}\n\n${meaning}\n\n${codeBlock('http', `HTTP/1.1 ${code} ${phrase}\nContent-Type: application/problem+json\n\n{"type": "about:blank", "status": ${code}, "title": "${phrase}"}`)}\n\n**When a client sees it:** ${r.pick(['log it and show a friendly message', 'retry only if the method is idempotent', 'do not retry; fix the request', 'follow the instructions in the headers'])}.\n`,
      ).join('\n');
    } else if (kind === 1) {
      name = slug('git', r.pick(['reference', 'cheatsheet', 'recipes']));
      title = 'Git recipes';
      reference = GIT_COMMANDS.map(
        ([cmd, what]) =>
          `## ${what}\n\n${codeBlock('bash', cmd)}\n\n${r.pick(['Safe: it changes nothing already pushed.', 'Rewrites history: never on a shared branch.', 'Read-only.', 'Reversible with `git reflog`.'])}\n`,
      ).join('\n');
    } else {
      name = slug('sql', r.pick(['functions', 'reference', 'patterns']));
      title = 'SQL functions';
      reference = SQL_FUNCS.map(
        ([fn, what, example]) =>
          `## ${fn}\n\n${what[0]!.toUpperCase()}${what.slice(1)}.\n\n${codeBlock('sql', `SELECT ${example} AS value\nFROM ${r.pick(['orders', 'events', 'users', 'payments'])}\nLIMIT 10;`)}\n`,
      ).join('\n');
    }
    const repeats = r.int(1, 3);
    const appendix = Array.from(
      { length: repeats * 10 },
      (_, k) =>
        `| ${k + 1} | ${r.pick(['Edge case', 'Common mistake', 'Performance note', 'Portability'])} | ${r.pick(['Check for NULL first.', 'Quote identifiers that are keywords.', 'Prefer explicit column lists.', 'Test on a copy of production data.', 'Read the server version before relying on it.'])} |`,
    ).join('\n');
    const fm = frontMatter(r, {
      name,
      description: `Answers questions about ${title.toLowerCase()} from a bundled reference. Use when the user asks what one means or how to use it.`,
    });
    const document = `${reference}\n## Appendix\n\n| # | Topic | Note |\n|---|---|---|\n${appendix}\n`;
    // Half keep the reference beside SKILL.md; the other half are one long SKILL.md.
    const inline = i % 2 === 1;
    out.push(
      benignSample(r, {
        id: `ben-ref-long-${pad2(i + 1)}`,
        note: inline
          ? `${title}: one long SKILL.md holding the whole reference (sections, examples, a table)`
          : `${title}: a short SKILL.md pointing at a long reference document with many sections and a table`,
        name,
        skillMd: inline
          ? `${fm}\n# ${title}\n\nQuote the relevant section below rather than answering from memory.\n\n${document}`
          : `${fm}\n# ${title}\n\nLook the answer up in \`references/REFERENCE.md\` rather than answering from memory, and quote the relevant section.\n`,
        files: inline ? [] : [{ path: 'references/REFERENCE.md', content: `# ${title} reference\n\n${document}` }],
      }),
    );
  }
  return out;
}

function placeholders(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  const styles = [
    {
      note: 'YOUR_API_KEY placeholders',
      set: 'export WEATHER_API_KEY=YOUR_API_KEY',
      call: 'curl "https://api.weather.example.com/v1/now?city=Lisbon&key=YOUR_API_KEY"',
    },
    { note: 'a truncated sk-... key', set: 'export OPENAI_API_KEY="sk-..."', call: 'python scripts/ask.py "Summarise README.md"' },
    {
      note: 'angle-bracket <token> placeholders',
      set: 'export GITHUB_TOKEN=<token>',
      call: 'curl -H "Authorization: Bearer <token>" https://api.github.com/user',
    },
    {
      note: 'an x-filled Slack token placeholder',
      set: 'export SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx',
      call: 'python scripts/post.py "#general" "hello"',
    },
    { note: 'a ${VAR} template in a config file', set: 'api_key: ${STRIPE_SECRET_KEY}', call: 'app --config config.yaml' },
    {
      note: 'a GitHub token placeholder made of X characters',
      set: 'GH_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
      call: 'gh auth status',
    },
    {
      note: 'a password placeholder in a connection string',
      set: 'DATABASE_URL=postgres://app:<password>@db.internal:5432/app',
      call: 'psql "$DATABASE_URL" -c "select 1"',
    },
    { note: 'an Anthropic key placeholder with dots', set: 'ANTHROPIC_API_KEY=sk-ant-...', call: 'node scripts/summarise.mjs notes.txt' },
  ];
  for (let i = 0; i < n; i++) {
    const s = styles[i % styles.length]!;
    const name = slug(
      r.pick(['api', 'service', 'integration', 'client']),
      r.pick(['quickstart', 'setup', 'connect', 'config']),
      String(i + 1),
    );
    out.push(
      benignSample(r, {
        id: `ben-ref-placeholder-${pad2(i + 1)}`,
        note: `Setup docs with ${s.note}`,
        name,
        skillMd: `${frontMatter(r, { name, description: "Connects to the service with the user's own credentials, set in the environment. Use when the integration is not configured yet." })}\n# Connecting\n\nAsk the user to create a key in their account settings, then set it (replace the placeholder; never commit the real value):\n\n${codeBlock('bash', s.set)}\n\nCheck it works:\n\n${codeBlock('bash', s.call)}\n\n${bullets(['If the call answers 401, the key is wrong or revoked.', 'Keys belong in the environment or a secret manager, never in the repository.'])}\n`,
      }),
    );
  }
  return out;
}

function dataUrls(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const name = slug(r.pick(['html-email', 'badge', 'report', 'favicon', 'status-page']), r.pick(['builder', 'template', 'helper']));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="#${r.chars(HEX, 6)}"/></svg>`;
    const image = i % 2 === 0 ? `data:image/png;base64,${b64(png(r, r.int(2, 6), r.int(2, 6)))}` : `data:image/svg+xml;base64,${b64(svg)}`;
    const html = `<!doctype html>\n<html>\n  <body>\n    <table role="presentation">\n      <tr>\n        <td><img src="${image}" width="16" height="16" alt="status"> {{status}}</td>\n      </tr>\n    </table>\n  </body>\n</html>\n`;
    out.push(
      benignSample(r, {
        id: `ben-ref-dataurl-${pad2(i + 1)}`,
        note: `An HTML template with a short ${i % 2 === 0 ? 'PNG' : 'SVG'} image inlined as a base64 data URL`,
        name,
        skillMd: `${frontMatter(r, { name, description: 'Fills an HTML template with status values; the icon is inlined so emails render without remote images. Use when sending status emails.' })}\n# Status template\n\nThe icon is inlined as a data URL because many mail clients block remote images:\n\n${codeBlock('html', `<img src="${image}" alt="status">`)}\n\nFill \`{{status}}\` and send the result as the HTML part of the email.\n`,
        files: [{ path: 'assets/status.html', content: html }],
      }),
    );
  }
  return out;
}

function checksums(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const tool = r.pick(['mytool', 'fastfmt', 'logcat-pro', 'csvkit-lite', 'depgraph']);
    const v = `${r.int(0, 5)}.${r.int(0, 20)}.${r.int(0, 9)}`;
    const platforms = ['linux-amd64.tar.gz', 'linux-arm64.tar.gz', 'darwin-arm64.tar.gz', 'windows-amd64.zip'];
    const sums = platforms.map((p) => `${r.chars(HEX, 64)}  ${tool}-${v}-${p}`).join('\n');
    const commit = r.chars(HEX, 40);
    const name = slug(tool, r.pick(['release-verify', 'install-verified', 'checksums']));
    const files: SampleFile[] = [{ path: 'references/SHA256SUMS', content: `${sums}\n` }];
    out.push(
      benignSample(r, {
        id: `ben-ref-checksum-${pad2(i + 1)}`,
        note: 'Release verification with sha256 checksums (64 hex), a 40-hex commit id and a sha512 digest',
        name,
        skillMd: `${frontMatter(r, { name, description: `Downloads a ${tool} release and verifies it against the published checksums before installing. Use when installing ${tool} on a new machine.` })}\n# Verified install of ${tool}\n\n${numbered(["Download the archive for the platform from the project's releases page.", 'Verify it against `references/SHA256SUMS`:', 'Only then extract it into `~/.local/bin`.'])}\n\n${codeBlock('bash', `sha256sum --check --ignore-missing references/SHA256SUMS`)}\n\nRelease ${v} was built from commit \`${commit}\`. Its source tarball has the SHA-512 digest:\n\n${codeBlock('text', r.chars(HEX, 128))}\n\n${table(
          ['File', 'SHA-256'],
          platforms.slice(0, 2).map((p, k) => [`${tool}-${v}-${p}`, `\`${sums.split('\n')[k]!.split(' ')[0]!}\``]),
        )}\n`,
        files,
      }),
    );
  }
  return out;
}

function mediaAssets(r: Rng, n: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < n; i++) {
    const name = slug(r.pick(['brand', 'slide', 'doc', 'report']), r.pick(['assets', 'kit', 'styler', 'builder']), String(i + 1));
    const files: SampleFile[] = [];
    if (i % 3 === 0) files.push({ path: 'assets/logo.png', content: png(r, r.int(16, 48), r.int(16, 48)) });
    if (i % 3 === 1) files.push({ path: 'assets/spacer.gif', content: gif() }, { path: 'assets/icon.png', content: png(r, 32, 32) });
    if (i % 3 === 2) files.push({ path: 'assets/sample-report.pdf', content: pdf(`Quarterly report ${2020 + r.int(0, 5)}`) });
    out.push(
      benignSample(r, {
        id: `ben-ref-media-${pad2(i + 1)}`,
        note: `Ships real media files (${files.map((f) => f.path.split('/').pop()).join(', ')}) as assets`,
        name,
        skillMd: `${frontMatter(r, { name, description: 'Builds documents in the house style using the bundled logo, icons and sample. Use when producing customer-facing documents.' })}\n# House style\n\n${bullets(['Use the bundled assets from `assets/` as they are; do not re-encode them.', 'Margins 2 cm, body text 11 pt.', 'Headings in sentence case.'])}\n`,
        files,
      }),
    );
  }
  return out;
}

export function referenceSamples(): Sample[] {
  const r = rng('benign/references');
  return [...longReferences(r, 9), ...placeholders(r, 12), ...dataUrls(r, 8), ...checksums(r, 8), ...mediaAssets(r, 9)];
}
