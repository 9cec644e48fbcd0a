import type { FrontMatterFix } from '@skill-registry/skill-package/front-matter-fix';

export interface FieldError {
  field: string;
  message: string;
  /** The archive entry at fault, for package refusals. */
  entry?: string;
  /** For SKILL.md front matter that is not YAML: its repair, when one is safe. */
  fix?: FrontMatterFix;
}

/**
 * A failure the caller can act on. The HTTP layer turns it into an RFC 9457 problem document, with the headers
 * its status calls for; nothing here knows about HTTP beyond the status number the API assigns to each kind.
 * `retryAfterSeconds` says when the same request may succeed (a transient refusal).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, detail: string, errors?: FieldError[]) => new AppError(400, code, detail, errors);
export const validationFailed = (errors: FieldError[]) =>
  new AppError(
    400,
    'validation_failed',
    errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}` : 'The request has invalid fields; see errors.',
    errors,
  );
export const unauthenticated = (detail = 'Sign in or send an API key in the Authorization header.') =>
  new AppError(401, 'unauthenticated', detail);
export const forbidden = (code: string, detail: string) => new AppError(403, code, detail);
export const notFound = (code: string, detail: string) => new AppError(404, code, detail);
export const conflict = (code: string, detail: string) => new AppError(409, code, detail);
