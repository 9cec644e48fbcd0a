import type { Problem, ProblemFieldError } from './types.js';

/**
 * Every failure the client reports. `status` is the HTTP status when the registry answered (null when it was
 * never reached), `code` a stable machine-readable string, `detail` a sentence a person can act on, and
 * `request_id` the id to quote when asking the registry's operators (null when no request reached it).
 */
export class RegistryError extends Error {
  readonly status: number | null;
  readonly code: string;
  readonly detail: string;
  readonly request_id: string | null;
  readonly errors: ProblemFieldError[];

  constructor(init: {
    status: number | null;
    code: string;
    detail: string;
    request_id: string | null;
    errors?: ProblemFieldError[];
    cause?: unknown;
  }) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'RegistryError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.request_id = init.request_id;
    this.errors = init.errors ?? [];
  }
}

/** The registry answered with an error status: its RFC 9457 problem document, or one made up from a bare answer. */
export class ProblemError extends RegistryError {
  declare readonly status: number;
  readonly title: string;
  readonly type: string;
  /** Response headers worth acting on: `Retry-After` on a 429, `WWW-Authenticate` on a 401. */
  readonly headers: Headers;

  constructor(problem: Problem, headers: Headers) {
    super({
      status: problem.status,
      code: problem.code,
      detail: problem.detail,
      request_id: problem.request_id || null,
      errors: problem.errors ?? [],
    });
    this.name = 'ProblemError';
    this.title = problem.title;
    this.type = problem.type;
    this.headers = headers;
  }

  /** The problem document, as the registry sent it. */
  toJSON(): Problem {
    return {
      type: this.type,
      title: this.title,
      status: this.status,
      code: this.code,
      detail: this.detail,
      request_id: this.request_id ?? '',
      ...(this.errors.length > 0 ? { errors: this.errors } : {}),
    };
  }
}

/** The registry could not be reached (DNS, refused connection, TLS, a connection cut mid-answer, a timeout). */
export class ConnectionError extends RegistryError {
  constructor(url: string, cause: unknown) {
    super({
      status: null,
      code: 'connection_failed',
      detail: `Could not reach the registry at ${url}: ${describeCause(cause)}.`,
      request_id: null,
      cause,
    });
    this.name = 'ConnectionError';
  }
}

/** The package being uploaded could not be read (a missing file, one that changed size while it was sent). */
export class UploadSourceError extends RegistryError {
  constructor(detail: string, cause?: unknown) {
    super({ status: null, code: 'upload_source_failed', detail, request_id: null, cause });
    this.name = 'UploadSourceError';
  }
}

/** A local file that could not be written (a full disk, a missing permission) while a download was saved. */
export class LocalFileError extends RegistryError {
  constructor(detail: string, cause?: unknown) {
    super({ status: null, code: 'local_file_failed', detail, request_id: null, cause });
    this.name = 'LocalFileError';
  }
}

/** Downloaded bytes that do not match the sha256 the registry published for them. */
export class IntegrityError extends RegistryError {
  constructor(
    readonly expected: string,
    readonly actual: string,
    what: string,
    request_id: string | null,
  ) {
    super({
      status: null,
      code: 'integrity_mismatch',
      detail: `${what} does not match its published sha256 (expected ${expected}, got ${actual}); it was discarded.`,
      request_id,
    });
    this.name = 'IntegrityError';
  }
}

function describeCause(cause: unknown): string {
  // undici wraps the system error: `TypeError: fetch failed` with the real reason as its cause.
  let current: unknown = cause;
  let message = 'unknown error';
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    message = typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
    if (current.cause === undefined) break;
    current = current.cause;
  }
  return message;
}

const PROBLEM_MEDIA_TYPE = /^application\/(problem\+)?json/i;

/** Turns an error answer into a ProblemError, whether or not it carries a problem document. */
export async function problemFrom(response: Response): Promise<ProblemError> {
  const requestId = response.headers.get('x-request-id');
  let text = '';
  try {
    text = await response.text();
  } catch {
    // The body was cut off; the status line is still worth reporting.
  }
  if (PROBLEM_MEDIA_TYPE.test(response.headers.get('content-type') ?? '')) {
    try {
      const body = JSON.parse(text) as Partial<Problem>;
      if (typeof body.code === 'string' && typeof body.detail === 'string') {
        return new ProblemError(
          {
            type: typeof body.type === 'string' ? body.type : 'about:blank',
            title: typeof body.title === 'string' ? body.title : response.statusText,
            status: typeof body.status === 'number' ? body.status : response.status,
            code: body.code,
            detail: body.detail,
            request_id: typeof body.request_id === 'string' ? body.request_id : (requestId ?? ''),
            ...(Array.isArray(body.errors) ? { errors: body.errors } : {}),
          },
          response.headers,
        );
      }
    } catch {
      // Not JSON after all: reported below like any other bare answer.
    }
  }
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location !== null) {
    let target = location;
    try {
      target = new URL(location, response.url || undefined).href;
    } catch {
      // A relative Location without a known request URL is reported as it came.
    }
    return new ProblemError(
      {
        type: 'about:blank',
        title: response.statusText,
        status: response.status,
        code: 'redirected',
        detail: `The registry answered ${response.status} and moved to ${target}; use that address instead.`,
        request_id: requestId ?? '',
      },
      response.headers,
    );
  }
  // A proxy or load balancer in front of the registry may answer with HTML or plain text.
  const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new ProblemError(
    {
      type: 'about:blank',
      title: response.statusText,
      status: response.status,
      code: `http_${response.status}`,
      detail: `The registry answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${snippet ? `: ${snippet}` : '.'}`,
      request_id: requestId ?? '',
    },
    response.headers,
  );
}
