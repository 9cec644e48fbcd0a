import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { isPublic } from '../../domain/skills/visibility.js';
import { bareSlug } from '../../domain/skills/skills.js';
import { ARCHIVE_EXTENSIONS, ARCHIVE_MEDIA_TYPES } from '@skill-registry/skill-package/format';
import { contentTypeFor } from '@skill-registry/skill-package/inspect';
import { caller } from '../plugins/auth.js';
import { etagMatches, sendJson } from '../cached-json.js';
import { attachment } from '../content-disposition.js';
import { streamedBodyCompiler } from '../plugins/validation.js';
import multipart from '@fastify/multipart';
import { MAX_FIELD_BYTES, readUpload, requireFile, uploadForm } from '../multipart.js';
import { refuseWhenLow } from '../low-disk.js';
import { uploadSlots } from '../upload-slots.js';
import { freeSpaceGuard, watchedDisks } from '../../storage/free-space.js';
import { ListEnvelope, problems, SkillRefParams } from '@skill-registry/api-schemas/common';
import { pageOf } from '../paging.js';
import { SkillRef } from '@skill-registry/api-schemas/skills';
import {
  FileList,
  FileParams,
  Stats,
  StatsQuery,
  UploadBody,
  UploadFields,
  Validation,
  ValidateBody,
  ValidateFields,
  VersionListQuery,
  VersionParams,
  VersionRef,
  WithPackageBody,
  WithPackageFields,
  WithPackageJson,
} from '@skill-registry/api-schemas/versions';
import type { RouteDeps, RoutePlugin } from '../types.js';
import { bodyOfLength, countsAsDownload, type RequestedRange } from '../download-body.js';

/**
 * One `bytes=` range against a body of `size` bytes: the range (`toEnd` when it was asked as `bytes=N-`, the form a
 * resumed download sends), `null` to serve the whole body (no header, several ranges, or a header that does not parse,
 * which RFC 9110 says to ignore), or 'unsatisfiable'.
 * Not range-parser: 1.x refuses a suffix longer than the body (RFC 9110 serves it whole); 2.x needs Node 22.
 */
export function parseRange(header: string | undefined, size: number): RequestedRange | null | 'unsatisfiable' {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1, toEnd: false };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return 'unsatisfiable';
  return { start, end, toEnd: last === '' };
}

