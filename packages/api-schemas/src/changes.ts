import { Type } from 'typebox';
import { CHANGE_TYPES, CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT } from '@skill-registry/rules/changes';
import { Nullable, OneOf } from './common.js';

const Cursor = Type.String({
  pattern: '^[0-9]{1,15}$',
  description: "An entry id or a page's `next`: read the entries after it. Opaque to clients: keep it, do not compute it.",
});

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(Cursor),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CHANGES_MAX_LIMIT,
        default: CHANGES_DEFAULT_LIMIT,
        description: `Entries per page, at most ${CHANGES_MAX_LIMIT}.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const ChangeEntry = Type.Object(
  {
    id: Type.String({ description: 'The entry id, also a cursor: `since` it reads on after this entry.' }),
    type: OneOf(CHANGE_TYPES, {
      description: 'What changed. `skill.hidden` and `skill.deleted` tell a mirror of public skills to drop the skill.',
    }),
    occurred_at: Type.String({ format: 'date-time' }),
    skill: Type.Object({
      id: Type.String({ description: 'The skill id: stable across renames and transfers.' }),
      name: Type.String({ description: 'Its full name (`pdf-tools`, `@acme/pdf-tools`) as of this change.' }),
    }),
    version: Nullable(Type.String({ description: 'The version, for `version.*` entries.' })),
    public: Type.Boolean({ description: 'Whether the skill was public right after this change.' }),
    links: Type.Object({
      skill: Type.String({ description: 'Where the skill is now (by id).' }),
      version: Nullable(Type.String({ description: 'Where the version is now, for `version.*` entries.' })),
    }),
  },
  { title: 'ChangeEntry' },
);

export const ChangePage = Type.Object(
  {
    items: Type.Array(ChangeEntry),
    next: Type.String({ description: 'Pass as `since` to read on; when items is shorter than limit, the feed has no more for now.' }),
  },
  { title: 'ChangePage' },
);
