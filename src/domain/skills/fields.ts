import { looksLikeId } from '../../lib/id-shape.js';
import { badRequest, validationFailed, type FieldError } from '../errors.js';

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX = 64;
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 1024;
export const CATEGORY_MAX = 64;
export const TAGS_MAX = 20;
export const TAG_PATTERN = /^[a-z0-9][a-z0-9.+-]{0,31}$/;

export function slugProblem(slug: string): string | null {
  if (slug.length === 0 || slug.length > SLUG_MAX) return `must be 1 to ${SLUG_MAX} characters`;
  if (!SLUG_PATTERN.test(slug)) return 'must be lower-case letters and digits in words joined by single hyphens, like "pdf-tools"';
  // A slug shaped like an id would make `:skillId` ambiguous, since paths accept either.
  if (looksLikeId(slug)) return 'must not have the shape of a skill id (a UUID)';
  return null;
}

/** Derives a slug from a display name when the caller gives none, as most registries do from a package name. */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** Trims and lower-cases tags, drops duplicates, and checks each against the tag rule. */
export function normaliseTags(tags: readonly string[], field = 'tags'): string[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  tags.forEach((raw, index) => {
    const tag = raw.trim().toLowerCase();
    if (!TAG_PATTERN.test(tag)) {
      errors.push({ field: `${field}[${index}]`, message: `"${raw}" is not a valid tag: 1 to 32 of a-z, 0-9, ".", "+", "-", starting with a letter or digit` });
      return;
    }
    seen.add(tag);
  });
  if (seen.size > TAGS_MAX) errors.push({ field, message: `at most ${TAGS_MAX} tags` });
  if (errors.length > 0) throw validationFailed(errors);
  return [...seen];
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > NAME_MAX) {
    throw validationFailed([{ field: 'name', message: `must be 1 to ${NAME_MAX} characters (not counting surrounding spaces)` }]);
  }
  return trimmed;
}

export function checkSlug(slug: string): string {
  const problem = slugProblem(slug);
  if (problem) throw badRequest('invalid_slug', `Slug "${slug}" ${problem}.`, [{ field: 'slug', message: problem }]);
  return slug;
}
