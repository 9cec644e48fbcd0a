import { Type } from 'typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeFor } from '@skill-registry/skill-package/inspect';
import { Problem, problems } from '@skill-registry/api-schemas/common';
import {
  ClawhubAmbiguous,
  ClawhubDiscovery,
  ClawhubInstall,
  ClawhubModerationAnswer,
  ClawhubOk,
  ClawhubResolve,
  ClawhubSearch,
  ClawhubSkillDetail,
  ClawhubSkillList,
  ClawhubVersionDetail,
  ClawhubVersionList,
  ClawhubWhoami,
} from '@skill-registry/api-schemas/clawhub';
import { MAX_PAGE_SIZE } from '@skill-registry/rules/limits';
import { AppError } from '../../domain/errors.js';
import { isAmbiguousSlug } from '../../domain/clawhub/names.js';
import { caller } from '../plugins/auth.js';
import { attachment } from '../content-disposition.js';
import { bodyOfLength } from '../download-body.js';
import type { RoutePlugin } from '../types.js';

/**
 * The ClawHub protocol's read side, account and discovery (what the `clawhub` command line asks at /api/v1 and
 * /.well-known/clawhub.json), over the registry's services. docs/api-decisions.md, "The ClawHub protocol".
 */

/** The text a refusal is shown as: the client prints a body as it is, and reads "Skill not found" itself. */
function problemText(problem: { code?: string; detail?: string; errors?: { field: string; message: string }[] }): string {
  if (problem.code === 'skill_not_found') return 'Skill not found';
  const fields = (problem.errors ?? []).map((e) => `${e.field}: ${e.message}`);
  return [problem.detail ?? 'The request was refused.', ...fields].join('\n');
}

/**
 * Makes a route scope answer as ClawHub does: refusals as text/plain (the client shows the body as it is; the
 * registry's problem documents are turned into their sentence), and an ambiguous bare slug as ClawHub's JSON.
 * Everything else of the pipeline (credentials, limits, call log, the problem's status and headers) is unchanged.
 */
export function speakClawhub(app: FastifyInstance): void {
  const parent = app.errorHandler;
  app.setErrorHandler(function (error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
    if (isAmbiguousSlug(error)) {
      return reply
        .code(409)
        .type('application/json; charset=utf-8')
        .send({ code: 'AMBIGUOUS_SKILL_SLUG', message: error.detail, matches: error.matches });
    }
    // The registry's own handler answers every other error (problem documents, turned into text below).
    // eslint-disable-next-line @typescript-eslint/no-confusing-void-expression -- Fastify's handler type says void; it returns the reply
    return parent.call(this, error as FastifyError, request, reply);
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/problem+json') || typeof payload !== 'string') {
      done(null, payload);
      return;
    }
    reply.header('content-type', 'text/plain; charset=utf-8');
    reply.removeHeader('content-length');
    done(null, problemText(JSON.parse(payload) as Parameters<typeof problemText>[0]));
  });
}

const Slug = Type.String({ minLength: 1, maxLength: 200 });
const OwnerHandle = Type.Optional(
  Type.String({ maxLength: 120, description: 'The owner: `@h/<slug>`, or the unscoped skill user h owns.' }),
);
const SlugParams = Type.Object({ slug: Slug });
const OwnerQuery = Type.Object({ ownerHandle: OwnerHandle });
const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100 }));
const ClawhubErrors = (...statuses: number[]) => problems(...statuses);
/** A 409 is ClawHub's ambiguity answer, or a problem (text once sent). */
export const Conflict = Type.Union([ClawhubAmbiguous, Problem]);

const NAMING =
  'A bare slug is the unscoped skill of that slug, or the only scoped one; several answer 409 `AMBIGUOUS_SKILL_SLUG` with ' +
  'the matches. `ownerHandle=h` names `@h/<slug>` or the unscoped skill user h owns. A skill the caller may not see ' +
  'answers 404 `Skill not found` (text/plain), as an unknown one.';

