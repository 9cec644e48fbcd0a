import { unstorableProblem } from '@skill-registry/skill-package/rules';

// Text every database stores unchanged: the rule is shared with the command line, which checks before uploading.
export { unstorableProblem };

/**
 * The first string (or object key) in a JSON value that cannot be stored, as a field path like `metadata.a.b` and
 * the reason; null when all of it can. Nesting beyond `maxDepth` is not looked at.
 */
export function findUnstorable(value: unknown, field: string, maxDepth = 32): { field: string; message: string } | null {
  if (typeof value === 'string') {
    const message = unstorableProblem(value);
    return message === null ? null : { field, message };
  }
  if (maxDepth <= 0 || typeof value !== 'object' || value === null) return null;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item]) : Object.entries(value);
  for (const [key, inner] of entries) {
    const path = key.startsWith('[') ? `${field}${key}` : field === '' ? key : `${field}.${key}`;
    if (!key.startsWith('[')) {
      const message = unstorableProblem(key);
      if (message !== null) return { field: path, message: `(the key) ${message}` };
    }
    const found = findUnstorable(inner, path, maxDepth - 1);
    if (found !== null) return found;
  }
  return null;
}
