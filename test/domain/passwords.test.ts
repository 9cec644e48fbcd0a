import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { weakPasswordProblem } from '../../src/domain/accounts/passwords.js';

const account = { username: 'zorblat', email: 'zorblat.smith@example.com' };

describe('weak passwords', () => {
  it('refuses the most common passwords, whatever their case', () => {
    for (const password of ['password', 'password1', 'PASSWORD1', '12345678', 'qwertyuiop', 'iloveyou', 'Sunshine1', 'trustno1']) {
      assert.match(weakPasswordProblem(password, account) ?? '', /commonly used/, password);
    }
  });

  it('refuses the username or email alone, repeated or with punctuation, in any case', () => {
    for (const password of [
      'zorblat',
      'ZORBLAT',
      'zorblatzorblat',
      'Zorblat!!!',
      'zorblat.zorblat',
      'zorblat.smith',
      'zorblat.smith@example.com',
      'Zorblat.Smith@Example.com',
      '-zorblat-',
    ]) {
      assert.match(weakPasswordProblem(password, account) ?? '', /username or email/, password);
    }
  });

  it('accepts passwords that merely contain the username, and uncommon ones', () => {
    for (const password of [
      'zorblat-walks-the-dog',
      'pw-zorblat-secret',
      'correct horse battery staple',
      'admin-password-1',
      '🔑🔑🔑🔑🔑🔑🔑🔑',
      'Zx9!mQ2#vL',
    ]) {
      assert.equal(weakPasswordProblem(password, account), null, password);
    }
  });
});
