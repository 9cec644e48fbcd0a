import { Type, type TSchema } from 'typebox';
import { MAX_PAGE_DEPTH, MAX_PAGE_SIZE } from './limits.js';

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'Always "about:blank": the `code` field carries the machine-readable kind.' }),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable error code, e.g. `slug_taken`.' }),
    detail: Type.String({ description: 'A sentence a person can act on.' }),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String(),
          message: Type.String(),
          entry: Type.Optional(Type.String({ description: 'For package refusals: the archive entry at fault.' })),
        }),
        { description: 'Field problems of a validation failure.' },
      ),
    ),
  },
  { $id: 'Problem', title: 'Problem (RFC 9457)' },
);

const ProblemRef = Type.Ref('Problem');

/** Documents every error status a route can answer with, each as a problem document. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) out[status] = ProblemRef;
  return out;
}

export const PageQuery = {
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_DEPTH,
      default: 1,
      description: `Page number, from 1. page × page_size may not pass ${MAX_PAGE_DEPTH} items (400 above).`,
    }),
  ),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      default: 20,
      description: `Items per page; values above ${MAX_PAGE_SIZE} are treated as ${MAX_PAGE_SIZE}.`,
    }),
  ),
};

export function ListEnvelope<T extends TSchema>(item: T, name: string) {
  return Type.Object(
    {
      items: Type.Array(item),
      page: Type.Integer(),
      page_size: Type.Integer(),
      total: Type.Integer(),
    },
    { title: name },
  );
}

export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const SkillRefParams = Type.Object({
  skillId: Type.String({ minLength: 1, maxLength: 200, description: 'The skill id or its slug.' }),
});
