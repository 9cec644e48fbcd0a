import { useParams } from 'react-router-dom';

/**
 * A skill's whole name as a console path: `pdf-tools`, or `@acme/pdf-tools` kept as two readable segments
 * (the routes take `:scope/:slug`). Each segment is encoded; the scope's leading `@` is left as written.
 */
export function namePath(fullName: string): string {
  return fullName
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/^%40/, '@'))
    .join('/');
}

/** The public page of a skill. */
export function skillHref(skill: { full_name: string }, query = ''): string {
  return `/skills/${namePath(skill.full_name)}${query}`;
}

/** The owner's management page of a skill. */
export function manageHref(skill: { full_name: string }, query = ''): string {
  return `/me/skills/${namePath(skill.full_name)}${query}`;
}

export function orgHref(handle: string): string {
  return `/orgs/${encodeURIComponent(handle)}`;
}

/**
 * The skill a route names: `/skills/pdf-tools` or `/skills/@acme/pdf-tools`. What `:skillId` of the API accepts,
 * a whole name or an id.
 */
export function useSkillRef(): string {
  const { scope, slug = '' } = useParams();
  return scope ? `${scope}/${slug}` : slug;
}
