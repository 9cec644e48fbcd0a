import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Static, TObject, TSchema } from 'typebox';
import { jsonDepthProblem } from '@skill-registry/rules/json-depth';
import { AppError, badRequest } from '../domain/errors.js';

export const MAX_FIELD_BYTES = 64 * 1024;

/** RFC 2046 allows a boundary of 1 to 70 characters; the parser underneath fails on longer ones with a bare error. */
export const MAX_BOUNDARY_LENGTH = 70;

/** What an upload's file is staged as: anything that can be let go again when the rest of the form is refused. */
export interface Staged {
  discard(): Promise<void>;
}

export interface Upload<Fields, File extends Staged = Staged> {
  fields: Fields;
  file: File | null;
}

/** One issue as Ajv reports it: what the error handler turns into a problem's `errors` entry. */
interface FieldIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A form's refusal, shaped as Fastify's own body validation failure so the error handler answers it exactly as it
 * answers a JSON body: 400 validation_failed with one `errors` entry per field.
 */
class FormValidationError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_VALIDATION';
  readonly validationContext = 'body';
  constructor(readonly validation: FieldIssue[]) {
    super('The form has invalid fields.');
    this.name = 'FormValidationError';
  }
}

/** The fields of a form once checked: JSON-text parts decoded to their values. */
export type FormValues<Text extends TObject, Json extends Record<string, TSchema>> = Omit<Static<Text>, keyof Json> & {
  [K in keyof Json]?: Static<Json[K]>;
};

/** The text parts one upload route takes, and how they are checked. */
export interface UploadForm<Fields> {
  /** The part names besides `file`; a part with any other name is refused as it arrives, before the package. */
  readonly names: readonly string[];
  /** The collected parts checked against the form's schemas; throws the same 400 a JSON body would get. */
  check(fields: Record<string, string>): Fields;
}

/**
 * A form from the schema of its text parts (an object of strings, unknown parts refused), compiled once with the
 * app's body validator. `json` names the parts that carry JSON text: each is decoded and its value checked against
 * the schema given for it (whose description completes "must be …" when the text is no JSON). A part listed in
 * `emptyIsAbsent`, or a JSON part holding only whitespace, counts as not sent.
 */
// eslint-disable-next-line @typescript-eslint/no-generated-empty-object-type -- a form without JSON parts has none
export function uploadForm<Text extends TObject, Json extends Record<string, TSchema> = Record<never, TSchema>>(
  app: FastifyInstance,
  text: Text,
  options: { json?: Json; emptyIsAbsent?: readonly (keyof Static<Text> & string)[] } = {},
): UploadForm<FormValues<Text, Json>> {
  const compile = app.validatorCompiler;
  if (compile === undefined) throw new Error('uploadForm needs the app validator compiler installed first.');
  const validator = (schema: TSchema) =>
    compile({ schema, method: 'POST', url: '', httpPart: 'body' }) as ((data: unknown) => boolean) & { errors?: FieldIssue[] | null };
  const checkText = validator(text);
  const json = Object.entries(options.json ?? {}).map(([name, schema]) => ({ name, schema, check: validator(schema) }));
  const emptyIsAbsent = new Set<string>(options.emptyIsAbsent ?? []);
  return {
    names: Object.keys(text.properties),
    check(fields) {
      const present = Object.fromEntries(Object.entries(fields).filter(([name, value]) => !(value === '' && emptyIsAbsent.has(name))));
      const issues: FieldIssue[] = checkText(present) ? [] : [...(checkText.errors ?? [])];
      const values: Record<string, unknown> = { ...present };
      for (const { name, schema, check } of json) {
        const raw = present[name];
        if (raw === undefined || raw.trim() === '') {
          // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the parsed form is a plain object, as Ajv reads it
          delete values[name];
          continue;
        }
        const tooDeep = jsonDepthProblem(raw, name);
        if (tooDeep !== null) throw tooDeep;
        let value: unknown;
        try {
          value = JSON.parse(raw);
        } catch {
          issues.push({
            instancePath: `/${name}`,
            keyword: 'contentMediaType',
            params: {},
            message: `must be ${(schema as { description?: string }).description ?? 'JSON'}`,
          });
          continue;
        }
        if (!check(value))
          issues.push(...(check.errors ?? []).map((issue) => ({ ...issue, instancePath: `/${name}${issue.instancePath}` })));
        values[name] = value;
      }
      if (issues.length > 0) throw new FormValidationError(issues);
      return values as FormValues<Text, Json>;
    },
  };
}

