import type { ListSkillsQuery, RegistryClient, Version } from '@skill-registry/client';
import { COMMON_HELP, integerOption, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatBytes, formatTime, oneLine, Output, table } from '../output.js';
import { clientFor, resolveTarget } from '../registry.js';

const SORTS = ['latest', 'downloads', 'featured'] as const;

export const search: Command = {
  name: 'search',
  summary: 'search published skills',
  help: `Usage: skill-registry search [WORDS...] [options]

Lists published skills whose name or description holds every word (all of them without words).

  --category NAME     only this category
  --tags a,b          only skills with every one of these tags
  --sort ORDER        latest (default), downloads or featured
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
      const first = (result.page - 1) * result.page_size + 1;
      const last = first + result.items.length - 1;
      const more = last < result.total ? `; --page ${result.page + 1} for more` : '';
      return [
        ...table(
          ['SKILL', 'VERSION', 'DOWNLOADS', 'DESCRIPTION'],
          result.items.map((s) => [
            s.slug + (s.featured ? ' *' : ''),
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

export const info: Command = {
  name: 'info',
  summary: 'show a skill and its latest version',
  help: `Usage: skill-registry info SKILL [--json]

Shows a skill (by slug or id) and its latest version.

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    const [ref, ...extra] = positionals;
    if (ref === undefined || extra.length > 0) throw usageError('Usage: skill-registry info SKILL');
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);
    const client = clientFor(target);
    const skill = await client.skills.get(ref);
    const latest = skill.latest_version === null ? null : await client.versions.get(skill.slug, skill.latest_version);
    out.result({ skill, latest_version: latest }, () => [
      `${skill.slug} — ${skill.name}`,
      ...(skill.description ? [skill.description] : []),
      '',
      `status: ${skill.status}${skill.featured ? ' (featured)' : ''}   owner: ${skill.owner.username}   downloads: ${skill.downloads}`,
      ...(skill.category !== null || skill.tags.length > 0
        ? [`category: ${skill.category ?? '-'}   tags: ${skill.tags.join(', ') || '-'}`]
        : []),
      ...(skill.source_type !== null ? [`source: ${skill.source_type}${skill.source_url ? ` ${skill.source_url}` : ''}`] : []),
      latest === null ? 'No versions yet.' : `latest ${versionLine(latest)}`,
      ...(latest !== null && latest.warnings.length > 0 ? latest.warnings.map((w) => `  warning: ${w.message}`) : []),
      ...(latest !== null ? ['', `Install: skill-registry install ${skill.slug}`] : []),
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

Lists every version of a skill, newest first.

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
            ['VERSION', 'PUBLISHED', 'SIZE', 'FILES', 'DOWNLOADS', 'CHANGELOG'],
            items.map((v) => [
              v.version,
              formatTime(v.created_at),
              formatBytes(v.size),
              String(v.file_count),
              String(v.downloads),
              oneLine(v.changelog, 50),
            ]),
          ),
    );
    return EXIT.ok;
  },
};
