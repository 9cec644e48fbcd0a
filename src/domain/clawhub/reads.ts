import type { Readable } from 'node:stream';
import { contentTypeFor } from '@skill-registry/skill-package/inspect';
import type { ClawhubRepository } from '../../db/repositories/clawhub.js';
import type { VersionRow, VersionsRepository } from '../../db/repositories/versions.js';
import type { ScanVerdict } from '../../db/repositories/versions.js';
import { ANONYMOUS, type Actor } from '../actor.js';
import { badRequest, notFound } from '../errors.js';
import type { Skill, SkillService } from '../skills/skills.js';
import type { VersionService } from '../versions/versions.js';
import { newestFirst } from '../versions/rules.js';
import { isQuarantined } from '../versions/scan-views.js';
import { prefixOf } from '../versions/agent-archive.js';
import type { ClawhubArchive, ClawhubArchives } from './archives.js';
import { ownerOf, type SkillNames } from './names.js';

/**
 * The read side of the ClawHub protocol over the registry's skills and versions: the shapes the `clawhub` client
 * validates (timestamps as ms numbers, required keys present), with the same visibility as /v1. A quarantined
 * (malicious) version is never offered: not listed, not resolved, not downloadable here.
 */

const ms = (iso: string | Date) => new Date(iso).getTime();

/** The moderation flags the client gates installs on, from the registry's scan verdicts. */
export function moderationOf(skill: Pick<Skill, 'quarantined'>, verdict: ScanVerdict | null) {
  const blocked = skill.quarantined || verdict === 'malicious';
  const suspicious = !blocked && verdict === 'suspicious';
  return {
    isSuspicious: suspicious,
    isMalwareBlocked: blocked,
    verdict: blocked ? 'malicious' : suspicious ? 'suspicious' : verdict === null ? 'pending' : 'clean',
    reasonCodes: [] as string[],
  };
}

function securityOf(row: VersionRow) {
  const verdict = row.scan_verdict;
  return {
    status: verdict === null ? 'pending' : verdict === 'notice' ? 'clean' : verdict,
    hasWarnings: verdict !== null && verdict !== 'clean',
  };
}

function skillView(skill: Skill) {
  return {
    slug: skill.slug,
    displayName: skill.name,
    summary: skill.description === '' ? null : skill.description,
    description: skill.description === '' ? null : skill.description,
    topics: skill.tags,
    tags: (skill.latest_version === null ? {} : { latest: skill.latest_version }) as Record<string, string>,
    stats: { downloads: skill.downloads, installsAllTime: skill.downloads },
    createdAt: ms(skill.created_at),
    updatedAt: ms(skill.updated_at),
  };
}

/**
 * ClawHub's list orders as the registry's. The registry orders lists by last update, by downloads, or featured
 * first; it keeps no creation order, no windowed ("trending") counts, no separate install counts and no stars:
 * `createdAt` and `updated` are its last-update order, `downloads`, `installs` and `trending` its all-time downloads,
 * and `stars` is refused rather than answered with an order that is not by stars. No `sort` is the client's `updated`.
 */
const LIST_ORDERS: Record<string, 'latest' | 'downloads' | undefined> = {
  createdAt: 'latest',
  updated: 'latest',
  downloads: 'downloads',
  installs: 'downloads',
  trending: 'downloads',
};

export function listOrder(sort: string | undefined): 'latest' | 'downloads' {
  if (sort === undefined || sort === '') return 'latest';
  if (sort === 'stars' || sort === 'rating') {
    throw badRequest(
      'validation_failed',
      'This registry keeps no stars, so it cannot sort by rating; use --sort newest, downloads, installs or trending.',
    );
  }
  const order = LIST_ORDERS[sort];
  if (order === undefined) {
    throw badRequest('validation_failed', `Unknown sort "${sort}"; use createdAt, updated, downloads, installs or trending.`);
  }
  return order;
}

function versionSummary(row: Pick<VersionRow, 'version' | 'created_at' | 'changelog'>) {
  // The registry records no licence for a package: null claims none, where "MIT-0" would claim one it never checked.
  return {
    version: row.version,
    createdAt: ms(row.created_at),
    changelog: row.changelog ?? '',
    changelogSource: 'user' as const,
    license: null,
  };
}

