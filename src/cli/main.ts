#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { runCommandLine, usage } from '@skill-registry/cli/command-line';
import { ConfigError, loadConfig } from '../config.js';

const SERVER_USAGE = `Server commands:
  serve                         Start the registry (migrations run first)
  migrate                       Bring the database schema up to date and exit
  user create <username> --email <email> [--password <pw> | --password-stdin] [--admin]
                                Create an account (an administrator with --admin)
  migrate-data --from <db> --to <db> [--blobs-from <dir|url> --blobs-to <url>]
                                Copy every row and package to new storage, verified (--help for details)

Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, ...); see the README.`;

/**
 * The server's commands run here; every other command (the client commands, help, unknown names) is the
 * command line's of @skill-registry/cli, which loads no server configuration and no server code.
 */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
      return runCommandLine(argv, { serverUsage: SERVER_USAGE });
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps the process alive itself and returns only after shutdown.
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
      console.error(`${error.message}\n\n${usage(SERVER_USAGE)}`);
    else console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof ConfigError ? 78 : 1;
  },
);
