import { Type } from 'typebox';
import { SLUG_MAX } from '@skill-registry/skill-package/rules';
import { Nullable, NullableTimestamp, OneOf, OneOfOrNull, PageQuery, Timestamp } from './common.js';
import {
  CATEGORY_MAX,
  DESCRIPTION_MAX,
  NAME_MAX,
  SEARCH_TEXT_MAX,
  SEARCH_WORDS_MAX,
  TAG_FILTERS_MAX,
  TAGS_MAX,
} from '@skill-registry/rules/limits';

export const SkillStatus = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('deprecated')]);
const SOURCE_TYPE_DESCRIPTION =
  '`github`: a repository on github.com; `external`: any http(s) URL; `original`: self-authored; null: not declared.';
export const SourceType = Type.Union([Type.Literal('original'), Type.Literal('github'), Type.Literal('external'), Type.Null()], {
  description: SOURCE_TYPE_DESCRIPTION,
});
const NullableString = (options: { maxLength?: number; description?: string } = {}) => Type.Union([Type.String(options), Type.Null()]);

export const Skill = Type.Object(
  {
    id: Type.String(),
    slug: Type.String({ description: 'The slug within its scope: `pdf-tools` of `@acme/pdf-tools`.' }),
    scope: Nullable(
      Type.String({ description: 'The handle of the user or organisation whose scope names the skill; null when unscoped.' }),
    ),
    full_name: Type.String({ description: '`pdf-tools`, or `@acme/pdf-tools` in a scope: what `:skillId` accepts besides the id.' }),
    name: Type.String(),
    description: Type.String(),
    category: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    status: OneOf(['draft', 'published', 'deprecated']),
    featured: Type.Boolean(),
    source_type: OneOfOrNull(['original', 'github', 'external'], { description: SOURCE_TYPE_DESCRIPTION }),
    source_url: Nullable(Type.String()),
    owner: Type.Object({
      kind: OneOf(['user', 'organisation'], { description: 'A user, or an organisation whose members manage the skill by their roles.' }),
      id: Type.String(),
      handle: Type.String({ description: "The owner's username or organisation handle." }),
      username: Type.String({ description: 'The same as `handle`, for clients that read this name.' }),
    }),
    private: Type.Boolean({ description: "An organisation's skill that only its members (and administrators) see." }),
    latest_version: Nullable(Type.String({ description: 'Highest semver version; null without versions.' })),
    downloads: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
    published_at: NullableTimestamp,
    hidden: Type.Boolean({
      description:
        "Hidden pending review of users' reports: listed, found and downloadable only by its owner and administrators until an administrator resolves the reports.",
    }),
    quarantined: Type.Boolean({
      description:
        'Every version is quarantined (the package scanner judged each malicious), so nothing is installable; `latest_version` is then null although versions exist.',
    }),
    declined: Nullable(
      Type.Object(
        {
          reason: Type.String({ description: "The reviewer's words to the owner." }),
          at: Timestamp,
        },
        {
          description:
            'A reviewer declined this draft and asked for changes: why, and when. Null otherwise. Cleared when the owner uploads a ' +
            'version (the draft then waits in the review queue again) and when the skill is published.',
        },
      ),
    ),
  },
  { $id: 'Skill', title: 'Skill' },
);
export const SkillRef = Type.Ref('Skill');

/** The metadata both create and update accept, each optional. */
const editableFields = {
  description: Type.Optional(NullableString({ maxLength: DESCRIPTION_MAX })),
  category: Type.Optional(NullableString({ maxLength: CATEGORY_MAX })),
  tags: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), { maxItems: TAGS_MAX * 2, description: `At most ${TAGS_MAX} distinct tags.` }),
  ),
  source_type: Type.Optional(SourceType),
  source_url: Type.Optional(NullableString({ maxLength: 2048 })),
};

export const CreateSkillBody = Type.Object(
  {
    name: Type.String({ maxLength: NAME_MAX * 2 }),
    slug: Type.Optional(
      Type.String({
        maxLength: SLUG_MAX,
        description: 'Lower-case words joined by hyphens; derived from the name when omitted. Immutable.',
      }),
    ),
    scope: Type.Optional(
      NullableString({
        maxLength: 100,
        description:
          'Name the skill `@scope/slug`: your own username, or an organisation where you have a role (it then owns the skill). Absent or null: unscoped.',
      }),
    ),
    private: Type.Optional(Type.Boolean({ description: "Only for an organisation's skill: seen by its members alone." })),
    ...editableFields,
  },
  { additionalProperties: false },
);

