import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Readable } from 'node:stream';
import { problems } from '@skill-registry/api-schemas/common';
import {
  ClawhubPublishBody,
  ClawhubPublished,
  ClawhubUploaded,
  ClawhubUploadUrl,
  ClawhubUploadUrlBody,
} from '@skill-registry/api-schemas/clawhub';
import { caller } from '../plugins/auth.js';
import type { RoutePlugin } from '../types.js';
import { Conflict, speakClawhub } from './clawhub.js';

/**
 * `clawhub publish`: an upload ticket per file, the file's bytes against its ticket, and the publish that turns the
 * uploaded files into a version through the registry's own upload path. Callers need the `skill:upload` scope.
 */
export const clawhubPublishRoutes: RoutePlugin = async (app, { services }) => {
  const { publishing } = services.clawhub;
  speakClawhub(app);

  app.post(
    '/api/v1/skills/-/upload-url',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: an upload ticket for one file',
        description:
          'The ticket binds the file (its path, size and sha256) to the caller for 30 minutes; `uploadUrl` is where its bytes go.',
        body: ClawhubUploadUrlBody,
        response: { 200: ClawhubUploadUrl, ...problems(400, 401, 403, 413) },
      },
    },
    async (request) => publishing.ticket(caller(request), request.body),
  );

  // The file's bytes arrive with the file's own media type (text/markdown, application/json, …): none is parsed here.
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<TypeBoxTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => {
      done(null, payload);
    });
    raw.post(
      '/api/v1/skills/-/upload/:ticket',
      {
        config: { auth: 'uploader' },
        schema: {
          tags: ['clawhub'],
          summary: 'ClawHub: upload one file',
          description:
            "The raw bytes of the ticket's file, any media type. More bytes than declared: 413; other bytes: 400 `upload_mismatch`; " +
            "an unknown, expired or another account's ticket: 404 `upload_ticket_not_found`.",
          params: Type.Object({ ticket: Type.String({ maxLength: 200 }) }),
          response: { 200: ClawhubUploaded, ...problems(400, 401, 403, 404, 413) },
        },
      },
      async (request) => publishing.upload(caller(request), request.params.ticket, request.body as Readable),
    );
  });

  app.post(
    '/api/v1/skills',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['clawhub'],
        summary: 'ClawHub: publish a version',
        description:
          'Builds a package (a ZIP with the files at its root) from the uploaded files and uploads it as /v1 does: scanned, ' +
          'quarantined when malicious, a new draft skill (`pending`) or a new version of a skill the caller owns or publishes for. ' +
          "A new skill is unscoped, or in the owner handle's organisation scope, or in the caller's own scope when another owner " +
          'holds the unscoped slug. The same request again answers the same; the same version with other files is 409 `version_exists`.',
        body: ClawhubPublishBody,
        response: { 200: ClawhubPublished, 409: Conflict, ...problems(400, 401, 403, 404, 413, 422, 503) },
      },
    },
    async (request) => publishing.publish(caller(request), request.body),
  );
};
