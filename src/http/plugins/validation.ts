import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

/**
 * Bodies are validated strictly (no type coercion, unknown fields refused, so typos never pass silently);
 * query strings and paths arrive as text, so those parts coerce "2" to 2 and "true" to true.
 */
export function installValidators(app: FastifyInstance): void {
  const strict = addFormats(new Ajv({ ...common, coerceTypes: false }));
  const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}
