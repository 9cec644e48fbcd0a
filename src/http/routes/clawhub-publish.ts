import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import { problems } from '@skill-registry/api-schemas/common';
import {
  ClawdhubPayload,
  ClawhubPublishBody,
  ClawhubPublished,
  ClawhubUploaded,
  ClawhubUploadUrl,
  ClawhubUploadUrlBody,
} from '@skill-registry/api-schemas/clawhub';
import { AppError, badRequest } from '../../domain/errors.js';
import type { FileDigest } from '../../domain/clawhub/fingerprint.js';
import { MAX_FIELD_BYTES, uploadForm } from '../multipart.js';
import { caller } from '../plugins/auth.js';
import { refuseWhenLow } from '../low-disk.js';
import { uploadSlots } from '../upload-slots.js';
import { freeSpaceGuard, watchedDisks } from '../../storage/free-space.js';
import type { RoutePlugin } from '../types.js';
import { Conflict, speakClawhub } from './clawhub.js';

/**
 * `clawhub publish`: an upload ticket per file, the file's bytes against its ticket, and the publish that turns the
 * uploaded files into a version through the registry's own upload path. Callers need the `skill:upload` scope.
 */
export const clawhubPublishRoutes: RoutePlugin = async (app, { services, config }) => {
  const { publishing } = services.clawhub;
  speakClawhub(app);
  // Only the legacy one-step publish arrives as multipart (a part per file).
  await app.register(multipart, {
    // A part's filename is the file's path in the skill (`reference/notes.md`), not a name to strip to its last segment.
    preservePath: true,
    limits: { fileSize: config.maxUploadBytes, files: 10_000, fields: 5, fieldSize: MAX_FIELD_BYTES, headerPairs: 100 },
  });
  // As for /v1 uploads: a client's share of uploads in flight, and room on the disk, before a byte is read.
  const slots = uploadSlots(config.uploadsPerClient);
  const freeSpace = freeSpaceGuard(watchedDisks(config.storage, config.database), config.storageMinFreeBytes);
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    slots.acquire(request, reply);
    await refuseWhenLow(freeSpace);
  };
  const legacyForm = uploadForm(app, Type.Object({ payload: Type.String() }), { json: { payload: ClawdhubPayload } });
  const bodyCompiler = app.validatorCompiler;
  if (bodyCompiler === undefined) throw new Error('The publish routes need the app validator compiler installed first.');
  /** A multipart body (the legacy publish) is read part by part and checked there; a JSON one against the schema. */
  function jsonOrParts(input: FastifyRouteSchemaDef<FastifySchema>): FastifyValidationResult {
    const compiled = bodyCompiler!(input);
    if (input.httpPart !== 'body') return compiled;
    const check: FastifyValidationResult = (data: unknown) => {
      if (data === undefined || data === null) return true;
      const valid = compiled(data);
      check.errors = compiled.errors;
      return valid;
    };
    return check;
  }

  /** The legacy one-step publish of `clawdhub` 0.3.0: a `payload` part (JSON) and a `files` part per file. */
  async function legacyPublish(request: FastifyRequest) {
    const actor = caller(request);
    const files: FileDigest[] = [];
    const fields: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'files') {
          part.file.resume();
          throw badRequest('validation_failed', `Unexpected file part "${part.fieldname}"; each file goes in a part named "files".`, [
            { field: part.fieldname, message: 'is not a known file part' },
          ]);
        }
        files.push(await publishing.storeFile(part.filename, part.file));
        if (part.file.truncated) throw new AppError(413, 'payload_too_large', `"${part.filename}" is larger than a package may be.`);
        continue;
      }
      if (part.fieldname !== 'payload') continue;
      fields.payload = String(part.value);
    }
    const payload = legacyForm.check(fields).payload;
    if (payload === undefined)
      throw badRequest('validation_failed', 'The publish needs its "payload" part.', [{ field: 'payload', message: 'is required' }]);
    return publishing.publishStored(actor, payload, files);
  }

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
      async (request, reply) => {
        await admit(request, reply);
        // An empty file arrives without a body to parse.
        const body = (request.body as Readable | undefined) ?? Readable.from([]);
        return publishing.upload(caller(request), request.params.ticket, body);
      },
    );
  });

  app.post(
    '/api/v1/skills',
    {
      config: { auth: 'uploader' },
      // A multipart body (the legacy publish) is read part by part and checked there; a JSON one against the schema.
      validatorCompiler: jsonOrParts,
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
    async (request, reply) => {
      await admit(request, reply);
      if (request.isMultipart()) return legacyPublish(request);
      // A body of JSON null passes the schema check above (it stands for a multipart body there).
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the schema does not see it, so the type does not say it
      if (request.body === null)
        throw badRequest('validation_failed', 'The publish needs a JSON object: slug, displayName, version, changelog and files.');
      return publishing.publish(caller(request), request.body);
    },
  );
};