export const versionRoutes: RoutePlugin = async (app, { services, config }) => {
  const { versions } = services;
  // Multipart parsing, and the hook it adds to every request it covers, only where packages arrive.
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: config.maxUploadBytes, files: 1, fields: 20, parts: 25, fieldSize: MAX_FIELD_BYTES, headerPairs: 100 },
    });
    uploadRoutes(uploads, services, config);
  });

  app.get(
    '/v1/skills/:skillId/versions',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['versions'],
        summary: 'List versions',
        description: 'Newest semver first. Visible when the skill is: published to anyone, otherwise to its owner and an admin session.',
        params: SkillRefParams,
        querystring: VersionListQuery,
        response: { 200: ListEnvelope(VersionRef, 'VersionList'), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const found = await versions.list(request.actor, request.params.skillId, page);
      return sendJson(request, reply, found, () => ({ items: found.items, total: found.total, page: page.page, page_size: page.pageSize }));
    },
  );

  app.get(
    '/v1/skills/:skillId/versions/:version',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['versions'],
        summary: 'One version',
        description: '`latest` names the highest release (pre-releases only when there is no release).',
        params: VersionParams,
        response: { 200: VersionRef, ...problems(401, 404) },
      },
    },
    async (request) => versions.get(request.actor, request.params.skillId, request.params.version),
  );

  // GET and HEAD share one handler (rather than Fastify's generated HEAD route) so HEAD answers with the
  // real Content-Length without opening the package.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/v1/skills/:skillId/versions/:version/download',
    config: { auth: 'public' },
    schema: {
      tags: ['versions'],
      summary: 'Download a version package',
      description:
        'Streams the archive. Published skills: anyone. Draft or deprecated: an admin session only (the owner gets 403, ' +
        'anyone else 404). A quarantined version (scanned malicious): its owner and an admin session only, anyone else ' +
        '403 `version_quarantined`. Supports HEAD, If-None-Match (304) and a single Range (206). `latest` is accepted as ' +
        'the version, and never names a quarantined one. A download counts once its whole body has been sent; a range counts ' +
        'only when it is open-ended (`bytes=N-`, a resume) or covers the whole package.',
      params: VersionParams,
      response: problems(401, 403, 404, 416),
    },
    handler: async (request, reply) => {
      const download = await versions.download(request.actor, request.params.skillId, request.params.version);
      const { skill, version, source } = download;
      const size = version.size;
      const etag = `"${version.sha256}"`;
      reply.headers({
        'content-type': ARCHIVE_MEDIA_TYPES[version.archive_format],
        'content-disposition': attachment(`${bareSlug(skill.slug)}-${version.version}.${ARCHIVE_EXTENSIONS[version.archive_format]}`),
        etag,
        'repr-digest': `sha-256=:${Buffer.from(version.sha256, 'hex').toString('base64')}:`,
        'accept-ranges': 'bytes',
        // A quarantined package goes to its owner and administrators only, and a hidden skill's too: no shared cache may keep them.
        'cache-control': isPublic(skill) && !version.quarantined ? 'public, max-age=300' : 'private, no-store',
      });
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();

      const ifRange = request.headers['if-range'];
      const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, size) : null;
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${size}`);
        throw new AppError(416, 'range_not_satisfiable', `The requested range is outside the ${size}-byte package.`);
      }
      const length = range ? range.end - range.start + 1 : size;
      reply.header('content-length', length);
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      if (request.method === 'HEAD') return reply.send();

      if (countsAsDownload(range, size)) {
        // A download counts once its whole body has gone out: 'finish' comes only when the operating system has taken
        // the last byte, and never for a body cut short.
        reply.raw.once('finish', () => versions.recordDownload(download));
      }
      return reply.send(bodyOfLength(source.read(range ?? undefined), length));
    },
  });

  app.get(
    '/v1/skills/:skillId/versions/:version/files',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['versions'],
        summary: 'List the files of a version',
        description: 'Sorted by path; directories are not listed. Published skills: anyone; otherwise the owner or an admin session.',
        params: VersionParams,
        response: { 200: FileList, ...problems(401, 404) },
      },
    },
    async (request) => versions.files(request.actor, request.params.skillId, request.params.version),
  );

  app.get(
    '/v1/skills/:skillId/versions/:version/files/*',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['versions'],
        summary: 'One file of a version',
        description:
          "The file's bytes; text files with a text content type. Only paths in the version's file list exist. A quarantined " +
          "version's files go to its owner and an admin session only (403 `version_quarantined` to anyone else).",
        params: FileParams,
        response: problems(401, 403, 404),
      },
    },
    async (request, reply) => {
      const file = await versions.file(request.actor, request.params.skillId, request.params.version, request.params['*']);
      const type = contentTypeFor(file.path);
      // The body ends at its length, as a package's does, so the response finishes (and its call is logged) before a
      // client that closes at once has gone.
      return reply
        .headers({
          'content-type': type,
          'content-length': file.size,
          'x-content-type-options': 'nosniff',
          // A package's HTML or SVG must never run in the registry's origin.
          'content-security-policy': "default-src 'none'; sandbox",
          'content-disposition': type.startsWith('text/') ? 'inline' : attachment(file.path.split('/').pop() ?? 'file'),
        })
        .send(bodyOfLength(file.stream, file.size));
    },
  );

  app.get(
    '/v1/skills/:skillId/stats',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['versions'],
        summary: 'Download statistics',
        description: 'Totals per version and one entry per day (UTC) for the last `days` days, zeros included.',
        params: SkillRefParams,
        querystring: StatsQuery,
        response: { 200: Stats, ...problems(400, 401, 404) },
      },
    },
    async (request) => versions.stats(request.actor, request.params.skillId, request.query.days ?? 30),
  );
};

/** The three routes that take a package as multipart/form-data. */
function uploadRoutes(app: Parameters<RoutePlugin>[0], services: RouteDeps['services'], config: RouteDeps['config']): void {
  const versions = services.versions;
  const slots = uploadSlots(config.uploadsPerClient);
  const freeSpace = freeSpaceGuard(watchedDisks(config.storage, config.database), config.storageMinFreeBytes);
  /** Before a byte of the body is read: the client's share of uploads in flight, and room on the disk. */
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    slots.acquire(request, reply);
    await refuseWhenLow(freeSpace);
  };
  const versionForm = uploadForm(app, UploadFields);
  const withPackageForm = uploadForm(app, WithPackageFields, { json: WithPackageJson, emptyIsAbsent: ['slug', 'scope', 'source_type'] });
  const validateForm = uploadForm(app, ValidateFields);
  app.post(
    '/v1/skills/:skillId/versions',
    {
      config: { auth: 'uploader' },
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags: ['versions'],
        summary: 'Upload a new version',
        description:
          'multipart/form-data with `file` (zip or tar.gz), `version` (strict semver), optional `changelog` and `metadata` ' +
          '(a JSON object as text). The archive is streamed, hashed, checked and scanned (the answer carries the `scan`); a ' +
          'refused archive stores nothing (422 with the ' +
          'offending entries in `errors`). Versions are immutable (409 `version_exists`). 503 `upload_interrupted` (with ' +
          '`Retry-After`): the stored package was removed before the version was recorded; nothing was written, send it again. ' +
          '503 `scan_unavailable`: the scanner stopped before it finished; nothing was written, send it again.',
        consumes: ['multipart/form-data'],
        params: SkillRefParams,
        body: UploadBody,
        response: { 201: VersionRef, ...problems(400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 507) },
      },
    },
    async (request, reply) => {
      const actor = caller(request);
      // Ownership is settled before a single byte of the package is read.
      await services.skills.manageable(actor, request.params.skillId);
      await admit(request, reply);
      const upload = await readUpload(request, versionForm, (body) => versions.stage(body));
      const version = await versions.publish(actor, request.params.skillId, upload.fields, requireFile(upload));
      return reply.code(201).header('location', `/v1/skills/${request.params.skillId}/versions/${version.version}`).send(version);
    },
  );

  app.post(
    '/v1/skills/with-package',
    {
      config: { auth: 'uploader' },
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags: ['versions'],
        summary: 'Create a draft skill with its first version',
        description:
          'multipart/form-data with the skill fields (`name`, `slug`, `description`, `category`, `tags` as a JSON array string, ' +
          '`source_type`, `source_url`), the version fields (`version`, `changelog`, `metadata`) and `file`. Atomic: a refused ' +
          'package or a taken slug creates nothing; so does 503 `upload_interrupted` or `scan_unavailable` (send it again).',
        consumes: ['multipart/form-data'],
        body: WithPackageBody,
        response: {
          201: Type.Object({ skill: SkillRef, version: VersionRef }),
          ...problems(400, 401, 403, 409, 413, 415, 422, 429, 503, 507),
        },
      },
    },
    async (request, reply) => {
      const actor = caller(request);
      await admit(request, reply);
      const upload = await readUpload(request, withPackageForm, (body) => versions.stage(body));
      const file = requireFile(upload);
      const { version, changelog, metadata, source_type, source_url, ...skill } = upload.fields;
      const input = { ...skill, source_type: source_type ?? null, source_url: source_url ?? null };
      const result = await versions.publishWithSkill(actor, input, { version, changelog, metadata }, file);
      return reply.code(201).header('location', `/v1/skills/${result.skill.full_name}`).send(result);
    },
  );

  app.post(
    '/v1/packages/validate',
    {
      config: { auth: 'public' },
      validatorCompiler: streamedBodyCompiler,
      schema: {
        tags: ['versions'],
        summary: 'Check a package without storing it',
        description:
          'Runs every archive and SKILL.md check and the package scanner on `file` and reports the result, the scan with ' +
          'every finding listed (`scan`, null when the package is refused before it is scanned); nothing is stored. 503 ' +
          '`scan_unavailable`: the scanner stopped before it finished; send the package again.',
        consumes: ['multipart/form-data'],
        body: ValidateBody,
        response: { 200: Validation, ...problems(400, 401, 413, 415, 429, 503, 507) },
      },
    },
    async (request, reply) => {
      await admit(request, reply);
      const upload = await readUpload(request, validateForm, (body) => versions.stage(body));
      return versions.validate(requireFile(upload));
    },
  );
}
