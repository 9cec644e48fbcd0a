import type { RegistryClient } from '@skill-registry/client';
import { CliError, EXIT, usageError } from './exit-codes.js';
import type { Io } from './io.js';
import { readSecret } from './prompt.js';
import { clientFor, type Target } from './registry.js';

/**
 * Runs `work` with a client signed in as `username` by password: for the endpoints the registry keeps to
 * sessions (API-key management), which an API key may not call. The password comes from SKILL_REGISTRY_PASSWORD,
 * else the terminal (not echoed), else the first line of stdin. The session is ended afterwards.
 */
export async function withSession<T>(
  io: Io,
  target: Target,
  username: string | undefined,
  work: (client: RegistryClient) => Promise<T>,
): Promise<T> {
  const login = username ?? target.username ?? undefined;
  if (login === undefined) {
    throw usageError('Give the account to sign in as with --username (managing API keys needs a password sign-in, not an API key).');
  }
  const password = io.env.SKILL_REGISTRY_PASSWORD || (await readSecret(io, `Password for ${login} at ${target.registry}: `));
  if (password === '') throw new CliError('No password given.', EXIT.auth);
  const client = clientFor(target, { apiKey: null });
  await client.auth.login({ login, password });
  try {
    return await work(client);
  } finally {
    await client.auth.logout().catch(() => {
      // The session expires on its own; failing to end it early must not hide the command's own outcome.
    });
  }
}
