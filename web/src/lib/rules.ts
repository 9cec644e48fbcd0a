/**
 * The registry's own field rules (@skill-registry/rules), run in the browser as the person types, so the console
 * and the registry apply one rule from one place; the server still checks everything again.
 */
import { checkNewAccount } from '@skill-registry/rules/account-fields';
import { AppError } from '@skill-registry/rules/errors';
import {
  CATEGORY_MAX,
  DESCRIPTION_MAX,
  NAME_MAX,
  TAGS_MAX,
  checkName,
  normaliseTags,
  slugFromName,
  slugProblem,
} from '@skill-registry/rules/skill-fields';
import { checkSource } from '@skill-registry/rules/source';
import { checkChangelog, checkVersion, parseMetadata } from '@skill-registry/rules/version-fields';
import type { SourceType } from '../api/types';
import { splitTags } from './tags';

export { CATEGORY_MAX, DESCRIPTION_MAX, NAME_MAX, TAGS_MAX, slugFromName, splitTags };

/** Field name → the first problem with it. */
export type FieldProblems = Partial<Record<string, string>>;

/** Runs a rule that throws the server's AppError, collecting its field problems. */
function collect(rule: () => unknown, fallbackField: string): FieldProblems {
  try {
    rule();
    return {};
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const out: FieldProblems = {};
    if (!error.errors || error.errors.length === 0) {
      out[fallbackField] = error.detail;
      return out;
    }
    for (const { field, message } of error.errors) {
      // `tags[2]` reports on the tags input as a whole.
      const key = field.replace(/\[\d+\]$/, '');
      out[key] ??= message;
    }
    return out;
  }
}

function lengthProblem(value: string, max: number): string | undefined {
  return value.trim().length > max ? `must be at most ${max} characters (${value.trim().length} now)` : undefined;
}

export interface SkillFields {
  name: string;
  slug: string;
  description: string;
  category: string;
  tags: string;
  source_type: SourceType;
  source_url: string;
}

/**
 * Every problem with a skill form, by field. `slugRequired` is false when editing (the slug is fixed) and
 * when creating with an empty slug box, in which case the slug the server would derive is checked instead.
 */
export function skillProblems(fields: SkillFields, options: { creating: boolean }): FieldProblems {
  const problems: FieldProblems = {
    ...collect(() => checkName(fields.name), 'name'),
    ...collect(() => normaliseTags(splitTags(fields.tags)), 'tags'),
    ...collect(() => checkSource({ source_type: fields.source_type, source_url: fields.source_url }), 'source_url'),
  };
  if (options.creating) {
    const slug = fields.slug.trim();
    if (slug !== '') {
      const problem = slugProblem(slug);
      if (problem) problems.slug = problem;
    } else if (fields.name.trim() !== '' && slugProblem(slugFromName(fields.name)) !== null) {
      problems.slug = 'required: the name has no letters or digits to make one from';
    }
  }
  const description = lengthProblem(fields.description, DESCRIPTION_MAX);
  if (description) problems.description = description;
  const category = lengthProblem(fields.category, CATEGORY_MAX);
  if (category) problems.category = category;
  return problems;
}

export function accountProblems(fields: { username: string; email: string; password: string }): FieldProblems {
  return collect(() => checkNewAccount(fields), 'username');
}

export function versionProblems(fields: { version: string; changelog: string; metadata: string }): FieldProblems {
  return {
    ...collect(() => checkVersion(fields.version), 'version'),
    ...collect(() => checkChangelog(fields.changelog), 'changelog'),
    ...collect(() => parseMetadata(fields.metadata), 'metadata'),
  };
}

export function hasProblems(problems: FieldProblems): boolean {
  return Object.values(problems).some((p) => p !== undefined);
}
