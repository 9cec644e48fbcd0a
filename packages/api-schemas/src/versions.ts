import { Type } from 'typebox';
import { ARCHIVE_FORMATS } from '@skill-registry/skill-package/format';
import { FieldProblem, PageQuery, Timestamp } from './common.js';
import { CATEGORY_MAX, DESCRIPTION_MAX, TAGS_MAX } from '@skill-registry/rules/limits';
import { CreateSkillBody } from './skills.js';
import { PackageScan, ScanSummary } from './scans.js';

const Warning = Type.Object({ code: Type.String(), message: Type.String() });
const FrontMatter = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
  description: "SKILL.md's YAML front matter (name, description and whatever else it declares); null without SKILL.md.",
});

export const Version = Type.Object(
  {
    version: Type.String(),
    changelog: Type.Union([Type.String(), Type.Null()]),
    metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    size: Type.Integer({ description: 'Archive size in bytes.' }),
    sha256: Type.String(),
    archive_format: Type.Enum(ARCHIVE_FORMATS),
    file_count: Type.Integer(),
    downloads: Type.Integer(),
    skill_md: FrontMatter,
    warnings: Type.Array(Warning),
    created_at: Timestamp,
    scan: ScanSummary,
  },
  { $id: 'Version', title: 'Version' },
);
export const VersionRef = Type.Ref('Version');

export const VersionParams = Type.Object({
  skillId: Type.String({ minLength: 1, maxLength: 200, description: 'The skill id or its slug.' }),
  version: Type.String({ minLength: 1, maxLength: 64, description: 'A version, or `latest`.' }),
});

export const FileParams = Type.Object({
  skillId: Type.String({ minLength: 1, maxLength: 200 }),
  version: Type.String({ minLength: 1, maxLength: 64 }),
  '*': Type.String({ minLength: 1, maxLength: 1024, description: 'The file path inside the package.' }),
});

const FileEntry = Type.Object({
  path: Type.String(),
  size: Type.Integer(),
  executable: Type.Boolean({
    description:
      "Whether the archive marks the file executable (its owner's execute bit, from a tar mode or a zip entry made on Unix or macOS); installs give such files mode 0755, others 0644. Versions uploaded before the registry recorded it list false.",
  }),
});

export const FileList = Type.Object({
  items: Type.Array(FileEntry),
  file_count: Type.Integer(),
  total_size: Type.Integer(),
});

export const Validation = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(FieldProblem),
  warnings: Type.Array(Warning),
  files: Type.Array(FileEntry),
  skill_md: FrontMatter,
  scan: PackageScan,
});

export const StatsQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'How many days of daily counts, ending today (UTC).' }),
  ),
});

export const Stats = Type.Object({
  skill_id: Type.String(),
  total_downloads: Type.Integer(),
  versions: Type.Array(Type.Object({ version: Type.String(), downloads: Type.Integer() })),
  daily: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), downloads: Type.Integer() })),
});

export const VersionListQuery = Type.Object({ ...PageQuery });

/**
 * The text parts of the upload forms. Multipart carries only text: each schema checks the parts as they arrive
 *, and a part holding JSON text is decoded first and checked against its entry in the
 * form's `json` schemas. Semantic rules (semver, metadata, source URLs) stay with the domain.
 */
export const UploadFields = Type.Object(
  {
    version: Type.String({ description: 'Semantic Versioning 2.0, e.g. 1.2.0.' }),
    changelog: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.String({ description: 'A JSON object, as text.' })),
  },
  { additionalProperties: false },
);

const skillFields = CreateSkillBody.properties;

export const WithPackageFields = Type.Object(
  {
    name: skillFields.name,
    slug: skillFields.slug,
    scope: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'Name the skill `@scope/slug`: your username, or an organisation where you have a role.',
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
    category: Type.Optional(Type.String({ maxLength: CATEGORY_MAX })),
    tags: Type.Optional(Type.String({ description: 'A JSON array of strings, as text, e.g. ["pdf","office"].' })),
    source_type: Type.Optional(Type.Enum(['original', 'github', 'external'])),
    source_url: Type.Optional(Type.String({ maxLength: 2048 })),
    ...UploadFields.properties,
  },
  { additionalProperties: false },
);

/** The with-package parts that hold JSON text, and what their decoded values must be. */
export const WithPackageJson = {
  tags: Type.Array(skillFields.tags.items, { maxItems: TAGS_MAX * 2, description: 'a JSON array of strings, e.g. ["pdf","office"]' }),
};

/** The validate form takes the file alone. */
export const ValidateFields = Type.Object({}, { additionalProperties: false });

const FilePart = Type.String({ format: 'binary', description: 'The package: a zip or a gzip-compressed tar.' });

/** The documented multipart bodies (OpenAPI): the text parts above and the package. */
export const UploadBody = Type.Object({ file: FilePart, ...UploadFields.properties });
export const WithPackageBody = Type.Object({ ...WithPackageFields.properties, file: FilePart });
export const ValidateBody = Type.Object({ file: FilePart });
