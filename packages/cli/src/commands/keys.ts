import type { Scope } from '@skill-registry/client';
import { COMMON_HELP, integerOption, parse, type Command } from '../command.js';
import { EXIT, usageError } from '../exit-codes.js';
import { formatTime, Output, table } from '../output.js';
import { resolveTarget } from '../registry.js';
import { withSession } from '../session.js';

const SCOPES: readonly Scope[] = ['skill:upload'];
const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

export const keys: Command = {
  name: 'keys',
  summary: 'create, list and revoke API keys',
  help: `Usage: skill-registry keys list [options]
       skill-registry keys create NAME [--scope skill:upload] [--expires-days N] [options]
       skill-registry keys revoke KEY_ID [options]

Manages your API keys. The registry accepts these calls from a signed-in session only (an API key cannot mint
more keys), so each asks for your password: from SKILL_REGISTRY_PASSWORD, the terminal (not echoed), or the first
line of stdin. The new key's secret is printed once.

  --username NAME    the account (default: the one stored by login)
  --scope SCOPE      with create: a scope to grant (skill:upload lets the key create skills and upload
                     versions); without it the key can only read your account and logs
  --expires-days N   with create: the key expires after N days (1 to 3650; default: never)

${COMMON_HELP}`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      username: { type: 'string' },
      scope: { type: 'string', multiple: true },
      'expires-days': { type: 'string' },
    });
    const [action, argument, ...extra] = positionals;
    if (extra.length > 0) throw usageError(`Too many arguments: ${extra.join(' ')}`);
    const out = new Output(io, values.json === true);
    const target = await resolveTarget(io, values.registry);

    switch (action) {
      case 'list': {
        if (argument !== undefined) throw usageError('keys list takes no argument.');
        const result = await withSession(io, target, values.username, (client) => client.me.apiKeys.list());
        out.result(result, () =>
          result.items.length === 0
            ? 'No API keys.'
            : table(
                ['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'EXPIRES'],
                result.items.map((k) => [
                  k.id,
                  k.name,
                  `${k.prefix}…`,
                  k.scopes.join(',') || '-',
                  formatTime(k.created_at),
                  formatTime(k.last_used_at),
                  formatTime(k.expires_at),
                ]),
              ),
        );
        return EXIT.ok;
      }
      case 'create': {
        if (argument === undefined) throw usageError('Name the key: skill-registry keys create NAME');
        const requested = values.scope ?? [];
        const unknown = requested.find((s) => !isScope(s));
        if (unknown !== undefined) throw usageError(`Unknown scope ${JSON.stringify(unknown)}; the scopes are ${SCOPES.join(', ')}.`);
        const scopes = [...new Set(requested.filter(isScope))];
        const expires = integerOption('expires-days', values['expires-days'], 1, 3650);
        const created = await withSession(io, target, values.username, (client) =>
          client.me.apiKeys.create({ name: argument, scopes, expires_in_days: expires }),
        );
        out.result(created, () => [
          `Created API key ${created.id} (${created.name}), scopes: ${created.scopes.join(', ') || 'none'}${created.expires_at ? `, expires ${formatTime(created.expires_at)}` : ''}.`,
          'The secret is shown only now:',
          created.key,
        ]);
        return EXIT.ok;
      }
      case 'revoke': {
        if (argument === undefined) throw usageError('Name the key to revoke by its id: skill-registry keys revoke KEY_ID');
        await withSession(io, target, values.username, (client) => client.me.apiKeys.revoke(argument));
        out.result({ revoked: argument }, () => `Revoked API key ${argument}.`);
        return EXIT.ok;
      }
      default:
        throw usageError(
          action === undefined
            ? 'Say what to do: keys list, keys create NAME or keys revoke KEY_ID.'
            : `Unknown keys action ${JSON.stringify(action)}; use list, create or revoke.`,
        );
    }
  },
};
