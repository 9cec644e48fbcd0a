/**
 * Credentials shipped in the package. A credential-shaped token that is a well-known documentation example
 * (AKIAIOSFODNN7EXAMPLE), a test key (sk_test_…) or an obvious placeholder is reported as
 * `secret.example-credential` (low) instead. A private key counts only when key material follows its header on
 * the same or the next line; `-----BEGIN … PRIVATE KEY-----` followed by `...` or `<your key>` is a placeholder.
 * Secrets weigh the same in every context: a key in a code block is as published as one in a script. A live
 * credential is `critical`: the version is quarantined so the registry does not hand the key to everyone who
 * downloads it, until the publisher has revoked it and uploads a version without it.
 */
import { severityOf } from './catalogue.js';
import { anyOf } from './alternation.js';
import type { LineInput } from './file-state.js';
import { report } from './report.js';
import { isPlaceholderSecret, SECRET_PATTERNS } from './secret-patterns.js';

const PRIVATE_KEY = /-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP |SSH2 )?PRIVATE KEY(?: BLOCK)?)-----/;
const KEY_BODY = /^[\s"'`]*(?:[A-Za-z0-9+/]{40,}|Proc-Type:|Comment:|Version:)/;
/**
 * Whether a line holds any credential shape, asked at once (by case) before each is looked for: a line is anchored for
 * them by common words (`npm`, `aws`, `sk`, `pat`), and a dozen passes over each such line cost more than one.
 */
const ANY_SECRET = [true, false].map((ignoreCase) =>
  anyOf(SECRET_PATTERNS.filter(({ pattern }) => pattern.ignoreCase === ignoreCase).map(({ pattern }) => pattern)),
);

export function scanSecrets(input: LineInput, pending: { key: { line: number; text: string; index: number } | null }): void {
  const { text } = input;
  if (pending.key !== null) {
    const key = pending.key;
    pending.key = null;
    reportKey(input, key, KEY_BODY.test(text));
  }
  const key = PRIVATE_KEY.exec(text);
  if (key !== null) {
    // Keys written on one line (JSON strings with \n escapes) carry their body after the header.
    const rest = text.slice(key.index + key[0].length).replace(/^(?:\\r)?\\n/, '');
    if (rest.trim() !== '') reportKey(input, { line: input.line, text, index: key.index }, KEY_BODY.test(rest));
    else {
      pending.key = { line: input.line, text, index: key.index };
      input.file.examineNext = true;
    }
  }
  if (!ANY_SECRET.some((shapes) => shapes.test(text))) return;
  for (const { rule, pattern, group } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    const m = pattern.exec(text);
    if (m === null) continue;
    const token = group === undefined ? m[0] : (m[group] ?? m[0]);
    const example = isPlaceholderSecret(token) || (rule === 'secret.stripe-key' && token.includes('_test_'));
    if (example) report(input, 'secret.example-credential', severityOf('secret.example-credential'), m.index, m[0].length);
    else report(input, rule, severityOf(rule), m.index, m[0].length);
  }
}

function reportKey(input: LineInput, key: { line: number; text: string; index: number }, hasBody: boolean): void {
  const rule = hasBody ? 'secret.private-key' : 'secret.example-credential';
  input.file.report({
    rule,
    severity: severityOf(rule),
    line: key.line,
    context: input.context,
    text: key.text,
    index: key.index,
    length: Math.min(key.text.length - key.index, 64),
  });
}

/** A header on the file's last line: there is no body, so it is a placeholder. */
export function finishSecrets(input: LineInput | null, pending: { key: { line: number; text: string; index: number } | null }): void {
  if (pending.key !== null && input !== null) reportKey({ ...input, line: pending.key.line }, pending.key, false);
  pending.key = null;
}