export const clawhubRoutes: RoutePlugin = async (app, { services, config }) => {
  const { clawhub } = services;
  const reads = clawhub.reads;
  speakClawhub(app);

  const discovery = { apiBase: config.publicUrl, authBase: config.publicUrl, registry: config.publicUrl };
  for (const path of ['/.well-known/clawhub.json', '/.well-known/clawdhub.json']) {
    app.get(
      path,
      {
        config: { auth: 'public' },
        schema: {
          tags: ['clawhub'],
          summary: 'ClawHub discovery',
          description: "Where the `clawhub` command line finds this registry's API (`CLAWHUB_SITE=<registry>`).",
          response: { 200: ClawhubDiscovery },
        },
      },
      async () => discovery,
    );
  }

  app.get(
    '/api/v1/search',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: search',
        description: 'Published public skills matching `q`, best first (`clawhub search`).',
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 200 })),
          limit: Limit,
          mode: Type.Optional(Type.String({ maxLength: 20 })),
        }),
        response: { 200: ClawhubSearch, ...ClawhubErrors(400) },
      },
    },
    async (request) => reads.search(request.query.q ?? '', request.query.limit ?? 25),
  );

  app.get(
    '/api/v1/skills',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: list skills',
        description:
          'Published public skills a page at a time (`clawhub explore`), each with its latest installable version; ' +
          '`nextCursor` names the next page. `sort`: createdAt and updated list by last update; downloads, installs and ' +
          'trending by all-time downloads; stars is refused (no stars are kept). `limit` up to 200, as the client asks; a ' +
          'page holds at most 100.',
        querystring: Type.Object({
          // The client asks for up to 200 (`explore --limit`); pages hold at most MAX_PAGE_SIZE, and nextCursor goes on.
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
          sort: Type.Optional(Type.String({ maxLength: 20 })),
          cursor: Type.Optional(Type.String({ maxLength: 20 })),
          prefix: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: { 200: ClawhubSkillList, ...ClawhubErrors(400) },
      },
    },
    async (request) => {
      const { limit, sort, cursor, prefix } = request.query;
      return reads.list({
        limit: Math.min(limit ?? 25, MAX_PAGE_SIZE),
        ...(sort ? { sort } : {}),
        ...(cursor ? { cursor } : {}),
        ...(prefix ? { prefix } : {}),
      });
    },
  );

  app.get(
    '/api/v1/skills/:slug',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: a skill',
        description: `The skill, its latest installable version and owner, and its moderation from the package scans. ${NAMING}`,
        params: SlugParams,
        querystring: OwnerQuery,
        response: { 200: ClawhubSkillDetail, 409: Conflict, ...ClawhubErrors(400, 404) },
      },
    },
    async (request) => reads.detail(request.actor, request.params.slug, request.query.ownerHandle),
  );

  app.get(
    '/api/v1/skills/:slug/moderation',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: moderation of a skill',
        description: `From the scan verdict of the latest version (malicious: blocked; suspicious: flagged). ${NAMING}`,
        params: SlugParams,
        querystring: OwnerQuery,
        response: { 200: ClawhubModerationAnswer, 409: Conflict, ...ClawhubErrors(400, 404) },
      },
    },
    async (request) => reads.moderation(request.actor, request.params.slug, request.query.ownerHandle),
  );

  app.get(
    '/api/v1/skills/:slug/versions',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: versions of a skill',
        description: `Newest first, quarantined versions left out; \`nextCursor\` continues the list. ${NAMING}`,
        params: SlugParams,
        querystring: Type.Object({ ownerHandle: OwnerHandle, limit: Limit, cursor: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: { 200: ClawhubVersionList, 409: Conflict, ...ClawhubErrors(400, 404) },
      },
    },
    async (request) =>
      reads.versionList(request.actor, request.params.slug, request.query.ownerHandle, request.query.limit ?? 25, request.query.cursor),
  );

  app.get(
    '/api/v1/skills/:slug/versions/:version',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: one version',
        description: `The version with its files (paths below the package's top folder, with their sha256) and its scan. ${NAMING}`,
        params: Type.Object({ slug: Slug, version: Type.String({ maxLength: 200 }) }),
        querystring: OwnerQuery,
        response: { 200: ClawhubVersionDetail, 409: Conflict, ...ClawhubErrors(400, 404) },
      },
    },
    async (request) => reads.version(request.actor, request.params.slug, request.params.version, request.query.ownerHandle),
  );

  app.get(
    '/api/v1/skills/:slug/file',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: one file of a version',
        description: `The file's bytes, by its path below the package's top folder (\`clawhub inspect --file\`). ${NAMING}`,
        params: SlugParams,
        querystring: Type.Object({
          path: Type.String({ minLength: 1, maxLength: 1024 }),
          version: Type.Optional(Type.String({ maxLength: 200 })),
          tag: Type.Optional(Type.String({ maxLength: 100 })),
          ownerHandle: OwnerHandle,
        }),
        response: ClawhubErrors(400, 403, 404, 409),
      },
    },
    async (request, reply) => {
      const { path, version, tag, ownerHandle } = request.query;
      const file = await reads.file(request.actor, request.params.slug, ownerHandle, path, version, tag);
      const type = contentTypeFor(file.path);
      return reply
        .headers({
          'content-type': type,
          'content-length': file.size,
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
        })
        .send(bodyOfLength(file.stream, file.size));
    },
  );

  app.get(
    '/api/v1/resolve',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: which version a folder is',
        description:
          'The version whose files have the fingerprint `hash` (sha256 of the sorted `path:sha256` lines, as the client ' +
          `computes it), and the latest version. ${NAMING}`,
        querystring: Type.Object({
          slug: Slug,
          ownerHandle: OwnerHandle,
          hash: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 200: ClawhubResolve, 409: Conflict, ...ClawhubErrors(400, 404) },
      },
    },
    async (request) => reads.resolve(request.actor, request.query.slug, request.query.hash, request.query.ownerHandle),
  );

  const downloadUrl = (skill: { slug: string; scope: string | null; owner: { handle: string } }, version: string) =>
    `${config.publicUrl}/api/v1/download?slug=${encodeURIComponent(skill.slug)}&ownerHandle=${encodeURIComponent(skill.scope ?? skill.owner.handle)}&version=${encodeURIComponent(version)}`;

  app.get(
    '/api/v1/download',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: download a version as a ZIP',
        description:
          "A ZIP with the version's files at its root, the same bytes on every request. `version`, else `tag` (only " +
          '`latest`), else the latest version. Access as for the /v1 download: published skills to anyone, drafts to an ' +
          `administrator's session; a quarantined version is never served here. It counts as a download. ${NAMING}`,
        querystring: Type.Object({
          slug: Slug,
          ownerHandle: OwnerHandle,
          version: Type.Optional(Type.String({ maxLength: 200 })),
          tag: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: ClawhubErrors(400, 403, 404, 409),
      },
    },
    async (request, reply) => {
      const { slug, ownerHandle, version, tag } = request.query;
      const found = await reads.download(request.actor, slug, ownerHandle, version, tag);
      reply.headers({
        'content-type': 'application/zip',
        'content-disposition': attachment(`${found.skill.slug}-${found.version}.zip`),
        etag: `"${found.archive.sha256}"`,
        'content-length': found.archive.bytes.length,
        'cache-control': 'private, no-store',
      });
      reply.raw.once('finish', found.counted);
      return reply.send(found.archive.bytes);
    },
  );

  app.get(
    '/api/v1/skills/:slug/install',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: how to install a skill',
        description: `Always an archive of this registry (no GitHub-backed installs); \`ok: false\` when the skill has no installable version. ${NAMING}`,
        params: SlugParams,
        querystring: Type.Object({ ownerHandle: OwnerHandle, forceInstall: Type.Optional(Type.String({ maxLength: 10 })) }),
        response: { 200: ClawhubInstall, 409: Type.Union([ClawhubInstall, ClawhubAmbiguous, Problem]), ...ClawhubErrors(400, 404) },
      },
    },
    async (request, reply) => {
      const answer = await reads.install(request.actor, request.params.slug, request.query.ownerHandle, downloadUrl);
      return reply.code(answer.ok ? 200 : 409).send(answer);
    },
  );

  app.get(
    '/api/v1/whoami',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: who the token belongs to',
        description: 'The account of the API key (or session): what `clawhub login --token` checks and `publish` names as owner.',
        response: { 200: ClawhubWhoami, ...ClawhubErrors(401) },
      },
    },
    async (request) => {
      const { user } = caller(request);
      return { user: { handle: user.username, displayName: user.username, image: null, role: user.role } };
    },
  );

  app.post(
    '/api/cli/telemetry/install',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: install telemetry',
        description: 'Accepted and not kept: installs are counted by the downloads the registry serves, not by what clients report.',
        body: Type.Optional(Type.Unknown()),
        response: { 200: ClawhubOk },
      },
    },
    async () => ({ ok: true as const }),
  );

  const noStars = async () => {
    throw new AppError(
      404,
      'stars_not_available',
      'This registry keeps no stars. Rate the skill or comment on it on its page in the console instead.',
    );
  };
  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/api/v1/stars/:slug',
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: `ClawHub: ${method === 'POST' ? 'star' : 'unstar'} a skill (not available)`,
        description: '404 `stars_not_available`: the registry has ratings and comments, not stars.',
        params: SlugParams,
        response: ClawhubErrors(404),
      },
      handler: noStars,
    });
  }
};
