import { validationFailed, type FieldError } from './errors.js';

export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9_-]{1,38}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export interface NewAccount {
  username: string;
  email: string;
  password: string;
}

/** Checks every field of a new account and reports all problems at once. */
export function checkNewAccount(input: NewAccount): NewAccount {
  const errors: FieldError[] = [];
  const username = input.username.trim();
  const email = input.email.trim();
  if (!USERNAME_PATTERN.test(username)) {
    errors.push({
      field: 'username',
      message: '2 to 39 characters: lower-case letters, digits, "_" and "-", starting with a letter or digit',
    });
  }
  if (email.length > 320 || !EMAIL_PATTERN.test(email) || (!email.split('@')[1]!.includes('.') && !email.endsWith('@localhost'))) {
    errors.push({ field: 'email', message: 'must be an email address like name@example.com' });
  }
  if ([...input.password].length < PASSWORD_MIN) errors.push({ field: 'password', message: `must be at least ${PASSWORD_MIN} characters` });
  if (input.password.length > PASSWORD_MAX) errors.push({ field: 'password', message: `must be at most ${PASSWORD_MAX} characters` });
  if (errors.length > 0) throw validationFailed(errors);
  return { username, email, password: input.password };
}
