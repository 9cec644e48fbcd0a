/** Hides credentials in text shown to people: the first characters stay, so a reader can tell which key it was. */
import { SECRET_PATTERNS } from './secret-patterns.js';

const KEPT = 4;

function mask(secret: string): string {
  return `${secret.slice(0, KEPT)}…[redacted]`;
}

/** `text` with every credential-shaped token replaced by its first characters and `…[redacted]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const { pattern, group } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    pattern.lastIndex = 0;
    out = out.replace(pattern, (match: string, ...groups: unknown[]) => {
      const part = group === undefined ? match : groups[group - 1];
      return typeof part === 'string' && part !== '' ? match.replace(part, mask(part)) : mask(match);
    });
  }
  return out;
}