/**
 * Reads a multipart upload part by part: text fields are collected, the one `file` part is handed to
 * `stage` as a stream as it arrives (never buffered), whatever order the client sends them in. The collected
 * fields are then checked by `form`; a refused form discards the staged file.
 */
export async function readUpload<Fields, File extends Staged>(
  request: FastifyRequest,
  form: UploadForm<Fields>,
  stage: (body: Readable) => Promise<File>,
): Promise<Upload<Fields, File>> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', 'Send the package as multipart/form-data with the archive in a part named "file".');
  }
  checkBoundary(request.headers['content-type'] ?? '');
  const fields: Record<string, string> = {};
  let file: File | null = null;
  try {
    for await (const part of request.parts()) {
      const name = part.fieldname;
      if (part.type === 'file') {
        if (name !== 'file') {
          part.file.resume();
          throw refusedPart(name, `Unexpected file part "${name}"; the archive goes in the part named "file".`, 'is not a known file part');
        }
        if (file !== null) throw refusedPart('file', ONE_FILE, 'appears more than once');
        // Past the limit the parser quietly drops the rest of the part and ends the stream only when the whole body
        // has arrived: a 413 would wait for every byte a client chose to send. Ending the part at once answers now.
        part.file.once('limit', () =>
          part.file.destroy(Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' })),
        );
        file = await stage(part.file);
        continue;
      }
      if (!form.names.includes(name)) throw refusedPart(name, `Unknown field "${name}".`, 'is not a known field');
      if (name in fields) throw refusedPart(name, `Field "${name}" appears more than once.`, 'appears more than once');
      if (part.valueTruncated) throw refusedPart(name, `Field "${name}" is too long.`, `must be at most ${MAX_FIELD_BYTES} bytes`);
      const value = String(part.value);
      if (value.includes('\u0000')) throw refusedPart(name, `Field "${name}" contains a NUL character.`, 'must not contain NUL characters');
      fields[name] = value;
    }
    return { fields: form.check(fields), file };
  } catch (error) {
    await file?.discard().catch(() => undefined);
    throw translate(error);
  }
}

const ONE_FILE = 'Send exactly one file.';

/** A part refused: 400 validation_failed naming its field. */
function refusedPart(field: string, detail: string, message: string): AppError {
  return badRequest('validation_failed', detail, [{ field, message }]);
}

function checkBoundary(contentType: string): void {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2] ?? '';
  if (boundary === '') {
    throw badRequest(
      'invalid_multipart',
      'The Content-Type multipart/form-data needs its boundary parameter, e.g. "multipart/form-data; boundary=x1y2".',
    );
  }
  if (boundary.length > MAX_BOUNDARY_LENGTH) {
    throw badRequest(
      'invalid_multipart',
      `The multipart boundary is ${boundary.length} characters long; at most ${MAX_BOUNDARY_LENGTH} are allowed.`,
    );
  }
}

/** The parser's messages for a body that ends before its closing boundary (or a part that ends before its data). */
const TRUNCATED = /unexpected end of (multipart data|form)|terminated early/i;

/** Busboy's and the multipart plugin's errors, as the API's problem documents. */
function translate(error: unknown): unknown {
  const { code, message } = error as { code?: string; message?: unknown };
  if (typeof message === 'string' && TRUNCATED.test(message)) {
    return badRequest(
      'invalid_multipart',
      'The multipart body ends before its closing boundary; send the whole form, ending with --<boundary>--.',
    );
  }
  switch (code) {
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('invalid_multipart', 'The request ended before the multipart body was complete.');
    case 'FST_PROTO_VIOLATION':
      return badRequest('validation_failed', 'A field name is not allowed.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'The package is larger than the upload limit.');
    case 'FST_FILES_LIMIT':
      return refusedPart('file', ONE_FILE, 'appears more than once');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest('validation_failed', 'The upload has too many fields.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(415, 'unsupported_media_type', 'Send the package as multipart/form-data.');
    default:
      return error;
  }
}

export function requireFile<File extends Staged>(upload: Upload<unknown, File>): File {
  if (upload.file === null) throw refusedPart('file', 'The archive is missing: send it in a part named "file".', 'is required');
  return upload.file;
}
