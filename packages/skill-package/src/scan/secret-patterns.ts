/**
 * The shapes of credentials, shared by the secret rules (which report them) and redaction (which hides them in
 * every excerpt). Each pattern starts with a literal prefix and uses only bounded or single character classes,
 * so matching is linear in the line's length.
 */

export interface SecretPattern {
  rule: string;
  /** Global, so a line can hold several. */
  pattern: RegExp;
  /** The part of a match that is the secret itself (a capture group), when it is not the whole match. */
  group?: number;
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { rule: 'secret.aws-access-key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Za-z])/g },
  {
    rule: 'secret.aws-secret-key',
    pattern: /aws_?secret_?access_?key["']?\s{0,4}[:=]\s{0,4}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    group: 1,
  },
  { rule: 'secret.github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g },
  { rule: 'secret.gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20}/g },
  { rule: 'secret.slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,250}/g },
  { rule: 'secret.slack-token', pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{16,32}/g },
  {
    rule: 'secret.openai-key',
    pattern: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})/g,
  },
  { rule: 'secret.anthropic-key', pattern: /\bsk-ant-(?:api|admin|oat)\d\d-[A-Za-z0-9_-]{20,250}/g },
  { rule: 'secret.google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { rule: 'secret.stripe-key', pattern: /\b[sr]k_(?:live|test)_[0-9a-zA-Z]{16,250}/g },
  { rule: 'secret.npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { rule: 'secret.huggingface-token', pattern: /\bhf_[A-Za-z0-9]{34}(?![A-Za-z0-9])/g },
];

/** Words and shapes that mark a credential as a documentation example or a test value rather than a live one. */
const PLACEHOLDER_WORDS = /example|sample|dummy|fake|placeholder|redacted|your|xxxx|0000|1234567890|abcdefgh|_test_/i;

/** Whether a credential-shaped token is a well-known example, a test key or an obvious placeholder. */
export function isPlaceholderSecret(token: string): boolean {
  if (PLACEHOLDER_WORDS.test(token)) return true;
  // Random keys use many distinct characters; `sk-proj-aaaaaaaa…` does not.
  const distinct = new Set(token.slice(Math.min(8, token.length >> 1))).size;
  return distinct < 8;
}