function ownerView(skill: Skill) {
  const handle = ownerOf(skill);
  return { handle, displayName: handle, image: null, kind: skill.owner.kind === 'organisation' ? ('org' as const) : ('user' as const) };
}

export function clawhubReads(deps: {
  repository: ClawhubRepository;
  names: SkillNames;
  skills: SkillService;
  versions: VersionService;
  versionRows: VersionsRepository;
  archives: ClawhubArchives;
}) {
  const { names, archives } = deps;

  /** The skill's versions the client may have, newest first: every version but quarantined ones. */
  async function offered(skill: Skill): Promise<VersionRow[]> {
    return newestFirst((await deps.versionRows.listForSkill(skill.id)).filter((v) => !isQuarantined(v.scan_verdict)));
  }

  async function versionOf(skill: Skill, label: string | undefined, tag?: string): Promise<VersionRow> {
    const wanted = label ?? (tag === undefined || tag === 'latest' ? skill.latest_version : null);
    const row = wanted === null ? undefined : await deps.versionRows.find(skill.id, wanted);
    if (!row || isQuarantined(row.scan_verdict)) {
      throw notFound('version_not_found', `Skill "${skill.full_name}" has no version "${label ?? tag ?? 'latest'}" to offer.`);
    }
    return row;
  }

  async function latestRow(skill: Skill): Promise<VersionRow | undefined> {
    return skill.latest_version === null ? undefined : deps.versionRows.find(skill.id, skill.latest_version);
  }

  return {
    async detail(actor: Actor, slug: string, ownerHandle?: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      const latest = await latestRow(skill);
      return {
        skill: skillView(skill),
        latestVersion: latest === undefined ? null : versionSummary(latest),
        owner: ownerView(skill),
        metadata: null,
        moderation: moderationOf(skill, latest?.scan_verdict ?? null),
      };
    },

    async moderation(actor: Actor, slug: string, ownerHandle?: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      return { moderation: moderationOf(skill, (await latestRow(skill))?.scan_verdict ?? null) };
    },

    async versionList(actor: Actor, slug: string, ownerHandle: string | undefined, limit: number, cursor: string | undefined) {
      const skill = await names.find(actor, slug, ownerHandle);
      const all = await offered(skill);
      const start = Math.max(0, Number.parseInt(cursor ?? '0', 10) || 0);
      const page = all.slice(start, start + limit);
      return {
        items: page.map(versionSummary),
        nextCursor: start + limit < all.length ? String(start + limit) : null,
      };
    },

    async version(actor: Actor, slug: string, label: string, ownerHandle?: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      const row = await versionOf(skill, label);
      const digest = (await archives.digests([row])).get(row.id);
      return {
        version: {
          ...versionSummary(row),
          files: (digest?.files ?? []).map((f) => ({ ...f, contentType: contentTypeFor(f.path) })),
          security: securityOf(row),
        },
        skill: { slug: skill.slug, displayName: skill.name },
      };
    },

    /** Which version, if any, has exactly the files whose fingerprint is `hash`, and the latest one. */
    async resolve(actor: Actor, slug: string, hash: string | undefined, ownerHandle?: string) {
      const skill = await names.find(actor, slug, ownerHandle);
      const rows = await offered(skill);
      let match: string | null = null;
      if (hash !== undefined && rows.length > 0) {
        const digests = await archives.digests(rows);
        match = rows.find((r) => digests.get(r.id)?.fingerprint === hash.toLowerCase())?.version ?? null;
      }
      return {
        slug: skill.slug,
        match: match === null ? null : { version: match },
        latestVersion: skill.latest_version === null ? null : { version: skill.latest_version },
      };
    },

    /**
     * A version's ZIP for `clawhub install`, with the files at the archive's root. The access is the /v1 download's
     * (drafts to administrators only, quarantined versions to nobody here), and it counts as a download once sent.
     */
    async download(
      actor: Actor,
      slug: string,
      ownerHandle: string | undefined,
      label: string | undefined,
      tag: string | undefined,
    ): Promise<{ skill: Skill; version: string; archive: ClawhubArchive; counted: () => void }> {
      const skill = await names.find(actor, slug, ownerHandle);
      const row = await versionOf(skill, label, tag);
      const download = await deps.versions.download(actor, skill.id, row.version);
      const archive = await archives.archive(row);
      return { skill, version: row.version, archive, counted: () => deps.versions.recordDownload(download) };
    },

    /** What `clawhub install` is told when the detail offered no latest version. */
    async install(actor: Actor, slug: string, ownerHandle: string | undefined, downloadUrl: (skill: Skill, version: string) => string) {
      const skill = await names.find(actor, slug, ownerHandle);
      if (skill.latest_version === null) {
        return {
          ok: false as const,
          slug: skill.slug,
          reason: 'archive_version_missing' as const,
          message: skill.quarantined
            ? `Every version of "${skill.full_name}" is quarantined by the package scanner; there is nothing to install.`
            : `"${skill.full_name}" has no installable version yet.`,
          status: 409,
        };
      }
      return {
        ok: true as const,
        slug: skill.slug,
        installKind: 'archive' as const,
        archive: { version: skill.latest_version, downloadUrl: downloadUrl(skill, skill.latest_version) },
      };
    },

    /** One file of a version, by its path below the package's top folder. */
    async file(
      actor: Actor,
      slug: string,
      ownerHandle: string | undefined,
      path: string,
      label: string | undefined,
      tag: string | undefined,
    ): Promise<{ path: string; size: number; stream: Readable }> {
      const skill = await names.find(actor, slug, ownerHandle);
      const row = await versionOf(skill, label, tag);
      const file = await deps.versions.file(actor, skill.id, row.version, prefixOf(row.skill_md_path) + path);
      return { path, size: file.size, stream: file.stream };
    },

    /** The public catalogue, searched: what `clawhub search` prints. */
    async search(q: string, limit: number) {
      const found = await deps.skills.list(ANONYMOUS, { q, sort: q.trim() === '' ? 'downloads' : 'relevance', page: 1, pageSize: limit });
      const items = found.items.filter((s) => !s.private);
      return {
        results: items.map((s, i) => ({
          // The index ranks but does not expose its scores: the rank order is given as a score in (0, 1].
          score: (items.length - i) / items.length,
          slug: s.slug,
          displayName: s.name,
          summary: s.description === '' ? null : s.description,
          version: s.latest_version,
          ownerHandle: ownerOf(s),
          owner: ownerView(s),
          downloads: s.downloads,
          updatedAt: ms(s.updated_at),
        })),
      };
    },

    /**
     * A page of the public catalogue (`clawhub explore`); the cursor is the page number. Each item carries its latest
     * offered version, read for the whole page in one query; an item whose latest is missing or quarantined has none.
     */
    async list(query: { limit: number; sort?: string; cursor?: string; prefix?: string }) {
      const page = Math.max(1, Number.parseInt(query.cursor ?? '1', 10) || 1);
      const prefix = query.prefix?.trim().toLowerCase();
      const found = await deps.skills.list(ANONYMOUS, {
        ...(prefix ? { q: prefix } : {}),
        sort: prefix ? 'relevance' : listOrder(query.sort),
        page,
        pageSize: query.limit,
      });
      const items = found.items.filter((s) => !s.private && (prefix === undefined || prefix === '' || s.slug.startsWith(prefix)));
      const latest = new Map(
        (await deps.repository.latestVersions(items.map((s) => s.id)))
          .filter((v) => !isQuarantined(v.scan_verdict))
          .map((v) => [v.skill_id, v]),
      );
      return {
        items: items.map((s) => {
          const version = latest.get(s.id);
          return {
            ...skillView(s),
            ...(version === undefined ? {} : { latestVersion: versionSummary(version) }),
            ownerHandle: ownerOf(s),
          };
        }),
        nextCursor: page * query.limit < found.total ? String(page + 1) : null,
      };
    },
  };
}

export type ClawhubReads = ReturnType<typeof clawhubReads>;
