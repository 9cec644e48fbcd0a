import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import { ARCHIVE_MEDIA_TYPES } from '@skill-registry/skill-package/format';
import { contentTypeFor } from '@skill-registry/skill-package/inspect';
import { problems } from '@skill-registry/api-schemas/common';
import { VersionParams } from '@skill-registry/api-schemas/versions';
import { ANONYMOUS } from '../../domain/actor.js';
import { AppError, notFound } from '../../domain/errors.js';
import { bareSlug } from '../../domain/skills/skills.js';
import { isPublic } from '../../domain/skills/visibility.js';
import type { AgentOffer } from '../../domain/versions/agent-archive.js';
import { attachment } from '../content-disposition.js';
import { etagMatches } from '../cached-json.js';
import { bodyOfLength } from '../download-body.js';
import type { RouteDeps, RoutePlugin } from '../types.js';

/**
 * Agent Skills discovery for the `skills` command (`npx skills add <a skill's page URL>`, `skills update`,
 * `SKILLS_API_URL=<registry> skills find`): an index under every skill's console page, the archives it points to, a
 * small root index, and the search the `find` command asks. docs/api-decisions.md, "Agent Skills discovery", says
 * what is offered and why.
 */

export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** How many skills the root index lists: the client downloads every artifact it lists before showing a choice. */
export const ROOT_INDEX_LIMIT = 20;

const IndexEntry = Type.Object({
  name: Type.String(),
  type: Type.Literal('archive'),
  description: Type.String(),
  url: Type.String(),
  digest: Type.String(),
});
const DiscoveryIndex = Type.Object(
  { $schema: Type.Literal(DISCOVERY_SCHEMA), skills: Type.Array(IndexEntry) },
  { description: 'Agent Skills discovery index, schema 0.2.0.' },
);
const LegacyIndex = Type.Object(
  { skills: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), files: Type.Array(Type.String()) })) },
  { description: 'The older discovery layout: each skill with its file list, fetched file by file.' },
);
const PageParams = Type.Object({ slug: Type.String({ maxLength: 300 }) });
const ScopedPageParams = Type.Object({ scope: Type.String({ maxLength: 120 }), slug: Type.String({ maxLength: 300 }) });
const LegacyFileParams = Type.Object({ slug: Type.String({ maxLength: 300 }), name: Type.String({ maxLength: 100 }), '*': Type.String() });
const ScopedLegacyFileParams = Type.Object({
  scope: Type.String({ maxLength: 120 }),
  slug: Type.String({ maxLength: 300 }),
  name: Type.String({ maxLength: 100 }),
  '*': Type.String(),
});
const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  owner: Type.Optional(Type.String({ maxLength: 100 })),
});
const SearchAnswer = Type.Object({
  skills: Type.Array(
    Type.Object(
      { id: Type.String(), name: Type.String(), source: Type.String(), installs: Type.Integer() },
      { additionalProperties: false },
    ),
  ),
});

/**
 * The skill a page path names: `pdf-tools` or `@acme` + `pdf-tools` (or `%40acme%2Fpdf-tools` as one segment), less
 * the `@<name>` that `skills find` appends to the last segment (`pdf-tools@pdf-tools`).
 */
export function pageSkillRef(scope: string | undefined, slug: string): string {
  const joined = scope === undefined ? slug : `${scope}/${slug}`;
  const scoped = joined.startsWith('@');
  const slash = joined.indexOf('/');
  const head = scoped && slash > 0 ? joined.slice(0, slash + 1) : '';
  const last = scoped && slash > 0 ? joined.slice(slash + 1) : joined;
  const at = last.indexOf('@');
  return head + (at > 0 ? last.slice(0, at) : last);
}

