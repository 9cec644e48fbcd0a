import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { MAX_PAGE_DEPTH, MAX_PAGE_SIZE } from '@skill-registry/rules/limits';

const FrontMatterChange = {
  line: Type.Integer({ minimum: 1, description: 'The line of SKILL.md, counting its opening "---" as line 1.' }),
  original: Type.String({ description: 'The line as it is.' }),
  corrected: Type.String({ description: 'The line with its value quoted.' }),
};

/** The repair of SKILL.md front matter that is not YAML, for the mistakes whose intent is beyond doubt. */
export const FrontMatterFix = Type.Object(
  {
    ...FrontMatterChange,
    changes: Type.Array(Type.Object(FrontMatterChange), { description: 'Every line changed (the first is also given above).' }),
    front_matter: Type.String({ description: 'The corrected front matter: the text between the two "---" lines.' }),
  },
  {
    description:
      'For a SKILL.md whose front matter is not YAML only because a value needs quoting (an unquoted ": ", "| text" on one line, a reserved first character): the corrected line and front matter, checked to parse to the text the line held.',
  },
);

/** One problem of a refusal: a field, or for package refusals an archive entry, and what is wrong with it. */
export const FieldProblem = Type.Object({
  field: Type.String(),
  message: Type.String(),
  entry: Type.Optional(Type.String({ description: 'For package refusals: the archive entry at fault.' })),
  fix: Type.Optional(FrontMatterFix),
});

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'Always "about:blank": the `code` field carries the machine-readable kind.' }),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String({ description: 'Stable machine-readable error code, e.g. `slug_taken`.' }),
    detail: Type.String({ description: 'A sentence a person can act on.' }),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(FieldProblem, {
        description:
          'Field problems of a validation failure; for a refused package, every problem found, entry by entry (at most 50: the detail counts them all).',
      }),
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
/**
 * A value of `schema`'s one type, or null, written as a list of types (`"type": ["string", "null"]`, as OpenAPI 3.1
 * allows) rather than `anyOf`. The response serialiser writes a type list after one test of the value, where it
 * checks every value of an `anyOf` against each branch with a validator: written so, a page of twenty skills
 * serialises in half the time (22 µs instead of 44, see docs/performance.md).
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}

/** One of a few strings, as an `enum` of one type (see `Nullable` for why not `anyOf` of constants). */
export function OneOf<const V extends readonly string[]>(values: V, options: { description?: string } = {}): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ ...options, type: 'string', enum: [...values] });
}

/** One of a few strings, or null. */
export function OneOfOrNull<const V extends readonly string[]>(
  values: V,
  options: { description?: string } = {},
): TUnsafe<V[number] | null> {
  return Type.Unsafe<V[number] | null>({ ...options, type: ['string', 'null'], enum: [...values, null] });
}

export const NullableTimestamp = Nullable(Type.String({ format: 'date-time' }));

export const SkillRefParams = Type.Object({
  skillId: Type.String({ minLength: 1, maxLength: 200, description: 'The skill id or its slug.' }),
});

/** A list answered whole, not paged: `{ items: [...] }`. */
export function ItemList<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item) });
}
