/**
 * The shapes of credentials, from the secret rules' records, shared by the secret rules (which report them) and
 * redaction (which hides them in every excerpt); and what makes a credential-shaped token an example.
 */
import { RULE_RECORDS, type SecretShape } from './catalogue.js';

export interface SecretPattern extends SecretShape {
  rule: string;
}

/** Every credential rule's shapes (catalogue.ts), in the catalogue's order. */
export const SECRET_PATTERNS: readonly SecretPattern[] = RULE_RECORDS.flatMap((r) =>
  (r.shapes ?? []).map((shape) => ({ rule: r.id, ...shape })),
);

/** Words and shapes that mark a credential as a documentation example or a test value rather than a live one. */
const PLACEHOLDER_WORDS = /example|sample|dummy|fake|placeholder|redacted|your|xxxx|0000|1234567890|abcdefgh|_test_/i;

/** Whether a credential-shaped token is a well-known example, a test key or an obvious placeholder. */
export function isPlaceholderSecret(token: string): boolean {
  if (PLACEHOLDER_WORDS.test(token)) return true;
  // Random keys use many distinct characters; `sk-proj-aaaaaaaa…` does not.
  const distinct = new Set(token.slice(Math.min(8, token.length >> 1))).size;
  return distinct < 8;
}