export const agentSkillRoutes: RoutePlugin = async (app, { services, config }) => {
  const { agentSkills, versions, skills } = services;

  /** The artifact's URL, relative to the host (the client resolves it against the index's URL). */
  function artifactUrl(offer: AgentOffer, kind: 'stored' | 'built'): string {
    const base = `/v1/skills/${offer.skill.id}/versions/${encodeURIComponent(offer.version.version)}`;
    return kind === 'stored' ? `${base}/download` : `${base}/archive?layout=root`;
  }

  async function entryOf(offer: AgentOffer) {
    const artifact = await agentSkills.artifact(offer.version);
    return {
      name: offer.name,
      type: 'archive' as const,
      description: offer.description,
      url: artifactUrl(offer, artifact.kind),
      digest: artifact.digest,
    };
  }

  async function scopedIndex(ref: string) {
    const offer = await agentSkills.offer(ref);
    return { $schema: DISCOVERY_SCHEMA, skills: offer === null ? [] : [await entryOf(offer)] } as const;
  }

  async function legacyIndex(ref: string) {
    const offer = await agentSkills.offer(ref);
    if (offer === null) return { skills: [] };
    return { skills: [{ name: offer.name, description: offer.description, files: await agentSkills.fileList(offer) }] };
  }

  async function legacyFile(reply: FastifyReply, ref: string, name: string, path: string) {
    const offer = await agentSkills.offer(ref);
    const file = offer !== null && offer.name === name ? await agentSkills.file(offer, path) : null;
    if (offer === null || file === null) throw notFound('file_not_found', `The skill "${ref}" offers no file "${name}/${path}".`);
    const type = contentTypeFor(file.path);
    return reply
      .headers({
        'content-type': type,
        'content-length': file.size,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': type.startsWith('text/') ? 'inline' : attachment(file.path.split('/').pop() ?? 'file'),
      })
      .send(bodyOfLength(file.stream, file.size));
  }

  const indexDescription =
    "The skill's latest installable version as one `archive` entry (`skills add <this page's URL>`): its bare slug as " +
    'the name, an archive with SKILL.md at its root and the sha256 of its exact bytes. A skill that is not published, ' +
    'is hidden or private is 404 as an unknown one is; a public skill with nothing the `skills` command can install ' +
    'lists no entry. `<slug>@<name>` in the last segment (what `skills find` prints) is read as `<slug>`.';
  const indexSchema = <P extends typeof PageParams | typeof ScopedPageParams>(params: P) => ({
    tags: ['skills'],
    summary: 'Agent Skills discovery index of a skill',
    description: indexDescription,
    params,
    response: { 200: DiscoveryIndex, ...problems(404) },
  });
  const legacySchema = <P extends typeof PageParams | typeof ScopedPageParams>(params: P) => ({
    tags: ['skills'],
    summary: 'Agent Skills discovery index of a skill (older layout)',
    description: 'The same offer as the 0.2.0 index, as a file list; each file is at `.well-known/skills/<name>/<path>`.',
    params,
    response: { 200: LegacyIndex, ...problems(404) },
  });
  const legacyFileSchema = <P extends typeof LegacyFileParams | typeof ScopedLegacyFileParams>(params: P) => ({
    tags: ['skills'],
    summary: 'One file of a skill in the older discovery layout',
    description: 'A file of the offered version by its path below the package top folder.',
    params,
    response: problems(404),
  });
  // No Cache-Control, as the API's public reads: a version quarantined or a skill hidden leaves the index at once.
  const send = (reply: FastifyReply, body: object) => reply.send(body);

  app.get(
    '/skills/:slug/.well-known/agent-skills/index.json',
    { config: { auth: 'public' }, schema: indexSchema(PageParams) },
    async (request, reply) => send(reply, await scopedIndex(pageSkillRef(undefined, request.params.slug))),
  );
  app.get(
    '/skills/:scope/:slug/.well-known/agent-skills/index.json',
    { config: { auth: 'public' }, schema: indexSchema(ScopedPageParams) },
    async (request, reply) => send(reply, await scopedIndex(scopedRef(request.params.scope, request.params.slug))),
  );
  app.get(
    '/skills/:slug/.well-known/skills/index.json',
    { config: { auth: 'public' }, schema: legacySchema(PageParams) },
    async (request, reply) => send(reply, await legacyIndex(pageSkillRef(undefined, request.params.slug))),
  );
  app.get(
    '/skills/:scope/:slug/.well-known/skills/index.json',
    { config: { auth: 'public' }, schema: legacySchema(ScopedPageParams) },
    async (request, reply) => send(reply, await legacyIndex(scopedRef(request.params.scope, request.params.slug))),
  );
  app.get(
    '/skills/:slug/.well-known/skills/:name/*',
    { config: { auth: 'public' }, schema: legacyFileSchema(LegacyFileParams) },
    async (request, reply) => legacyFile(reply, pageSkillRef(undefined, request.params.slug), request.params.name, request.params['*']),
  );
  app.get(
    '/skills/:scope/:slug/.well-known/skills/:name/*',
    { config: { auth: 'public' }, schema: legacyFileSchema(ScopedLegacyFileParams) },
    async (request, reply) =>
      legacyFile(reply, scopedRef(request.params.scope, request.params.slug), request.params.name, request.params['*']),
  );

  // The root index lists the featured skills only, at most ROOT_INDEX_LIMIT of them: `skills add <registry>` downloads
  // every listed artifact before it shows the list. Each skill's own index is the way to the rest.
  app.get(
    '/.well-known/agent-skills/index.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: 'Agent Skills discovery index of the registry',
        description: `The featured skills (at most ${ROOT_INDEX_LIMIT}), as each one's own index offers them.`,
        response: { 200: DiscoveryIndex },
      },
    },
    async (_request, reply) => {
      const featured = await skills.list(ANONYMOUS, { featured: true, sort: 'featured', page: 1, pageSize: ROOT_INDEX_LIMIT });
      const entries: Awaited<ReturnType<typeof entryOf>>[] = [];
      for (const skill of featured.items) {
        // A skill that stopped being public since the search saw it is left out; any other failure is the request's.
        const offer = await agentSkills.offer(skill.full_name).catch((error: unknown) => {
          if (error instanceof AppError && error.status === 404) return null;
          throw error;
        });
        // One install folder per name: a scoped skill whose slug an earlier one has is left out.
        if (offer !== null && !entries.some((e) => e.name === offer.name)) entries.push(await entryOf(offer));
      }
      return send(reply, { $schema: DISCOVERY_SCHEMA, skills: entries });
    },
  );
  app.get(
    '/.well-known/skills/index.json',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: 'Agent Skills discovery index of the registry (older layout)',
        description:
          "Lists nothing: the older layout's files would sit at `/.well-known/skills/<name>/…`, where two skills' bare slugs collide.",
        response: { 200: LegacyIndex },
      },
    },
    async (_request, reply) => send(reply, { skills: [] }),
  );

  app.get(
    '/v1/skills/:skillId/versions/:version/archive',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['versions'],
        summary: 'A version as an archive with SKILL.md at its root',
        description:
          'What the Agent Skills index points to. The stored package when its SKILL.md is at the root; otherwise a zip of ' +
          'its files without the top folder: stored entries, sorted paths, fixed timestamps, so the same version is the same ' +
          'bytes on every request. Access as for the download (published skills to anyone; quarantined versions to their ' +
          'owner and an admin session), and it counts as a download. 422 `archive_too_large` past 1,000 files or 50 MiB unpacked.',
        params: VersionParams,
        querystring: Type.Object({ layout: Type.Literal('root', { description: 'Where SKILL.md is: at the root (the only layout).' }) }),
        response: problems(400, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      const download = await versions.download(request.actor, request.params.skillId, request.params.version);
      const built = await agentSkills.rootArchive(download);
      const { skill, version } = download;
      const sha256 = built === null ? version.sha256 : built.sha256;
      const etag = `"${sha256}"`;
      const format = built === null ? version.archive_format : 'zip';
      reply.headers({
        'content-type': ARCHIVE_MEDIA_TYPES[format],
        'content-disposition': attachment(`${bareSlug(skill.slug)}-${version.version}.${format === 'zip' ? 'zip' : 'tar.gz'}`),
        etag,
        'repr-digest': `sha-256=:${Buffer.from(sha256, 'hex').toString('base64')}:`,
        // As the download: a quarantined package, or a hidden or private skill's, is kept by no shared cache.
        'cache-control': isPublic(skill) && !version.quarantined ? 'public, max-age=300' : 'private, no-store',
      });
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const size = built === null ? version.size : built.bytes.length;
      reply.header('content-length', size);
      reply.raw.once('finish', () => versions.recordDownload(download));
      return reply.send(built === null ? bodyOfLength(download.source.read(), size) : built.bytes);
    },
  );

  app.get(
    '/api/search',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: 'Search for the `skills find` command',
        description:
          "What `SKILLS_API_URL=<registry> skills find <words>` asks: the registry's search over published public skills. " +
          "`source` is the skill's page URL (what `skills add` takes), `installs` its downloads. `owner` keeps the skills " +
          'of one user or organisation handle among the first 100 matches.',
        querystring: SearchQuery,
        response: { 200: SearchAnswer, ...problems(400) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 20;
      const owner = request.query.owner?.toLowerCase();
      const q = request.query.q?.trim() ?? '';
      const found = await skills.list(ANONYMOUS, {
        ...(q === '' ? {} : { q }),
        sort: q === '' ? 'downloads' : 'relevance',
        page: 1,
        pageSize: owner === undefined ? limit : 100,
      });
      const items = found.items
        .filter((s) => !s.private && (owner === undefined || s.owner.handle.toLowerCase() === owner))
        .slice(0, limit);
      return {
        skills: items.map((s) => ({ id: s.full_name, name: s.slug, source: pageUrl(config, s.full_name), installs: s.downloads })),
      };
    },
  );
};

/** `@acme` + `pdf-tools`: a scope segment must start with `@`, or the path names no skill. */
function scopedRef(scope: string, slug: string): string {
  if (!scope.startsWith('@')) throw notFound('skill_not_found', `No skill "${scope}/${slug}" is visible to you.`);
  return pageSkillRef(scope, slug);
}

/** A skill's console page on this registry: what `skills add` takes. */
export function pageUrl(config: RouteDeps['config'], fullName: string): string {
  return `${config.publicUrl}/skills/${fullName}`;
}
