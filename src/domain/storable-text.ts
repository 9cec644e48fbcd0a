/**
 * Text every database stores unchanged. PostgreSQL refuses NUL in text, and a lone UTF-16 surrogate (a JSON
 * string such as "\ud800") cannot be encoded as UTF-8 at all, so PostgreSQL would refuse it and SQLite would
 * keep a replacement character: the registry refuses both up front, for both databases alike.
 */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

export function unstorableProblem(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (found === null) return null;
  return found[0] === '\u0000' ? 'must not contain NUL characters' : 'must not contain lone UTF-16 surrogates (invalid Unicode)';
}

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
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item]) : Object.entries(value);
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
