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

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => sendProblem(request, reply, problemOf(error, request)));
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
