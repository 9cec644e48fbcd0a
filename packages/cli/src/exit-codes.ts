import { ConnectionError, IntegrityError, ProblemError } from '@skill-registry/client';

/** The exit codes of the client commands (docs/cli.md lists them). */
export const EXIT = {
  ok: 0,
  /** Anything else that went wrong, including registry errors without a more specific code. */
  failure: 1,
  /** Bad command line: unknown option, missing argument, no registry to talk to. */
  usage: 2,
  /** No credentials, or credentials the registry refused (401) or found insufficient (403). */
  auth: 3,
  /** The skill, version or other thing named does not exist (404). */
  notFound: 4,
  /** A conflict: the version exists, the slug is taken, another version is installed (409, or refused locally). */
  conflict: 5,
  /** The registry could not be reached. */
  unreachable: 6,
  /** A download did not match its published sha256. */
  integrity: 7,
  /** The package is invalid: a local check, a dry run, or the registry refused it (415, 422). */
  invalidPackage: 8,
  /** Not installed: the package scanner judged the version malicious (it is quarantined); never overridable. */
  malicious: 9,
  /**
   * Not installed because of its scan verdict: suspicious without --allow-suspicious, or, with --require-clean,
   * anything but clean (notice included) or a version never scanned.
   */
  scanRefused: 10,
  /**
   * `verify` found a difference: an installed file changed, missing or added, a link pointing elsewhere, or the
   * registry no longer serving the installed version as it was installed (re-uploaded, deleted, quarantined).
   */
  modified: 11,
  /** Interrupted at a prompt (Ctrl-C), as a shell reports SIGINT. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure found by the command line itself, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failure,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/** The exit code an error ends the command with. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof IntegrityError) return EXIT.integrity;
  if (error instanceof ConnectionError) return EXIT.unreachable;
  if (error instanceof ProblemError) {
    if (error.status === 401 || error.status === 403) return EXIT.auth;
    if (error.status === 404) return EXIT.notFound;
    if (error.status === 409) return EXIT.conflict;
    if (error.status === 415 || error.status === 422) return EXIT.invalidPackage;
  }
  if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) return EXIT.usage;
  return EXIT.failure;
}