export const UpdateSkillBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: NAME_MAX * 2 })),
    slug: Type.Optional(Type.String({ maxLength: 200, description: 'Accepted only when equal to the current slug.' })),
    private: Type.Optional(
      Type.Boolean({ description: "An organisation's skill seen by its members alone (owners and admins of the organisation change it)." }),
    ),
    ...editableFields,
  },
  { additionalProperties: false },
);

const searchText = (description: string) => Type.Optional(Type.String({ maxLength: SEARCH_TEXT_MAX, description }));

export const ListSkillsQuery = Type.Object({
  q: searchText(
    'Words that must each match the name, slug, tags, category or description: as a word, an English stem, a prefix (the last ' +
      'word, as typed), with a typo (one edit from 5 letters, two from 9) or, for scripts written without spaces, as a substring. ' +
      `At most ${SEARCH_TEXT_MAX} characters and ${SEARCH_WORDS_MAX} different words (400 above).`,
  ),
  keyword: searchText('Alias of q.'),
  query: searchText('Alias of q.'),
  search: searchText('Alias of q; the first non-blank of q, keyword, query, search is used.'),
  category: Type.Optional(Type.String({ maxLength: 200, description: 'Exact match.' })),
  tags: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: `Comma-separated; every listed tag must be present. At most ${TAG_FILTERS_MAX} different tags (400 above).`,
    }),
  ),
  featured: Type.Optional(Type.Boolean({ description: 'true: only featured skills.' })),
  status: Type.Optional(
    Type.String({ description: 'draft, published, deprecated or all. Honoured for an admin session only; ignored otherwise.' }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('relevance'), Type.Literal('latest'), Type.Literal('downloads'), Type.Literal('featured')], {
      description: 'relevance (best match first; only with q, and the default then), latest (the default without q), downloads, featured.',
    }),
  ),
  ...PageQuery,
});

/** Matched spans, `[start, end)` in UTF-16 code units of the returned text. */
const Spans = Type.Array(Type.Tuple([Type.Integer(), Type.Integer()]));

export const SkillListItem = Type.Object(
  {
    ...Skill.properties,
    highlights: Type.Optional(
      Type.Object(
        { name: Spans, description: Spans },
        { description: 'In search results only: where the words of q matched in the name and the description.' },
      ),
    ),
  },
  { title: 'SkillListItem' },
);

export const SkillList = Type.Object(
  {
    items: Type.Array(SkillListItem),
    page: Type.Integer(),
    page_size: Type.Integer(),
    total: Type.Integer(),
    match: Type.Optional(
      OneOf(['full', 'partial'], {
        description: 'With q: `partial` when no skill matched every word and the best partial matches are listed instead.',
      }),
    ),
  },
  { title: 'SkillList' },
);

export const StatusBody = Type.Object(
  {
    status: SkillStatus,
    reason: Type.Optional(Type.String({ maxLength: 500 })),
    override_quarantine: Type.Optional(
      Type.Boolean({
        description: 'Publish although every version of the skill is quarantined (malicious); needs a `reason`, kept in the audit trail.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const FeaturedBody = Type.Object(
  {
    featured: Type.Boolean(),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const SkillNameHistory = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        name: Type.String({ description: 'A display name the skill had.' }),
        until: Type.String({ format: 'date-time', description: 'When it was renamed from this name.' }),
        changed_by: Type.Optional(
          Type.Union(
            [
              Type.Object({ kind: Type.Literal('user'), id: Type.String(), username: Type.String() }),
              Type.Object({ kind: Type.Literal('org'), handle: Type.String() }),
            ],
            {
              description:
                'Who renamed it. The owner, members of the owning organisation and administrators see the user. Anyone else sees ' +
                "a user's own renames of their skill as the user, an organisation's skill renamed by one of its members (or its " +
                "creator) as the organisation (`kind: 'org'`), and nothing for other renames (an administrator's).",
            },
          ),
        ),
      }),
      { description: 'The earlier names, newest first (at most 100).' },
    ),
  },
  { title: 'SkillNameHistory' },
);
