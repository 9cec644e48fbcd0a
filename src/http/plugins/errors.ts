import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseFull, isDatabaseUnavailable } from '../../db/faults.js';
import { AppError, isErrorCode, type FieldError } from '../../domain/errors.js';
import { isStorageFull } from '../../storage/faults.js';
import { HttpProblem } from '../problem.js';
import { settleUnreadBody } from '../unread-body.js';

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  request_id: string;
  errors?: FieldError[];
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const body: ProblemDocument = {
    type: 'about:blank',
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    code: error.code,
    detail: error.detail,
    request_id: request.id,
    ...(error.errors && error.errors.length > 0 ? { errors: error.errors } : {}),
  };
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  if (error instanceof HttpProblem) reply.headers(error.headers);
  // A 401 names the scheme to authenticate with (RFC 9110, section 11.6.1); one naming a realm of its own keeps it.
  if (error.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('www-authenticate', 'Bearer');
  // An answer may come before the body was read (a refused upload): the rest must not block the connection.
  settleUnreadBody(request, reply);
  return reply.code(error.status).type('application/problem+json').send(body);
}

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldOf(issue: AjvIssue, part: string): string {
  const segments = (issue.instancePath ?? '').split('/').filter(Boolean);
  const extra = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if ((issue.keyword === 'required' || issue.keyword === 'additionalProperties') && typeof extra === 'string') segments.push(extra);
  // Array positions read as `tags[1]`, the same form the domain rules use.
  return (
    segments.reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '') || part
  );
}

/**
 * Turns ajv's findings into the problem document's `errors` list, one entry per field, with dotted field names.
 * A failed union (`anyOf`) reports its branches together: "must be one of a, b" or "must be string or null".
 */
function fieldErrors(issues: AjvIssue[], part: string): FieldError[] {
  const byField = new Map<string, AjvIssue[]>();
  for (const issue of issues) {
    const field = fieldOf(issue, part);
    byField.set(field, [...(byField.get(field) ?? []), issue]);
  }
  const out: FieldError[] = [];
  for (const [field, list] of byField) {
    const branches = list.filter((i) => i.keyword !== 'anyOf');
    if (list.some((i) => i.keyword === 'anyOf')) {
      const constants = branches.filter((i) => i.keyword === 'const').map((i) => String(i.params?.allowedValue));
      const types = branches.filter((i) => i.keyword === 'type').map((i) => String(i.params?.type));
      const parts = [...(constants.length ? [`one of ${constants.join(', ')}`] : []), ...types];
      const other = branches.find((i) => i.keyword !== 'const' && i.keyword !== 'type');
      out.push({ field, message: other?.message ?? `must be ${parts.join(' or ') || 'valid'}` });
      continue;
    }
    for (const issue of branches) {
      let message = issue.message ?? 'is invalid';
      if (issue.keyword === 'required') message = 'is required';
      else if (issue.keyword === 'additionalProperties') message = 'is not a known field';
      else if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues))
        message = `must be one of ${issue.params.allowedValues.join(', ')}`;
      out.push({ field, message });
    }
  }
  return out;
}

/**
 * Where a skill named by an old name lives now (its whole name), for the caller; undefined when the name leads nowhere
 * the caller may see.
 */
export type MovedSkill = (request: FastifyRequest, ref: string) => Promise<string | undefined>;

export function installErrorHandling(app: FastifyInstance, moved?: MovedSkill): void {
  app.setErrorHandler(async (error: FastifyError | AppError | Error, request, reply) => {
    const problem = problemOf(error, request);
    const ref = (request.params as { skillId?: unknown } | undefined)?.skillId;
    if (moved !== undefined && problem.code === 'skill_not_found' && typeof ref === 'string') {
      const now = await moved(request, ref).catch(() => undefined);
      if (now !== undefined) return sendMoved(request, reply, ref, now);
    }
    return sendProblem(request, reply, problem);
  });
}

/**
 * A skill asked for by a name it had before it moved or was renamed: 308 to the same request under its name now (a
 * client following redirects keeps working, method and body kept), saying where it went.
 */
function sendMoved(request: FastifyRequest, reply: FastifyReply, ref: string, now: string): FastifyReply {
  const url = request.originalUrl;
  const encoded = encodeURIComponent(ref);
  const forms = [`/v1/skills/${ref}`, `/v1/skills/${encoded}`, `/v1/skills/${encoded.replace('%2F', '/')}`];
  const old = forms.find((form) => url.startsWith(form)) ?? `/v1/skills/${encoded}`;
  const location = `/v1/skills/${now}${url.slice(old.length)}`;
  settleUnreadBody(request, reply);
  return reply
    .code(308)
    .header('location', location)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ moved_to: now, location, detail: `"${ref}" is now "${now}"; ask for it by its new name.` });
}

/** The problem an error is answered with; a fault of the registry itself is logged. */
function problemOf(error: FastifyError | AppError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;

  const fastifyError = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fastifyError.validation) {
    const part = fastifyError.validationContext ?? 'body';
    const errors = fieldErrors(fastifyError.validation, part);
    const detail =
      errors.length === 1
        ? `${part === 'body' ? '' : `${part} `}${errors[0]!.field} ${errors[0]!.message}.`.trim()
        : `The ${part} has ${errors.length} invalid fields; see errors.`;
    return new AppError(400, 'validation_failed', detail, errors);
  }

  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'invalid_json', 'The request declares a JSON body but sends none.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The request body is larger than this endpoint accepts (JSON bodies: at most 1 MiB).');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      // Upload routes take multipart/form-data only; every other body is JSON.
      const consumes = (request.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes ?? ['application/json'];
      const type = request.headers['content-type'] ?? '';
      return new AppError(415, 'unsupported_media_type', `Content-Type "${type}" is not accepted here; send ${consumes.join(' or ')}.`);
    }
  }

  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const named = (STATUS_CODES[status] ?? 'bad_request').toLowerCase().replace(/[^a-z]+/g, '_');
    return new AppError(status, isErrorCode(named) ? named : 'bad_request', error.message || (STATUS_CODES[status] ?? 'Bad request'));
  }
  const fault = faultProblem(error);
  request.log.error({ err: error }, fault?.code ?? 'unhandled error');
  return (
    fault ?? new AppError(500, 'internal_error', `Something went wrong on the server; quote request id ${request.id} when reporting it.`)
  );
}

/** Failures of the machinery underneath (a database away, a full disk): the caller is told which, and when to retry. */
export function faultProblem(error: unknown): AppError | null {
  if (isStorageFull(error) || isDatabaseFull(error)) {
    return new AppError(507, 'insufficient_storage', 'The registry has no room left to store this; nothing was changed. Try again later.');
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError(503, 'database_unavailable', 'The database is not answering right now; try again shortly.', undefined, 5);
  }
  return null;
}

/** Answers a request no route matched; `page` may answer it first (the web console's pages), else a 404 problem. */
export function installNotFound(app: FastifyInstance, page?: (request: FastifyRequest, reply: FastifyReply) => boolean): void {
  app.setNotFoundHandler((request, reply) => {
    if (page?.(request, reply)) return reply;
    const detail = `There is no ${request.method} ${request.url.split('?')[0]} endpoint. The API is described at /v1/openapi.json.`;
    return sendProblem(request, reply, new AppError(404, 'not_found', detail));
  });
}
