/** A LIKE pattern matching `text` anywhere, with `%`, `_` and the escape character taken literally. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
