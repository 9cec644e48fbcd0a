#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { runCommandLine, usage } from '@skill-registry/cli/command-line';
import { ConfigError, loadConfig } from '../config.js';
import { VERSION } from '../version.js';

const SERVER_USAGE = `Server commands:
  serve                         Start the registry (migrations run first)
  migrate                       Bring the database schema up to date and exit
  user create <username> --email <email> [--password <pw> | --password-stdin] [--admin]
                                Create an account (an administrator with --admin)
  migrate-data --from <db> --to <db> [--blobs-from <dir|url> --blobs-to <url>]
                                Copy every row and package to new storage, verified (--help for details)

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...); see the README.`;

const CONFIGURATION = `Configuration comes from the environment: PORT, HOST, DATA_DIR, DATABASE_URL, STORAGE_URL, ADMIN_USERNAME,
ADMIN_PASSWORD and more (the README lists them all).`;

/** Each server command's own help, shown by `<command> --help` without reading any configuration. */
const SERVER_HELP: Record<string, string> = {
  serve: `Usage: skill-registry serve

Brings the database schema up to date, then serves the API and the web console (http://127.0.0.1:3000 by default)
until SIGINT or SIGTERM, when it finishes the requests in flight and writes what it holds before exiting.

${CONFIGURATION}`,
  migrate: `Usage: skill-registry migrate

Brings the database schema up to date (DATABASE_URL, or SQLite under DATA_DIR) and exits.

${CONFIGURATION}`,
  user: `Usage: skill-registry user create <username> --email <email> [--password-stdin | --password <pw>] [--admin]

Creates an account directly in the database, without a running server: the first administrator, or accounts when
registration is closed.

  --email EMAIL        the account's email address (required)
  --password-stdin     read the password from the first line of standard input (recommended)
  --password PW        the password on the command line (visible to other users of this machine)
  --admin              make the account an administrator

SKILL_REGISTRY_PASSWORD is read when neither password option is given.

${CONFIGURATION}`,
};

/**
 * The server's commands run here; every other command (the client commands, help, unknown names) is the
 * command line's of @skill-registry/cli, which loads no server configuration and no server code.
 */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const help = command === undefined ? undefined : SERVER_HELP[command];
  if (help !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(help);
    return 0;
  }
  if (command === 'help' && rest[0] !== undefined && SERVER_HELP[rest[0]] !== undefined) {
    console.log(SERVER_HELP[rest[0]]);
    return 0;
  }
  switch (command) {
    case 'serve': {
      const config = loadConfig();
      parseArgs({ args: rest, options: {}, strict: true });
      return (await import('./serve.js')).runServe(config);
    }
    case 'migrate': {
      const config = loadConfig();
      parseArgs({ args: rest, options: {}, strict: true });
      return (await import('./migrate.js')).runMigrate(config);
    }
    case 'user':
      return (await import('./user.js')).runUserCommand(loadConfig(), rest);
    case 'migrate-data':
      return (await import('./migrate-data.js')).runMigrateData(loadConfig(), rest);
    default:
      return runCommandLine(argv, { serverUsage: SERVER_USAGE, version: `skill-registry ${VERSION} (server and client commands)` });
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps the process alive itself and returns only after shutdown.
    process.exitCode = code;
  },
  (error: unknown) => {
    const badArguments = error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
    if (error instanceof ConfigError) console.error(error.message);
    else if (badArguments) console.error(`${error.message}\n\n${SERVER_HELP[process.argv[2] ?? ''] ?? usage(SERVER_USAGE)}`);
    else console.error(error instanceof Error ? error.message : error);
    // 2 for a bad command line, as the client commands answer it.
    process.exitCode = error instanceof ConfigError ? 78 : badArguments ? 2 : 1;
  },
);
