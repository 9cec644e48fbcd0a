import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { validationFailed } from '../../domain/errors.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused, so typos never pass silently);
 * query strings and paths arrive as text, so those parts coerce "2" to 2 and "true" to true.
 */
const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));
const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));

type CompilerInput = { schema: FastifySchema; httpPart?: string };

export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }: CompilerInput) => (httpPart === 'body' ? strict : coercing).compile(schema as object));
  // Bodies are checked for NUL characters (see refuseNul) on the routes that take one, so no other route pays
  // for a hook stage it does not need.
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return;
    const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const field = findNul(request.body, 'body');
      done(field === null ? undefined : nulRefused(field));
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [check] : [...(Array.isArray(existing) ? existing : [existing]), check];
  });
}

function nulRefused(field: string): Error {
  return validationFailed([{ field, message: 'must not contain NUL characters' }]);
}

/**
 * PostgreSQL cannot store a NUL character in text, and no field of this API has a use for one: it is refused up
 * front for both databases alike instead of failing deep in a query. For paths and query strings this runs in
 * onRequest, and only looks further when the URL holds an encoded NUL at all.
 */
export function refuseNul(request: FastifyRequest): Error | undefined {
  const url = request.url;
  if (!url.includes('%00') && !url.includes('\u0000')) return undefined;
  // A package file path is looked up in the version's index, where such a path is simply absent (404).
  const field = findNul(request.params, 'path', 0, '*') ?? findNul(request.query, 'query');
  return field === null ? undefined : nulRefused(field);
}

function findNul(value: unknown, where: string, depth = 0, skip?: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? where : null;
  if (depth > 32 || typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key === skip) continue;
    const found = findNul(inner, where === 'body' || where === 'query' || where === 'path' ? key : `${where}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * For multipart routes: the body schema documents the parts in OpenAPI, but the parts are streamed and
 * checked as they arrive, so the parsed body (there is none) is not validated against it.
 */
export function streamedBodyCompiler({ schema, httpPart }: CompilerInput) {
  if (httpPart === 'body') return () => true;
  return coercing.compile(schema as object);
}
