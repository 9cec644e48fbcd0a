import type { ListSkillsQuery, RegistryClient, Skill, Version } from '@skill-registry/client';
import { COMMON_HELP, integerOption, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatBytes, formatTime, oneLine, Output, table } from '../output.js';
import { clientFor, resolveTarget } from '../registry.js';
import { verdictText } from '../scan-report.js';
import { parseSpec } from './install.js';

const SORTS = ['relevance', 'latest', 'downloads', 'featured'] as const;

export const search: Command = {
  name: 'search',
  summary: 'search published skills',
  help: `Usage: skill-registry search [WORDS...] [options]

Searches published skills by name, description, tags and category, best match first: typos, word forms (publish,
published) and the start of the last word are forgiven. Every word must match; when no skill matches them all,
the skills matching the most words are listed, and the output says so. Without words, lists every published skill,
newest first.

  --category NAME     only this category
  --tags a,b          only skills with every one of these tags
  --sort ORDER        relevance (the default with words; needs words), latest (the default without words),
                      downloads or featured
  --featured          only featured skills
  --page N            page number (default 1)
  --page-size N       skills per page, 1 to 100 (default 20)

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      category: { type: 'string' },
      tags: { type: 'string' },
      sort: { type: 'string' },
      featured: { type: 'boolean' },
      page: { type: 'string' },
      'page-size': { type: 'string' },
    });
    const out = new Output(io, values.json === true);
    if (values.sort !== undefined && !(SORTS as readonly string[]).includes(values.sort)) {
      throw usageError(`--sort must be one of ${SORTS.join(', ')}.`);
    }
    if (values.sort === 'relevance' && positionals.length === 0) {
      throw usageError('--sort relevance ranks skills against the words searched: give some words, or another order.');
    }
    const page = integerOption('page', values.page, 1, 1_000_000);
    const pageSize = integerOption('page-size', values['page-size'], 1, 100);
    const query: ListSkillsQuery = {
      q: positionals.length > 0 ? positionals.join(' ') : undefined,
      category: values.category,
      tags: values.tags,
      sort: values.sort as (typeof SORTS)[number] | undefined,
      featured: values.featured ? true : undefined,
      page,
      page_size: pageSize,
    };
    const target = await resolveTarget(io, values.registry);
    const result = await clientFor(target).skills.list(query);
    out.result(result, () => {
      if (result.items.length === 0)
        return result.total === 0 ? 'No skills found.' : `No skills on page ${result.page} (${result.total} in all).`;
      const partial =
        result.match === 'partial' ? [`No skill matches every word of "${query.q ?? ''}"; these match the most of them:`, ''] : [];
      const first = (result.page - 1) * result.page_size + 1;
      const last = first + result.items.length - 1;
      const more = last < result.total ? `; --page ${result.page + 1} for more` : '';
      return [
        ...partial,
        ...table(
          ['SKILL', 'VERSION', 'DOWNLOADS', 'DESCRIPTION'],
          result.items.map((s) => [
            s.full_name + (s.featured ? ' *' : ''),
            s.latest_version ?? '-',
            String(s.downloads),
            oneLine(s.description || s.name),
          ]),
        ),
        `${first}–${last} of ${result.total}${more}.`,
      ];
    });
    return EXIT.ok;
  },
};

function versionLine(v: Version): string {
  return `${v.version}: ${formatBytes(v.size)} ${v.archive_format}, ${v.file_count} file${v.file_count === 1 ? '' : 's'}, sha256 ${v.sha256}, ${formatTime(v.created_at)}`;
}

function versionLines(label: string, v: Version): string[] {
  return [`${label} ${versionLine(v)}`, `  scan: ${verdictText(v.scan)}`, ...v.warnings.map((w) => `  warning: ${w.message}`)];
}

/** A reviewer's decline of a draft, which only its owner and administrators see: the reason, and what to do next. */
function declinedLines(skill: Skill): string[] {
  if (skill.declined === null) return [];
  return [
    '',
    `Changes requested by a reviewer on ${formatTime(skill.declined.at)} UTC:`,
    ...skill.declined.reason.split('\n').map((line) => `  ${line}`),
    'Publish a new version (skill-registry publish) to send it back for review.',
    '',
  ];
}

export const info: Command = {
  name: 'info',
  summary: 'show a skill, its latest version and their scan verdicts',
  help: `Usage: skill-registry info SKILL[@VERSION] [--json]

Shows a skill (by slug, @scope/slug or id) and its latest version, or the version named and the latest, each with the package
scanner's verdict: clean, notice, suspicious or malicious (quarantined), its findings counted by severity and the
rules version (\`skill-registry install\` prints the findings themselves when it refuses a version). A draft of
yours that a reviewer declined shows the reviewer's reason, until you publish a new version of it.

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    const [ref, ...extra] = positionals;
    if (ref === undefined || extra.length > 0) throw usageError('Usage: skill-registry info SKILL[@VERSION]');
    const spec = parseSpec(ref);
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);
    const client = clientFor(target);
    const skill = await client.skills.get(spec.skill);
    const latest = skill.latest_version === null ? null : await client.versions.get(skill.full_name, skill.latest_version);
    const named = spec.version === 'latest' ? latest : await client.versions.get(skill.full_name, spec.version);
    const other = named !== null && named.version !== latest?.version ? named : null;
    out.result({ skill, version: named, latest_version: latest }, () => [
      `${skill.full_name} — ${skill.name}`,
      ...(skill.description ? [skill.description] : []),
      '',
      `status: ${skill.status}${skill.featured ? ' (featured)' : ''}${skill.private ? ' (private)' : ''}   owner: ${skill.owner.handle}${skill.owner.kind === 'organisation' ? ' (organisation)' : ''}   downloads: ${skill.downloads}`,
      ...declinedLines(skill),
      ...(skill.category !== null || skill.tags.length > 0
        ? [`category: ${skill.category ?? '-'}   tags: ${skill.tags.join(', ') || '-'}`]
        : []),
      ...(skill.source_type !== null ? [`source: ${skill.source_type}${skill.source_url ? ` ${skill.source_url}` : ''}`] : []),
      ...(other !== null ? versionLines('version', other) : []),
      ...(latest === null ? ['No latest version (none uploaded yet, or every version is quarantined).'] : versionLines('latest', latest)),
      ...(named !== null && named.scan?.verdict !== 'malicious'
        ? ['', `Install: skill-registry install ${skill.full_name}${other !== null ? `@${other.version}` : ''}`]
        : []),
    ]);
    return EXIT.ok;
  },
};

/** Every version of a skill, newest first, page by page. */
export async function allVersions(client: RegistryClient, skill: string): Promise<Version[]> {
  const items: Version[] = [];
  for (let page = 1; ; page++) {
    const result = await client.versions.list(skill, { page, page_size: 100 });
    items.push(...result.items);
    if (result.items.length === 0 || items.length >= result.total) return items;
  }
}

export const versions: Command = {
  name: 'versions',
  summary: "list a skill's versions",
  help: `Usage: skill-registry versions SKILL [--json]

Lists every version of a skill (by slug, @scope/slug or id), newest first, with its scan verdict (clean,
notice, suspicious, malicious).

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    const [ref, ...extra] = positionals;
    if (ref === undefined || extra.length > 0) throw usageError('Usage: skill-registry versions SKILL');
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);
    const items = await allVersions(clientFor(target), ref);
    out.result({ items, total: items.length }, () =>
      items.length === 0
        ? `${ref} has no versions yet.`
        : table(
            ['VERSION', 'PUBLISHED', 'SIZE', 'FILES', 'DOWNLOADS', 'SCAN', 'CHANGELOG'],
            items.map((v) => [
              v.version,
              formatTime(v.created_at),
              formatBytes(v.size),
              String(v.file_count),
              String(v.downloads),
              v.scan?.verdict ?? 'not scanned',
              oneLine(v.changelog, 50),
            ]),
          ),
    );
    return EXIT.ok;
  },
};
