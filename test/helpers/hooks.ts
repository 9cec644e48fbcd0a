/**
 * What a before() hook assigns, as after() sees it: node:test runs after() even when before() failed, so the
 * value may never have been set, whatever its variable's type says.
 */
export function ifSet<T>(value: T): T | undefined {
  return value;
}
