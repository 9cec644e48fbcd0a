import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | null = null;

/** The ~49,000 most common passwords of zxcvbn-ts's list (from leaked password sets), lower-cased. */
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common;
}

/**
 * Why a new password would be among the first an attacker tries, or null when it is not: a common password
 * (case-insensitively), or one made of the account's own username or email and nothing else but punctuation
 * (e.g. "Alice!alice" for alice). Length rules are checked elsewhere (rules.ts).
 */
export function weakPasswordProblem(password: string, account: { username: string; email: string }): string | null {
  const lowered = password.toLowerCase();
  if (commonPasswords().has(lowered)) {
    return 'is one of the most commonly used passwords, which are tried first when accounts are attacked; choose another';
  }
  const email = account.email.toLowerCase();
  const local = email.split('@')[0] ?? '';
  let rest = lowered;
  // Longest first, so the email is removed whole before its local part or the username inside it.
  for (const part of [email, local, account.username.toLowerCase()].filter((p) => p.length > 0).sort((a, b) => b.length - a.length)) {
    rest = rest.split(part).join('');
  }
  if (rest !== lowered && !/[\p{L}\p{N}]/u.test(rest)) {
    return 'must not be your username or email (anyone who knows the account knows them); choose another';
  }
  return null;
}
