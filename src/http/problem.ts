import { AppError, type ErrorCode } from '../domain/errors.js';

/**
 * A refusal made by the HTTP layer itself that carries headers of its own (a rate limit's counters, a realm to
 * authenticate against). Domain errors carry none: the error handler adds what their status calls for.
 */
export class HttpProblem extends AppError {
  constructor(
    status: number,
    code: ErrorCode,
    detail: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(status, code, detail);
    this.name = 'HttpProblem';
  }
}
