import { Type } from 'typebox';
import type { FastifySchema } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { problems } from '@skill-registry/api-schemas/common';
import {
  ClawhubDeleteBody,
  ClawhubOk,
  ClawhubPublisherBody,
  ClawhubPublisherCreated,
  ClawhubRenameBody,
  ClawhubRenamed,
  ClawhubTransferDecision,
  ClawhubTransferList,
  ClawhubTransferRequestBody,
  ClawhubTransferRequested,
} from '@skill-registry/api-schemas/clawhub';
import { notAvailable } from '../../domain/clawhub/manage.js';
import { caller } from '../plugins/auth.js';
import { attachment } from '../content-disposition.js';
import type { RoutePlugin } from '../types.js';
import { Conflict, speakClawhub } from './clawhub.js';

/**
 * The `clawhub` commands that manage skills, over the registry's transfers, renames, organisations, draft deletion
 * and scan reports; and ClawHub's paths for what the registry does not have, each answering one sentence of what to
 * use instead. docs/api-decisions.md, "The ClawHub protocol", has the table of commands.
 */

const Slug = Type.String({ minLength: 1, maxLength: 200 });
const SlugParams = Type.Object({ slug: Slug });
const OwnerQuery = Type.Object({ ownerHandle: Type.Optional(Type.String({ maxLength: 120 })) });
const Decision = Type.Union([Type.Literal('accept'), Type.Literal('reject'), Type.Literal('cancel')]);

/** What each feature the registry does not have answers, and what to use instead. */
const NOT_AVAILABLE = {
  undelete:
    'Deleting a draft here removes it for good, so there is nothing to undelete; hiding a skill is an administrator’s decision, not its owner’s.',
  restore: 'This registry keeps every version of a skill and withdraws none, so there is no version to restore.',
  tags: 'This registry has no movable tags: "latest" is always the newest installable version. Install another with `clawhub install <skill> --version <version>`.',
  merge:
    'Skills cannot be merged here. Rename one with `clawhub skill rename` (its old name keeps leading to it), or ask an administrator to deprecate the other.',
  verify:
    'This registry signs no verification cards. Its scan report of a version comes with `clawhub scan download <skill> --version <version>`.',
  scan: 'This registry scans every version when it is uploaded; fetch a version’s report with `clawhub scan download <skill> --version <version>`.',
  packages:
    'This registry holds skills only, not OpenClaw plugin packages: publish a skill folder with `clawhub publish`, and browse skills with `clawhub search` or `clawhub explore`.',
  publishers:
    'Only `clawhub publisher create` is available here: an organisation’s members and roles are managed on its page in the registry’s console.',
} as const;

