import { CATEGORY_MAX, DESCRIPTION_MAX, NAME_MAX, TAGS_MAX } from './limits.js';
import { SLUG_MAX, slugProblem } from '@skill-registry/skill-package/rules';
import { badRequest, validationFailed, type FieldError } from './errors.js';
import { checkDisplayText, displayTextProblem } from './display-text.js';

// The limits are stated by the API's schemas and the slug rule is shared with the command line; both live in
// workspace packages so the registry, its client and its command line read them from one place.
export { CATEGORY_MAX, DESCRIPTION_MAX, NAME_MAX, SLUG_MAX, TAGS_MAX, slugProblem };
export const TAG_PATTERN = /^[a-z0-9][a-z0-9.+-]{0,31}$/;

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
    // Checked before the tag rule so the answer names the hidden character rather than only the pattern.
    const hidden = displayTextProblem(raw);
    if (hidden !== null) {
      errors.push({ field: `${field}[${index}]`, message: hidden });
      return;
    }
    if (!TAG_PATTERN.test(tag)) {
      errors.push({
        field: `${field}[${index}]`,
        message: `"${raw}" is not a valid tag: 1 to 32 of a-z, 0-9, ".", "+", "-", starting with a letter or digit`,
      });
      return;
    }
    seen.add(tag);
  });
  if (seen.size > TAGS_MAX) errors.push({ field, message: `at most ${TAGS_MAX} tags` });
  if (errors.length > 0) throw validationFailed(errors);
  return [...seen];
}

/** A display name, trimmed; refused when it holds characters that hide or reorder text (see display-text). */
export function checkName(name: string): string {
  checkDisplayText('name', name);
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
