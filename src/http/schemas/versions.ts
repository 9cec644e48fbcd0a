import { Type } from 'typebox';
import { PageQuery, Timestamp } from './common.js';

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
    archive_format: Type.Union([Type.Literal('zip'), Type.Literal('tar.gz')]),
    file_count: Type.Integer(),
    downloads: Type.Integer(),
    skill_md: FrontMatter,
    warnings: Type.Array(Warning),
    created_at: Timestamp,
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

const FileEntry = Type.Object({ path: Type.String(), size: Type.Integer() });

export const FileList = Type.Object({
  items: Type.Array(FileEntry),
  file_count: Type.Integer(),
  total_size: Type.Integer(),
});

export const Validation = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Type.Object({ field: Type.String(), message: Type.String(), entry: Type.Optional(Type.String()) })),
  warnings: Type.Array(Warning),
  files: Type.Array(FileEntry),
  skill_md: FrontMatter,
});

export const StatsQuery = Type.Object({
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'How many days of daily counts, ending today (UTC).' })),
});

export const Stats = Type.Object({
  skill_id: Type.String(),
  total_downloads: Type.Integer(),
  versions: Type.Array(Type.Object({ version: Type.String(), downloads: Type.Integer() })),
  daily: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), downloads: Type.Integer() })),
});

export const VersionListQuery = Type.Object({ ...PageQuery });

/** Multipart bodies are documented, not validated by schema: the parts are streamed and checked as they arrive. */
export const UploadBody = Type.Object({
  file: Type.String({ format: 'binary', description: 'The package: a zip or a gzip-compressed tar.' }),
  version: Type.String({ description: 'Semantic Versioning 2.0, e.g. 1.2.0.' }),
  changelog: Type.Optional(Type.String()),
  metadata: Type.Optional(Type.String({ description: 'A JSON object, as text.' })),
});

export const WithPackageBody = Type.Object({
  name: Type.String(),
  slug: Type.Optional(Type.String()),
  version: Type.String(),
  description: Type.Optional(Type.String()),
  category: Type.Optional(Type.String()),
  tags: Type.Optional(Type.String({ description: 'A JSON array of strings, as text.' })),
  source_type: Type.Optional(Type.String()),
  source_url: Type.Optional(Type.String()),
  changelog: Type.Optional(Type.String()),
  metadata: Type.Optional(Type.String()),
  file: Type.String({ format: 'binary' }),
});
