/**
 * The shape of an id, apart from how ids are made (ids.ts draws on node:crypto), so that rules depending on
 * it (a slug may not look like an id) can run in the web console too.
 */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function looksLikeId(value: string): boolean {
  return UUID_SHAPE.test(value);
}
