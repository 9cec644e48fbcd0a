import { hostname } from 'node:os';
import type { Me } from '@skill-registry/client';
import { COMMON_HELP, parse, type Command } from '../command.js';
import { saveConfig } from '../config-store.js';
import { EXIT, usageError } from '../exit-codes.js';
import { Output } from '../output.js';
import { readSecret } from '../prompt.js';
import { clientFor, resolveTarget, type Target } from '../registry.js';
import { withSession } from '../session.js';

function describeAuth(me: Me): string {
  const how = me.auth.kind === 'api_key' ? 'an API key' : 'a session';
  const scopes = me.auth.scopes.length > 0 ? me.auth.scopes.join(', ') : 'none (read-only)';
  return `${how}, scopes: ${scopes}`;
}

async function store(target: Target, apiKey: string, me: Me): Promise<void> {
  target.config.registry = target.registry;
  target.config.credentials[target.registry] = {
    api_key: apiKey,
    username: me.user.username,
    api_key_id: me.auth.api_key_id,
    saved_at: new Date().toISOString(),
  };
  await saveConfig(target.configFile, target.config);
}

export const login: Command = {
  name: 'login',
  summary: 'store an API key for a registry (checked first)',
  help: `Usage: skill-registry login [--registry URL] [--username NAME] [--json]

Checks an API key with GET /v1/me and stores it, with the registry's address, in the configuration file
($XDG_CONFIG_HOME/skill-registry/config.json, else ~/.config/skill-registry/config.json; mode 0600).
The key is asked for at the terminal (not echoed), or read from the first line of stdin:

  echo "$SKILL_KEY" | skill-registry login --registry https://skills.example.com

  --username NAME  sign in with the account's password instead (SKILL_REGISTRY_PASSWORD, the terminal, or
                   stdin), create an API key with the skill:upload scope for this machine, and store it

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, { username: { type: 'string' } });
    if (positionals.length > 0) throw usageError(`login takes no arguments (got ${positionals.join(' ')}).`);
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);

    let apiKey: string;
    if (values.username !== undefined) {
      const created = await withSession(io, target, values.username, (client) =>
        client.me.apiKeys.create({ name: `skill-registry CLI on ${hostname()}`.slice(0, 100), scopes: ['skill:upload'] }),
      );
      apiKey = created.key;
    } else {
      apiKey = await readSecret(io, `API key for ${target.registry}: `);
      if (apiKey === '') throw usageError('No API key given. Create one in the registry (or use --username) and paste it here.');
    }
    const me = await clientFor(target, { apiKey }).me.get();
    await store(target, apiKey, me);
    out.result({ registry: target.registry, user: me.user, auth: me.auth, config_file: target.configFile }, () => [
      `Logged in to ${target.registry} as ${me.user.username} (${describeAuth(me)}).`,
      `The key is stored in ${target.configFile}.`,
    ]);
    return EXIT.ok;
  },
};

export const logout: Command = {
  name: 'logout',
  summary: 'forget the API key stored for a registry',
  help: `Usage: skill-registry logout [--registry URL] [--json]

Removes the API key stored for the registry from the configuration file. The key itself stays valid until
it is revoked (skill-registry keys revoke <id>).

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    if (positionals.length > 0) throw usageError(`logout takes no arguments (got ${positionals.join(' ')}).`);
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);
    const stored = target.config.credentials[target.registry];
    if (stored !== undefined) {
      // The stored credentials are a plain JSON object, written back as it is.
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
      delete target.config.credentials[target.registry];
      await saveConfig(target.configFile, target.config);
    }
    if (io.env.SKILL_REGISTRY_TOKEN) out.warn('SKILL_REGISTRY_TOKEN is set; commands keep using it.');
    out.result({ registry: target.registry, logged_out: stored !== undefined, api_key_id: stored?.api_key_id ?? null }, () =>
      stored === undefined
        ? `Not logged in to ${target.registry}; nothing to do.`
        : `Logged out of ${target.registry}. The key${stored.api_key_id ? ` ${stored.api_key_id}` : ''} stays valid until it is revoked.`,
    );
    return EXIT.ok;
  },
};

export const whoami: Command = {
  name: 'whoami',
  summary: 'show who the credentials belong to',
  help: `Usage: skill-registry whoami [--registry URL] [--json]

Asks the registry (GET /v1/me) who the API key in use belongs to.

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    if (positionals.length > 0) throw usageError(`whoami takes no arguments (got ${positionals.join(' ')}).`);
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);
    const me = await clientFor(target, { authenticated: true }).me.get();
    out.result(
      { registry: target.registry, user: me.user, auth: me.auth, credentials: target.apiKeySource },
      () =>
        `${me.user.username}${me.user.role === 'admin' ? ' (admin)' : ''} at ${target.registry}, with ${describeAuth(me)}${
          target.apiKeySource === 'SKILL_REGISTRY_TOKEN' ? ' from SKILL_REGISTRY_TOKEN' : ''
        }.`,
    );
    return EXIT.ok;
  },
};