export const clawhubManageRoutes: RoutePlugin = async (app, { services }) => {
  const manage = services.clawhub.management;
  speakClawhub(app);
  const compile = app.validatorCompiler;
  if (compile === undefined) throw new Error('The ClawHub management routes need the app validator compiler installed first.');
  /** The client sends a DELETE's body only when it has something to say: no body is an empty one. */
  function bodyMayBeAbsent(input: FastifyRouteSchemaDef<FastifySchema>): FastifyValidationResult {
    const compiled = compile!(input);
    if (input.httpPart !== 'body') return compiled;
    const check: FastifyValidationResult = (data: unknown) => {
      if (data === undefined || data === null) return true;
      const valid = compiled(data);
      check.errors = compiled.errors;
      return valid;
    };
    return check;
  }

  app.post(
    '/api/v1/skills/:slug/transfer',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: offer a skill to another owner',
        description:
          '`clawhub transfer request`: an offer of the skill to a user or an organisation, as POST /v1/skills/{id}/transfer makes ' +
          'it (its user, or an owner or admin of its organisation). The receiver accepts before the skill moves; `message` is not kept.',
        params: SlugParams,
        querystring: OwnerQuery,
        body: ClawhubTransferRequestBody,
        response: { 200: ClawhubTransferRequested, 409: Conflict, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request) => manage.requestTransfer(caller(request), request.params.slug, request.query.ownerHandle, request.body.toUserHandle),
  );

  app.post(
    '/api/v1/skills/:slug/transfer/:decision',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: accept, reject or cancel a transfer',
        description:
          '`accept` and `reject`: the open offer of the skill named so to the caller (or an organisation the caller owns or ' +
          'administers), as /v1/transfers/{id}/accept and /decline; two offers of one slug need `ownerHandle`. `cancel`: the ' +
          "skill's open offer, withdrawn by whoever may offer it. 404 `transfer_not_found` when there is none.",
        params: Type.Object({ slug: Slug, decision: Decision }),
        querystring: OwnerQuery,
        body: Type.Optional(Type.Unknown()),
        response: { 200: ClawhubTransferDecision, 409: Conflict, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const actor = caller(request);
      const { slug, decision } = request.params;
      if (decision === 'cancel') return manage.cancelTransfer(actor, slug, request.query.ownerHandle);
      return manage.answerTransfer(actor, slug, request.query.ownerHandle, decision === 'accept');
    },
  );

  for (const direction of ['incoming', 'outgoing'] as const) {
    app.get(
      `/api/v1/transfers/${direction}`,
      {
        config: { auth: 'user' },
        schema: {
          tags: ['clawhub'],
          summary: `ClawHub: ${direction} transfer offers`,
          description:
            direction === 'incoming'
              ? '`clawhub transfer list`: open offers to the caller or to organisations it owns or administers (GET /v1/me/transfers).'
              : '`clawhub transfer list --outgoing`: open offers the caller made.',
          response: { 200: ClawhubTransferList, ...problems(401) },
        },
      },
      async (request) => manage.listTransfers(caller(request), direction),
    );
  }

  app.post(
    '/api/v1/skills/:slug/rename',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: rename a skill',
        description:
          '`clawhub skill rename`: a new slug in the same scope, as POST /v1/skills/{id}/rename. The old name keeps leading to ' +
          'the skill, through this protocol too, until an administrator releases it.',
        params: SlugParams,
        body: ClawhubRenameBody,
        response: { 200: ClawhubRenamed, 409: Conflict, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request) => manage.rename(caller(request), request.params.slug, request.body.ownerHandle, request.body.newSlug),
  );

  app.post(
    '/api/v1/publishers',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: create a publisher',
        description:
          '`clawhub publisher create`: an organisation with this handle, the caller its first owner (POST /v1/orgs); skills ' +
          'published with `--owner <handle>` go into its scope.',
        body: ClawhubPublisherBody,
        response: { 200: ClawhubPublisherCreated, ...problems(400, 401, 403, 409, 415) },
      },
    },
    async (request) => manage.createPublisher(caller(request), request.body.handle, request.body.displayName),
  );

  for (const url of ['/api/v1/skills/:slug', '/api/v1/skills/:slug/versions/:version']) {
    const versioned = url.endsWith(':version');
    app.delete(
      url,
      {
        config: { auth: 'uploader' },
        validatorCompiler: bodyMayBeAbsent,
        schema: {
          tags: ['clawhub'],
          summary: versioned ? 'ClawHub: withdraw a version (not available)' : 'ClawHub: delete a skill',
          description: versioned
            ? '404 `clawhub_not_available`: versions are immutable here and none is withdrawn.'
            : '`clawhub delete` and `clawhub hide` (the same request): a draft is deleted with its versions, for good, as ' +
              'DELETE /v1/skills/{id} does (its owner, or an admin session); a published skill is 409 `not_draft`.',
          params: versioned ? Type.Object({ slug: Slug, version: Type.String({ maxLength: 200 }) }) : SlugParams,
          body: ClawhubDeleteBody,
          response: { 200: ClawhubOk, 409: Conflict, ...problems(400, 401, 403, 404, 409, 415) },
        },
      },
      async (request) => {
        const params = request.params as { slug: string; version?: string };
        const body = request.body as { version?: string; ownerHandle?: string } | undefined;
        return manage.delete(caller(request), params.slug, body?.ownerHandle, params.version ?? body?.version);
      },
    );
  }

  app.get(
    '/api/v1/skills/-/scan/download/:slug',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['clawhub'],
        summary: "ClawHub: a version's scan report",
        description:
          "`clawhub scan download`: a ZIP of the version's stored scan report (`scan-report.json` as GET " +
          '/v1/skills/{id}/versions/{version}/scan answers it, `manifest.json`, `README.md`), visible as that report is. ' +
          '`kind=plugin` is 404 `clawhub_not_available`.',
        params: SlugParams,
        querystring: Type.Object({
          version: Type.String({ minLength: 1, maxLength: 200 }),
          kind: Type.Optional(Type.String({ maxLength: 20 })),
          ownerHandle: Type.Optional(Type.String({ maxLength: 120 })),
        }),
        response: problems(400, 404, 409),
      },
    },
    async (request, reply) => {
      const { version, kind, ownerHandle } = request.query;
      if (kind !== undefined && kind !== 'skill') throw notAvailable(NOT_AVAILABLE.packages);
      const report = await manage.scanReport(request.actor, request.params.slug, ownerHandle, version);
      return reply
        .headers({
          'content-type': 'application/zip',
          'content-disposition': attachment(report.name),
          'content-length': report.bytes.length,
          'cache-control': 'private, no-store',
        })
        .send(report.bytes);
    },
  );

  // What the registry does not have. Bodies are not read (a plugin package's multipart upload included): the answer
  // is the same whatever was sent, to every caller.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => {
      done(null, payload);
    });
    const everyMethod = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const unavailable = (
      method: readonly (typeof everyMethod)[number][],
      urls: string[],
      feature: keyof typeof NOT_AVAILABLE,
      summary: string,
    ) => {
      for (const url of urls) {
        scope.route({
          method: [...method],
          url,
          config: { auth: 'public' },
          schema: {
            tags: ['clawhub'],
            summary: `ClawHub: ${summary} (not available)`,
            description: `404 \`clawhub_not_available\`, as text: "${NOT_AVAILABLE[feature]}"`,
            response: problems(404),
          },
          handler: async () => {
            throw notAvailable(NOT_AVAILABLE[feature]);
          },
        });
      }
    };
    unavailable(['POST'], ['/api/v1/skills/:slug/undelete'], 'undelete', 'undelete or unhide a skill');
    unavailable(['POST'], ['/api/v1/skills/:slug/versions/:version/restore'], 'restore', 'restore a version');
    unavailable(['POST'], ['/api/v1/skills/:slug/tags/:tag'], 'tags', 'move a tag');
    unavailable(['POST'], ['/api/v1/skills/:slug/merge'], 'merge', 'merge skills');
    unavailable(['GET'], ['/api/v1/skills/:slug/verify'], 'verify', 'verify a skill');
    unavailable(['POST'], ['/api/v1/skills/-/scan'], 'scan', 'request a scan');
    unavailable(['GET'], ['/api/v1/skills/-/scan/:scanId', '/api/v1/skills/-/scan/:scanId/download'], 'scan', 'a requested scan');
    unavailable(
      everyMethod,
      [
        '/api/v1/packages',
        '/api/v1/packages/*',
        '/api/v1/code-plugins',
        '/api/v1/code-plugins/*',
        '/api/v1/bundle-plugins',
        '/api/v1/bundle-plugins/*',
        '/api/v1/publish/*',
      ],
      'packages',
      'plugin packages',
    );
    unavailable(everyMethod, ['/api/v1/publishers/*'], 'publishers', 'publishers beyond create');
    unavailable(['GET'], ['/api/v1/publishers'], 'publishers', 'list publishers');
  });
};
