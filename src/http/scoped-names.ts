/**
 * A scoped skill's name in a path: `/v1/skills/@acme/pdf-tools/versions` as written, which the router would read as
 * two segments. Its scope and slug are joined into one percent-encoded segment (`%40acme%2Fpdf-tools`), the form a
 * client that encodes the name sends, so the routes' `:skillId` receives `@acme/pdf-tools` either way.
 */
const SCOPED_SKILL = /^(\/v1\/(?:admin\/)?skills\/)(?:@|%40)([a-z0-9][a-z0-9_-]{0,99})\/([a-z0-9][a-z0-9-]{0,99})(?=[/?#]|$)/i;

export function joinScopedName(url: string): string {
  return SCOPED_SKILL.test(url) ? url.replace(SCOPED_SKILL, '$1%40$2%2F$3') : url;
}
