/** Hides credentials in text shown to people: the first characters stay, so a reader can tell which key it was. */
import { SECRET_PATTERNS } from './secret-patterns.js';

const KEPT = 4;

function mask(secret: string): string {
  return `${secret.slice(0, KEPT)}…[redacted]`;
}

/** Token characters: a pattern may match a key's shortest form; the rest of the token is masked with it. */
const TOKEN_CHAR = /[A-Za-z0-9_\-+/=]/;

/** `text` with every credential-shaped token replaced by its first characters and `…[redacted]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const { pattern, group } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    pattern.lastIndex = 0;
    let result = '';
    let at = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(out)) !== null) {
      const part = group === undefined ? m[0] : (m[group] ?? m[0]);
      const start = m.index + m[0].lastIndexOf(part);
      let end = m.index + m[0].length;
      while (end < out.length && TOKEN_CHAR.test(out[end]!)) end += 1;
      result += out.slice(at, start) + mask(out.slice(start, end));
      at = end;
      pattern.lastIndex = end;
    }
    out = result + out.slice(at);
  }
  return out;
}
