import type { FrontMatterFix } from '@skill-registry/skill-package/front-matter-fix';

/**
 * Every error code the registry answers with: its status and what it means. The one list: an `AppError` takes
 * only a code named here, and docs/api-decisions.md ("Error codes") lists each one with the same status (a test
 * holds the two to each other).
 */
export const ERROR_CODES = {
  // 400
  validation_failed: { status: 400, meaning: 'A field is missing or invalid; `errors` names each field and what is wrong.' },
  invalid_json: { status: 400, meaning: 'The body is not JSON, or a JSON body was declared and none sent.' },
  json_too_deep: {
    status: 400,
    meaning: 'A JSON body or JSON form field (`metadata`, `tags`) nests objects and arrays more than 64 levels deep.',
  },
  invalid_multipart: {
    status: 400,
    meaning: 'A multipart body without a boundary, with one too long, or ending before its closing boundary.',
  },
  invalid_slug: { status: 400, meaning: 'The slug breaks the slug rules.' },
  invalid_source: { status: 400, meaning: 'The source type and URL do not fit together.' },
  webhook_url_refused: {
    status: 400,
    meaning:
      'A webhook URL that is not http(s), carries credentials, does not resolve, or reaches a loopback, private, link-local, multicast or the registry’s own address.',
  },
  invalid_version: { status: 400, meaning: 'The version is not Semantic Versioning 2.0 (1.2.0, 2.0.0-rc.1).' },
  upload_mismatch: { status: 400, meaning: 'Uploaded bytes differ from the size or sha256 their upload ticket declared.' },
  upload_incomplete: { status: 400, meaning: 'A file of a publish has no uploaded bytes yet; upload it with its ticket first.' },
  slug_immutable: { status: 400, meaning: 'A skill keeps its slug; a change of it is refused.' },
  bad_request: { status: 400, meaning: 'A request the framework could not read (a bad URL or Content-Length).' },
  // 401
  unauthenticated: { status: 401, meaning: 'No valid session or API key (or metrics token) was sent.' },
  invalid_credentials: { status: 401, meaning: 'The login or the password is wrong.' },
  // 403
  forbidden: { status: 403, meaning: 'The metrics endpoint refused a caller outside METRICS_ALLOW.' },
  account_disabled: { status: 403, meaning: 'The account is disabled.' },
  registration_closed: { status: 403, meaning: 'This registry does not take new accounts.' },
  csrf_rejected: { status: 403, meaning: 'A cookie-carrying write from another origin.' },
  insufficient_scope: { status: 403, meaning: 'The API key lacks the scope this needs (skill:upload).' },
  session_required: { status: 403, meaning: 'Only a signed-in session may do this, not an API key.' },
  admin_session_required: { status: 403, meaning: "Only an administrator's session may do this." },
  not_admin: { status: 403, meaning: 'Only an administrator may do this.' },
  not_owner: { status: 403, meaning: 'The caller may see this but not change it.' },
  org_role_required: { status: 403, meaning: "The caller's role in the organisation does not allow this (owner, admin, publisher)." },
  scope_not_allowed: {
    status: 403,
    meaning: 'The caller may not create skills in this scope (its own username, or an organisation where it publishes).',
  },
  not_invitee: { status: 403, meaning: 'Only the person invited may accept or decline an invitation.' },
  not_receiver: {
    status: 403,
    meaning: 'Only the user a skill is offered to, or an owner or admin of the organisation, may answer the offer.',
  },
  own_skill: { status: 403, meaning: 'A user cannot report their own skill.' },
  not_published: { status: 403, meaning: "The version's skill is not published; its package is its owner's only." },
  version_quarantined: { status: 403, meaning: "A quarantined version's package and files are for its owner and administrators." },
  // 404
  not_found: { status: 404, meaning: 'No endpoint has this method and path.' },
  skill_not_found: { status: 404, meaning: 'No skill by this id or slug that the caller may see.' },
  version_not_found: { status: 404, meaning: 'The skill has no such version that the caller may see.' },
  file_not_found: { status: 404, meaning: 'The version holds no such file.' },
  user_not_found: { status: 404, meaning: 'No such user.' },
  org_not_found: { status: 404, meaning: 'No organisation by this handle.' },
  invitation_not_found: { status: 404, meaning: 'No open invitation by this id (answered, withdrawn or expired).' },
  member_not_found: { status: 404, meaning: 'The user is not a member of the organisation.' },
  transfer_not_found: { status: 404, meaning: 'No open transfer offer by this id (answered, withdrawn or expired).' },
  webhook_not_found: { status: 404, meaning: 'No webhook by this id that the caller manages.' },
  delivery_not_found: { status: 404, meaning: 'The webhook has no delivery by this id.' },
  notification_not_found: { status: 404, meaning: "No notification by this id among the caller's." },
  alias_not_found: { status: 404, meaning: 'No skill had this name before it moved or was renamed.' },
  api_key_not_found: { status: 404, meaning: "No such API key among the caller's." },
  log_not_found: { status: 404, meaning: "No call-log entry by this request id among the caller's." },
  scan_not_found: { status: 404, meaning: 'The version has no scan report.' },
  scan_job_not_found: { status: 404, meaning: 'No rescan job by this id.' },
  name_allowance_not_found: { status: 404, meaning: 'No administrator allowance for this name.' },
  upload_ticket_not_found: {
    status: 404,
    meaning: "No live upload ticket by this id of the caller's (unknown, expired or another account's).",
  },
  user_code_not_found: { status: 404, meaning: 'No device login waits for this code (mistyped, expired or already answered).' },
  stars_not_available: { status: 404, meaning: 'This registry keeps no stars; ratings and comments take their place.' },
  clawhub_not_available: {
    status: 404,
    meaning: 'A `clawhub` command whose feature this registry does not have; the detail says what to use instead.',
  },
  // 406
  not_acceptable: { status: 406, meaning: 'A multipart upload whose parts the registry cannot read.' },
  // 408
  body_too_slow: {
    status: 408,
    meaning: 'The body arrived slower than BODY_MIN_RATE_BYTES per BODY_MIN_RATE_WINDOW_MS; the connection is closed.',
  },
  // 409
  slug_taken: { status: 409, meaning: 'Another skill has this slug.' },
  username_taken: { status: 409, meaning: 'Another account has this username.' },
  handle_taken: { status: 409, meaning: 'A user or an organisation has this handle; users and organisations share one namespace.' },
  already_member: { status: 409, meaning: 'The user already belongs to the organisation.' },
  last_owner: { status: 409, meaning: 'An organisation keeps at least one owner; make another member an owner first.' },
  org_owns_skills: { status: 409, meaning: 'An organisation that owns skills cannot be deleted; transfer or delete them first.' },
  already_owner: { status: 409, meaning: 'The skill already belongs to the receiver of the offer.' },
  name_retired: {
    status: 409,
    meaning: "The name was a skill's before it moved or was renamed, and still leads there; an administrator can release it.",
  },
  email_taken: { status: 409, meaning: 'Another account has this email address.' },
  version_exists: { status: 409, meaning: 'The skill already has this version; versions are immutable.' },
  ambiguous_skill_slug: { status: 409, meaning: 'A bare slug names skills of several owners; name the owner as well (owner/slug).' },
  invalid_transition: { status: 409, meaning: 'The skill or report cannot move from its status to the one asked for.' },
  not_draft: { status: 409, meaning: 'Only a draft can be declined or removed.' },
  no_installable_version: { status: 409, meaning: 'A skill is published only with a version that can be installed.' },
  skill_quarantined: { status: 409, meaning: 'The skill is quarantined; an administrator may publish it anyway.' },
  already_reported: { status: 409, meaning: 'The caller already has an open report of this skill.' },
  no_open_reports: { status: 409, meaning: 'The skill has no open reports to resolve.' },
  cannot_modify_self: { status: 409, meaning: 'An administrator cannot demote or disable themselves.' },
  last_admin: { status: 409, meaning: 'The last enabled administrator cannot be demoted or disabled.' },
  too_many_keys: { status: 409, meaning: 'The account has the most live API keys it may hold.' },
  scan_job_running: { status: 409, meaning: 'A rescan job is already running.' },
  name_too_similar: {
    status: 409,
    meaning:
      'A new skill slug or handle looks like one someone else holds (or a popular one respelt, reordered, or with words added); the detail names it and how.',
  },
  name_reserved: { status: 409, meaning: 'A new skill slug or handle is, or looks like, a word the registry keeps for itself.' },
  // 410
  operation_disabled: { status: 410, meaning: 'The operation is no longer offered; the detail names what replaces it.' },
  // 413
  payload_too_large: { status: 413, meaning: 'The body is larger than this endpoint accepts.' },
  // 414, 415, 416
  uri_too_long: { status: 414, meaning: 'The URL is longer than the server reads.' },
  unsupported_media_type: {
    status: 415,
    meaning: 'A body of a Content-Type the endpoint does not take, or a package that is no zip or tar.gz.',
  },
  range_not_satisfiable: { status: 416, meaning: 'The Range asks for bytes past the end of the package.' },
  // 422
  invalid_archive: { status: 422, meaning: 'The package is not an archive the registry accepts; `errors` names each entry at fault.' },
  invalid_skill_md: { status: 422, meaning: "The package's SKILL.md is missing or invalid; `errors` says what to change." },
  archive_too_large: {
    status: 422,
    meaning:
      'The package holds more than an archive rebuilt with SKILL.md at its root may (1,000 files, 50 MiB unpacked); download the stored package.',
  },
  // 429
  rate_limited: { status: 429, meaning: 'Too many requests in the window; Retry-After says when to try again.' },
  too_many_uploads: { status: 429, meaning: 'The client already has as many uploads in flight as it may.' },
  // 431
  request_header_fields_too_large: { status: 431, meaning: 'The headers are larger than the server reads.' },
  // 500
  internal_error: { status: 500, meaning: 'A fault of the registry; quote the request id when reporting it.' },
  // 503
  database_unavailable: { status: 503, meaning: 'The database is not answering; Retry-After says when to try again.' },
  not_ready: { status: 503, meaning: 'The node is not ready to take requests (readiness check).' },
  shutting_down: { status: 503, meaning: 'The node is shutting down; send the request again.' },
  upload_interrupted: { status: 503, meaning: 'The package was removed while its version was recorded; upload it again.' },
  scan_unavailable: { status: 503, meaning: 'The package could not be scanned just now; send it again.' },
  // 507
  insufficient_storage: { status: 507, meaning: 'No room left on the disk, the database or the bucket; nothing was changed.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

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
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (code: ErrorCode, detail: string, errors?: FieldError[]) => new AppError(400, code, detail, errors);
export const validationFailed = (errors: FieldError[]) =>
  new AppError(
    400,
    'validation_failed',
    errors.length === 1 ? `${errors[0]!.field}: ${errors[0]!.message}` : 'The request has invalid fields; see errors.',
    errors,
  );
export const unauthenticated = (detail = 'Sign in or send an API key in the Authorization header.') =>
  new AppError(401, 'unauthenticated', detail);
export const forbidden = (code: ErrorCode, detail: string) => new AppError(403, code, detail);
export const notFound = (code: ErrorCode, detail: string) => new AppError(404, code, detail);
export const conflict = (code: ErrorCode, detail: string) => new AppError(409, code, detail);
