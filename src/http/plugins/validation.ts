import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { validationFailed } from '../../domain/errors.js';
import { findUnstorable } from '@skill-registry/rules/storable-text';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused, so typos never pass silently);
 * query strings and paths arrive as text, so those parts coerce "2" to 2 and "true" to true.
 */
const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));
const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));

interface CompilerInput {
  schema: FastifySchema;
  httpPart?: string;
}

export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }: CompilerInput) =>
    httpPart === 'body' ? strict.compile(schema as object) : finiteOnly(coercing.compile(schema as object)),
  );
  // Bodies are checked for text no database can store (@skill-registry/rules/storable-text) on the routes that take one, so no
  // other route pays for a hook stage it does not need.
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return;
    const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const found = findUnstorable(request.body, '');
      done(found === null ? undefined : validationFailed([{ ...found, field: found.field === '' ? 'body' : found.field }]));
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [check] : [...(Array.isArray(existing) ? existing : [existing]), check];
  });
}

/**
 * Ajv coerces "Infinity" and "1e400" in a query string to Infinity and then skips `minimum`/`maximum` for it (its
 * own bug), so a value no route can use would reach the handlers: any number a query or path parameter became
 * must be finite.
 */
function finiteOnly(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    const valid = validate(data);
    checked.errors = validate.errors;
    if (!valid || typeof data !== 'object' || data === null) return valid;
    // for…in rather than Object.entries: every request with a path or query passes here, and entries allocates.
    for (const key in data) {
      const value = (data as Record<string, unknown>)[key];
      if (typeof value === 'number' && !Number.isFinite(value)) {
        checked.errors = [
          { instancePath: `/${key}`, schemaPath: '#/finite', keyword: 'finite', params: {}, message: 'must be a finite number' },
        ];
        return false;
      }
    }
    return true;
  }) as ValidateFunction;
  return checked;
}

/**
 * PostgreSQL cannot store a NUL character in text, and no field of this API has a use for one: it is refused up
 * front for both databases alike instead of failing deep in a query. For paths and query strings this runs in
 * onRequest, and only looks further when the URL holds an encoded NUL at all (a URL cannot carry a lone
 * surrogate: percent-decoding yields whole characters).
 */
export function refuseNul(request: FastifyRequest): Error | undefined {
  const url = request.url;
  if (!url.includes('%00') && !url.includes('\u0000')) return undefined;
  // A package file path is looked up in the version's index, where such a path is simply absent (404).
  const { '*': _filePath, ...params } = (request.params ?? {}) as Record<string, unknown>;
  const found = findUnstorable(params, '') ?? findUnstorable(request.query, '');
  return found === null ? undefined : validationFailed([found]);
}

/**
 * For multipart routes: the body schema documents the parts in OpenAPI, but the parts are streamed and
 * checked as they arrive, so the parsed body (there is none) is not validated against it.
 */
export function streamedBodyCompiler({ schema, httpPart }: CompilerInput) {
  if (httpPart === 'body') return () => true;
  return coercing.compile(schema as object);
}
